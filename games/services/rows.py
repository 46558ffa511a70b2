"""The statements every move makes (the table's new state, the log's new entry, the look-up of keys
already logged), built once per process and run with the fields' own preparation, as the ORM would run
them.

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


#: (table id, player, key) triples per look-up statement: three parameters each, well inside SQLite's
#: limit on a statement's parameters.
KEYS_PER_LOOKUP = 300


@cache
def _logged_keys_sql(alias: str) -> tuple[str, str]:
    """The look-up, as a join of the wanted triples with the log: each one a probe of the log's unique
    index on (table, player, key). Its condition is written out as the index's own (a literal, not a
    parameter), or SQLite cannot use that partial index: filtered by the ORM on tables and keys, it
    read every entry of each table's log (by ``table_id``) and joined the sessions for the model's
    ordering, a fifth of the moves' work late in a homework game."""
    quote = connections[alias].ops.quote_name
    log, table, player, key = (
        quote(TableLogEntry._meta.db_table),
        quote("table_id"),
        quote("player"),
        quote("idempotency_key"),
    )
    head = f"WITH wanted ({table}, {player}, {key}) AS (VALUES "
    tail = (
        f") SELECT e.{table}, e.{player}, e.{key}, e.{quote('seq')} FROM wanted JOIN {log} e"
        f" ON e.{table} = wanted.{table} AND e.{player} = wanted.{player} AND e.{key} = wanted.{key}"
        f" WHERE NOT (e.{key} = '')"
    )
    return head, tail


def logged_keys(wanted: set[tuple[int, str, str]]) -> list[tuple[int, str, str, int]]:
    """The log entries with these (table id, player, idempotency key): ``(table id, player, key, seq)``."""
    keyed = [triple for triple in wanted if triple[2]]
    if not keyed:
        return []
    alias = router.db_for_write(TableLogEntry)  # the connection of the transaction that will write
    head, tail = _logged_keys_sql(alias)
    found = []
    with connections[alias].cursor() as cursor:
        for start in range(0, len(keyed), KEYS_PER_LOOKUP):
            chunk = keyed[start : start + KEYS_PER_LOOKUP]
            cursor.execute(
                head + ", ".join(["(%s, %s, %s)"] * len(chunk)) + tail,
                [value for triple in chunk for value in triple],
            )
            found.extend(cursor.fetchall())
    return found
