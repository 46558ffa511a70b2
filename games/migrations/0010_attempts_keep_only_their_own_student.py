"""A homework attempt is its own student's alone, and a classmate's join of one is refused now. Before, a
classmate could join any attempt of their class: the rows those joins left are removed, so that the
classmate's homework (their Start, their attempts counted) is theirs again. An attempt's own seat is its
first, written with it."""

from django.db import migrations
from django.db.models import F, OuterRef, Subquery


def remove_rows_of_others_in_attempts(apps, schema_editor):
    Participant = apps.get_model("games", "Participant")
    first = Participant.objects.filter(session=OuterRef("session")).order_by("pk").values("pk")[:1]
    others = (
        Participant.objects.filter(session__assignment__isnull=False)
        .alias(own=Subquery(first))
        .exclude(pk=F("own"))
    )
    Participant.objects.filter(pk__in=list(others.values_list("pk", flat=True))).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_paused_tables_have_no_computer_move_due"),
    ]

    operations = [
        migrations.RunPython(remove_rows_of_others_in_attempts, migrations.RunPython.noop),
    ]
