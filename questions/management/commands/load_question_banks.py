"""``manage.py load_question_banks``: load the shipped banks (questions/data) into the database.

Idempotent: new shipped items are created, changed ones updated, ones no longer shipped deleted, and a
second run changes nothing. Teachers' own items are never touched.
"""

from pathlib import Path

from django.core.management.base import BaseCommand

from questions.selectors import shipped_bank_summary
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
        self.print_summary(shipped_bank_summary(data_dir))

    def print_summary(self, summary: dict) -> None:
        lineup, wordup = summary["lineup"], summary["wordup"]
        self.stdout.write("The shipped banks now hold:")
        self.stdout.write(
            f"  Line Up!: {lineup['total']} questions in {len(lineup['subjects'])} subjects "
            f"({_listed(lineup['subjects'])}); {_listed(lineup['levels'], 'level ')}"
        )
        self.stdout.write(f"  Line Up! in each language: {_listed(lineup['editions'])}")
        self.stdout.write(
            f"  Word Up: {wordup['total']} questions; {_listed(wordup['levels'], 'level ')}; "
            f"{_listed(wordup['categories'])}"
        )
        for language, decks in summary["concepts"].items():
            self.stdout.write(
                f"  Mind the Lines ({language}): {sum(decks.values())} concepts ({_listed(decks.items())})"
            )


def _listed(counts, prefix: str = "") -> str:
    return ", ".join(f"{prefix}{name}: {count}" for name, count in counts)
