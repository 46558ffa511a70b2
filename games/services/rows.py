"""The statements every move makes (the table's new state, the log's new entry, the look-up of keys
already logged), built once per process and run with the fields' own preparation, as the ORM would run
them.

``Model.save`` and ``QuerySet.create`` build their SQL anew on every call: with a thousand homework
games that was a fifth of a web process's time and two fifths of the clock's (docs/performance.md).
Each value still goes through its field's ``pre_save`` and ``get_db_prep_save``, so ``updated_at``,
``created_at``, JSON and the shared parts of a state (``games.fields.StateField``) are stored exactly
as the ORM stores them."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any

from django.db import DatabaseError, connections, router
from django.db.backends.postgresql.base import ServerBindingCursor  # type: ignore[attr-defined]  # psycopg 3's
from django.db.backends.postgresql.psycopg_any import register_tzloader
from django.db.models import Model, QuerySet
from psycopg.postgres import types as postgres_types
from psycopg.pq import Format

from ..fields import preload_parts
from ..models import GameSession, GameTable, TableLogEntry

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


#: Every column of a new log entry but its id.
_ENTRY_FIELDS = [field for field in TableLogEntry._meta.concrete_fields if not field.primary_key]


@cache
def _entry_insert(alias: str) -> tuple[str, list, bool]:
    """One entry's ``INSERT``, returning its id where the database can."""
    connection = connections[alias]
    returning = connection.features.can_return_columns_from_insert
    sql = _entries_insert_sql(alias, 1)
    if returning:
        sql += f" RETURNING {connection.ops.quote_name('id')}"
    return sql, _ENTRY_FIELDS, returning


#: Log entries per ``INSERT`` of ``entries_insert`` (well under SQLite's limit of bound values).
ENTRIES_PER_INSERT = 100


def entries_insert(entries: list[TableLogEntry]) -> None:
    """Insert new log entries with one statement per ENTRIES_PER_INSERT of them (a trip of a burst's
    answers at a big table holds a hundred or more; a statement each was a tenth of an answer's cost).
    Their ids are not read back: nothing that logs a move uses them."""
    if not entries:
        return
    alias = router.db_for_write(TableLogEntry, instance=entries[0])
    connection = connections[alias]
    with _bound_cursor(connection) as cursor:
        for start in range(0, len(entries), ENTRIES_PER_INSERT):
            chunk = entries[start : start + ENTRIES_PER_INSERT]
            cursor.execute(_entries_insert_sql(alias, len(chunk)), _entry_values(chunk, connection))
    for entry in entries:
        entry._state.adding, entry._state.db = False, alias


def _entry_values(entries: list[TableLogEntry], connection) -> list[Any]:
    return [
        field.get_db_prep_save(field.pre_save(entry, True), connection)
        for entry in entries
        for field in _ENTRY_FIELDS
    ]


@lru_cache(maxsize=ENTRIES_PER_INSERT)
def _entries_insert_sql(alias: str, count: int) -> str:
    quote = connections[alias].ops.quote_name
    columns = ", ".join(quote(field.column) for field in _ENTRY_FIELDS)
    row = "(" + ", ".join(["%s"] * len(_ENTRY_FIELDS)) + ")"
    table = quote(TableLogEntry._meta.db_table)
    return f"INSERT INTO {table} ({columns}) VALUES " + ", ".join([row] * count)


def _bound_cursor(connection):
    """A cursor for the statements the moves and the clock run many times a second: on PostgreSQL
    its values travel apart from the statement (server-side binding), as Django's cursors do only with
    the ``server_side_binding`` option, so psycopg need not quote each value into the SQL (the state,
    some kilobytes of JSON, escaped character by character) and prepares a statement it has run five
    times on a connection (PostgreSQL then plans it once, not each time). Elsewhere the usual cursor."""
    if connection.vendor != "postgresql":
        return connection.cursor()
    connection.ensure_connection()
    cursor = ServerBindingCursor(connection.connection)
    tz_oid = postgres_types["timestamptz"].oid
    if connection.timezone != connection.connection.adapters.get_loader(tz_oid, Format.TEXT).timezone:
        register_tzloader(connection.timezone, cursor)  # (as Django's own cursors do)
    return connection._prepare_cursor(cursor)


def table_update(table: GameTable) -> None:
    """Store what a move changes on the (locked) table row: ``table.save(update_fields=TABLE_FIELDS)``."""
    alias = router.db_for_write(GameTable, instance=table)
    connection = connections[alias]
    sql, _fields = _table_update(alias)
    with _bound_cursor(connection) as cursor:
        cursor.execute(sql, _table_values(table, alias, connection))
        _check_updated(cursor, table)


