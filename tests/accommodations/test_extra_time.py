"""A student with double time really gets twice the time from the server, in every timed game.

The clock is frozen: each table starts at ``T0`` and each deadline is fired by the clock's own ``tick`` at
the moment it falls due, so the deadlines checked are the ``GameTable.deadline`` column the server enforces.
"""

from __future__ import annotations

import pytest

from classrooms.services import student_accommodations_set
from games import clock, selectors, services
from games.definitions import get_engine
from games.engine import core
from games.models import GameTable, Participant
from tests.factories import enrolled_student, started_session

pytestmark = pytest.mark.django_db
T0 = 2_000_000.0


@pytest.fixture
def ava_double(ava, ms_rivera):
    student_accommodations_set(student=ava, by=ms_rivera, extra_time="2")
    return ava


def start(classroom, teacher, students, game, **settings) -> GameTable:
    session = started_session(classroom, teacher, students, game, now=T0, **settings)
    return GameTable.objects.filter(session=session).order_by("number").first()


def fire_deadline(table: GameTable) -> float:
    """Let the clock fire the table's deadline when it falls due; the moment it fired."""
    table.refresh_from_db()
    due = table.deadline
    assert clock.tick(now=due, check_lobbies=False) >= 1
    table.refresh_from_db()
    return due


def seconds_left(table: GameTable, now: float) -> float:
    table.refresh_from_db()
    return table.deadline - now


def factor_of(player: str, ava) -> float:
    return 2.0 if player == services.student_player_id(ava.pk) else 1.0


def test_faces_each_turn_is_timed_by_the_player_to_move(class_7b, ms_rivera, ava_double, ben):
    table = start(class_7b, ms_rivera, [ava_double, ben], "faces")
    turn_seconds = table.state["settings"]["turn_seconds"]
    assert table.state["time_allowance"] == {services.student_player_id(ava_double.pk): 2.0}
    now = T0
    seen = set()
    for _turn in range(2):  # the default timeout passes the turn: both players' turns are checked
        player = table.state["turn"]
        seen.add(player)
        assert seconds_left(table, now) == turn_seconds * factor_of(player, ava_double)
        now = fire_deadline(table)
    assert len(seen) == 2


def test_lineit_each_turn_is_timed_by_the_player_to_move(class_7b, ms_rivera, ava_double, ben):
    table = start(class_7b, ms_rivera, [ava_double, ben], "lineit")
    turn_seconds = table.state["settings"]["turn_seconds"]
    now, seen = T0, set()
    for _turn in range(4):
        player = table.state["turn"]["player"]
        seen.add(player)
        assert seconds_left(table, now) == turn_seconds * factor_of(player, ava_double)
        now = fire_deadline(table)
    assert len(seen) == 2


def test_wordup_each_step_is_timed_by_the_player_who_acts(class_7b, ms_rivera, ava_double, ben):
    table = start(class_7b, ms_rivera, [ava_double, ben], "wordup")
    seen = set()
    now = T0
    for _step in range(12):
        state = table.state
        timer = {"roll": "roll_seconds", "choose": "choose_seconds", "answer": "answer_seconds"}.get(
            state["phase"]
        )
        if timer is not None:
            player = state["question"]["player"] if state["phase"] == "answer" else state["turn"]
            seen.add(player)
            assert seconds_left(table, now) == state["settings"][timer] * factor_of(player, ava_double)
        now = fire_deadline(table)
    assert len(seen) == 2


def test_mindlines_a_shared_phase_takes_the_slowest_players_time(class_7b, ms_rivera, ava_double, ben):
    table = start(class_7b, ms_rivera, [ava_double, ben], "mindlines")
    timers = table.state["timers"]
    assert table.state["phase"] == "looking"
    assert seconds_left(table, T0) == timers["look_seconds"] * 2
    now = fire_deadline(table)
    assert table.state["phase"] == "scribbling"
    assert seconds_left(table, now) == timers["draw_seconds"] * 2


