"""A JSONField that reads and writes with msgspec.

A table's state and configuration in a 2000-student session are ~200 KB of JSON each, read and written
on every move (and the state read again by every server process's fan-out). The standard library's json
took 4-6 ms to decode or encode each of them; msgspec takes 0.5-1.6 ms. The stored JSON is the same.
"""

from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from typing import Any

import msgspec
from django.apps import apps
from django.db import models, transaction
from django.db.models.fields.json import KeyTransform
from psycopg.types.json import Jsonb

from .definitions import DEFINITIONS, get_engine

_decode = msgspec.json.decode
_encode = msgspec.json.encode


def _dumps(value) -> str:
    return _encode(value).decode()


class FastJSONField(models.JSONField):
    def deconstruct(self):
        """Migrations see a plain JSONField: the column is the same, so there is nothing to migrate."""
        name, _path, args, kwargs = super().deconstruct()
        return name, "django.db.models.JSONField", args, kwargs

    def from_db_value(self, value, expression, connection):
        if isinstance(value, str) and not isinstance(expression, KeyTransform):
            try:
                return _decode(value)
            except msgspec.DecodeError:
                pass
        return super().from_db_value(value, expression, connection)

    def get_db_prep_value(self, value, connection, prepared=False):
        """Whole documents (what the runtime stores) are encoded here; anything else (a lookup's value,
        an expression) is Django's as usual."""
        if not prepared:
            value = self.get_prep_value(value)
        if self.encoder is None and isinstance(value, (dict, list)):
            if connection.vendor == "postgresql":
                return Jsonb(value, dumps=_dumps)
            return _dumps(value)
        return super().get_db_prep_value(value, connection, prepared=True)


#: In a stored state, ``{PART: digest}`` stands for a shared part (see :class:`StateField`).
PART = "$part"
#: Decoded shared parts kept in this process (each is shared by every table that has it), the least
#: recently used dropped beyond this many bytes of their JSON (decoded, a part takes one to four times
#: that). By size, not number: each Line-Up table has a part of its own (its rounds' faces, 24 KB), and a
#: school's Line-Up tables outnumbered the 128 parts once kept, so every move read its part again.
PARTS_KEPT_BYTES = 16 * 2**20
#: Equal copies of kept parts remembered (see ``_alias``).
ALIASES_KEPT = 128
_parts: OrderedDict[str, Any] = OrderedDict()
_part_sizes: dict[str, int] = {}  # digest of a part in _parts -> the length of its JSON
_kept_bytes = 0  # the sum of _part_sizes
_digests: dict[int, str] = {}  # id() of a part in _parts -> its digest
_aliases: OrderedDict[int, tuple[Any, str]] = OrderedDict()  # id() of an equal copy -> (copy, digest)
#: (database alias, digest) of the parts this process knows are stored (parts are never deleted).
_stored: set[tuple[str, str]] = set()
_keys_by_game: dict[str, tuple[str, ...]] = {}


class StateField(FastJSONField):
    """A table's state. The values of its engine's ``shared_keys`` (set up once, never changed: Word
    Up's question bank, 40 of a state's 44 KB) are stored once in ``SharedStatePart``, under the digest
    of their content, and the row holds ``{"$part": digest}`` in their place. Reading puts them back,
    decoded once per process and shared by every table that has the same, so ``table.state`` is always
    the whole state. Each move then writes and reads a tenth as much, and a thousand attempts at one
    homework hold one bank in memory instead of a thousand.

    ``shared``: the keys to store this way whatever the game (a table's configuration: its question
    pool, 200 KB for a Word Up homework, the same for every attempt at it)."""

    def __init__(self, *args, shared: tuple[str, ...] | None = None, **kwargs):
        self.shared = tuple(shared) if shared is not None else None
        super().__init__(*args, **kwargs)

    def from_db_value(self, value, expression, connection):
        state = super().from_db_value(value, expression, connection)
        if isinstance(state, dict) and not isinstance(expression, KeyTransform):
            for key, part in state.items():
                if isinstance(part, dict) and len(part) == 1 and PART in part:
                    state[key] = _load_part(part[PART], connection.alias)
        return state

    def share_parts(self, value: Any) -> None:
        """Put in ``value`` (a state or configuration about to be stored) the process's kept copy of
        each of its shared parts, keeping those it has not seen. Each is hashed here, so a caller can do
        it before its transaction, and storing the value inside finds every digest at once."""
        for key in self._shared_in(value):
            value[key] = _parts[_kept_digest(value[key])]

    def _shared_in(self, value: Any) -> list[str]:
        if not isinstance(value, dict):
            return []
        shared = self.shared if self.shared is not None else _shared_keys(value)
        return [key for key in shared if isinstance(value.get(key), (dict, list))]

    def get_db_prep_value(self, value, connection, prepared=False):
        if isinstance(value, dict):
            keys = self._shared_in(value)
            if keys:
                value = {**value, **{key: {PART: _store_part(value[key], connection.alias)} for key in keys}}
        return super().get_db_prep_value(value, connection, prepared)


