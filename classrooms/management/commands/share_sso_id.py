from django.core.management.base import BaseCommand, CommandError

from classrooms import services
from classrooms.models import School


class Command(BaseCommand):
    help = (
        "Say which schools sign in with a Clever district or ClassLink tenant id. A school admin can claim "
        "an id no other school holds; only this command shares one between schools (one district of "
        "several schools) or moves it. The first --school holds it as its own, the others share it, and "
        "any other school that held it loses it. One --school alone assigns or moves the id to it."
    )

    def add_arguments(self, parser):
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--clever-district", metavar="ID", help="a Clever district id")
        which.add_argument("--classlink-tenant", metavar="ID", help="a ClassLink tenant id")
        parser.add_argument(
            "--school",
            action="append",
            required=True,
            metavar="SCHOOL",
            help="a school's id (as in the Django admin) or its exact name; repeat for each school",
        )

    def handle(self, *args, **options):
        if options["clever_district"] is not None:
            field, label, value = "clever_district_id", "Clever district", options["clever_district"]
        else:
            field, label, value = "classlink_tenant_id", "ClassLink tenant", options["classlink_tenant"]
        if not value.strip():
            raise CommandError(f"Name the {label} id.")
        schools = [self._school(name) for name in options["school"]]
        taken_from = services.sign_in_id_share(field=field, value=value, schools=schools)
        owner, *sharers = list({school.pk: school for school in schools}.values())
        line = f"{label} {value.strip()!r}: {owner} (id {owner.pk}) holds it"
        if sharers:
            line += ", shared with " + ", ".join(f"{school} (id {school.pk})" for school in sharers)
        self.stdout.write(line + ".")
        for school in taken_from:
            self.stdout.write(f"Taken from {school} (id {school.pk}).")

    def _school(self, name: str) -> School:
        found = School.objects.filter(pk=int(name)) if name.isdigit() else School.objects.filter(name=name)
        schools = list(found[:2])
        if len(schools) != 1:
            problem = "No school" if not schools else "More than one school"
            raise CommandError(f"{problem} matches {name!r}: give the school's id (as in the Django admin).")
        return schools[0]
