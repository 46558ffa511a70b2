"""``manage.py restore_database FILE``: a backup into the database the settings name (DATABASE_URL), as
its role, all or nothing. It must be empty unless --overwrite is given (docs/deploy.md, "Restore")."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from classrooms import backups


class Command(BaseCommand):
    help = "Restore a backup from backup_database into the (empty) database DATABASE_URL names."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="a .dump file written by backup_database")
        parser.add_argument(
            "--overwrite", action="store_true", help="drop every table of a database that is not empty first"
        )

    def handle(self, *args, **options):
        try:
            target = backups.target_from(connection.settings_dict)
            backups.restore(target, options["file"], connection=connection, overwrite=options["overwrite"])
        except backups.BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Restored {options['file']} into {target.name}.")
        executor = MigrationExecutor(connection)
        waiting = executor.migration_plan(executor.loader.graph.leaf_nodes())
        if waiting:
            self.stdout.write(
                f"The backup is older than this code: run `manage.py migrate` ({len(waiting)} migrations)."
            )
