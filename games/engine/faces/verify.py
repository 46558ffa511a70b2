"""Check a finished match from its seed: the commitment, and every answer and result in the log.

``verify(config, seed, salt, commitment, log)`` (the package's, which passes its engine to
:func:`verify_with`) is pure. ``log`` is the runtime's action log
(``{"kind": "action" | "deadline" | ..., ...}`` entries, as for ``core.replay``). An entry may carry
``"events"``: the events the server sent when it applied that entry. Each recorded answer, naming and
round result is compared with what the faces drawn from the seed give; without recorded events the
replay still recomputes every answer (returned in ``"answers"``) for a person to compare by eye.

Each problem is in ``report["problems"]`` as an English sentence and in ``report["problem_details"]`` as
``{"message": template, "params": {...}}``, so a web page can translate the template before filling it in.
``record_problems(record)`` checks the shape of a whole match record (the format ``manage.py verify_faces``
and the verify page read) before it is verified.
"""

from __future__ import annotations

from typing import Any

from .. import core
from ..core import IllegalAction, _
from .rules import commitment_of

RECORD_FORMAT = "classplay/faces-match/1"
RECORD_FIELDS = {"config": dict, "seed": str, "salt": str, "commitment": str, "log": list}
#: A real match has well under a thousand log entries; a pasted record may not make the server replay more.
MAX_LOG_ENTRIES = 5000
MAX_SEED_LENGTH = 200

# For each event type, the fields that must match between the log and the replay.
CHECKED_FIELDS = {
    "asked": ("player", "question", "answer"),
    "named": ("player", "face", "correct"),
    "round_over": ("round", "winner", "faces"),
    "match_over": ("winner", "wins"),
}


def _problem(report: dict[str, Any], message: str, **params: Any) -> None:
    report["problems"].append(message % params if params else message)
    report["problem_details"].append({"message": message, "params": params})


def record_problems(record: Any) -> list[dict[str, Any]]:
    """Why ``record`` is not a Line-Up match record (``{"message", "params"}`` each; empty when it is one).

    An integer seed is accepted and turned into its string (JSON writers sometimes do that)."""
    if not isinstance(record, dict):
        return [{"message": _("This is not a match record (a JSON object)."), "params": {}}]
    if record.get("game", "faces") != "faces":
        return [
            {
                "message": _("This is a record of %(game)s, not of a Line-Up match."),
                "params": {"game": repr(record["game"])},
            }
        ]
    kinds = {dict: _("object"), str: _("string"), list: _("list")}
    for field, kind in RECORD_FIELDS.items():
        if field not in record:
            return [{"message": _("The match record has no %(field)s."), "params": {"field": repr(field)}}]
        if field == "seed" and isinstance(record[field], int) and not isinstance(record[field], bool):
            record[field] = str(record[field])
        if not isinstance(record[field], kind):
            return [
                {
                    "message": _("%(field)s must be a JSON %(kind)s."),
                    "params": {"field": repr(field), "kind": kinds[kind]},
                }
            ]
    if len(record["seed"]) > MAX_SEED_LENGTH:
        return [{"message": _("The seed is too long to be a Line-Up seed."), "params": {}}]
    if len(record["log"]) > MAX_LOG_ENTRIES:
        return [
            {
                "message": _("The log has %(count)s entries: more than a match can have (%(limit)s)."),
                "params": {"count": len(record["log"]), "limit": MAX_LOG_ENTRIES},
            }
        ]
    return []


