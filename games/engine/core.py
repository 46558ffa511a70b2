"""The protocol every game engine follows. Pure Python: nothing here (or in any engine) imports Django.

A game is data plus pure functions:

* ``state`` is a plain, JSON-serialisable ``dict`` (str keys; lists, ints, strs, bools, None; floats only
  for clock times). Everything random comes from ``state["rng"]`` (see :class:`Rng`).
* ``apply(state, player, action, now)`` returns ``(new_state, events)`` and never mutates its input;
  an action the rules forbid raises :class:`IllegalAction` with a sentence a student can read.
* ``on_deadline(state, now)`` is what the rules do when the timed phase runs out. A player's move at or
  after the phase deadline is refused even before the deadline has fired (:func:`refuse_after_deadline`);
  replaying a stored log skips that one check, because the log is the record of what was accepted.
* ``view(state, viewer)`` is deny-by-default: it builds a fresh dict holding only what that viewer may see.
* ``setup(config, seed)`` plus the action log replays to the same state, bit for bit (:func:`replay`).

Players are identified by opaque strings (the runtime maps them to students). Viewers are dicts:
``{"role": "player", "player": "p1"}``, ``{"role": "teacher"}``, ``{"role": "projector"}``; a
``{"role": "spectator"}`` (or anything unknown) sees only public information.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import struct
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

#: The player id the runtime uses for the teacher's rule actions (e.g. accepting an answer the checker
#: refused). Engines that accept teacher actions check for it; the runtime only lets the teacher send it.
TEACHER = "@teacher"

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]
Viewer = dict[str, Any]
_Data = TypeVar("_Data")


def _(message: str) -> str:
    """Mark a message for translation without importing Django (the runtime translates it at the edge).

    xgettext picks up ``_("...")``; the runtime passes the English text through ``gettext`` before
    sending it, and formats ``%(name)s`` placeholders with the error's params afterwards.
    """
    return message


class IllegalAction(Exception):
    """An action the rules refuse. ``message`` is readable by a student; nothing in the state changed."""

    def __init__(self, message: str, code: str = "illegal", **params: Any):
        super().__init__(message % params if params else message)
        self.message = message
        self.code = code
        self.params = params

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "params": self.params}


# --------------------------------------------------------------------------------------------------
# Randomness
# --------------------------------------------------------------------------------------------------


_SPAN = 1 << 64
_FIRST_WORD = struct.Struct(">Q").unpack_from


class Rng:
    """A counter-based PRNG whose whole state is ``{"seed": str, "n": int}``.

    Draw *n* is derived from SHA-256(seed:n), so the generator lives inside the game state as two
    plain values, survives a JSON round trip, and gives the same numbers on every Python version
    (unlike ``random.Random``, whose shuffle and randrange are not guaranteed stable across releases).
    """

    def __init__(self, seed: str, n: int = 0):
        self.seed = str(seed)
        self.n = n
        # The seed's part of every draw hashed once: a copy of it finishes a draw in half the time of
        # hashing the whole text again (a Mind the Lines table's boards take some 5000 draws).
        self._seeded = hashlib.sha256(f"{self.seed}:".encode())

    @classmethod
    def from_state(cls, data: dict[str, Any]) -> Rng:
        return cls(data["seed"], data["n"])

    def to_state(self) -> dict[str, Any]:
        return {"seed": self.seed, "n": self.n}

    def _next64(self) -> int:
        """The first 8 bytes, big-endian, of SHA-256 of ``"{seed}:{n}"``."""
        draw = self._seeded.copy()
        draw.update(b"%d" % self.n)
        self.n += 1
        value: int = _FIRST_WORD(draw.digest())[0]
        return value

    def below(self, bound: int) -> int:
        """A uniform integer in [0, bound), without modulo bias."""
        if bound <= 0:
            raise ValueError("bound must be positive")
        limit = _SPAN - (_SPAN % bound)
        while True:
            value = self._next64()
            if value < limit:
                return value % bound

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in [low, high], both ends included (like ``random.randint``)."""
        return low + self.below(high - low + 1)

    def random(self) -> float:
        return self._next64() / float(_SPAN)

    def choice(self, items: Sequence[Any]) -> Any:
        return items[self.below(len(items))]

    def shuffled(self, items: Iterable[Any]) -> list[Any]:
        """A new list in a uniformly random order (Fisher-Yates)."""
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.below(i + 1)
            result[i], result[j] = result[j], result[i]
        return result

    def sample(self, items: Sequence[Any], k: int) -> list[Any]:
        return self.shuffled(items)[:k]


