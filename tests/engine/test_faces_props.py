"""Line-Up (faces) properties: random matches always end with the invariants intact, replay is exact,
junk actions are refused without side effects, and no view shows a secret it must not."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import core
from games.engine.core import IllegalAction
from games.engine.faces.features import BOARD_SIZE
from tests.loading import engine_module

h = engine_module("test_faces_helpers")
GAME, P1, P2 = h.GAME, h.P1, h.P2
PHASES = {"ask", "reveal", "over"}


# ==================================================================================================
# Invariants, checked after every step
# ==================================================================================================


def check_invariants(state):
    assert state["phase"] in PHASES
    assert json.loads(json.dumps(state)) == state
    settings_ = state["settings"]
    assert all(0 <= wins <= settings_["rounds_to_win"] for wins in state["wins"].values())
    assert sum(state["wins"].values()) == len(state["history"])
    round_ = state["rounds"][state["round"]]
    board_ids = [face["id"] for face in round_["board"]]
    for pid in state["players"]:
        left = state["left"][pid]
        assert left and set(left) <= set(board_ids) and len(set(left)) == len(left)
        # answers are the truth, so the face you are looking for is never greyed out
        assert round_["secret"][h.other(pid)] in left
        questions = [entry["question"] for entry in state["asked"][pid]]
        assert len(questions) == len(set(questions)), "a question is asked at most once a round"
        assert len(left) == BOARD_SIZE - sum(entry["removed"] for entry in state["asked"][pid])
        for entry in state["asked"][pid]:
            assert entry["kept"] > 0 and entry["removed"] > 0 and 0 < entry["quality"] <= 1
    if state["phase"] == "ask":
        assert GAME.current_players(state) == [state["turn"]]
        assert any(a["type"] in ("ask", "name") for a in GAME.legal_actions(state, state["turn"]))
    if GAME.is_over(state):
        result = state["result"]
        assert GAME.current_players(state) == []
        assert result["reason"] in ("rounds", "resigned", "timeout")
        if result["reason"] == "rounds":
            assert state["wins"][result["winner"]] == settings_["rounds_to_win"]
    else:
        assert GAME.outcome(state) is None
        assert max(state["wins"].values()) < settings_["rounds_to_win"]
        assert GAME.current_players(state) or GAME.deadline(state) is not None, "the game never stalls"


# ==================================================================================================
# Random legal play
# ==================================================================================================

configs = st.fixed_dictionaries(
    {
        "timeout": st.sampled_from(["lose_match", "lose_round", "pass"]),
        "rounds_to_win": st.sampled_from([1, 2, 3]),
        "turn_seconds": st.sampled_from([None, 30, 60]),
        "review_seconds": st.sampled_from([None, 5]),
    }
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.text(min_size=1, max_size=20), settings_=configs, data=st.data())
def test_random_legal_play_always_ends_with_invariants_intact(seed, settings_, data):
    cfg = h.config(**settings_)
    now = 0.0
    state = GAME.setup(cfg, seed, now=now)
    log = [{"kind": "setup", "at": now}]
    check_invariants(state)
    for _step in range(400):
        if GAME.is_over(state):
            break
        players = GAME.current_players(state)
        deadline = GAME.deadline(state)
        fire = deadline is not None and (not players or data.draw(st.integers(0, 14)) == 0)
        if fire:
            now = max(now, deadline)
            entry = {"kind": "deadline", "at": now}
        else:
            player = data.draw(st.sampled_from(players))
            actions = GAME.legal_actions(state, player)
            # resigning ends everything: keep it rare so matches get played out
            moves = [a for a in actions if a["type"] != "resign"] or actions
            if data.draw(st.integers(0, 60)) == 0:
                moves = actions
            action = data.draw(st.sampled_from(moves))
            now += data.draw(st.sampled_from([0.5, 1.0, 5.0]))
            entry = {"kind": "action", "player": player, "action": action, "at": now}
            if deadline is not None and now >= deadline:  # too late to move: the deadline fires first
                now = deadline
                entry = {"kind": "deadline", "at": now}
        before = core.state_hash(state)
        new_state, _events = core.apply_log_entry(GAME, state, entry)
        assert core.state_hash(state) == before, "apply/on_deadline never mutate their input"
        state = new_state
        log.append(entry)
        check_invariants(state)
    assert GAME.is_over(state)
    replayed = core.replay(GAME, cfg, seed, log)
    assert core.state_hash(replayed) == core.state_hash(state)


@settings(max_examples=15, deadline=None)
@given(
    seed=st.text(min_size=1, max_size=12),
    levels=st.tuples(*[st.sampled_from(["easy", "medium", "hard"])] * 2),
)
def test_bots_play_every_configuration_to_the_end_deterministically(seed, levels):
    cfg = h.config(*levels)
    state, log, _events = core.play_with_bots(GAME, cfg, seed)
    assert GAME.is_over(state) and GAME.outcome(state)["reason"] == "rounds"
    again, _log, _events = core.play_with_bots(GAME, cfg, seed)
    assert core.state_hash(again) == core.state_hash(state)
    assert core.state_hash(core.replay(GAME, cfg, seed, log)) == core.state_hash(state)


def test_humans_without_bot_level_get_a_sensible_default_bot():
    state, _log, _events = core.play_with_bots(GAME, h.config(), h.SEED)
    assert GAME.is_over(state)


# ==================================================================================================
# Fuzz: junk actions
# ==================================================================================================

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
junk_actions = st.one_of(
    json_values,
    st.fixed_dictionaries({"type": json_values}),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["ask", "name", "resign", "ready"])},
        optional={
            "question": json_values,
            "face": json_values,
            "extra": json_values,
        },
    ),
    st.fixed_dictionaries({"type": st.just("ask"), "question": st.text(min_size=1000, max_size=5000)}),
    st.fixed_dictionaries({"type": st.just("name"), "face": st.text(max_size=3)}),
)


def _states():
    state = h.new_game()
    asked, _ = h.ask(state, state["turn"], "glasses")
    review, _ = h.win_round(state, P1)
    over, _ = GAME.apply(state, P2, {"type": "resign"}, 2.0)
    return [state, asked, review, over]


STATES = _states()


@settings(max_examples=200, deadline=None)
@given(
    index=st.integers(0, len(STATES) - 1),
    player=st.one_of(st.sampled_from([P1, P2, "p3", "", "@teacher"]), json_values),
    action=junk_actions,
)
def test_junk_actions_raise_illegal_action_only_and_change_nothing(index, player, action):
    state = STATES[index]
    before = core.state_hash(state)
    try:
        new_state, _events = GAME.apply(state, player, action, 3.0)
    except IllegalAction as refused:
        assert refused.message and refused.code
    else:
        # the rare junk that is a real legal move (e.g. {"type": "resign"}) must be one
        assert action in GAME.legal_actions(state, player) or action == {"type": "resign"}
        check_invariants(new_state)
    assert core.state_hash(state) == before


# ==================================================================================================
# Secret scan
# ==================================================================================================


def _swap_secrets(state, players, from_round):
    """The same state with other secret faces (and other future boards) for ``players``: a view that
    is unchanged by this cannot have revealed them."""
    altered = core.clone(state)
    for index in range(from_round, len(altered["rounds"])):
        round_ = altered["rounds"][index]
        if index > altered["round"]:
            round_["board"] = list(reversed(round_["board"]))
        ids = [face["id"] for face in round_["board"]]
        for pid in players:
            current = round_["secret"][pid]
            candidates = ids
            if index == altered["round"]:
                # keep what the asker has already learnt true: any face still on their board will do
                candidates = altered["left"][h.other(pid)]
            round_["secret"][pid] = next((f for f in candidates if f != current), current)
    return altered


def _scan(state):
    over = GAME.is_over(state)
    secrets = [state["rng"]["seed"], state["salt"]] if not over else []
    in_round = state["phase"] == "ask"
    for role, viewer in h.viewers(state).items():
        view = GAME.view(state, viewer)
        json.dumps(view)
        assert not core.contains_value(view, state["rng"]), role
        for secret in secrets:
            assert not core.contains_value(view, secret), (role, "seed or salt before the end")
        # while a round is on, a player must not learn the other's face, nor anyone else either face
        secret_holders = [h.other(role)] if role in (P1, P2) else [P1, P2]
        hidden = secret_holders if in_round else []
        future = state["round"] + 1
        if hidden:
            altered = _swap_secrets(state, hidden, state["round"])
            assert GAME.view(altered, viewer) == view, (role, "a view depends on a secret face")
        if not over and future < len(state["rounds"]):
            altered = _swap_secrets(state, [P1, P2], future)
            assert GAME.view(altered, viewer) == view, (role, "a view depends on a future round")
        if role in ("projector", "spectator"):
            text = json.dumps(view)
            assert '"board"' not in text and '"faces":' not in text and "description" not in text
    _scan_players_common_part(state, in_round)


def _scan_players_common_part(state, in_round):
    """The part of a view both players share (the fan-out sends it to both) shows neither's face."""
    viewers = h.viewers(state)
    (key, common, _own), (_key, other_common, _other_own) = GAME.view_parts(state, [viewers[P1], viewers[P2]])
    assert key == "player" and other_common is common
    if in_round:
        altered = _swap_secrets(state, [P1, P2], state["round"])
        assert next(GAME.view_parts(altered, [viewers[P1]]))[1] == common, "the common part shows a face"


def test_secret_scan_over_every_view_of_simulated_matches():
    for i, levels in enumerate([("hard", "easy"), ("medium", "medium"), ("easy", "hard"), ("hard", "hard")]):
        cfg = h.config(*levels, timeout="lose_round" if i % 2 else "lose_match")
        state, log = h.play_logged(cfg, f"scan-seed-{i}-0f3a9c")
        replayed = GAME.setup(cfg, f"scan-seed-{i}-0f3a9c", now=0.0)
        _scan(replayed)
        for entry in log[1:]:
            replayed, _events = core.apply_log_entry(
                GAME, replayed, {k: v for k, v in entry.items() if k != "events"}
            )
            _scan(replayed)
        assert core.state_hash(replayed) == core.state_hash(state)


def test_events_before_the_end_carry_no_seed_and_no_unrevealed_face():
    cfg = h.config("hard", "easy")
    seed = "events-scan-seed-77ab"
    state, log = h.play_logged(cfg, seed)
    for entry in log[1:]:
        for event in entry.get("events", []):
            if event["type"] != "match_over":
                assert not core.contains_value(event, seed)
                assert not core.contains_value(event, state["salt"])
            if event["type"] in ("asked", "named", "ready", "round_started", "timeout"):
                assert "faces" not in event
