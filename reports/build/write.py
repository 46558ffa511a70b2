"""Stage 3 of a build, writing: in one transaction, each table's rows of the scope are deleted and the
new rows inserted (``COPY`` on PostgreSQL), so a rerun writes the same rows and a failure half-way leaves
the previous rows in place."""

from __future__ import annotations

import json
import operator
from collections.abc import Iterable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, NamedTuple

from django.db import connection
from django.db.models import JSONField

if TYPE_CHECKING:
    from . import BuildResult

BATCH = 2000


class Row(SimpleNamespace):
    """A row to insert: plain attributes (building hundreds of thousands of model instances is slow)."""


class Step(NamedTuple):
    """One table's part of a build: the stored rows it replaces (a queryset, or None) and the new rows
    (plain tuples: in the order of ``fields``)."""

    old: Any
    model: Any
    rows: list
    fields: tuple[str, ...] | None = None


@dataclass
class Plan:
    """What a build writes, table by table."""

    result: BuildResult
    steps: list[Step] = field(default_factory=list)

    def replace(self, old, model, rows: list, fields: tuple[str, ...] | None = None) -> None:
        self.steps.append(Step(old, model, rows, fields))

    def delete(self, old) -> None:
        self.steps.append(Step(old, None, []))

    def write(self) -> None:
        """Delete and insert, table by table (call inside a transaction)."""
        for old, model, rows, fields in self.steps:
            if old is not None:
                old.delete()  # one DELETE: nothing refers to these tables
            if rows:
                bulk_insert(model, rows, fields)


def bulk_insert(model, rows: list, fields: Iterable[str] | None = None) -> None:
    """Insert many rows: COPY on PostgreSQL (a school build writes hundreds of thousands of rows, and
    bulk_create spends most of its time building the statement), bulk_create elsewhere. Rows are model
    instances or :class:`Row` objects, named tuples of the model's attribute names, or tuples in the order
    of ``fields`` (their attribute names)."""
    if not rows:
        return
    if isinstance(rows[0], tuple) and fields is None:
        fields = rows[0]._fields  # a named tuple's; a plain tuple's must be given
    if connection.vendor != "postgresql":
        _bulk_create(model, rows, fields)
    else:
        _copy(model, rows, fields)


def _bulk_create(model, rows: list, fields: Iterable[str] | None) -> None:
    if fields is not None:
        rows = [model(**dict(zip(fields, row, strict=True))) for row in rows]
    instances = [model(**vars(row)) if isinstance(row, Row) else row for row in rows]
    model.objects.bulk_create(instances, batch_size=BATCH)


def _copy(model, rows: list, fields: Iterable[str] | None) -> None:
    concrete = {field.attname: field for field in model._meta.concrete_fields if not field.primary_key}
    names = list(fields) if fields is not None else list(concrete)
    columns = ", ".join(connection.ops.quote_name(concrete[name].column) for name in names)
    statement = f"COPY {connection.ops.quote_name(model._meta.db_table)} ({columns}) FROM STDIN"
    values = None if fields is not None else operator.attrgetter(*names)
    json_at = [index for index, name in enumerate(names) if isinstance(concrete[name], JSONField)]
    with connection.cursor() as cursor, cursor.cursor.copy(statement) as copy:
        for row in rows:
            record = row if values is None else values(row)
            if json_at:
                record = list(record)
                for index in json_at:
                    record[index] = json.dumps(record[index])
            copy.write_row(record)
