"""``manage.py backup_database``: one checked backup of the PostgreSQL database into BACKUP_DIR, keeping
the newest BACKUP_KEEP (the nightly deploy/systemd/classplay-backup.timer runs it; docs/deploy.md)."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from classrooms import backups


class Command(BaseCommand):
    help = "Back up the database (pg_dump, checked with pg_restore --list) and keep the newest BACKUP_KEEP."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dir", type=Path, help="the folder (default: the BACKUP_DIR setting)")
        parser.add_argument("--keep", type=int, help="backups to keep (default: the BACKUP_KEEP setting)")

    def handle(self, *args, **options):
        folder = options["dir"] or Path(settings.BACKUP_DIR)
        keep = settings.BACKUP_KEEP if options["keep"] is None else options["keep"]
        try:
            target = backups.target_from(connection.settings_dict)
            written = backups.backup(target, folder, keep=keep)
        except backups.BackupError as error:
            raise CommandError(str(error)) from None
        size = written.stat().st_size
        kept = len(backups.backups_in(folder, target))
        self.stdout.write(f"Backed up {target.name} to {written} ({size} bytes); {kept} backup(s) kept.")
