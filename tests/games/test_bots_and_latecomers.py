"""Computer players move on their own through the clock; latecomers are seated the way each game allows."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import content, services
from games.definitions import get_engine
from games.engine import core
from games.models import GameTable, Participant, TableLogEntry
from tests.factories import enrolled_student, play_through_runtime

pytestmark = pytest.mark.django_db
T0 = 1_000_000.0


def _running(classroom, teacher, students, game):
    session = services.session_schedule(
        classroom=classroom, by=teacher, game=game, scheduled_for=timezone.now() + timedelta(hours=1)
    )
    services.session_open_lobby(session=session, by=teacher)
    for student in students:
        services.session_join(session=session, student=student)
    services.session_start(session=session, by=teacher, now=T0)
    session.refresh_from_db()
    return session


def _late(session, teacher, student):
    participant = services.session_join(session=session, student=student)
    assert participant.status == Participant.Status.WAITING  # the game has begun: the teacher admits
    services.participant_admit(participant=participant, by=teacher, now=T0 + 5)
    participant.refresh_from_db()
    return participant


def test_a_lone_student_plays_the_computer_and_the_computer_moves_after_thinking(class_7b, ms_rivera, ava):
    session = _running(class_7b, ms_rivera, [ava], "faces")
    table = GameTable.objects.get(session=session)
    engine = get_engine("faces")
    players = [p["id"] for p in table.config["players"]]
    assert players == [f"s{ava.pk}", "bot1"]
    if engine.current_players(table.state) == ["bot1"]:
        assert table.bot_due == T0 + services.BOT_THINK_SECONDS
        assert services.bots_sweep(now=T0 + 1) == 0  # still thinking
        assert services.bots_sweep(now=T0 + 2) == 1
        table.refresh_from_db()
        assert table.log.filter(player="bot1", kind=TableLogEntry.Kind.ACTION).count() == 1
    else:
        assert table.bot_due is None


def test_a_bot_move_is_made_once_even_if_two_clocks_sweep(class_7b, ms_rivera, ava):
    session = _running(class_7b, ms_rivera, [ava], "lineup")
    table = GameTable.objects.get(session=session)
    assert table.bot_due is not None  # the computer's team answers too
    first = services.table_bot_move(table_id=table.pk, now=T0 + 2)
    table.refresh_from_db()
    assert first
    seq = table.seq
    # The second sweeper sees the new due time, not the old one: nothing more happens now.
    assert not services.table_bot_move(table_id=table.pk, now=T0 + 2)
    table.refresh_from_db()
    assert table.seq == seq


def test_a_computer_move_due_after_a_missed_deadline_fires_the_deadline_first(class_7b, ms_rivera, ava):
    """The rules refuse a late move from anyone, the computer too: when its move comes due after the phase
    ran out (the clock was late), the deadline fires first and the computer plays on afterwards."""
    session = _running(class_7b, ms_rivera, [ava], "lineup")
    table = GameTable.objects.get(session=session)
    late = table.deadline + 1
    assert table.bot_due is not None and table.bot_due < late
    assert services.table_bot_move(table_id=table.pk, now=late)
    table.refresh_from_db()
    kinds = list(table.log.order_by("seq").values_list("kind", flat=True))
    assert kinds[-1] == TableLogEntry.Kind.DEADLINE
    assert not table.log.filter(player__startswith="bot", at__gte=late - 1).exists()
    assert services.bots_sweep(now=late + 60) >= 0  # and the sweep goes on without an error
    core.replay(get_engine("lineup"), table.config, table.seed, list(table.log.order_by("seq").values()))


def test_bots_wait_while_the_session_is_paused(class_7b, ms_rivera, ava):
    session = _running(class_7b, ms_rivera, [ava], "lineup")
    services.session_pause(session=session, by=ms_rivera, now=T0 + 0.5)
    assert services.bots_sweep(now=T0 + 60) == 0
    services.session_resume(session=session, by=ms_rivera, now=T0 + 61)
    assert services.bots_sweep(now=T0 + 63) == 1


def test_a_whole_game_against_the_computer_replays_from_the_log(class_7b, ms_rivera, ava):
    session = _running(class_7b, ms_rivera, [ava], "faces")
    table = GameTable.objects.get(session=session)
    engine = get_engine("faces")
    play_through_runtime(table, engine, core.Rng("student"), T0, 400)
    table.refresh_from_db()
    assert table.status == GameTable.Status.FINISHED
    log = [entry.as_log_entry() for entry in table.log.order_by("seq")]
    assert core.state_hash(core.replay(engine, table.config, table.seed, log)) == core.state_hash(table.state)


def test_a_latecomer_joins_the_smaller_team_and_the_table_still_replays(class_7b, ms_rivera, ava, ben):
    dan = enrolled_student(class_7b, display_name="Dan")
    session = _running(class_7b, ms_rivera, [ava, ben], "lineup")
    participant = _late(session, ms_rivera, dan)
    table = GameTable.objects.get(session=session)
    assert participant.table == table
    assert f"s{dan.pk}" in table.state["players"]
    teams = {team: len(info["members"]) for team, info in table.state["teams"].items()}
    assert sorted(teams.values()) == [1, 2]
    assert table.log.filter(kind=TableLogEntry.Kind.JOIN).count() == 1
    engine = get_engine("lineup")
    log = [entry.as_log_entry() for entry in table.log.order_by("seq")]
    assert core.state_hash(core.replay(engine, table.config, table.seed, log)) == core.state_hash(table.state)


def test_a_latecomer_to_guess_who_gets_a_match_against_the_computer(class_7b, ms_rivera, ava, ben):
    dan = enrolled_student(class_7b, display_name="Dan")
    session = _running(class_7b, ms_rivera, [ava, ben], "faces")
    participant = _late(session, ms_rivera, dan)
    assert session.tables.count() == 2
    assert participant.table.number == 2
    assert [p["id"] for p in participant.table.config["players"]] == [f"s{dan.pk}", "bot1"]


def test_a_lone_latecomer_to_mind_the_lines_gets_a_computer_partner_and_the_table_replays(
    class_7b, ms_rivera, ava, ben
):
    dan = enrolled_student(class_7b, display_name="Dan")
    session = _running(class_7b, ms_rivera, [ava, ben], "mindlines")
    participant = _late(session, ms_rivera, dan)
    assert session.tables.count() == 2
    table = participant.table
    assert table.number == 2
    assert [p["id"] for p in table.config["players"]] == [f"s{dan.pk}", "bot1"]
    assert table.config["players"][1]["bot"] == content.bot_value("mindlines", "medium")
    assert table.bot_due is not None  # the computer reads its concept on its own
    assert services.bots_sweep(now=T0 + 10) >= 1  # within the 30 s of looking that began at T0 + 5
    table.refresh_from_db()
    engine = get_engine("mindlines")
    log = [entry.as_log_entry() for entry in table.log.order_by("seq")]
    assert core.state_hash(core.replay(engine, table.config, table.seed, log)) == core.state_hash(table.state)


def test_a_second_mindlines_latecomer_gets_a_table_of_their_own_too(class_7b, ms_rivera, ava, ben):
    """Tables are never changed once set up: the second latecomer is not added to the first's table."""
    dan = enrolled_student(class_7b, display_name="Dan")
    eve = enrolled_student(class_7b, display_name="Eve")
    session = _running(class_7b, ms_rivera, [ava, ben], "mindlines")
    first = _late(session, ms_rivera, dan)
    second = _late(session, ms_rivera, eve)
    first.refresh_from_db()
    assert session.tables.count() == 3
    assert first.table != second.table
    assert [p["id"] for p in second.table.config["players"]] == [f"s{eve.pk}", "bot1"]


