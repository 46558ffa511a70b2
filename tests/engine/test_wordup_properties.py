"""Word Up property tests: random games to the end with invariants, replay, junk actions, the secret scan."""

from __future__ import annotations

import json
import re
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import core
from games.engine.core import TEACHER, IllegalAction
from games.engine.wordup.board import BOARD, CARD_IDS, CATEGORIES
from tests.loading import engine_module

S = engine_module("test_wordup_support")
GAME = S.GAME
PHASES = {"roll", "choose_category", "answer", "reveal", "card_choice", "discard", "free_tokens", "over"}
SEEDS = st.text(alphabet=string.ascii_letters + string.digits, min_size=1, max_size=8)
VARIANTS = st.sampled_from(
    [{}, {"target": 1}, {"target": 3}, {"time_limit": 400}, {"time_limit": 150, "target": 3}]
)
VIEWERS = [{"role": "projector"}, {"role": "teacher"}, {"role": "spectator"}]
# Every answer in the fixture bank looks like this, and nothing else in a view does.
SECRET_WORD = re.compile(r"(gapw|clue|pick|spel)(\d)q(\d\d)zx")
CATEGORY_OF_CODE = {code: category for category, code in S.CODES.items()}


# ------------------------------------------------------------------------------------------------
# Invariants
# ------------------------------------------------------------------------------------------------


def check_invariants(state: dict) -> None:
    assert state["phase"] in PHASES
    assert sorted(state["deck"]) == sorted(CARD_IDS) and len(state["deck"]) == 20
    for player in state["seating"]:
        assert all(isinstance(n, int) and n >= 0 for n in state["tokens"][player].values())
        assert 0 <= state["positions"][player] < len(BOARD)
    assert set(GAME.current_players(state)) <= set(state["seating"])
    if state["phase"] in ("answer", "reveal"):
        assert state["question"] is not None
    if state["phase"] == "over":
        check_winners(state)
    else:
        assert GAME.current_players(state) or core.deadline_of(state) is not None  # never stalls
        assert core.deadline_of(state) is not None  # every phase is timed


def check_winners(state: dict) -> None:
    outcome = GAME.outcome(state)
    winners = outcome["winners"]
    assert winners and set(winners) <= set(state["seating"])
    if outcome["reason"] == "target":
        target = state["settings"]["target"]
        assert all(state["tokens"][w][c] >= target for w in winners for c in CATEGORIES)
    else:
        best = max(outcome["scores"].values())
        assert {w for w in state["seating"] if outcome["scores"][w] == best} == set(winners)


class Secrets:
    """Which fixture answers may be seen: those of questions already revealed, and the options of
    multiple-choice questions already asked (the right one among them, unmarked)."""

    def __init__(self) -> None:
        self.revealed: set[str] = set()
        self.mc_shown: set[str] = set()

    def learn(self, events: list[dict], state: dict) -> None:
        for event in events:
            if event["type"] == "answered":
                self.revealed.add(event["question"])
        question = state["question"]  # the question event names it by serial only: the bank id is here
        if question and question["category"] == "multiple_choice":
            self.mc_shown.add(question["data"]["id"])

    def check(self, data, where) -> None:
        self.check_text(core.canonical_json(data), where)

    def check_text(self, text: str, where) -> None:
        for code, level, index in SECRET_WORD.findall(text):
            category = CATEGORY_OF_CODE[code]
            qid = f"wu-{level}-{category}-{index}"
            allowed = qid in self.revealed or (category == "multiple_choice" and qid in self.mc_shown)
            assert allowed, f"{where}: the answer of {qid} shows before its reveal"


def viewers_of(state: dict) -> list[dict]:
    return VIEWERS + [{"role": "player", "player": pid} for pid in state["seating"]]


def scan_views(state: dict, secrets: Secrets, seed: str) -> None:
    deck_order = core.canonical_json(state["deck"])[1:-1]
    question = state["question"]
    spoken_only = bool(question) and state["phase"] == "answer" and question["category"] == "spelling"
    for viewer in viewers_of(state):
        view = GAME.view(state, viewer)
        text = json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False)  # JSON-able
        secrets.check_text(text, viewer)
        assert seed not in text and '"rng"' not in text and "deck" not in view
        assert deck_order not in text
        if spoken_only and question["data"]["id"] not in secrets.revealed:  # small banks wrap round
            assert question["data"]["sentence"] not in text


# ------------------------------------------------------------------------------------------------
# A driver that plays random games: random legal moves, bot moves, deadlines and teacher accepts
# ------------------------------------------------------------------------------------------------


