"""manage.py build_reports: queue (or, with --now, run here) report builds; --purge applies the retention."""

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from classrooms.models import Classroom, School
from reports import services
from reports.models import ReportBuild
from reports.tasks import run_build


class Command(BaseCommand):
    help = "Rebuild progress reports: every school, one school or one class; queued for Celery unless --now."

    def add_arguments(self, parser):
        parser.add_argument("--school", type=int, help="only this school (id)")
        parser.add_argument("--class", dest="classroom", type=int, help="only this class (id)")
        parser.add_argument("--now", action="store_true", help="build in this process instead of queueing")
        parser.add_argument(
            "--purge", action="store_true", help="erase facts older than REPORT_RETENTION_DAYS"
        )

    def handle(self, *args, school=None, classroom=None, now=False, purge=False, **options):
        if purge:
            self.stdout.write(f"purged {services.facts_purge_expired()} facts")
            return
        if classroom:
            found = Classroom.objects.filter(pk=classroom).first()
            if found is None:
                raise CommandError(f"no class {classroom}")
            targets = [{"scope": ReportBuild.Scope.CLASSROOM, "school": found.school_id, "classroom": found}]
        else:
            schools = School.objects.filter(pk=school) if school else School.objects.all()
            if school and not schools.exists():
                raise CommandError(f"no school {school}")
            targets = [{"scope": ReportBuild.Scope.SCHOOL, "school": s.pk} for s in schools]
        for target in targets:
            if now:
                build = ReportBuild.objects.create(
                    scope=target["scope"], school_id=target["school"], classroom=target.get("classroom")
                )
                summary = run_build(build)
                ReportBuild.objects.filter(pk=build.pk).update(status=ReportBuild.Status.DONE)
                self.stdout.write(f"built {summary}")
            else:
                with transaction.atomic():
                    build = services.build_request(**target, dedupe=True)
                self.stdout.write(f"queued build {build.pk}")
