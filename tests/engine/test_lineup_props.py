"""Line Up! properties: random games always end with the invariants intact, replay is exact, junk actions
are refused without side effects, and no view ever shows a secret before its reveal."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import core
from games.engine.core import IllegalAction
from games.engine.lineup import BOARDS, TEAMS
from tests.loading import engine_module

h = engine_module("test_lineup_helpers")
GAME, QUESTIONS, SEED = h.GAME, h.QUESTIONS, h.SEED
PHASES = {"predict", "bid", "answer", "star", "final", "reveal", "over"}


def roster(blue: int, yellow: int, bots: dict[str, str] | None = None) -> list[dict]:
    bots = bots or {}
    players = []
    for team, count in (("blue", blue), ("yellow", yellow)):
        for i in range(count):
            player = {"id": f"{team[0]}{i}", "name": f"{team.title()} {i}", "team": team}
            if team in bots:
                player["bot"] = bots[team]
            players.append(player)
    return players


def config_for(blue=2, yellow=2, board="standard", bots=None, **settings_):
    # 40 questions keep the state small (fast clones) and still rarely repeat within a game.
    return {"players": roster(blue, yellow, bots), "questions": QUESTIONS[:40], "board": board, **settings_}


def viewers(state) -> dict[str, dict]:
    out = {p: {"role": "player", "player": p} for p in state["players"]}
    out.update(teacher={"role": "teacher"}, projector={"role": "projector"}, spectator={"role": "spectator"})
    return out


# ==================================================================================================
# Invariants, checked after every step
# ==================================================================================================


def check_invariants(before, after, thorough=True):
    final = after["board"]["final"]
    for team in TEAMS:
        assert before["teams"][team]["pos"] <= after["teams"][team]["pos"] <= final, "pawns only move forward"
    assert after["phase"] in PHASES
    assert after["questions"] == before["questions"], "nothing writes the questions (stored once, shared)"
    if thorough:
        assert json.loads(json.dumps(after)) == after
    if GAME.is_over(after):
        winner = GAME.outcome(after)["winning_team"]
        assert after["teams"][winner]["pos"] == final, "a team wins only on the 5-space"
        assert GAME.current_players(after) == []
    else:
        assert GAME.outcome(after) is None
        stalled = not GAME.current_players(after) and GAME.deadline(after) is None
        assert not stalled or after["clock"]["paused"], (
            "the game must never stall (unless the teacher paused it)"
        )
        assert set(GAME.current_players(after)) <= set(after["players"])


def random_game(
    config, seed, choice_seed, deadline_rate, clock_controls=False, max_steps=6000, thorough=True
):
    """Random legal play; deadlines fire now and then; returns final state and the replayable log.

    `thorough` checks the JSON round trip and that the input state was not mutated at every step."""
    rng = core.Rng(choice_seed)
    now = 0.0
    state = GAME.setup(config, seed, now=now)
    log = [{"kind": "setup", "at": now}]
    for _ in range(max_steps):
        if GAME.is_over(state):
            return state, log
        players = GAME.current_players(state)
        now += 1.0
        if clock_controls and rng.random() < 0.03:
            entry = rng.choice(
                [
                    {"kind": "pause", "at": now},
                    {"kind": "resume", "at": now},
                    {"kind": "extend", "seconds": 5.0},
                ]
            )
        elif not players or rng.random() < deadline_rate:
            now = max(now, GAME.deadline(state) or now)
            entry = {"kind": "deadline", "at": now}
        else:
            player = rng.choice(players)
            action = rng.choice(GAME.legal_actions(state, player))
            entry = {"kind": "action", "player": player, "action": action, "at": now}
            if core.phase_deadline(state) is not None and now >= core.phase_deadline(state):
                entry = {"kind": "deadline", "at": now}  # too late to move: the deadline fires first
        frozen = core.canonical_json(state) if thorough else None
        new_state, _events = core.apply_log_entry(GAME, state, entry)
        if thorough:
            assert core.canonical_json(state) == frozen, "apply/on_deadline must not mutate their input"
        check_invariants(state, new_state, thorough)
        state = new_state
        log.append(entry)
    raise AssertionError("the game did not end")


game_setups = st.fixed_dictionaries(
    {
        "blue": st.integers(1, 3),
        "yellow": st.integers(1, 3),
        "board": st.sampled_from(sorted(BOARDS)),
        "max_rounds": st.integers(1, 30),
        "max_equal_bids": st.integers(1, 4),
    }
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=game_setups, seed=st.integers(0, 10**9), deadline_rate=st.sampled_from([0.0, 0.05, 0.3, 1.0]))
def test_random_legal_play_always_ends_with_the_invariants_intact_and_replays_exactly(
    setup, seed, deadline_rate
):
    config = config_for(**setup)
    state, log = random_game(config, f"g{seed}", f"c{seed}", deadline_rate, clock_controls=True)
    assert core.state_hash(core.replay(GAME, config, f"g{seed}", log)) == core.state_hash(state)


@pytest.mark.parametrize("board", sorted(BOARDS))
@pytest.mark.parametrize("bots", [{}, {"yellow": "easy"}, {"blue": "hard", "yellow": "medium"}])
def test_bots_play_every_board_and_level_to_the_end_and_replay(board, bots):
    config = config_for(2, 3, board, bots)
    state, log, _events = core.play_with_bots(GAME, config, f"{board}{bots}")
    assert GAME.is_over(state)
    assert core.state_hash(core.replay(GAME, config, f"{board}{bots}", log)) == core.state_hash(state)


@pytest.mark.parametrize("teams", [(1, 1), (6, 1), (1, 4), (15, 15)])
def test_bots_play_any_team_sizes_to_the_end(teams):
    state, _log, _events = core.play_with_bots(GAME, config_for(*teams, bots={"yellow": "hard"}), f"{teams}")
    assert GAME.is_over(state)


def test_same_seed_same_game():
    config = config_for(2, 2)
    first = core.play_with_bots(GAME, config, "same")[0]
    assert core.state_hash(core.play_with_bots(GAME, config, "same")[0]) == core.state_hash(first)


def test_different_seeds_give_different_games():
    config = config_for()
    hashes = {core.state_hash(core.play_with_bots(GAME, config, f"seed{i}")[0]) for i in range(5)}
    assert len(hashes) == 5


# ==================================================================================================
# Junk actions
# ==================================================================================================

json_junk = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=6) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=20,
)
near_misses = st.fixed_dictionaries(
    {"type": st.sampled_from(["rack", "confirm", "predict", "bid", "lay", "stop", "RACK", ""])},
    optional={
        "order": st.one_of(json_junk, st.lists(st.integers(-3, 8), min_size=0, max_size=7)),
        "value": st.one_of(json_junk, st.integers(-2, 7)),
        "card": st.one_of(json_junk, st.integers(-1, 7)),
        "position": st.one_of(json_junk, st.integers(-1, 7)),
        "extra": json_junk,
    },
)
huge = st.builds(lambda n, k: {"type": "x" * n, k: "y" * n}, st.integers(1000, 200_000), st.text(max_size=5))


def _snapshots():
    """States in every phase, taken from a few bot games."""
    found: dict[str, list] = {}
    for seed in range(6):
        config = config_for(2, 2)
        state = GAME.setup(config, f"snap{seed}")
        bot_rng = core.Rng(f"snapbot{seed}")
        for _ in range(3000):
            if GAME.is_over(state):
                break
            found.setdefault(f"{state['phase']}:{state['q']['mini']}", []).append(state)
            players = GAME.current_players(state)
            if players:
                player = bot_rng.choice(players)
                state, _ = GAME.apply(state, player, GAME.bot_action(state, player, bot_rng), 1.0)
            else:
                state, _ = GAME.on_deadline(state, GAME.deadline(state))
        found.setdefault("over", []).append(state)
    return [states[len(states) // 2] for states in found.values()]


SNAPSHOTS = _snapshots()


def test_snapshots_cover_every_phase():
    assert {s["phase"] for s in SNAPSHOTS} == PHASES


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.integers(0, 10**6),
    player=st.one_of(st.sampled_from(["b0", "b1", "y0", "y1", "nobody", core.TEACHER]), json_junk),
    action=st.one_of(json_junk, near_misses, huge),
)
def test_junk_actions_raise_illegal_action_only_and_change_nothing(which, player, action):
    state = SNAPSHOTS[which % len(SNAPSHOTS)]
    frozen = core.canonical_json(state)
    try:
        new_state, _events = GAME.apply(state, player, action, 5.0)
    except IllegalAction as refused:
        assert isinstance(refused.message, str) and refused.code
    else:
        assert action in GAME.legal_actions(state, player) or action["type"] in ("rack", "lay")
        assert json.loads(json.dumps(new_state)) == new_state
    assert core.canonical_json(state) == frozen


def test_every_legal_action_is_accepted_in_every_phase():
    for state in SNAPSHOTS:
        for player in state["players"]:
            for action in GAME.legal_actions(state, player):
                GAME.apply(state, player, action, 5.0)
            if player not in GAME.current_players(state):
                assert GAME.legal_actions(state, player) == []


# ==================================================================================================
# The secret scan
# ==================================================================================================


def _permutation_lists(data, skip_keys=()):
    """Every list in `data` that orders the cards 1-5 (racks, answers), ignoring the given keys."""
    found = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key not in skip_keys:
                found += _permutation_lists(value, skip_keys)
    elif isinstance(data, list):
        if len(data) == 5 and sorted(x for x in data if type(x) is int) == [1, 2, 3, 4, 5]:
            found.append(data)
        for item in data:
            found += _permutation_lists(item, skip_keys)
    return found


TEAM_ORDER_KEYS = ("rack", "orders", "my_order", "locked_answer", "attempts")


def check_no_secrets(state, revealed_ids):
    q = state["q"]
    question = h.current_question(state)
    secret_now = state["phase"] not in ("reveal", "over") and question["id"] not in revealed_ids
    face_up = q["mini"] in ("pink", "tiebreak") and state["phase"] == "answer"
    for name, viewer in viewers(state).items():
        seen = GAME.view(state, viewer)
        # core.contains_value looks for a string needle in this same text; encode once for speed.
        text = core.canonical_json(seen)
        assert SEED not in text
        assert "rng" not in seen and "questions" not in seen
        if name in ("projector", "spectator"):
            assert not ({"my_team", "team_details", "you"} & set(seen))
        public = {
            k: v for k, v in seen.items() if k not in ("my_team", "team_details", "you", "log", "last_events")
        }
        if face_up:
            public["teams"] = {
                t: {k: v for k, v in info.items() if k != "rack"} for t, info in public["teams"].items()
            }
        if secret_now:
            for secret in (question["explanation"], question["source"]):
                assert secret not in text, (name, secret)
            for item in question["items"]:
                assert not core.contains_value(seen, item["value"]), (name, item)
                assert item["display"] not in text, (name, item)
            assert not core.contains_value(public, question["answer"]), name
            assert "reveal" not in seen
            assert not any(
                e["type"] == "revealed" and e["question_id"] == question["id"] for e in seen["log"]
            )
            # Before a reveal nothing public holds any ordering of the cards, except a face-up pink rack,
            # and a team's own section (or the teacher's) only holds the team's own racks and proposals.
            assert _permutation_lists(public) == [], name
            for section in ("my_team", "team_details"):
                assert _permutation_lists(seen.get(section, {}), skip_keys=TEAM_ORDER_KEYS) == [], name
        check_team_privacy(state, name, seen)


def check_team_privacy(state, name, seen):
    q = state["q"]
    for team in TEAMS:
        info = seen["teams"][team]
        if "prediction" in info:
            assert q["predictions"], "a prediction shows only once both are in"
        if "bid" in info:
            assert q["bidder"] == team, "a bid shows only once both are in"
    if name in state["players"]:
        team = state["players"][name]["team"]
        mine = seen["my_team"]
        assert mine["team"] == team
        members = set(state["teams"][team]["members"])
        for key in ("orders", "proposals", "star_proposed"):
            assert set(mine.get(key, {})) <= members, "only the own team's proposals"
        opponent = TEAMS[1 - TEAMS.index(team)]
        if (
            state["phase"] in ("answer", "final")
            and opponent in q["answering"]
            and team not in q["answering"]
        ):
            assert "rack" not in mine


def scan_game(config, seed, bot_seed):
    state = GAME.setup(config, seed)
    rng = core.Rng(bot_seed)
    revealed: set[str] = set()
    now = 0.0
    for _ in range(6000):
        check_no_secrets(state, revealed)
        if GAME.is_over(state):
            return state
        if state["phase"] == "reveal":
            revealed.add(h.current_question(state)["id"])
        players = GAME.current_players(state)
        now += 1.0
        due = core.phase_deadline(state)
        if players and (due is None or now < due):  # at the deadline a move is too late: it fires first
            player = rng.choice(players)
            state, _ = GAME.apply(state, player, GAME.bot_action(state, player, rng), now)
        else:
            now = max(now, GAME.deadline(state))
            state, _ = GAME.on_deadline(state, now)
    raise AssertionError("game did not end")


@pytest.mark.parametrize("seed", range(2))
def test_no_view_ever_shows_a_hidden_answer_rack_bid_or_prediction(seed):
    board = ["standard", "short"][seed]
    bots = [{"yellow": "hard"}, {"blue": "easy"}][seed]
    state = scan_game(config_for(2, 3, board, bots), f"{SEED}-{seed}", f"scan{seed}")
    assert GAME.is_over(state)


def test_no_view_shows_secrets_in_random_play_with_deadlines():
    config = config_for(2, 2, "short", max_rounds=8)
    for seed in range(2):
        _state, log = random_game(config, f"{SEED}-r{seed}", f"rc{seed}", 0.2)
        revealed: set[str] = set()
        replayed = GAME.setup(config, f"{SEED}-r{seed}")
        for entry in log:
            replayed, _ = core.apply_log_entry(GAME, replayed, entry)
            if replayed["phase"] == "reveal":
                revealed.add(h.current_question(replayed)["id"])
            check_no_secrets(replayed, revealed)


# ==================================================================================================
# Many games (slow: run with -m slow)
# ==================================================================================================


@pytest.mark.slow
def test_thousands_of_random_games_end_with_the_invariants_intact():
    for i in range(2000):
        rng = core.Rng(f"slow{i}")
        config = config_for(rng.randint(1, 4), rng.randint(1, 4), rng.choice(sorted(BOARDS)))
        config.update(questions=QUESTIONS[:20], max_rounds=rng.randint(1, 20))
        if i % 2:
            state, _log, _events = core.play_with_bots(GAME, config, f"slowbots{i}")
            assert GAME.is_over(state)
        else:
            random_game(config, f"slow{i}", f"slowc{i}", rng.choice([0.05, 0.2, 0.5]), thorough=i % 20 == 0)


def test_no_view_shows_secrets_in_any_phase_or_mini_game():
    covered = set()
    for state in SNAPSHOTS:
        if state["question_serial"] <= len(state["questions"]):  # the question has not been asked before
            check_no_secrets(state, set())
            covered.add((state["phase"], state["q"]["mini"]))
    assert {mini for _phase, mini in covered} >= {"purple", "orange", "pink", "star", "final"}