def _table_values(table: GameTable, alias: str, connection) -> list[Any]:
    """The values of :func:`_table_update`'s statement: the move's fields, then the table's id."""
    _sql, fields = _table_update(alias)
    return [*(field.get_db_prep_save(field.pre_save(table, False), connection) for field in fields), table.pk]


def _check_updated(cursor, table: GameTable) -> None:
    if cursor.rowcount != 1:
        raise DatabaseError(f"GameTable {table.pk} was not there to update.")


def table_update_with_entries(table: GameTable, entries: list[TableLogEntry]) -> None:
    """:func:`entries_insert` then :func:`table_update`. On PostgreSQL, when the entries fit one insert,
    both are one statement (the insert in a ``WITH``): one round trip fewer for each table a trip of
    moves or a clock's sweep writes, made while it holds the tables' locks."""
    alias = router.db_for_write(GameTable, instance=table)
    connection = connections[alias]
    if connection.vendor != "postgresql" or not entries or len(entries) > ENTRIES_PER_INSERT:
        entries_insert(entries)
        table_update(table)
        return
    with _bound_cursor(connection) as cursor:
        cursor.execute(
            _table_update_with_entries_sql(alias, len(entries)),
            [*_entry_values(entries, connection), *_table_values(table, alias, connection)],
        )
        _check_updated(cursor, table)
    for entry in entries:
        entry._state.adding, entry._state.db = False, alias


@lru_cache(maxsize=ENTRIES_PER_INSERT)
def _table_update_with_entries_sql(alias: str, count: int) -> str:
    return f"WITH logged AS ({_entries_insert_sql(alias, count)}) {_table_update(alias)[0]}"


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


#: Every column of a table row a move reads (its configuration, ~200 KB in a big session, is read only
#: at set-up, as ``base._locked_tables`` defers it) and every column of its session.
_TABLE_READ = tuple(field for field in GameTable._meta.concrete_fields if field.name != "config")
_SESSION_READ = tuple(GameSession._meta.concrete_fields)
_READ = (*_TABLE_READ, *_SESSION_READ)
_TABLE_NAMES = [field.attname for field in _TABLE_READ]
_STATE_AT = _TABLE_NAMES.index("state")
_SESSION_NAMES = [field.attname for field in _SESSION_READ]


@cache
def _read_converters(alias: str) -> list[tuple[int, Any, tuple[Any, ...]]]:
    """(position, column, converters) of each read column whose value the ORM converts as read (the
    backend's converters, then the field's own ``from_db_value``)."""
    connection = connections[alias]
    found = []
    for position, field in enumerate(_READ):
        column = field.get_col(field.model._meta.db_table)
        converters = (*connection.ops.get_db_converters(column), *column.get_db_converters(connection))
        if converters:
            found.append((position, column, converters))
    return found


@lru_cache(maxsize=256)
def _locked_tables_sql(alias: str, count: int) -> str:
    connection = connections[alias]
    quote = connection.ops.quote_name
    columns = [f"t.{quote(field.column)}" for field in _TABLE_READ]
    columns += [f"s.{quote(field.column)}" for field in _SESSION_READ]
    sql = (
        f"SELECT {', '.join(columns)} FROM {quote(GameTable._meta.db_table)} t"
        f" INNER JOIN {quote(GameSession._meta.db_table)} s ON t.{quote('session_id')} = s.{quote('id')}"
        f" WHERE t.{quote('id')} IN ({', '.join(['%s'] * count)}) ORDER BY t.{quote('id')} ASC"
    )
    return sql + _lock_clause(connection)


def _lock_clause(connection) -> str:
    """The moves' lock: the table rows for a write that leaves their key alone, the sessions shared.

    A plain ``FOR UPDATE`` of the join locked each table's session row exclusively too, so every move,
    clock sweep and fact insert of a session waited for the others: the tables of a Line-Up class (15
    pairs) took their turns one session-wide lock at a time, and the worker's insert of a learning fact
    (whose foreign keys take a key-share lock on the table and session rows) queued behind them and held
    its place against the next move. ``FOR NO KEY UPDATE`` still keeps two writers of one table apart but
    lets a fact's foreign key through; ``FOR SHARE`` of the session lets the moves of its other tables
    through and still waits for a pause, a resume or an end (they lock the session ``FOR UPDATE``)."""
    features = connection.features
    if not features.has_select_for_update:
        return ""
    if features.has_select_for_no_key_update and features.has_select_for_update_of:
        quote = connection.ops.quote_name
        return f" FOR NO KEY UPDATE OF {quote('t')} FOR SHARE OF {quote('s')}"
    return " FOR UPDATE"