def rng_of(state: State) -> Rng:
    """The generator stored in ``state["rng"]``; call :func:`rng_store` after drawing."""
    return Rng.from_state(state["rng"])


def rng_store(state: State, rng: Rng) -> None:
    state["rng"] = rng.to_state()


def new_rng_state(seed: str) -> dict[str, Any]:
    return Rng(seed).to_state()


# --------------------------------------------------------------------------------------------------
# State helpers
# --------------------------------------------------------------------------------------------------


def clone(state: _Data) -> _Data:
    """A deep copy, so ``apply`` never mutates the caller's state (or of any other plain data).

    States are plain data, so a marshal round trip copies them exactly and about six times faster than
    ``copy.deepcopy`` (which dominated bot-game profiles)."""
    copied: _Data = marshal.loads(marshal.dumps(state))  # type: ignore[arg-type]
    return copied


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_hash(state: State) -> str:
    """A SHA-256 over the canonical JSON of the state: equal hashes mean bit-for-bit equal replays."""
    return hashlib.sha256(canonical_json(state).encode()).hexdigest()


# --------------------------------------------------------------------------------------------------
# Clocks. A clock is a value: the phase's absolute deadline (server epoch seconds) or, while the
# session is paused, the seconds that were left. Remaining time is computed, never ticked.
# --------------------------------------------------------------------------------------------------


def _blank_clock(paused: bool = False) -> dict[str, Any]:
    return {"deadline": None, "remaining": None, "paused": paused}


def _start(clock: dict[str, Any] | None, now: float, seconds: float | None) -> dict[str, Any]:
    paused = bool(clock and clock.get("paused"))
    if seconds is None:
        return _blank_clock(paused)
    if paused:
        return {"deadline": None, "remaining": float(seconds), "paused": True}
    return {"deadline": now + float(seconds), "remaining": None, "paused": False}


def clock_start(state: State, now: float, seconds: float | None) -> None:
    """Start the timed phase: ``seconds=None`` means the phase has no deadline."""
    state["clock"] = _start(state.get("clock"), now, seconds)


def clock_stop(state: State) -> None:
    clock_start(state, 0.0, None)


def game_clock_start(state: State, now: float, seconds: float | None) -> None:
    """A second clock for the whole game (e.g. a fixed-time variant). Pause and resume freeze it too;
    ``extend`` (the teacher's "more time for this phase") does not touch it."""
    state["game_clock"] = _start(
        state.get("game_clock") or {"paused": state.get("clock", {}).get("paused")}, now, seconds
    )


def game_clock_expired(state: State, now: float) -> bool:
    deadline = (state.get("game_clock") or {}).get("deadline")
    return deadline is not None and now >= deadline


def deadline_of(state: State) -> float | None:
    """The earliest absolute deadline the sweeper must enforce (phase or game clock), or None."""
    deadlines = [
        clock.get("deadline")
        for clock in (state.get("clock"), state.get("game_clock"))
        if clock and clock.get("deadline") is not None
    ]
    return min(deadlines) if deadlines else None


def phase_deadline(state: State) -> float | None:
    """The absolute deadline of the timed phase (not the game clock's), or None when it has none."""
    return (state.get("clock") or {}).get("deadline")