def test_lineup_a_teams_shared_timer_takes_its_slowest_members_time(class_7b, ms_rivera, ava_double, ben):
    table = start(class_7b, ms_rivera, [ava_double, ben], "lineup")
    state = table.state
    key = "answer_seconds" if state["phase"] == "answer" else f"{state['phase']}_seconds"
    assert seconds_left(table, T0) == state["settings"][key] * 2


def test_a_student_without_extra_time_keeps_the_standard_clock(class_7b, ms_rivera, ava, ben):
    table = start(class_7b, ms_rivera, [ava, ben], "faces")
    assert "time_allowance" not in table.state
    assert seconds_left(table, T0) == table.state["settings"]["turn_seconds"]


def test_untimed_turns_have_no_deadline_where_the_game_allows_it(class_7b, ms_rivera, ava, ben):
    student_accommodations_set(student=ava, by=ms_rivera, extra_time="untimed")
    table = start(class_7b, ms_rivera, [ava, ben], "lineit")
    ava_id = services.student_player_id(ava.pk)
    for _turn in range(3):
        if table.state["turn"]["player"] == ava_id:
            assert table.deadline is None  # Line-it may play untimed: her turn waits for her
            return
        fire_deadline(table)
    pytest.fail("Ava never had a turn")


def test_untimed_becomes_double_where_the_game_needs_a_clock(class_7b, ms_rivera, ava, ben):
    student_accommodations_set(student=ava, by=ms_rivera, extra_time="untimed")
    table = start(class_7b, ms_rivera, [ava, ben], "mindlines")
    assert table.deadline is None  # the reading step may be untimed: it waits for everyone to be ready
    now = T0 + 5
    for number, student in enumerate((ava, ben)):
        player = services.student_player_id(student.pk)
        services.action_submit(
            table_id=table.pk, player=player, action={"type": "ready"}, key=f"r{number}", now=now
        )
    table.refresh_from_db()
    assert table.state["phase"] == "scribbling"  # the drawing timer is never off
    assert seconds_left(table, now) == table.state["timers"]["draw_seconds"] * core.LONGEST_ALLOWANCE


def test_no_view_of_a_classmate_mentions_the_allowance(class_7b, ms_rivera, ava_double, ben):
    for game in ("faces", "lineit", "wordup", "mindlines", "lineup"):
        table = start(class_7b, ms_rivera, [ava_double, ben], game)
        for viewer in (
            {"role": "player", "player": services.student_player_id(ben.pk)},
            {"role": "projector"},
        ):
            view = selectors.table_view(table, viewer)["view"]
            assert not core.contains_value(view, "time_allowance"), game


def test_a_latecomer_brings_their_extra_time_to_a_team_and_the_table_still_replays(
    class_7b, ms_rivera, ava, ben
):
    dan = enrolled_student(class_7b, display_name="Dan")
    student_accommodations_set(student=dan, by=ms_rivera, extra_time="1.5")
    table = start(class_7b, ms_rivera, [ava, ben], "lineup")
    participant = services.session_join(session=table.session, student=dan)
    assert participant.status == Participant.Status.WAITING
    services.participant_admit(participant=participant, by=ms_rivera, now=T0 + 5)
    table.refresh_from_db()
    assert table.state["time_allowance"] == {services.student_player_id(dan.pk): 1.5}
    log = [entry.as_log_entry() for entry in table.log.order_by("seq")]
    replayed = core.replay(get_engine("lineup"), table.config, table.seed, log)
    assert core.state_hash(replayed) == core.state_hash(table.state)


def test_a_latecomer_at_a_table_of_their_own_gets_their_extra_time(class_7b, ms_rivera, ava, ben):
    dan = enrolled_student(class_7b, display_name="Dan")
    student_accommodations_set(student=dan, by=ms_rivera, extra_time="2")
    table = start(class_7b, ms_rivera, [ava, ben], "faces")
    participant = services.session_join(session=table.session, student=dan)
    services.participant_admit(participant=participant, by=ms_rivera, now=T0 + 5)
    participant.refresh_from_db()
    assert participant.table.config["time_allowance"] == {services.student_player_id(dan.pk): 2.0}
    assert all("time_allowance" not in player for player in participant.table.config["players"])