def _shared_keys(state: dict) -> tuple[str, ...]:
    game = state.get("game")
    if not isinstance(game, str):
        return ()
    if game not in _keys_by_game:
        _keys_by_game[game] = get_engine(game).shared_keys if game in DEFINITIONS else ()
    return _keys_by_game[game]


def _store_part(value: Any, alias: str) -> str:
    """The part's digest, the part stored first unless this process knows the database has it.

    A part already kept stays the one kept: each attempt's set-up builds its bank and pool afresh, and
    keeping the new (equal) object instead made the tables read before and after hold two copies, then
    hundreds (the server's caches of tables, its memory rising all evening)."""
    digest = _kept_digest(value)
    if (alias, digest) not in _stored:
        part_model = apps.get_model("games", "SharedStatePart")
        part = part_model(digest=digest, data=value)
        part_model.objects.using(alias).bulk_create([part], ignore_conflicts=True)
        # Known once committed: a part written in a transaction that is rolled back is not there.
        transaction.on_commit(lambda: _stored.add((alias, digest)), using=alias)
    return digest


def _kept_digest(value: Any) -> str:
    """The part's digest, the part kept in this process unless an equal one already is."""
    digest = _digests.get(id(value))
    if digest is not None and _parts.get(digest) is value:
        return digest
    alias = _aliases.get(id(value))
    if alias is not None and alias[0] is value and alias[1] in _parts:
        _aliases.move_to_end(id(value))
        _parts.move_to_end(alias[1])
        return alias[1]
    encoded = _encode_sorted(value)
    digest = hashlib.sha256(encoded).hexdigest()
    if digest in _parts:
        _parts.move_to_end(digest)
        _alias(value, digest)
    else:
        _keep(digest, value, len(encoded))
    return digest


def _alias(value: Any, digest: str) -> None:
    """Remember the digest of an equal copy of a kept part: a caller that keeps its own copy and gives
    it again (each school's Word Up bank, kept since before the server read the same part back from a
    table) is not hashed again. The entry holds the copy, so its id() cannot be reused meanwhile."""
    _aliases[id(value)] = (value, digest)
    while len(_aliases) > ALIASES_KEPT:
        _aliases.popitem(last=False)


def forget_kept_parts() -> None:
    """Drop every decoded part this process keeps (as a process that never read them)."""
    global _kept_bytes
    _parts.clear()
    _part_sizes.clear()
    _digests.clear()
    _aliases.clear()
    _kept_bytes = 0


def forget_stored_parts(**_kwargs) -> None:
    """The database was emptied (``flush``, which tests run between tests): write each part again."""
    _stored.clear()


def _load_part(digest: str, alias: str) -> Any:
    value = _parts.get(digest)
    if value is not None:
        _parts.move_to_end(digest)
        return value
    part_model = apps.get_model("games", "SharedStatePart")
    found = part_model.objects.using(alias).filter(digest=digest).values_list("data", flat=True)[:1]
    if not found:
        raise LookupError(f"a table's state refers to a shared part that is not stored: {digest}")
    _keep_read(digest, found[0], alias)
    return found[0]


def _keep_read(digest: str, value: Any, alias: str) -> None:
    """Keep a part read from the database. It is known to be stored once this transaction is over: read
    inside one that wrote it and then rolls back, the part is gone again (as after every test)."""
    _keep(digest, value)
    transaction.on_commit(lambda: _stored.add((alias, digest)), using=alias)


#: A reference to a part as stored (PostgreSQL's jsonb puts a space after the colon).
_PART_REFERENCE = re.compile(r'"\$part":\s*"([0-9a-f]{64})"')


def preload_parts(raw_states: list[Any], alias: str) -> None:
    """Read in one query the shared parts that these stored states (as the database gave them, before
    decoding) refer to and this process does not keep: a trip of moves at a hundred homework matches,
    each with its own Line-Up boards, would otherwise read them one by one."""
    wanted = {
        digest
        for raw in raw_states
        if isinstance(raw, str)
        for digest in _PART_REFERENCE.findall(raw)
        if digest not in _parts
    }
    if len(wanted) < 2:  # none, or one: read as it is decoded, in as many queries
        return
    parts = apps.get_model("games", "SharedStatePart").objects.using(alias).filter(digest__in=wanted)
    for digest, data in parts.values_list("digest", "data"):
        _keep_read(digest, data, alias)


def _keep(digest: str, value: Any, size: int | None = None) -> None:
    """``size``: the length of the part's JSON, if the caller has it."""
    global _kept_bytes
    if digest in _parts:
        _parts.move_to_end(digest)
        return
    _parts[digest] = value
    _digests[id(value)] = digest
    _part_sizes[digest] = size if size is not None else len(_encode(value))
    _kept_bytes += _part_sizes[digest]
    while _kept_bytes > PARTS_KEPT_BYTES and len(_parts) > 1:  # (the part just kept stays)
        old_digest, old = _parts.popitem(last=False)
        _digests.pop(id(old), None)
        _kept_bytes -= _part_sizes.pop(old_digest)


_encode_sorted = msgspec.json.Encoder(order="sorted").encode