# --------------------------------------------------------------------------------------------------
# Time allowances: a student with extra time gets a longer deadline in a phase they act in. The runtime
# puts ``config["time_allowance"] = {player: factor}`` (1.5, 2, or None for untimed) in a table's config;
# an engine keeps it in ``state["time_allowance"]`` (only when someone has one) and starts the clock of a
# phase with :func:`clock_start_for`, naming who acts in it. A phase several players share (a team's rack,
# a drawing everyone makes) takes the slowest of them: the largest factor.
# --------------------------------------------------------------------------------------------------

#: What "untimed" becomes in a phase whose rules need a clock (the largest allowance).
LONGEST_ALLOWANCE = 2.0
_MAX_FACTOR = 3.0


def time_allowances(config: dict[str, Any]) -> dict[str, float | None]:
    """Per-seat time factors from ``config["time_allowance"]``, checked; standard time left out."""
    raw = config.get("time_allowance") or {}
    if not isinstance(raw, dict):
        raise ValueError("time_allowance must map player ids to a factor (or None for untimed)")
    allowances: dict[str, float | None] = {}
    for player, factor in raw.items():
        if factor is not None and (
            isinstance(factor, bool) or not isinstance(factor, (int, float)) or not 1 <= factor <= _MAX_FACTOR
        ):
            raise ValueError(f"a time allowance is a factor from 1 to {_MAX_FACTOR:g}, or None for untimed")
        if factor != 1:
            allowances[str(player)] = None if factor is None else float(factor)
    return allowances


def allowances_store(state: State, config: dict[str, Any]) -> None:
    """Keep the config's allowances in the state (nothing is added when nobody has one)."""
    allowances = time_allowances(config)
    if allowances:
        state["time_allowance"] = allowances


def allowance_add(state: State, player: str, factor: Any) -> None:
    """Give a player seated later (a latecomer) their allowance."""
    allowances = time_allowances({"time_allowance": {player: factor}})
    if allowances:
        state.setdefault("time_allowance", {}).update(allowances)


def allowance_factor(state: State, players: Iterable[str]) -> float | None:
    """The factor of a phase these players act in: the slowest's (None: one of them is untimed)."""
    allowances = state.get("time_allowance") or {}
    factors = [allowances.get(player, 1.0) for player in players]
    if any(factor is None for factor in factors):
        return None
    return max([1.0, *[factor for factor in factors if factor is not None]])


def allowed_seconds(
    state: State, seconds: float | None, players: Iterable[str], *, may_be_untimed: bool = True
) -> float | None:
    """A phase's length for these players: ``seconds`` times their factor. An untimed player's phase
    has no deadline where the rules allow one without (``may_be_untimed``), else the longest allowance."""
    if seconds is None:
        return None
    factor = allowance_factor(state, players)
    if factor is None:
        return None if may_be_untimed else seconds * LONGEST_ALLOWANCE
    return seconds * factor


def clock_start_for(
    state: State, now: float, seconds: float | None, players: Iterable[str], *, may_be_untimed: bool = True
) -> None:
    """:func:`clock_start` for a phase ``players`` act in, with their time allowance."""
    clock_start(state, now, allowed_seconds(state, seconds, players, may_be_untimed=may_be_untimed))


#: Off only while a stored log is replayed (see :func:`apply_log_entry`).
_deadlines_enforced: ContextVar[bool] = ContextVar("deadlines_enforced", default=True)


def refuse_after_deadline(state: State, player: str, now: float) -> None:
    """Refuse a player's move made once the phase clock has run out, even if the runtime has not fired
    the deadline yet: the phase is over, and the deadline rule (not the late move) decides what happens.
    Every engine's ``apply`` calls this first. The teacher's actions (:data:`TEACHER`) pass, and so does
    a move replayed from a stored log (see :func:`apply_log_entry`)."""
    if player == TEACHER or not _deadlines_enforced.get():
        return
    deadline = phase_deadline(state)
    if deadline is not None and now >= deadline:
        raise IllegalAction(_("Time is up: your move came too late."), code="too_late")


@contextmanager
def _replaying_log() -> Iterator[None]:
    token = _deadlines_enforced.set(False)
    try:
        yield
    finally:
        _deadlines_enforced.reset(token)


