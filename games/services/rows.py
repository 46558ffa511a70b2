"""The two statements every move makes (the table's new state, the log's new entry), built once per
process and run with the fields' own preparation, as the ORM would run them.

``Model.save`` and ``QuerySet.create`` build their SQL anew on every call: with a thousand homework
games that was a fifth of a web process's time and two fifths of the clock's (docs/performance.md).
Each value still goes through its field's ``pre_save`` and ``get_db_prep_save``, so ``updated_at``,
``created_at``, JSON and the shared parts of a state (``games.fields.StateField``) are stored exactly
as the ORM stores them."""

from __future__ import annotations

from functools import cache

from django.db import DatabaseError, connections, router

from ..models import GameTable, TableLogEntry

#: What a move changes on the table row.
TABLE_FIELDS = ("state", "seq", "deadline", "bot_due", "status", "outcome", "updated_at")


@cache
def _table_update(alias: str) -> tuple[str, list]:
    quote = connections[alias].ops.quote_name
    meta = GameTable._meta
    by_name = {field.name: field for field in meta.concrete_fields}
    fields = [by_name[name] for name in TABLE_FIELDS]
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in fields)
    return f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote('id')} = %s", fields


@cache
def _entry_insert(alias: str) -> tuple[str, list, bool]:
    connection = connections[alias]
    quote = connection.ops.quote_name
    meta = TableLogEntry._meta
    fields = [field for field in meta.concrete_fields if not field.primary_key]
    columns = ", ".join(quote(field.column) for field in fields)
    placeholders = ", ".join(["%s"] * len(fields))
    returning = connection.features.can_return_columns_from_insert
    sql = f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({placeholders})"
    if returning:
        sql += f" RETURNING {quote('id')}"
    return sql, fields, returning


def table_update(table: GameTable) -> None:
    """Store what a move changes on the (locked) table row: ``table.save(update_fields=TABLE_FIELDS)``."""
    alias = router.db_for_write(GameTable, instance=table)
    connection = connections[alias]
    sql, fields = _table_update(alias)
    values = [field.get_db_prep_save(field.pre_save(table, False), connection) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*values, table.pk])
        if cursor.rowcount != 1:
            raise DatabaseError(f"GameTable {table.pk} was not there to update.")


def entry_insert(entry: TableLogEntry) -> TableLogEntry:
    """Insert a new log entry: ``entry.save()``, its id set as the ORM sets it."""
    alias = router.db_for_write(TableLogEntry, instance=entry)
    connection = connections[alias]
    sql, fields, returning = _entry_insert(alias)
    values = [field.get_db_prep_save(field.pre_save(entry, True), connection) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        entry.pk = cursor.fetchone()[0] if returning else cursor.lastrowid
    entry._state.adding, entry._state.db = False, alias
    return entry
