"""A move that arrives at or after its phase's deadline is refused (code ``too_late``) and changes nothing,
even when the runtime has not fired the deadline yet; a move just before the deadline is accepted. The
teacher's actions are not refused by the clock, replay accepts what a stored log recorded, and bot games
fire a deadline that is due before the bots move on."""

import itertools

import pytest

from games.content import default_config
from games.definitions import DEFINITIONS, get_engine
from games.engine import core
from games.engine.core import TEACHER, IllegalAction

SEATS = {"lineup": 4, "wordup": 2, "faces": 2, "lineit": 2, "mindlines": 3}
JUST_BEFORE = 0.5


def new_game(game: str) -> tuple[core.Game, dict]:
    engine = get_engine(game)
    players = [{"id": f"s{n}", "name": f"Student {n}"} for n in range(1, SEATS[game] + 1)]
    config = default_config(game, players=players, seed_rng=core.Rng(f"{game}-deck"))
    return engine, engine.setup(config, f"{game}-seed", now=0.0)


def a_students_move(engine: core.Game, state: dict) -> tuple[str, dict]:
    player = engine.current_players(state)[0]
    return player, engine.legal_actions(state, player)[0]


@pytest.mark.parametrize("game", sorted(DEFINITIONS))
def test_a_move_at_or_after_the_deadline_is_refused_and_changes_nothing(game):
    engine, state = new_game(game)
    deadline = core.phase_deadline(state)
    assert deadline is not None  # every game's first phase is timed
    player, action = a_students_move(engine, state)
    before = core.state_hash(state)
    for late in (deadline, deadline + 5.0):
        with pytest.raises(IllegalAction) as refused:
            engine.apply(state, player, action, late)
        assert refused.value.code == "too_late"
        assert refused.value.message == "Time is up: your move came too late."
        assert core.state_hash(state) == before
        with pytest.raises(IllegalAction):
            engine.apply_in_place(state, player, action, late)
        assert core.state_hash(state) == before


@pytest.mark.parametrize("game", sorted(DEFINITIONS))
def test_a_move_just_before_the_deadline_is_accepted(game):
    engine, state = new_game(game)
    player, action = a_students_move(engine, state)
    new_state, _events = engine.apply(state, player, action, core.phase_deadline(state) - JUST_BEFORE)
    assert core.state_hash(new_state) != core.state_hash(state)


@pytest.mark.parametrize("game", sorted(DEFINITIONS))
def test_a_paused_clock_refuses_nothing(game):
    engine, state = new_game(game)
    player, action = a_students_move(engine, state)
    core.clock_pause(state, 1.0)
    engine.apply(state, player, action, 10_000.0)


def test_the_teachers_actions_are_not_refused_by_the_clock():
    core.refuse_after_deadline({"clock": {"deadline": 10.0}}, TEACHER, 50.0)
    with pytest.raises(IllegalAction):
        core.refuse_after_deadline({"clock": {"deadline": 10.0}}, "s1", 50.0)
    engine, state = new_game("mindlines")
    for player in state["players"]:
        state, _events = engine.apply(state, player, {"type": "ready"}, 1.0)
    assert state["phase"] == "scribbling"
    teacher_actions = engine.legal_actions(state, TEACHER)  # hide a drawing
    assert teacher_actions
    engine.apply(state, TEACHER, teacher_actions[0], core.phase_deadline(state) + 5.0)


@pytest.mark.parametrize("game", sorted(DEFINITIONS))
def test_replay_reproduces_a_stored_log_with_a_move_accepted_after_its_deadline(game):
    """Logs stored before late moves were refused may hold one: the log is the record of what happened."""
    engine, state = new_game(game)
    player, action = a_students_move(engine, state)
    late = core.phase_deadline(state) + 1.0
    config = default_config(
        game,
        players=[{"id": f"s{n}", "name": f"Student {n}"} for n in range(1, SEATS[game] + 1)],
        seed_rng=core.Rng(f"{game}-deck"),
    )
    log = [{"kind": "setup", "at": 0.0}, {"kind": "action", "player": player, "action": action, "at": late}]
    replayed = core.replay(engine, config, f"{game}-seed", log)
    assert core.state_hash(replayed) != core.state_hash(state)
    with pytest.raises(IllegalAction):  # live, the same move is refused
        engine.apply(state, player, action, late)


@pytest.mark.parametrize("game", sorted(DEFINITIONS))
def test_bot_games_never_log_a_move_at_or_after_a_due_deadline(game):
    engine, state = new_game(game)
    players = [{"id": f"s{n}", "name": f"Student {n}"} for n in range(1, SEATS[game] + 1)]
    config = default_config(game, players=players, seed_rng=core.Rng(f"{game}-deck"))
    moves = core.bot_moves(engine, config, f"{game}-seed", step_seconds=7.0)
    for new_state, entry, _events in itertools.islice(moves, 400):
        if entry["kind"] == "action":
            deadline = core.phase_deadline(state)
            assert deadline is None or entry["at"] < deadline, entry
            engine.apply(state, entry["player"], entry["action"], entry["at"])  # legal live, too
        state = new_state


@pytest.mark.parametrize("game", sorted(DEFINITIONS))
def test_a_pause_resume_or_extend_changes_only_the_new_states_clocks(game):
    """The clock entries copy only the clocks (a whole copy of a Word Up state includes its bank): the
    caller's state is untouched, and the new state is what a whole copy would have given."""
    engine, state = new_game(game)
    entries = [
        {"kind": "pause", "at": 3.0},
        {"kind": "extend", "at": 4.0, "seconds": 30.0},
        {"kind": "resume", "at": 10.0},
        {"kind": "extend", "at": 11.0, "seconds": 15.0},
    ]
    for entry in entries:
        before = core.state_hash(state)
        expected = core.clone(state)
        {"pause": core.clock_pause, "resume": core.clock_resume}.get(entry["kind"], lambda s, _at: None)(
            expected, entry["at"]
        )
        if entry["kind"] == "extend":
            core.clock_extend(expected, entry["seconds"])
        new_state, events = core.apply_log_entry(engine, state, entry)
        assert core.state_hash(state) == before and events == []
        assert new_state == expected
        state = new_state
    assert core.phase_deadline(state) is not None