def _clocks(state: State) -> list[dict[str, Any]]:
    state.setdefault("clock", _blank_clock())
    return [clock for clock in (state.get("clock"), state.get("game_clock")) if clock is not None]


def clock_pause(state: State, now: float) -> None:
    for clock in _clocks(state):
        if clock.get("paused"):
            continue
        if clock.get("deadline") is not None:
            clock["remaining"] = max(0.0, clock["deadline"] - now)
        clock["deadline"] = None
        clock["paused"] = True


def clock_resume(state: State, now: float) -> None:
    for clock in _clocks(state):
        if not clock.get("paused"):
            continue
        if clock.get("remaining") is not None:
            clock["deadline"] = now + clock["remaining"]
        clock["remaining"] = None
        clock["paused"] = False


def clock_extend(state: State, seconds: float) -> None:
    clock = state.get("clock") or {}
    if clock.get("deadline") is not None:
        clock["deadline"] += seconds
    elif clock.get("remaining") is not None:
        clock["remaining"] += seconds


def clock_view(state: State) -> dict[str, Any]:
    """What every viewer may see of the clocks (the client draws the countdown from it)."""
    clock = state.get("clock") or {}
    view = {
        "deadline": clock.get("deadline"),
        "remaining": clock.get("remaining"),
        "paused": bool(clock.get("paused")),
    }
    if state.get("game_clock"):
        view["game_deadline"] = state["game_clock"].get("deadline")
        view["game_remaining"] = state["game_clock"].get("remaining")
    return view


# --------------------------------------------------------------------------------------------------
# The game protocol
# --------------------------------------------------------------------------------------------------