def verify_with(
    game: core.Game, config: dict[str, Any], seed: str, salt: str, commitment: str, log: list[dict[str, Any]]
) -> dict[str, Any]:
    """The report on a match, replayed with ``game`` (the Faces engine; passed in because the package
    that assembles the engine imports this module)."""
    report: dict[str, Any] = {
        "ok": False,
        "commitment_ok": commitment_of(str(seed), str(salt)) == commitment,
        "expected_commitment": commitment_of(str(seed), str(salt)),
        "problems": [],
        "problem_details": [],
        "answers": [],
        "rounds": [],
        "winner": None,
    }
    if not report["commitment_ok"]:
        _problem(
            report,
            _(
                "The commitment shown at the start is not SHA-256(salt:seed) for this seed and salt: "
                "the seed or the salt is not the one fixed before the match."
            ),
        )
    try:
        state = game.setup(config, seed, now=_start_time(log))
    except (ValueError, TypeError, KeyError) as error:
        _problem(report, _("The match settings are not valid: %(error)s."), error=str(error))
        return report
    if state["salt"] != salt:
        _problem(report, _("The salt is not the one this seed and these settings give."))
    report["rounds"] = [
        {"round": index + 1, "faces": dict(round_["secret"])} for index, round_ in enumerate(state["rounds"])
    ]
    for number, entry in enumerate(log):
        state, problem = _check_entry(game, state, number, entry, report)
        if problem:
            _problem(report, problem[0], **problem[1])
            break
    report["winner"] = (state.get("result") or {}).get("winner")
    report["rounds"] = report["rounds"][: len(state["history"]) + (state["phase"] != "over")]
    report["final_state_hash"] = core.state_hash(state)
    report["ok"] = not report["problems"]
    return report


def _start_time(log: list[dict[str, Any]]) -> float:
    if log and isinstance(log[0], dict) and log[0].get("kind") == "setup":
        return log[0].get("at", 0.0)
    return 0.0


Problem = tuple[str, dict[str, Any]]


def _check_entry(
    game: core.Game, state: dict[str, Any], number: int, entry: Any, report: dict[str, Any]
) -> tuple[dict[str, Any], Problem | None]:
    if not isinstance(entry, dict) or "kind" not in entry:
        return state, (_("Log entry %(number)s is not a log entry."), {"number": number})
    try:
        new, events = core.apply_log_entry(game, state, {k: v for k, v in entry.items() if k != "events"})
    except IllegalAction as error:
        return state, (
            _("Log entry %(number)s is a move the rules refuse: %(reason)s"),
            {"number": number, "reason": str(error)},
        )
    except Exception as error:  # a verify page takes any pasted log: explain, never crash
        return state, (
            _("Log entry %(number)s cannot be replayed (%(error)s)."),
            {"number": number, "error": repr(error)},
        )
    for event in events:
        if event["type"] == "asked":
            report["answers"].append({key: event[key] for key in ("round", "player", "question", "answer")})
    if "events" in entry:
        problem = _compare(number, entry["events"], events)
        if problem:
            return new, problem
    return new, None


def _compare(number: int, recorded: Any, replayed: list[dict[str, Any]]) -> Problem | None:
    if not isinstance(recorded, list):
        return _("Log entry %(number)s: its recorded events are not a list."), {"number": number}
    wanted = [event for event in replayed if event["type"] in CHECKED_FIELDS]
    claimed = [event for event in recorded if isinstance(event, dict) and event.get("type") in CHECKED_FIELDS]
    if len(wanted) != len(claimed):
        return (
            _(
                "Log entry %(number)s: the log records %(claimed)s answers or results, "
                "the replay gives %(wanted)s."
            ),
            {"number": number, "claimed": len(claimed), "wanted": len(wanted)},
        )
    for have, want in zip(claimed, wanted, strict=True):
        if have["type"] != want["type"]:
            return (
                _("Log entry %(number)s: the log records a %(claimed)s, the replay gives a %(wanted)s."),
                {"number": number, "claimed": repr(have["type"]), "wanted": repr(want["type"])},
            )
        for field in CHECKED_FIELDS[want["type"]]:
            if have.get(field) != want[field]:
                return (
                    _(
                        "Log entry %(number)s: the log says %(event)s %(field)s = %(claimed)s, but the faces "
                        "drawn from the seed give %(wanted)s."
                    ),
                    {
                        "number": number,
                        "event": want["type"],
                        "field": field,
                        "claimed": repr(have.get(field)),
                        "wanted": repr(want[field]),
                    },
                )
    return None
