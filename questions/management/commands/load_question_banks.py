"""``manage.py load_question_banks``: load the shipped banks (questions/data) into the database.

Idempotent: new shipped items are created, changed ones updated, ones no longer shipped deleted, and a
second run changes nothing. Teachers' own items are never touched.
"""

from pathlib import Path

from django.core.management.base import BaseCommand

from questions.services import DATA_DIR, shipped_banks_load


class Command(BaseCommand):
    help = "Load the shipped question banks (Line Up!, Word Up, Mind the Lines) into the database."

    def add_arguments(self, parser):
        parser.add_argument("--data-dir", type=Path, default=DATA_DIR, help="Folder holding the bank files.")

    def handle(self, *args, data_dir: Path, **options):
        results = shipped_banks_load(data_dir=data_dir)
        for kind, result in results.items():
            self.stdout.write(
                f"{kind}: {result.created} created, {result.updated} updated, "
                f"{result.deleted} deleted, {result.unchanged} unchanged"
            )