def play_random(cfg: dict, seed: str, script: str, *, scan: bool = False, max_steps: int = 4000):
    pick = core.Rng(script)
    state = GAME.setup(cfg, seed, now=0.0)
    log = [{"kind": "setup", "at": 0.0}]
    events: list[dict] = []
    secrets = Secrets()
    now = 0.0
    check_invariants(state)
    for _step in range(max_steps):
        if GAME.is_over(state):
            return state, log, events
        entry = next_entry(state, pick, now)
        now = entry["at"]
        before = core.state_hash(state)
        state_after, new_events = core.apply_log_entry(GAME, state, entry)
        assert core.state_hash(state) == before, "apply/on_deadline mutated its input"
        state = state_after
        log.append(entry)
        events += new_events
        check_invariants(state)
        if scan:
            secrets.learn(new_events, state)
            secrets.check(new_events, "events")
            scan_views(state, secrets, seed)
    raise AssertionError("the game did not end")


def next_entry(state: dict, pick: core.Rng, now: float) -> dict:
    players = GAME.current_players(state)
    roll = pick.random()
    if state["phase"] == "reveal" and roll < 0.3:
        return {"kind": "action", "player": TEACHER, "action": {"type": "accept"}, "at": now + 1}
    if not players or roll < 0.12:
        return {"kind": "deadline", "at": max(now, core.deadline_of(state))}
    player = players[0]
    if roll < 0.6:
        action = GAME.bot_action(state, player, pick)
    else:
        action = pick.choice(GAME.legal_actions(state, player))
    at = now + pick.randint(1, 5)
    deadline = core.phase_deadline(state)
    if deadline is not None and at >= deadline:  # too late to move: the deadline fires first
        return {"kind": "deadline", "at": max(now, deadline)}
    return {"kind": "action", "player": player, "action": action, "at": at}


def random_config(players: int, levels: list[int], variant: dict, bots: list[float]) -> dict:
    # Nine questions per column: sheets run out and wrap round, and the state stays small to hash often.
    return S.config(players, levels=levels, bots=bots, questions=S.bank(size=9), **variant)


GAME_CONFIGS = st.integers(min_value=2, max_value=6).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.lists(st.integers(min_value=1, max_value=5), min_size=n, max_size=n),
        VARIANTS,
        st.lists(st.sampled_from([0.0, 0.3, 0.6, 0.9, 1.0]), min_size=n, max_size=n),
    )
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=GAME_CONFIGS, seed=SEEDS, script=SEEDS)
def test_random_games_end_with_invariants_holding_and_replay_to_the_same_state(game, seed, script):
    cfg = random_config(*game)
    state, log, events = play_random(cfg, seed, script)
    assert GAME.is_over(state)
    check_winners(state)
    assert core.state_hash(core.replay(GAME, cfg, seed, log)) == core.state_hash(state)
    assert json.loads(json.dumps(state)) == state
    assert len(GAME.facts(events)) == sum(1 for e in events if e["type"] == "marked")


@settings(max_examples=10, deadline=None)
@given(game=GAME_CONFIGS, seed=SEEDS)
def test_the_same_seed_plays_the_same_game(game, seed):
    cfg = random_config(*game)
    first, log_a, _ = core.play_with_bots(GAME, cfg, seed)
    second, log_b, _ = core.play_with_bots(GAME, cfg, seed)
    assert core.state_hash(first) == core.state_hash(second) and log_a == log_b


def test_different_seeds_deal_different_games():
    cfg = S.config(4)
    hashes = {core.state_hash(GAME.setup(cfg, f"seed{i}")) for i in range(10)}
    assert len(hashes) == 10


# ------------------------------------------------------------------------------------------------
# The secret scan: whole games, every step, every viewer (and every event)
# ------------------------------------------------------------------------------------------------


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=GAME_CONFIGS, seed=SEEDS, script=SEEDS)
def test_no_view_ever_shows_an_answer_or_spelling_word_before_its_reveal(game, seed, script):
    cfg = random_config(*game)
    play_random(cfg, f"secret-{seed}", script, scan=True)


def test_secret_scan_catches_a_leak():
    """The scan itself works: an answer put into a view on purpose is caught."""
    state = S.new_game(2)
    state, _ = S.roll_onto(state, S.square_of("question", "spelling"))
    leaky = GAME.view(state, {"role": "projector"})
    leaky["oops"] = state["question"]["data"]["sentence"]
    with pytest.raises(AssertionError):
        Secrets().check(leaky, "projector")


