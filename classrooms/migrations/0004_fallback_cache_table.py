"""The database cache table that serves while Redis cannot be reached (config.cache.FailSoftRedisCache)."""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", "fallback", database=schema_editor.connection.alias, verbosity=0)


def drop_cache_table(apps, schema_editor):
    schema_editor.execute("DROP TABLE IF EXISTS classplay_cache")


class Migration(migrations.Migration):
    dependencies = [("classrooms", "0003_class_card_unlocks")]

    operations = [migrations.RunPython(create_cache_table, drop_cache_table)]
