"""Check a finished match from its seed: the commitment, and every answer and result in the log.

``verify(config, seed, salt, commitment, log)`` is pure. ``log`` is the runtime's action log
(``{"kind": "action" | "deadline" | ..., ...}`` entries, as for ``core.replay``). An entry may carry
``"events"``: the events the server sent when it applied that entry. Each recorded answer, naming and
round result is compared with what the faces drawn from the seed give; without recorded events the
replay still recomputes every answer (returned in ``"answers"``) for a person to compare by eye.
"""

from __future__ import annotations

from typing import Any

from .. import core
from ..core import IllegalAction
from .rules import Faces, commitment_of

# For each event type, the fields that must match between the log and the replay.
CHECKED_FIELDS = {
    "asked": ("player", "question", "answer"),
    "named": ("player", "face", "correct"),
    "round_over": ("round", "winner", "faces"),
    "match_over": ("winner", "wins"),
}


def verify(
    config: dict[str, Any], seed: str, salt: str, commitment: str, log: list[dict[str, Any]]
) -> dict[str, Any]:
    game = Faces()
    report: dict[str, Any] = {
        "ok": False,
        "commitment_ok": commitment_of(str(seed), str(salt)) == commitment,
        "expected_commitment": commitment_of(str(seed), str(salt)),
        "problems": [],
        "answers": [],
        "rounds": [],
        "winner": None,
    }
    if not report["commitment_ok"]:
        report["problems"].append(
            "The commitment shown at the start is not SHA-256(salt:seed) for this seed and salt: "
            "the seed or the salt is not the one fixed before the match."
        )
    try:
        state = game.setup(config, seed, now=_start_time(log))
    except (ValueError, TypeError, KeyError) as error:
        report["problems"].append(f"The match settings are not valid: {error}.")
        return report
    if state["salt"] != salt:
        report["problems"].append("The salt is not the one this seed and these settings give.")
    report["rounds"] = [
        {"round": index + 1, "faces": dict(round_["secret"])} for index, round_ in enumerate(state["rounds"])
    ]
    for number, entry in enumerate(log):
        state, problem = _check_entry(game, state, number, entry, report)
        if problem:
            report["problems"].append(problem)
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


def _check_entry(
    game: Faces, state: dict[str, Any], number: int, entry: Any, report: dict[str, Any]
) -> tuple[dict[str, Any], str | None]:
    if not isinstance(entry, dict) or "kind" not in entry:
        return state, f"Log entry {number} is not a log entry."
    try:
        new, events = core.apply_log_entry(game, state, {k: v for k, v in entry.items() if k != "events"})
    except IllegalAction as error:
        return state, f"Log entry {number} is a move the rules refuse: {error}"
    except Exception as error:  # a verify page takes any pasted log: explain, never crash
        return state, f"Log entry {number} cannot be replayed ({error!r})."
    for event in events:
        if event["type"] == "asked":
            report["answers"].append({key: event[key] for key in ("round", "player", "question", "answer")})
    if "events" in entry:
        problem = _compare(number, entry["events"], events)
        if problem:
            return new, problem
    return new, None


def _compare(number: int, recorded: Any, replayed: list[dict[str, Any]]) -> str | None:
    if not isinstance(recorded, list):
        return f"Log entry {number}: its recorded events are not a list."
    wanted = [event for event in replayed if event["type"] in CHECKED_FIELDS]
    claimed = [event for event in recorded if isinstance(event, dict) and event.get("type") in CHECKED_FIELDS]
    if len(wanted) != len(claimed):
        return (
            f"Log entry {number}: the log records {len(claimed)} answers or results, "
            f"the replay gives {len(wanted)}."
        )
    for have, want in zip(claimed, wanted, strict=True):
        if have["type"] != want["type"]:
            return (
                f"Log entry {number}: the log records a {have['type']!r}, "
                f"the replay gives a {want['type']!r}."
            )
        for field in CHECKED_FIELDS[want["type"]]:
            if have.get(field) != want[field]:
                return (
                    f"Log entry {number}: the log says {want['type']} {field} = {have.get(field)!r}, but the "
                    f"faces drawn from the seed give {want[field]!r}."
                )
    return None
