"""A paused table no longer keeps a computer's move due (the clock finds the due tables by their
``bot_due`` and ``deadline`` indexes alone, without the sessions): clear it on those paused before."""

from django.db import migrations


def clear_due_moves_of_paused_tables(apps, schema_editor):
    GameTable = apps.get_model("games", "GameTable")
    GameTable.objects.filter(status="playing").exclude(session__status="running").update(
        bot_due=None, deadline=None
    )
    GameTable.objects.exclude(status="playing").update(bot_due=None, deadline=None)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_shared_state_parts"),
    ]

    operations = [
        migrations.RunPython(clear_due_moves_of_paused_tables, migrations.RunPython.noop),
    ]
