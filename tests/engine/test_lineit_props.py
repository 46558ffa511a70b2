"""Line-it property tests: random games at every level and table size keep the invariants, replay bit for
bit, accept exactly the legal moves, refuse junk without changing anything, and never show a secret."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import core
from games.engine.core import IllegalAction
from games.engine.lineit import rules
from tests.loading import engine_module

S = engine_module("test_lineit_support")
GAME = S.GAME
STRENGTHS = ("easy", "medium", "hard")
ALL_IDS = [f"{prefix}{i:03d}" for prefix in "ck" for i in range(1, 107)]


def random_game(config, seed, chooser_seed, deadline_chance, *, check=True, on_step=None):
    """Play to the end picking random legal moves (sometimes letting the deadline fire); check the
    invariants and purity after every step. Returns (final state, log, events)."""
    chooser = core.Rng(chooser_seed)
    now = 0.0
    state = GAME.setup(config, seed, now=now)
    log = [{"kind": "setup", "at": now}]
    events = []
    for _step in range(5000):
        if on_step:
            on_step(state)
        if GAME.is_over(state):
            return state, log, events
        before = core.state_hash(state) if check else None
        deadline = GAME.deadline(state)
        if deadline is not None and chooser.random() < deadline_chance:
            now = max(now, deadline)
            entry = {"kind": "deadline", "at": now}
        else:
            player = GAME.current_players(state)[0]
            moves = GAME.legal_actions(state, player)
            assert moves, "the current player always has a legal move"
            now += 1.0
            entry = {"kind": "action", "player": player, "action": chooser.choice(moves), "at": now}
            if core.phase_deadline(state) is not None and now >= core.phase_deadline(state):
                entry = {"kind": "deadline", "at": now}  # too late to move: the deadline fires first
        new_state, new_events = core.apply_log_entry(GAME, state, entry)
        if check:
            assert core.state_hash(state) == before, "apply/on_deadline mutated its input"
            S.check_invariants(new_state)
        state = new_state
        log.append(entry)
        events.extend(new_events)
    raise AssertionError("game did not end")


games = st.fixed_dictionaries(
    {
        "level": st.integers(1, 5),
        "players": st.integers(2, 5),
        "seed": st.text(min_size=1, max_size=12),
        "chooser": st.integers(0, 10**9),
        "deadline_chance": st.sampled_from([0.0, 0.05, 0.3]),
        "timed": st.booleans(),
        "card_ids": st.sampled_from(rules.CARD_ID_MODES),
    }
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_random_games_keep_the_invariants_replay_and_repeat(game):
    settings_ = {} if game["timed"] else {"turn_seconds": None}
    config = S.config(game["players"], game["level"], card_ids=game["card_ids"], **settings_)
    final, log, events = random_game(config, game["seed"], f"c{game['chooser']}", game["deadline_chance"])
    assert json.loads(json.dumps(final)) == final
    assert core.state_hash(core.replay(GAME, config, game["seed"], log)) == core.state_hash(final)
    again, _log, _events = random_game(
        config, game["seed"], f"c{game['chooser']}", game["deadline_chance"], check=False
    )
    assert core.state_hash(again) == core.state_hash(final), "same seed and moves, same game"
    facts = GAME.facts(events)
    json.dumps(facts)
    finals = {f["player"]: f["score"] for f in facts if f["category"] == "final_score"}
    assert finals == GAME.outcome(final)["scores"]


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bots_finish_every_level_and_table_size(level, players):
    bots = tuple(STRENGTHS[(i + level) % 2] for i in range(players))  # easy and medium: quick
    config = S.config(players, level, bots=bots)
    final, log, _events = core.play_with_bots(GAME, config, f"bots-{level}-{players}")
    S.check_invariants(final)
    assert GAME.is_over(final)
    replayed = core.replay(GAME, config, f"bots-{level}-{players}", log)
    assert core.state_hash(replayed) == core.state_hash(final)


def test_hard_bots_finish_a_full_table():
    final, _log, _events = core.play_with_bots(GAME, S.config(5, 5, bots=("hard",) * 5), "hard-five")
    S.check_invariants(final)


# --------------------------------------------------------------------------------------------------
# Fuzz: junk is refused with IllegalAction and changes nothing; card moves are accepted exactly when legal
# --------------------------------------------------------------------------------------------------


def sample_states():
    """A start, a player after the draft, a final phase and a finished game."""
    config = S.config(3, 4)
    start = GAME.setup(config, "fuzz-seed")
    player = GAME.current_players(start)[0]
    after, _events = GAME.apply(start, player, GAME.legal_actions(start, player)[0], 1.0)
    final_phase = start
    while final_phase["phase"] != "final":
        final_phase, _events = GAME.on_deadline(final_phase, 1e6)
    over, _log, _events = core.play_with_bots(GAME, config, "fuzz-seed")
    return [start, after, final_phase, over]


STATES = sample_states()
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
junk_actions = st.one_of(
    json_values,
    st.dictionaries(st.sampled_from(["type", "card", "to", "extra"]), json_values, max_size=4),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["take", "play", "score", "end"])},
        optional={"card": json_values, "to": json_values, "x": json_values},
    ),
    st.just({"type": "take", "card": "c" + "9" * 100_000, "to": "line"}),
)
players = st.sampled_from(["p1", "p2", "p3", "p4", "", "@teacher", None, 7, "x" * 1000])


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(range(len(STATES))), players, junk_actions)
def test_junk_actions_raise_illegal_action_and_change_nothing(index, player, action):
    state = STATES[index]
    before = core.state_hash(state)
    try:
        GAME.apply(state, player, action, 5.0)
    except IllegalAction as error:
        assert isinstance(error.message, str) and error.code
    else:
        assert action in GAME.legal_actions(state, player), "an illegal action was accepted"
    assert core.state_hash(state) == before
    GAME.refusal_fact(state, player, action, IllegalAction("x", code="breaks_line"))  # never raises


card_moves = st.one_of(
    st.builds(
        lambda c, to: {"type": "take", "card": c, "to": to},
        st.sampled_from(ALL_IDS),
        st.sampled_from(rules.TAKE_DESTINATIONS),
    ),
    st.builds(lambda c: {"type": "play", "card": c}, st.sampled_from(ALL_IDS)),
    st.sampled_from([{"type": "score"}, {"type": "end"}]),
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 10**6),
    st.lists(st.tuples(st.sampled_from(["p1", "p2", "p3"]), card_moves), min_size=20, max_size=60),
)
def test_a_move_is_accepted_exactly_when_it_is_legal(chooser_seed, attempts):
    chooser = core.Rng(str(chooser_seed))
    state = GAME.setup(S.config(3, 5), f"accept-{chooser_seed}")
    for player, move in attempts:
        if GAME.is_over(state):
            break
        legal = move in GAME.legal_actions(state, player)
        try:
            new_state, _events = GAME.apply(state, player, move, 1.0)
        except IllegalAction as error:
            assert not legal, f"legal move refused: {error}"
            fact = GAME.refusal_fact(state, player, move, error, now=2.0)
            if error.code == "breaks_line":
                assert fact is not None and fact["correct"] is False
                assert fact["detail"]["card_value"] != fact["detail"]["end_value"]
            else:
                assert fact is None
            # keep the game going with a random legal move of the current player
            current = GAME.current_players(state)[0]
            move = chooser.choice(GAME.legal_actions(state, current))
            new_state, _events = GAME.apply(state, current, move, 1.0)
        else:
            assert legal, f"illegal move accepted: {move}"
        S.check_invariants(new_state)
        state = new_state


# --------------------------------------------------------------------------------------------------
# Secret scan
# --------------------------------------------------------------------------------------------------

SCAN_SEED = "seed-Zq9xK-secret"
CARD_ID = re.compile(r"[ck]\d{3}")
DECK_ID = re.compile(r"\bc\d{3}\b")


def viewers_for(state):
    return [{"role": "player", "player": p} for p in state["order"]] + [
        {"role": "teacher"},
        {"role": "projector"},
        {"role": "spectator"},
        {"role": "player", "player": "zz"},
    ]


def number_card_views(view):
    cards = list(view["market"]) + [c for j in view["jackpots"] for c in j["cards"]]
    for seat in view["players"]:
        cards += seat["line"]["cards"]
    cards += view.get("you", {}).get("hand", [])
    return [c for c in cards if c["kind"] == "number"]


def scan(state):
    hidden_deck = set(state["deck"])
    for viewer in viewers_for(state):
        view = GAME.view(state, viewer)
        text = core.canonical_json(view)
        shown = set(CARD_ID.findall(text))
        me = viewer.get("player") if viewer.get("player") in state["order"] else None
        assert SCAN_SEED not in text and "rng" not in view and '"seed"' not in text
        assert not shown & hidden_deck, f"deck cards shown to {viewer}"
        if state.get("ids"):
            assert not DECK_ID.search(text), f"a deck id (it tells the card's rank) shown to {viewer}"
            assert '"rank"' not in text
        for player in state["order"]:
            hand = set(state["hands"][player])
            if player == me:
                assert hand <= shown
            else:
                assert not hand & shown, f"{player}'s hand shown to {viewer}"
        if state["phase"] != "over":
            assert all("value" not in c for c in number_card_views(view)), "value shown before scoring"
        if me is None:
            assert "you" not in view


@pytest.mark.parametrize(("level", "players"), [(1, 2), (3, 3), (4, 4), (5, 5), (2, 5)])
def test_no_view_ever_shows_another_players_hand_the_deck_or_the_seed(level, players):
    bots = tuple(STRENGTHS[i % 2] for i in range(players))
    config = S.config(players, level, bots=bots, card_ids="shuffled")
    state = GAME.setup(config, SCAN_SEED)
    bot_rng = core.Rng("scan-bots")
    now = 0.0
    while not GAME.is_over(state):
        scan(state)
        player = GAME.current_players(state)[0]
        now += 1.0
        if bot_rng.random() < 0.05:
            state, _events = GAME.on_deadline(state, state["clock"]["deadline"] or now)
        else:
            state, _events = GAME.apply(state, player, GAME.bot_action(state, player, bot_rng), now)
    scan(state)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_many_random_games_keep_the_invariants(game):
    config = S.config(game["players"], game["level"], card_ids=game["card_ids"])
    random_game(config, game["seed"], f"c{game['chooser']}", game["deadline_chance"], on_step=scan)