class Game:
    """Base class of an engine. Subclasses are stateless: every method takes the state it works on.

    Required in a subclass: ``name``, ``min_players``, ``max_players``, ``setup``, ``current_players``,
    ``legal_actions``, ``apply``, ``on_deadline``, ``view``, ``is_over``, ``outcome``, ``facts``.

    Optional hooks, with defaults here so the runtime calls them on every engine without asking first:

    * ``seats_latecomers`` and ``join(state, info, now)``: whether a game already begun seats a newcomer
      (a team game), and how. By default it does not and ``join`` refuses (code ``no_join``); the runtime
      gives a newcomer a new table instead.
    * ``refusal_fact(state, player, action, error, now)``: a learning fact for a refused action that is
      itself a learning moment (Line-it: a card that breaks the line); default ``None``.
    * ``questions_shown(events)``: bank ids of the questions these events finished showing, for the
      class's question rotation; default none.
    * ``redact_action(state, player, action)``: the action with whatever the player wrote in their own
      words replaced by something that the rules judge the same way (see :func:`pseudonymised`);
      default: unchanged (an engine whose actions hold no free text).
    * ``outcome_when_ended``, ``records_facts``, ``views``, ``apply_in_place``: see each below.

    Moves after the deadline: each engine's ``apply`` first calls :func:`refuse_after_deadline`, so a
    student's move that arrives once the phase clock has run out is refused (code ``too_late``) even
    when the runtime has not yet fired the deadline; the teacher's actions are never refused by it.
    """

    name: str = ""
    title: str = ""
    min_players: int = 1
    max_players: int = 1
    #: Config keys the runtime may set and their defaults (timers in seconds, variants, levels ...).
    default_config: dict[str, Any] = {}
    #: Whether a game already begun seats a newcomer through :meth:`join`.
    seats_latecomers: bool = False
    #: Keys of the state whose values never change after ``setup`` (Word Up's question bank). A move
    #: never writes them, so the runtime stores each such value once for every table that has the same
    #: one, instead of again with every move.
    shared_keys: tuple[str, ...] = ()

    def setup(self, config: dict[str, Any], seed: str, now: float = 0.0) -> State:
        """A new game. ``config["players"]`` lists ``{"id", "name", ...}`` dicts (game-specific extras:
        ``team``, ``level``, ``bot``); the rest of ``config`` is settings and content (questions ...)."""
        raise NotImplementedError

    def current_players(self, state: State) -> list[str]:
        """Who may act now (empty when nobody can, e.g. between phases or when the game is over)."""
        raise NotImplementedError

    def legal_actions(self, state: State, player: str) -> list[Action]:
        """Legal actions for ``player`` now. Where the space is huge (free text, drawings) a
        representative sample is enough: bots and property tests draw from it."""
        raise NotImplementedError

    def apply(self, state: State, player: str, action: Action, now: float) -> tuple[State, list[Event]]:
        raise NotImplementedError

    def apply_in_place(self, state: State, player: str, action: Action, now: float) -> list[Event]:
        """``apply`` that changes ``state`` itself and returns the events: for the runtime, whose state
        was just read from the database and is its own, so that a burst of answers at a big table does
        not copy the whole state for each one. A refusal (``IllegalAction``) leaves ``state`` exactly as
        it was. This default copies, as ``apply`` does; an engine whose rules check everything before
        they change anything may override it without the copy (tests compare the two)."""
        new, events = self.apply(state, player, action, now)
        state.clear()
        state.update(new)
        return events

    def on_deadline(self, state: State, now: float) -> tuple[State, list[Event]]:
        raise NotImplementedError

    def on_deadline_in_place(self, state: State, now: float) -> list[Event]:
        """``on_deadline`` that changes ``state`` itself (see :meth:`apply_in_place`). This default
        copies, as ``on_deadline`` does."""
        new, events = self.on_deadline(state, now)
        state.clear()
        state.update(new)
        return events

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        raise NotImplementedError

    def views(self, state: State, viewers: list[Viewer]) -> Iterator[dict[str, Any]]:
        """Each viewer's ``view`` of one state, one at a time (a caller serialises each and drops it, so a
        class's worth of views is never alive at once). An engine whose views share a large common part
        may build that part once (a whole class's devices are sent the same state at once); the views
        must equal ``view``'s. They may share nested objects, so callers must not mutate them."""
        return (self.view(state, viewer) for viewer in viewers)

    def view_parts(
        self, state: State, viewers: list[Viewer]
    ) -> Iterator[tuple[Any, dict[str, Any], dict[str, Any]]]:
        """Each viewer's view in two parts, ``(key, common, own)``: the view is ``{**common, **own}``, no
        key in both, and viewers given the same ``key`` (never None) get the same ``common`` part, so the
        fan-out serialises each common part once and, for every device, only its own part. This default
        has no common part: each view is all its own."""
        return ((None, {}, view) for view in self.views(state, viewers))

    def is_over(self, state: State) -> bool:
        raise NotImplementedError

    def outcome(self, state: State) -> dict[str, Any] | None:
        """``None`` while the game runs; afterwards e.g. ``{"winners": [...], "scores": {...}}``."""
        raise NotImplementedError

    def outcome_when_ended(self, state: State) -> dict[str, Any] | None:
        """What the results show of a game the teacher ended before the rules did (e.g. the scores at
        that moment, with no winners); ``None``: nothing."""
        return None

    def facts(self, events: list[Event]) -> list[dict[str, Any]]:
        """Per-student learning facts in ``events`` (each names its ``player``): what was asked,
        the answer given, whether it was right, the level, category, time taken ..."""
        raise NotImplementedError

    def records_facts(self, events: list[Event]) -> bool:
        """Whether ``events`` hold any learning fact (the runtime then queues their recording). An engine
        whose facts are costly to build can answer without building them."""
        return bool(self.facts(events))

    def fact_players(self, events: list[Event]) -> set[str]:
        """The players whose learning facts ``events`` hold (asked once :meth:`records_facts` said there
        are some): the runtime queues their recording only if one of them is a student, since a computer
        player's facts are not kept. An engine whose facts are costly to build can answer without them."""
        return {fact["player"] for fact in self.facts(events)}

    def join(self, state: State, info: dict[str, Any], now: float) -> tuple[State, list[Event]]:
        """Seat a latecomer ``{"id", "name", ...}`` in a game already begun (see ``seats_latecomers``)."""
        raise IllegalAction(_("This game cannot seat a latecomer."), code="no_join")

    def refusal_fact(
        self, state: State, player: Any, action: Any, error: Any, now: float | None = None
    ) -> dict[str, Any] | None:
        """The learning fact of a refused action (``error`` is the ``IllegalAction``), or ``None``.
        ``apply`` leaves no trace of a refusal, so the runtime asks with the state it refused on."""
        return None

    def questions_shown(self, events: list[Event]) -> list[str]:
        """Bank ids of the questions ``events`` finished showing, in order (the class's rotation)."""
        return []

    def redact_action(self, state: State, player: str, action: Action) -> Action:
        """``action`` (to be applied to ``state``) without the player's own words, judged the same."""
        return action

    def bot_action(self, state: State, player: str, rng: Rng) -> Action:
        """A legal, sensible move for a computer player (its strength from the player's ``bot`` config).

        ``rng`` is the bot's own generator, not the game's: bot choices are recorded in the action log
        like anyone's, so replay never re-asks the bot."""
        raise NotImplementedError

    # Shared, not overridden -------------------------------------------------------------------

    def deadline(self, state: State) -> float | None:
        return deadline_of(state)


