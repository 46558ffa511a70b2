"""Mind the Lines property tests: random legal games, replay, junk actions and the secret scan."""

from __future__ import annotations

import json
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import core
from games.engine.core import TEACHER, IllegalAction
from games.engine.mindlines import MindTheLines, rules
from games.engine.mindlines import boards as mtl_boards

GAME = MindTheLines()
PHASES = {"looking", "scribbling", "prophesying", "reveal", "over"}
SEEDS = st.text(alphabet=string.ascii_letters + string.digits, min_size=1, max_size=10)


def config(players: int, bot: float | None = None, **extra) -> dict:
    concepts = [
        {"id": f"prop-{level}-{i:03d}", "text": f"Notion {level} {i:03d}", "difficulty": level, "theme": "t"}
        for level in ("easy", "hard")
        for i in range(80)
    ]
    seats = [{"id": f"kid{i}", **({"bot": bot} if bot is not None else {})} for i in range(players)]
    return {"players": seats, "concepts": concepts, **extra}


# --------------------------------------------------------------------------------------------------
# Invariants that hold after every step
# --------------------------------------------------------------------------------------------------


def check_invariants(state: dict) -> None:
    assert json.loads(json.dumps(state)) == state
    players = state["players"]
    drawn = rules.drawn_per_round(len(players))
    assert state["phase"] in PHASES and 0 <= state["round"] < rules.ROUNDS
    hands = [cid for player in players for cid in state["hands"][player]]
    assert all(len(state["hands"][p]) == rules.concepts_per_player(len(players)) for p in players)
    assert len(state["decoys"]) == len(hands) == drawn
    assert sorted(state["cards"]) == sorted(hands + state["decoys"]) and len(set(state["cards"])) == 2 * drawn
    for player in players:
        check_drawing(state, player)
    excluded = [entry["card"] for entry in state["excluded"]]
    assert len(excluded) == len(set(excluded)) == min(state["turn"], drawn)
    for entry in state["excluded"]:
        assert state["cards"][entry["card"]] not in state["hands"][entry["player"]]
    assert state["errors"] == sum(summary["errors"] for summary in state["history"])
    assert [summary["round"] for summary in state["history"]] == list(range(1, len(state["history"]) + 1))
    if state["phase"] == "over":
        result = state["result"]
        assert result["won"] == (state["errors"] <= len(players))
        assert result["ended_early"] == (result["rounds_played"] < rules.ROUNDS)
        assert result["ended_early"] <= (not result["won"])  # only a lost game ends early
    else:
        assert state["errors"] <= len(players)  # more would have ended the game
        assert set(GAME.current_players(state)) <= set(players)
        # never stalled: someone can act, or a deadline will move the game on
        assert GAME.current_players(state) or GAME.deadline(state) is not None


def check_drawing(state: dict, player: str) -> None:
    drawing = state["drawings"][player]
    lines = mtl_boards.side_set(state["board_seed"], rules.BOARD_COUNT, drawing["board"], drawing["side"])
    assert len(drawing["strokes"]) <= rules.MAX_STROKES and len(drawing["undo"]) <= rules.UNDO_DEPTH
    halves = 0
    for stroke in drawing["strokes"]:
        assert stroke and mtl_boards.pieces_of(mtl_boards.halves_of_stored(stroke)) == stroke
        assert all(tuple(piece[:4]) in lines for piece in stroke)
        halves += len(mtl_boards.halves_of_stored(stroke))
    assert halves <= rules.MAX_HALVES_PER_DRAWING


# --------------------------------------------------------------------------------------------------
# Random legal games
# --------------------------------------------------------------------------------------------------


