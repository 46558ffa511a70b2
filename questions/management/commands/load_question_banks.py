"""``manage.py load_question_banks``: load the shipped banks (questions/data) into the database.

Idempotent: new shipped items are created, changed ones updated, ones no longer shipped deleted, and a
second run changes nothing. Teachers' own items are never touched. Every registered kind is loaded
(questions.kinds), each from its own folder.
"""

from pathlib import Path

from django.core.management.base import BaseCommand

from questions.kinds import names
from questions.selectors import shipped_bank_summary
from questions.services import shipped_banks_load


class Command(BaseCommand):
    help = f"Load the shipped question banks ({', '.join(names())}) into the database."

    def add_arguments(self, parser):
        parser.add_argument(
            "--data-dir",
            type=Path,
            default=None,
            help="Folder holding the bank files (default questions/data).",
        )

    def handle(self, *args, data_dir: Path | None, **options):
        results = shipped_banks_load(data_dir=data_dir)
        for kind, result in results.items():
            self.stdout.write(
                f"{kind}: {result.created} created, {result.updated} updated, "
                f"{result.deleted} deleted, {result.unchanged} unchanged"
            )
        self.stdout.write("The shipped banks now hold:")
        for line in shipped_bank_summary(data_dir):
            self.stdout.write(f"  {line}")