def replay(game: Game, config: dict[str, Any], seed: str, log: Iterable[dict[str, Any]]) -> State:
    """Rebuild a state from its seed and action log.

    Log entries are ``{"kind": "setup", "at": t}`` (optional, first), ``{"kind": "action", "player": p,
    "action": a, "at": t}``, ``{"kind": "deadline", "at": t}`` and the runtime's clock controls
    ``{"kind": "pause"|"resume", "at": t}`` / ``{"kind": "extend", "seconds": s}``, and a latecomer
    seated mid-game ``{"kind": "join", "info": {"id", "name", ...}, "at": t}`` (see ``Game.join``).

    A logged action is applied without :func:`refuse_after_deadline`: the log is the record of what was
    accepted, and logs stored before engines refused late moves may hold a move made after its deadline
    (the deadline entry came later). Every other rule still applies, so a tampered log still fails.
    """
    entries = list(log)
    start = entries[0]["at"] if entries and entries[0].get("kind") == "setup" else 0.0
    state = game.setup(config, seed, now=start)
    for entry in entries:
        state, _events = apply_log_entry(game, state, entry)
    return state


def pseudonymised(
    game: Game, config: dict[str, Any], seed: str, log: Iterable[dict[str, Any]], player: str, name: str
) -> tuple[dict[str, Any], list[dict[str, Any]], State, list[list[Event]]]:
    """The table as if ``player`` had been called ``name`` and had written nothing in their own words
    (a student whose data was erased): the config, the log entries, the final state and each entry's
    events, all replayed from the seed. Their every move is still there and judged as before (see
    ``Game.redact_action``), so the replay reaches the same outcome under the new name."""
    config = clone(config)
    for seat in config.get("players", []):
        if seat.get("id") == player:
            seat["name"] = name
    entries = [clone(entry) for entry in log]
    start = entries[0]["at"] if entries and entries[0].get("kind") == "setup" else 0.0
    state = game.setup(config, seed, now=start)
    events_of_entries: list[list[Event]] = []
    for entry in entries:
        if entry["kind"] == "action" and entry.get("player") == player:
            entry["action"] = game.redact_action(state, player, entry["action"])
        elif entry["kind"] == "join" and entry["info"].get("id") == player:
            entry["info"]["name"] = name
        state, events = apply_log_entry(game, state, entry)
        events_of_entries.append(events)
    return config, entries, state, events_of_entries


