"""The database cache table that serves while Redis cannot be reached (config.cache.FailSoftRedisCache):
the one the settings' database caches name (``classplay_cache``). 0004 made a table called ``fallback``
instead, so with Redis down every sign-in failed on a missing table; that stray table is dropped."""

from django.conf import settings
from django.core.management import call_command
from django.db import migrations

DATABASE_CACHE = "django.core.cache.backends.db.DatabaseCache"
#: What 0004 made by mistake; dropped only while it still has a cache table's columns and nothing
#: configured uses that name.
STRAY_TABLE = "fallback"
CACHE_TABLE_COLUMNS = {"cache_key", "value", "expires"}


def _configured_tables() -> set[str]:
    return {cache["LOCATION"] for cache in settings.CACHES.values() if cache["BACKEND"] == DATABASE_CACHE}


def _is_stray_cache_table(connection) -> bool:
    if STRAY_TABLE in _configured_tables():
        return False
    with connection.cursor() as cursor:
        if STRAY_TABLE not in connection.introspection.table_names(cursor):
            return False
        columns = connection.introspection.get_table_description(cursor, STRAY_TABLE)
    return {column.name for column in columns} == CACHE_TABLE_COLUMNS


def create_cache_tables(apps, schema_editor):
    connection = schema_editor.connection
    call_command("createcachetable", database=connection.alias, verbosity=0)  # the tables not there yet
    if _is_stray_cache_table(connection):
        schema_editor.execute(f"DROP TABLE {schema_editor.quote_name(STRAY_TABLE)}")


def drop_cache_tables(apps, schema_editor):
    for table in sorted(_configured_tables()):
        schema_editor.execute(f"DROP TABLE IF EXISTS {schema_editor.quote_name(table)}")


class Migration(migrations.Migration):
    dependencies = [("classrooms", "0013_one_school_per_sign_in_id")]

    operations = [migrations.RunPython(create_cache_tables, drop_cache_tables)]