# ------------------------------------------------------------------------------------------------
# Junk actions
# ------------------------------------------------------------------------------------------------

JUNK = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
FIELDS = ["answer", "choice", "category", "categories", "choice", "with", "give", "take", "question"]
TYPES = ["roll", "choose", "answer", "accept", "card", "discard", "take"]
FIELD_VALUES = (
    JUNK
    | st.sampled_from(
        [*CATEGORIES, "orange", "p0", "p1", TEACHER, 0, 1, 2, 3, -1, "exchange", "lose", "stop"]
    )
    | st.lists(st.sampled_from([*CATEGORIES, "x"]), max_size=3)
    | st.text(min_size=90, max_size=2000)
)
SHAPED = st.builds(
    lambda kind, fields: {"type": kind, **fields},
    st.sampled_from(TYPES),
    st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=6), FIELD_VALUES, max_size=3),
)
ACTIONS = JUNK | SHAPED | st.builds(lambda t: {"type": t}, JUNK)
WHO = st.sampled_from(["p0", "p1", "p2", TEACHER, "nobody", ""]) | JUNK


def states_in_every_phase() -> list[dict]:
    base = S.new_game(3)
    player = base["turn"]
    rich = S.set_tokens(base, player, missing_word=2, crossword=1, spelling=1)
    rich = S.set_tokens(rich, S.left_of(rich, player), multiple_choice=1)
    states = [base]
    states.append(S.roll_onto(base, 5)[0])  # choose_category
    states.append(S.roll_onto(base, S.square_of("question", "multiple_choice"))[0])
    text_question = S.roll_onto(base, S.square_of("question", "crossword"))[0]
    states.append(text_question)
    states.append(S.answer_wrong(text_question)[0])  # reveal
    states.append(S.roll_onto(rich, 10)[0])  # discard
    states.append(S.roll_onto(base, 20)[0])  # free_tokens
    for card in ("free-orange", "exchange-1", "stop-or-lose-1"):
        states.append(S.draw_card(rich, card)[0])
    won = S.set_tokens(base, player, missing_word=2, crossword=2, multiple_choice=2, spelling=1)
    won = S.roll_onto(won, S.square_of("question", "spelling"))[0]
    states.append(S.answer_right(won)[0])  # over
    return states


PHASE_STATES = states_in_every_phase()


def test_the_junk_fixtures_cover_every_phase():
    assert {state["phase"] for state in PHASE_STATES} == PHASES


@settings(max_examples=300, deadline=None)
@given(index=st.integers(min_value=0, max_value=len(PHASE_STATES) - 1), who=WHO, action=ACTIONS)
def test_junk_actions_raise_illegal_action_only_and_change_nothing(index, who, action):
    state = PHASE_STATES[index]
    before = core.state_hash(state)
    try:
        new_state, events = GAME.apply(state, who, action, 3.0)
    except IllegalAction as refused:
        assert refused.message and isinstance(refused.as_dict(), dict)
        json.dumps(refused.as_dict())
    else:  # junk that happens to be a legal move is played normally
        check_invariants(new_state)
        json.dumps(events)
    assert core.state_hash(state) == before


@settings(max_examples=60, deadline=None)
@given(index=st.integers(min_value=0, max_value=len(PHASE_STATES) - 1), viewer=JUNK)
def test_junk_viewers_see_the_public_view_only(index, viewer):
    view = GAME.view(PHASE_STATES[index], viewer)
    json.dumps(view)
    if not (isinstance(viewer, dict) and viewer.get("role") in ("teacher", "player", "projector")):
        assert view["viewer"] == "spectator" and "levels" not in view and "actions" not in view


# ------------------------------------------------------------------------------------------------
# Many more games, for a long run
# ------------------------------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=GAME_CONFIGS, seed=SEEDS, script=SEEDS)
def test_many_random_games_with_the_secret_scan(game, seed, script):
    cfg = random_config(*game)
    state, log, _events = play_random(cfg, f"secret-{seed}", script, scan=True)
    assert core.state_hash(core.replay(GAME, cfg, f"secret-{seed}", log)) == core.state_hash(state)


def test_secret_scan_when_a_small_bank_wraps_round():
    """Five players of one level and nine questions a column: questions come round again (found by the
    long run); only questions already revealed may show again."""
    cfg = random_config(5, [1] * 5, {}, [0.0] * 5)
    play_random(cfg, "secret-0", "0", scan=True)