def locked_tables(table_ids: list[int] | set[int] | dict[int, Any]) -> list[GameTable]:
    """These tables, locked, each with its session, in id order:
    ``_locked_tables().select_related("session").filter(pk__in=table_ids).order_by("pk")``, its statement
    built once per process (per number of tables) and each value converted as the ORM converts it.
    The clock and the moves read their tables this way many times a second, and building the
    statement was half of each read."""
    ids = sorted(table_ids)
    if not ids:
        return []
    alias = router.db_for_write(GameTable)  # the connection of the transaction that will write
    connection = connections[alias]
    with _bound_cursor(connection) as cursor:
        cursor.execute(_locked_tables_sql(alias, len(ids)), ids)
        rows = cursor.fetchall()
    if len(rows) > 1:
        preload_parts([row[_STATE_AT] for row in rows], alias)
    return [_table_of(alias, connection, row) for row in rows]


def _table_of(alias: str, connection, row: tuple) -> GameTable:
    values = list(row)
    for position, column, converters in _read_converters(alias):
        for converter in converters:
            values[position] = converter(values[position], column, connection)
    split = len(_TABLE_READ)
    table = GameTable.from_db(alias, _TABLE_NAMES, values[:split])
    session = GameSession.from_db(alias, _SESSION_NAMES, values[split:])
    GameTable.session.field.set_cached_value(table, session)
    return table


@cache
def _due_tables_sql(alias: str, deadlines: bool, bots: bool) -> str:
    quote = connections[alias].ops.quote_name
    due = [
        f"{quote(column)} <= %s" for column, wanted in (("deadline", deadlines), ("bot_due", bots)) if wanted
    ]
    return (
        f"SELECT {quote('id')} FROM {quote(GameTable._meta.db_table)}"
        f" WHERE ({' OR '.join(due)}) AND {quote('status')} = %s"
    )


def due_table_ids(now: float, *, deadlines: bool = True, bots: bool = True) -> list[int]:
    """The ids of the tables still playing with a deadline (``deadlines``) or a computer's move
    (``bots``) due at ``now``, in id order: what the clock sweeps, several times a second. Only a
    running session's table has either time set (a pause clears both), so the sessions are not joined
    and each time is found through its own index (joined to the sessions' status, SQLite planned it
    through that status: every running table each time; a test checks the plan). Each step re-checks
    under the row lock."""
    alias = router.db_for_read(GameTable)
    params = [now] * (deadlines + bots) + [GameTable.Status.PLAYING]
    with _bound_cursor(connections[alias]) as cursor:
        cursor.execute(_due_tables_sql(alias, deadlines, bots), params)
        return sorted(row[0] for row in cursor.fetchall())


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
    with _bound_cursor(connections[alias]) as cursor:
        for start in range(0, len(keyed), KEYS_PER_LOOKUP):
            chunk = keyed[start : start + KEYS_PER_LOOKUP]
            cursor.execute(
                head + ", ".join(["(%s, %s, %s)"] * len(chunk)) + tail,
                [value for triple in chunk for value in triple],
            )
            found.extend(cursor.fetchall())
    return found


class CompiledRead:
    """A one-row read whose SQL the ORM writes once per database, then run with each call's values.

    ``build`` makes the queryset from keyword values; it is built once with stand-ins (values no real
    call uses), and each parameter of the statement that holds a stand-in takes the call's value. For a
    read on a hot path whose annotations (``Exists``, ``Subquery``) cost the ORM more to build than
    the database to run: what the ORM would run, without building it each time."""

    def __init__(self, build: Callable[..., QuerySet], **stand_ins: Any):
        self.build = build
        self.stand_ins = stand_ins
        self._compiled: dict[str, tuple[str, list[str | None], list[Any]]] = {}

    def _statement(self, alias: str) -> tuple[str, list[str | None], list[Any]]:
        if alias not in self._compiled:
            sql, params = self.build(**self.stand_ins).query.get_compiler(alias).as_sql()
            by_value = {value: name for name, value in self.stand_ins.items()}
            slots = [by_value.get(param) if isinstance(param, int | str) else None for param in params]
            missing = set(self.stand_ins) - set(slots)
            if missing:
                raise ValueError(f"the statement does not use {sorted(missing)}")
            self._compiled[alias] = (sql, slots, list(params))
        return self._compiled[alias]

    def one(self, model: type[Model], **values: Any) -> dict[str, Any] | None:
        """The row as a dict by column alias (None: no row)."""
        alias = router.db_for_read(model)
        sql, slots, constants = self._statement(alias)
        params = [values[slot] if slot else constant for slot, constant in zip(slots, constants, strict=True)]
        with connections[alias].cursor() as cursor:
            cursor.execute(sql, params)
            row = cursor.fetchone()
            names = [column[0] for column in cursor.description]
        return dict(zip(names, row, strict=True)) if row is not None else None