def random_game(data, players: int, seed: str, max_steps: int = 400):
    cfg = config(players)
    state = GAME.setup(cfg, seed, now=0.0)
    log = [{"kind": "setup", "at": 0.0}]
    now = 0.0
    everyone = [*state["players"], TEACHER]
    for step in range(max_steps + 200):
        if GAME.is_over(state):
            break
        movers = GAME.current_players(state)
        fire = step >= max_steps or not movers or data.draw(st.integers(0, 11), label="roll") == 0
        if fire:
            deadline = GAME.deadline(state)
            now = max(now, deadline if deadline is not None else now)
            entry = {"kind": "deadline", "at": now}
        else:
            player = data.draw(st.sampled_from(everyone if step % 3 else movers), label="player")
            actions = GAME.legal_actions(state, player)
            if not actions:
                continue
            now += data.draw(st.integers(0, 4), label="seconds")
            action = data.draw(st.sampled_from(actions), label="action")
            entry = {"kind": "action", "player": player, "action": action, "at": now}
            deadline = core.phase_deadline(state)
            if player != TEACHER and deadline is not None and now >= deadline:
                entry = {"kind": "deadline", "at": now}  # too late to move: the deadline fires first
        before = core.state_hash(state)
        new_state, _events = core.apply_log_entry(GAME, state, entry)
        assert core.state_hash(state) == before, "apply/on_deadline mutated its input"
        state = new_state
        log.append(entry)
        check_invariants(state)
    return cfg, state, log


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(players=st.integers(2, 8), seed=SEEDS, data=st.data())
def test_random_legal_play_never_crashes_always_ends_and_replays(players, seed, data):
    cfg, state, log = random_game(data, players, seed)
    assert GAME.is_over(state)
    assert core.state_hash(core.replay(GAME, cfg, seed, log)) == core.state_hash(state)
    assert GAME.outcome(state) is not None


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 8), seed=SEEDS)
def test_same_seed_same_game(players, seed):
    first = core.play_with_bots(GAME, config(players, bot=0.6), seed)
    second = core.play_with_bots(GAME, config(players, bot=0.6), seed)
    assert core.state_hash(first[0]) == core.state_hash(second[0])
    assert first[1] == second[1]


def test_bots_finish_when_the_optional_timers_are_off():
    cfg = config(3, bot=0.5, look_seconds=None, exclude_seconds=None, reveal_seconds=None)
    state, _log, _events = core.play_with_bots(GAME, cfg, "no-timers")
    assert GAME.is_over(state)


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 9))
def test_many_bot_games_end_and_replay(players):
    for number in range(25):
        seed = f"slow-{players}-{number}"
        cfg = config(players, bot=number / 24)
        state, log, _events = core.play_with_bots(GAME, cfg, seed)
        check_invariants(state)
        assert core.state_hash(core.replay(GAME, cfg, seed, log)) == core.state_hash(state)


# --------------------------------------------------------------------------------------------------
# Junk actions
# --------------------------------------------------------------------------------------------------


def states_in_every_phase() -> list[dict]:
    cfg = config(3, bot=0.7)
    _final, log, _events = core.play_with_bots(GAME, cfg, "junk-states")
    state = GAME.setup(cfg, "junk-states", 0.0)
    picked: dict[tuple, dict] = {}
    for entry in log:
        state, _events = core.apply_log_entry(GAME, state, entry)
        key = (state["phase"], bool(any(d["strokes"] for d in state["drawings"].values())))
        picked.setdefault(key, state)
    return list(picked.values())


JUNK_STATES = states_in_every_phase()
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
TYPES = st.sampled_from([*rules.PLAYER_MOVES, *rules.TEACHER_MOVES, "", "READY", "x" * 5000])
FIELDS = st.sampled_from(["segments", "stroke", "side", "rotation", "card", "player", "extra", "type"])
JUNK_ACTION = st.one_of(
    JSON,
    st.builds(lambda t, fields: {**fields, "type": t}, TYPES, st.dictionaries(FIELDS, JSON, max_size=3)),
    st.builds(
        lambda t, segments: {"type": t, "segments": segments},
        st.sampled_from(["stroke", "erase"]),
        st.lists(st.lists(JSON, max_size=6), max_size=5),
    ),
    st.builds(lambda v: {"type": "stroke", "segments": [[0, 0, 1, 0]] * v}, st.integers(60, 5000)),
)
JUNK_PLAYER = st.one_of(st.sampled_from(["kid0", "kid1", "kid2", TEACHER, "kid9", ""]), JSON)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state_index=st.integers(0, len(JUNK_STATES) - 1), player=JUNK_PLAYER, action=JUNK_ACTION)
def test_junk_actions_raise_illegal_action_only_and_change_nothing(state_index, player, action):
    state = JUNK_STATES[state_index]
    before = core.state_hash(state)
    try:
        new_state, events = GAME.apply(state, player, action, 500.0)
    except IllegalAction as refusal:
        assert refusal.message and refusal.code
        json.dumps(refusal.as_dict())
    else:  # junk that happens to be a legal move: still a proper result
        check_invariants(new_state)
        json.dumps(events)
    assert core.state_hash(state) == before


def test_an_action_that_is_not_a_dict_or_has_no_type_is_refused():
    state = JUNK_STATES[0]
    for action in (None, [], "ready", {"type": 5}, {"type": None}, {}, {"kind": "ready"}):
        with pytest.raises(IllegalAction):
            GAME.apply(state, "kid0", action, 1.0)


