"""Once meant to make the fallback cache's table, but it gave ``createcachetable`` the alias "fallback"
where the command takes a table name: it made a table called ``fallback`` and never the one the cache
reads. 0013 makes the right table (and drops that one); this step is kept, doing nothing, for the
migration history."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("classrooms", "0003_class_card_unlocks")]

    operations = [migrations.RunPython(migrations.RunPython.noop, migrations.RunPython.noop)]