def apply_log_entry(game: Game, state: State, entry: dict[str, Any]) -> tuple[State, list[Event]]:
    kind = entry["kind"]
    if kind == "setup":
        return state, []
    if kind == "action":
        with _replaying_log():
            return game.apply(state, entry["player"], entry["action"], entry["at"])
    if kind == "deadline":
        return game.on_deadline(state, entry["at"])
    if kind == "join":
        return game.join(state, entry["info"], entry["at"])
    state = _clocks_copied(state)
    if kind == "pause":
        clock_pause(state, entry["at"])
    elif kind == "resume":
        clock_resume(state, entry["at"])
    elif kind == "extend":
        clock_extend(state, entry["seconds"])
    else:
        raise ValueError(f"unknown log entry kind {kind!r}")
    return state, []


def _clocks_copied(state: State) -> State:
    """The state with new clock dicts, for a pause, resume or extend, which change nothing else: a whole
    copy (a Word Up table's includes its question bank) made a homework attempt's three clock entries,
    at its start, its device's arrival and its leaving, a tenth of the attempt's cost on the server."""
    copied = dict(state)
    for key in ("clock", "game_clock"):
        if isinstance(copied.get(key), dict):
            copied[key] = dict(copied[key])
    return copied


def contains_value(data: Any, needle: Any) -> bool:
    """True if ``needle`` occurs anywhere in ``data`` (as a value, a key, or inside a string).

    Used by secret scans: a view must not contain a hidden answer in any form.
    """
    if isinstance(needle, str):
        return needle in canonical_json(data)
    if isinstance(data, dict):
        return any(contains_value(k, needle) or contains_value(v, needle) for k, v in data.items())
    if isinstance(data, (list, tuple)):
        return any(contains_value(item, needle) for item in data)
    return data == needle


def bot_moves(
    game: Game,
    config: dict[str, Any],
    seed: str,
    *,
    bot_seed: str | None = None,
    start: float = 0.0,
    step_seconds: float = 1.0,
) -> Iterator[tuple[State, dict[str, Any], list[Event]]]:
    """A game with every player a bot, one step at a time: the set-up state with its log entry, then each
    new state with the log entry that made it and its events, until the game is over.

    Time is simulated: each action takes ``step_seconds``; when nobody can act, or the next action would
    come at or after the phase deadline (and be refused as too late), the clock jumps to the deadline and
    the deadline rule fires. Deterministic for the same arguments.
    """
    bot_rng = Rng(bot_seed if bot_seed is not None else f"bot:{seed}")
    now = start
    state = game.setup(config, seed, now=now)
    yield state, {"kind": "setup", "at": now}, []
    while not game.is_over(state):
        players = game.current_players(state)
        due = phase_deadline(state)
        if players and (due is None or now + step_seconds < due):
            player = players[bot_rng.below(len(players))]
            action = game.bot_action(state, player, bot_rng)
            now += step_seconds
            entry = {"kind": "action", "player": player, "action": action, "at": now}
        else:
            deadline = due if players else game.deadline(state)
            if deadline is None:
                raise RuntimeError(f"{game.name}: nobody can act and no deadline is set")
            now = max(now, deadline)
            entry = {"kind": "deadline", "at": now}
        state, events = apply_log_entry(game, state, entry)
        yield state, entry, events


def play_with_bots(
    game: Game,
    config: dict[str, Any],
    seed: str,
    *,
    bot_seed: str | None = None,
    start: float = 0.0,
    step_seconds: float = 1.0,
    max_steps: int = 20000,
) -> tuple[State, list[dict[str, Any]], list[Event]]:
    """Play a whole game with every player a bot (``bot_moves``); return the final state, the log and all
    events. A game still going after ``max_steps`` moves is an error."""
    log: list[dict[str, Any]] = []
    events: list[Event] = []
    steps = bot_moves(game, config, seed, bot_seed=bot_seed, start=start, step_seconds=step_seconds)
    for moves, (state, entry, new_events) in enumerate(steps):
        if moves >= max_steps:
            break
        log.append(entry)
        events.extend(new_events)
        if game.is_over(state):
            return state, log, events
    raise RuntimeError(f"{game.name}: game did not end within {max_steps} steps")