def test_mindlines_latecomers_let_in_together_share_tables_of_the_games_size(class_7b, ms_rivera, ava, ben):
    session = _running(class_7b, ms_rivera, [ava, ben], "mindlines")
    late = [enrolled_student(class_7b, display_name=f"Late {n}") for n in range(9)]
    for student in late:
        participant = services.session_join(session=session, student=student)
        assert participant.status == Participant.Status.WAITING
    Participant.objects.filter(session=session, status=Participant.Status.WAITING).update(
        status=Participant.Status.PRESENT
    )
    assert services.seat_latecomers(session=session, now=T0 + 5) == 9
    new_tables = session.tables.filter(number__gt=1).order_by("number")
    sizes = [len(table.config["players"]) for table in new_tables]
    assert sizes == [5, 4]  # at most 8 a group, as at the start; no computer player needed
    assert not any(p.get("bot") for table in new_tables for p in table.config["players"])


@pytest.mark.parametrize(
    "players",
    [
        [],
        ["s1"],
        ["s1", "s2", "bot1"],
        ["bot-2"],
        ["s1", "robot", "sbot"],
        ["s\nbot"],
        [f"s{n}" for n in range(2000)],
    ],
)
def test_a_table_has_a_computer_player_exactly_when_one_of_its_ids_is_a_computers(players):
    """The scan over the ids joined says what asking each id says (a computer's id starts with its prefix,
    and only there)."""
    from games.services.base import any_bot, is_bot

    assert any_bot(players) == any(is_bot(player) for player in players)
