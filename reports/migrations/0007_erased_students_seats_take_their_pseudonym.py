"""The seats of students whose learning data was erased before seats kept a pseudonym
(``games.Participant.pseudonym``) take the name their tables give them since the erasure ("Student 2"),
so the pages of those games no longer show the student's name from the roster. Seats taken after the
erasure keep the student's name."""

from django.conf import settings
from django.db import migrations
from django.utils import translation


def name_erased_students_seats(apps, schema_editor):
    DataErasure = apps.get_model("reports", "DataErasure")
    Participant = apps.get_model("games", "Participant")
    GameTable = apps.get_model("games", "GameTable")
    TableLogEntry = apps.get_model("games", "TableLogEntry")
    erased_at = dict(DataErasure.objects.order_by("erased_at").values_list("student_id", "erased_at"))
    seats = Participant.objects.filter(student_id__in=list(erased_at), pseudonym="")
    with translation.override(settings.LANGUAGE_CODE):
        anonymous = translation.gettext("A student")
    named = []
    for seat in seats.only("pk", "student_id", "joined_at", "table_id", "player_id"):
        if seat.joined_at > erased_at[seat.student_id]:
            continue
        name = ""
        if seat.table_id is not None:
            config = GameTable.objects.filter(pk=seat.table_id).values_list("config", flat=True).first() or {}
            joined = TableLogEntry.objects.filter(table_id=seat.table_id, kind="join").values_list(
                "action", flat=True
            )
            entries = [*config.get("players", []), *(info or {} for info in joined)]
            name = next((str(e.get("name") or "") for e in entries if e.get("id") == seat.player_id), "")
        seat.pseudonym = name[:40] or anonymous
        named.append(seat)
    Participant.objects.bulk_update(named, ["pseudonym"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("reports", "0006_items_split_live_and_homework"),
        ("games", "0011_erased_students_seats_keep_their_pseudonym"),
    ]

    operations = [
        migrations.RunPython(name_erased_students_seats, migrations.RunPython.noop),
    ]
