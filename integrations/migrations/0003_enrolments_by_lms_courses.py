"""Enrolments made before ``Enrolment.source`` existed: one of a student the LMS platform knows, in a class
an LMS course of that platform launches into, is marked as that course's, so its roster sync goes on
taking the student off when they leave the course (as it did); any other stays the teacher's."""

from django.db import migrations


def mark_lms_enrolments(apps, schema_editor):
    CourseLink = apps.get_model("integrations", "CourseLink")
    PersonLink = apps.get_model("integrations", "PersonLink")
    Enrolment = apps.get_model("classrooms", "Enrolment")
    for course in CourseLink.objects.all():
        linked = PersonLink.objects.filter(platform_id=course.platform_id, student__isnull=False)
        Enrolment.objects.filter(
            classroom_id=course.classroom_id, source="", student_id__in=linked.values("student_id")
        ).update(source=f"lti:{course.pk}")


class Migration(migrations.Migration):
    dependencies = [
        ("integrations", "0002_resource_link_assignment"),
        ("classrooms", "0012_enrolment_source"),
    ]

    operations = [migrations.RunPython(mark_lms_enrolments, migrations.RunPython.noop)]