# --------------------------------------------------------------------------------------------------
# The secret scan
# --------------------------------------------------------------------------------------------------


def viewers(state: dict) -> list[dict]:
    return [
        {"role": "projector"},
        {"role": "teacher"},
        {"role": "spectator"},
        *({"role": "player", "player": player} for player in state["players"]),
    ]


def check_no_secrets(state: dict, seed: str) -> None:
    """What no view may show right now. (``core.contains_value`` of a string is a substring test of the
    canonical JSON, so each view is serialised once and searched for every secret.)"""
    phase, round_index = state["phase"], state["round"]
    before_reveal = phase in ("looking", "scribbling", "prophesying")
    future = [cid for ids in state["plan"][round_index + 1 :] for cid in ids]
    for viewer in viewers(state):
        view = GAME.view(state, viewer)
        text = core.canonical_json(view)
        # the rng state is {"seed": seed, "n": n}: no seed in the view means no rng state either
        assert not core.contains_value(text, seed)
        assert state["board_seed"] not in text  # not a secret, but views have no reason to carry it
        secret_ids = list(future)
        if before_reveal:
            me = viewer.get("player")
            others = [cid for player, hand in state["hands"].items() if player != me for cid in hand]
            secret_ids += others + state["decoys"]
            if phase != "prophesying":  # the cards are not on the table yet
                for cid in others + state["decoys"]:
                    assert state["concepts"][cid]["text"] not in text, (viewer, phase)
        for cid in secret_ids:
            assert cid not in text, (viewer, phase, cid)
        for cid in future:
            assert state["concepts"][cid]["text"] not in text
        if phase == "prophesying":
            assert all(set(card) == {"card", "text", "excluded_by"} for card in view["prophecy"]["cards"])


def scan_whole_game(players: int, seed: str) -> None:
    cfg = config(players, bot=0.7)
    _final, log, _events = core.play_with_bots(GAME, cfg, seed)
    state = GAME.setup(cfg, seed, now=0.0)
    check_no_secrets(state, seed)
    for entry in log:
        state, _events = core.apply_log_entry(GAME, state, entry)
        check_no_secrets(state, seed)
    assert GAME.is_over(state)


@pytest.mark.parametrize("players", [2, 3, 6])  # every size, several games each: the slow test
def test_no_view_ever_shows_a_secret(players):
    scan_whole_game(players, f"hidden-seed-{players}-q7")


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 9))
def test_no_view_ever_shows_a_secret_in_many_games(players):
    for number in range(5):
        scan_whole_game(players, f"hidden-seed-{players}-{number}-w3")


def test_events_carry_no_secret_before_the_reveal():
    """Events go into the runtime's log: until the reveal they must be as public as the views."""
    cfg = config(4, bot=0.7)
    _final, log, _events = core.play_with_bots(GAME, cfg, "event-scan")
    state = GAME.setup(cfg, "event-scan", 0.0)
    for entry in log:
        secrets = [cid for hand in state["hands"].values() for cid in hand] + state["decoys"]
        state, events = core.apply_log_entry(GAME, state, entry)
        for event in events:
            if event["type"] in ("reveal", "game_over"):
                continue
            text = core.canonical_json(event)
            assert not any(cid in text for cid in secrets), event


# --------------------------------------------------------------------------------------------------
# Views built together
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 5, 8])
def test_views_built_together_equal_views_built_one_by_one_and_share_nothing_with_the_state(players):
    """A table's devices are sent views built together (what they all see, once): each must equal the
    viewer's own ``view``, and changing the state afterwards must change no view already built."""
    cfg = config(players, bot=0.5)
    viewers = [{"role": r} for r in ("teacher", "projector", "spectator")]
    viewers += [{"role": "player", "player": f"kid{i}"} for i in range(players)]
    viewers.append({"role": "player", "player": "kid99"})  # not seated: a spectator
    for state, _entry, _events in core.bot_moves(GAME, cfg, f"views-{players}"):
        together = list(GAME.views(state, viewers))
        assert together == [GAME.view(state, viewer) for viewer in viewers]
        before = json.dumps(together, sort_keys=True)
        scrambled = json.loads(json.dumps(state))
        state["history"].append({"cards": []})
        state["log"].append({"type": "x"})
        for drawing in state["drawings"].values():
            drawing["strokes"].append([0, 0, 1, 0])
        assert json.dumps(together, sort_keys=True) == before
        state.clear()
        state.update(scrambled)
