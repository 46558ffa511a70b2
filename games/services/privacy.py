"""A student's name and own words leave the game records when their data is erased or they are deleted.

Each table the student played at is replayed from its seed and log under a pseudonym (``Student 3``:
their seat's number at that table), with every answer they typed replaced by one the rules judge the
same way (``Game.redact_action``). Config, state, log entries and outcome are rewritten from that replay,
and each of the student's seats (``Participant.pseudonym``) takes the name its table gives them, so the
results pages, the replays and the teacher's screens show the pseudonym, and a replay from seed and log
still reaches the same outcome. Their player id (``s<number>``) is no name and stays.
"""

from __future__ import annotations

import json
import logging

from django.db import transaction
from django.utils.translation import gettext as _

from classrooms.models import Student

from .. import broadcast
from ..definitions import get_engine
from ..engine import core
from ..models import GameSession, GameTable, Participant, TableLogEntry
from .base import student_player_id

logger = logging.getLogger(__name__)
#: A session whose screens may be open.
OPEN_STATUSES = (GameSession.Status.LOBBY, GameSession.Status.RUNNING, GameSession.Status.PAUSED)


def student_pseudonymise(*, student: Student) -> int:
    """Pseudonymise the student at every table they played at, and name each of their seats as that
    table now names them (the pages of a game name its students from their seats); returns how many
    tables changed."""
    player = student_player_id(student.pk)
    table_ids = (
        GameTable.objects.filter(session__participants__student=student)
        .values_list("pk", flat=True)
        .distinct()
    )
    names = {table_id: _table_pseudonymise(table_id, player) for table_id in list(table_ids)}
    _seats_pseudonymise(student, names)
    return sum(name is not None for name in names.values())


def _seats_pseudonymise(student: Student, names: dict[int, str | None]) -> None:
    """Each of the student's seats takes the name its table gives them; a seat at no table (a lobby
    they waited in) an anonymous one. The consoles of games still open list it at once."""
    seats = list(Participant.objects.filter(student=student).only("pk", "table_id", "session_id"))
    for seat in seats:
        seat.pseudonym = (names.get(seat.table_id) if seat.table_id is not None else None) or _("A student")
    Participant.objects.bulk_update(seats, ["pseudonym"], batch_size=500)
    open_sessions = GameSession.objects.filter(
        pk__in={seat.session_id for seat in seats}, status__in=OPEN_STATUSES
    ).values_list("pk", flat=True)
    for session_id in open_sessions:
        broadcast.session_changed(session_id)


def _seat_number(table: GameTable, player: str) -> int | None:
    """The player's place at the table (seated at the start, then latecomers in the order they came)."""
    seats = [seat.get("id") for seat in table.config.get("players", [])]
    joined = table.log.filter(kind=TableLogEntry.Kind.JOIN).order_by("seq").values_list("action", flat=True)
    seats += [(info or {}).get("id") for info in joined]
    return seats.index(player) + 1 if player in seats else None


def _old_name(table: GameTable, log: list[TableLogEntry], player: str) -> str:
    seats = list(table.config.get("players", []))
    seats += [entry.action or {} for entry in log if entry.kind == TableLogEntry.Kind.JOIN]
    return next((str(seat.get("name") or "") for seat in seats if seat.get("id") == player), "")


def _renamed(data, old: str, new: str):
    """``data`` with the name ``old`` replaced wherever it stands as a whole value."""
    if not old:
        return data
    return json.loads(json.dumps(data).replace(json.dumps(old), json.dumps(new)))


@transaction.atomic
def _table_pseudonymise(table_id: int, player: str) -> str | None:
    """The table with the player renamed; the name it gives them now (None: they did not play at it)."""
    table = GameTable.objects.select_for_update().select_related("session").get(pk=table_id)
    number = _seat_number(table, player)
    if number is None:
        return None  # another table of the session: its log is not read
    log = list(table.log.order_by("seq"))
    name = _("Student %(number)d") % {"number": number}
    old_name = _old_name(table, log, player)
    replayed = _replayed(table, log, player, name)
    if replayed is not None:
        config, entries, state, events, outcome = replayed
    if replayed is None or core.canonical_json(outcome) != core.canonical_json(
        _renamed(table.outcome, old_name, name)
    ):
        # Never expected (replay is tested for every game): keep the record as it was played, renamed.
        logger.error("table %s did not replay to its outcome; renaming its records instead", table.pk)
        config, state = _renamed(table.config, old_name, name), _renamed(table.state, old_name, name)
        outcome = _renamed(table.outcome, old_name, name)
        entries = [_renamed(entry.as_log_entry(), old_name, name) for entry in log]
        events = [_renamed(entry.events, old_name, name) for entry in log]
    for entry, replayed, entry_events in zip(log, entries, events, strict=True):
        if entry.kind == TableLogEntry.Kind.ACTION:
            entry.action = replayed["action"]
        elif entry.kind == TableLogEntry.Kind.JOIN:
            entry.action = replayed["info"]
        entry.events = entry_events
    TableLogEntry.objects.bulk_update(log, ["action", "events"], batch_size=500)
    table.config, table.state, table.outcome = config, state, outcome
    table.save(update_fields=["config", "state", "outcome", "updated_at"])
    broadcast.table_changed(table.session_id, table.pk, table.seq)  # open screens show the pseudonym
    return name


def _replayed(table: GameTable, log: list[TableLogEntry], player: str, name: str):
    """The table replayed under the pseudonym: config, log entries, state, events and outcome; None if
    the log no longer replays (an older engine's log, say)."""
    engine = get_engine(table.session.game)
    try:
        config, entries, state, events = core.pseudonymised(
            engine, table.config, table.seed, [entry.as_log_entry() for entry in log], player, name
        )
        outcome = table.outcome
        if table.outcome is not None:
            outcome = engine.outcome(state) if engine.is_over(state) else engine.outcome_when_ended(state)
    except Exception:  # an erasure or a deletion must not fail on it: the records are renamed instead
        logger.exception("table %s no longer replays", table.pk)
        return None
    return config, entries, state, events, outcome
