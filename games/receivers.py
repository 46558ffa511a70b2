"""A student deleted from the school leaves no name in the game records: their tables are pseudonymised
first (the records keep no link to the student row that would let them be found afterwards)."""

from django.db.models.signals import pre_delete
from django.dispatch import receiver

from classrooms.models import Student

from . import services


@receiver(pre_delete, sender=Student, dispatch_uid="games.student_deleted")
def student_deleted(sender, instance: Student, **kwargs) -> None:
    services.student_pseudonymise(student=instance)
