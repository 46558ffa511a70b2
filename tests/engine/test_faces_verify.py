"""Line-Up (faces): a finished match verifies from its seed, and tampering is detected with a reason."""

from __future__ import annotations

import copy
import hashlib

import pytest

from games.engine.faces import verify
from tests.loading import engine_module

h = engine_module("test_faces_helpers")
GAME, P1, P2 = h.GAME, h.P1, h.P2
SEED = "verify-seed-5b2e81d07c"
CONFIG = h.config("hard", "medium")


@pytest.fixture(scope="module")
def match():
    state, log = h.play_logged(CONFIG, SEED)
    return state, log


def _entries_with(log, event_type):
    return [i for i, entry in enumerate(log) if any(e["type"] == event_type for e in entry.get("events", []))]


def test_an_honest_match_verifies(match):
    state, log = match
    report = verify(CONFIG, SEED, state["salt"], state["commitment"], log)
    assert report["ok"] and report["commitment_ok"] and report["problems"] == []
    assert report["winner"] == GAME.outcome(state)["winners"][0]
    assert [r["faces"] for r in report["rounds"]] == [record["faces"] for record in state["history"]]
    recorded = [
        {k: e[k] for k in ("round", "player", "question", "answer")}
        for entry in log
        for e in entry.get("events", [])
        if e["type"] == "asked"
    ]
    assert report["answers"] == recorded and recorded


def test_a_student_can_recompute_the_commitment(match):
    state, _log = match
    assert hashlib.sha256(f"{state['salt']}:{SEED}".encode()).hexdigest() == state["commitment"]


def test_a_log_without_recorded_events_still_replays_and_lists_every_answer(match):
    state, log = match
    bare = [{k: v for k, v in entry.items() if k != "events"} for entry in log]
    report = verify(CONFIG, SEED, state["salt"], state["commitment"], bare)
    assert report["ok"] and len(report["answers"]) == len(_entries_with(log, "asked"))


def test_a_changed_seed_is_detected(match):
    state, log = match
    report = verify(CONFIG, SEED + "x", state["salt"], state["commitment"], log)
    assert not report["ok"] and not report["commitment_ok"]
    assert "commitment" in report["problems"][0]


def test_a_changed_salt_is_detected(match):
    state, log = match
    report = verify(CONFIG, SEED, "0" * 64, state["commitment"], log)
    assert not report["ok"] and not report["commitment_ok"]


def test_a_changed_answer_is_detected(match):
    state, log = match
    tampered = copy.deepcopy(log)
    index = _entries_with(tampered, "asked")[0]
    event = next(e for e in tampered[index]["events"] if e["type"] == "asked")
    event["answer"] = not event["answer"]
    report = verify(CONFIG, SEED, state["salt"], state["commitment"], tampered)
    assert not report["ok"]
    assert f"Log entry {index}" in report["problems"][0] and "answer" in report["problems"][0]


def test_a_changed_face_at_the_end_of_a_round_is_detected(match):
    state, log = match
    tampered = copy.deepcopy(log)
    index = _entries_with(tampered, "round_over")[0]
    event = next(e for e in tampered[index]["events"] if e["type"] == "round_over")
    board = [f["id"] for f in state["rounds"][0]["board"]]
    event["faces"][P1] = next(f for f in board if f != event["faces"][P1])
    report = verify(CONFIG, SEED, state["salt"], state["commitment"], tampered)
    assert not report["ok"] and "faces" in report["problems"][0]


def test_a_changed_named_face_is_detected(match):
    state, log = match
    tampered = copy.deepcopy(log)
    index = _entries_with(tampered, "named")[0]
    named = tampered[index]["action"]["face"]
    tampered[index]["action"]["face"] = next(f["id"] for f in state["rounds"][0]["board"] if f["id"] != named)
    report = verify(CONFIG, SEED, state["salt"], state["commitment"], tampered)
    assert not report["ok"] and f"Log entry {index}" in report["problems"][0]


def test_a_changed_question_is_detected(match):
    state, log = match
    tampered = copy.deepcopy(log)
    index = _entries_with(tampered, "asked")[1]
    asked = tampered[index]["action"]["question"]
    tampered[index]["action"]["question"] = "grey_hair" if asked != "grey_hair" else "red_hair"
    report = verify(CONFIG, SEED, state["salt"], state["commitment"], tampered)
    assert not report["ok"] and f"Log entry {index}" in report["problems"][0]


def test_a_changed_winner_is_detected(match):
    state, log = match
    tampered = copy.deepcopy(log)
    event = tampered[-1]["events"][-1]
    assert event["type"] == "match_over"
    event["winner"] = P2 if event["winner"] == P1 else P1
    report = verify(CONFIG, SEED, state["salt"], state["commitment"], tampered)
    assert not report["ok"] and "winner" in report["problems"][0]


@pytest.mark.parametrize(
    "junk",
    [
        [None],
        [{"kind": "dance"}],
        [{"kind": "action", "player": P1}],
        [{"kind": "action", "player": "p9", "action": {"type": "resign"}, "at": 1.0}],
        [{"kind": "setup", "at": 0.0, "events": "lots"}],
    ],
)
def test_junk_logs_give_a_reason_not_a_crash(match, junk):
    state, _log = match
    report = verify(CONFIG, SEED, state["salt"], state["commitment"], junk)
    assert not report["ok"] and report["problems"]


def test_bad_settings_give_a_reason_not_a_crash(match):
    state, log = match
    report = verify({"players": []}, SEED, state["salt"], state["commitment"], log)
    assert not report["ok"] and "settings" in report["problems"][-1]
