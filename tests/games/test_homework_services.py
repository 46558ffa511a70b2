"""Homework: assigning, attempts as one-student sessions with computer players, pausing while the device is
away, resuming, attempts, closing early, and every game that can be homework played to its end."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from games import services
from games.definitions import DEFINITIONS, definition, get_engine
from games.engine import core
from games.models import Assignment, GameSession, GameTable, Participant, TableLogEntry
from games.services.homework import UNTIMED_SECONDS
from tests.factories import play_through_runtime, recorded_facts

pytestmark = pytest.mark.django_db
T0 = 1_000_000.0
HOMEWORK_GAMES = [name for name, game in DEFINITIONS.items() if not game.homework.unavailable]


def assign(classroom, teacher, game="wordup", **fields):
    now = timezone.now()
    fields.setdefault("opens_at", now - timedelta(hours=1))
    fields.setdefault("due_at", now + timedelta(days=7))
    return services.assignment_create(classroom=classroom, by=teacher, game=game, **fields)


def test_four_games_can_be_homework_and_mind_the_lines_says_why_not():
    assert HOMEWORK_GAMES == ["lineup", "wordup", "faces", "lineit"]
    assert "cannot draw" in str(definition("mindlines").homework.unavailable)


def test_mind_the_lines_cannot_be_assigned(class_7b, ms_rivera):
    with pytest.raises(ValidationError, match="cannot draw"):
        assign(class_7b, ms_rivera, game="mindlines")


def test_the_due_date_comes_after_the_opening(class_7b, ms_rivera):
    now = timezone.now()
    with pytest.raises(ValidationError):
        assign(class_7b, ms_rivera, opens_at=now, due_at=now - timedelta(hours=1))


def test_the_due_date_has_not_passed(class_7b, ms_rivera):
    now = timezone.now()
    with pytest.raises(ValidationError, match="passed"):
        assign(class_7b, ms_rivera, opens_at=now - timedelta(days=2), due_at=now - timedelta(days=1))


def test_line_up_homework_defaults_to_the_strong_computer(class_7b, ms_rivera):
    assert assign(class_7b, ms_rivera, game="faces").settings["bot"] == "hard"


def test_students_of_another_class_cannot_be_chosen(class_7b, ms_rivera, cleo):
    with pytest.raises(ValidationError):
        assign(class_7b, ms_rivera, students=[cleo])


@pytest.mark.parametrize("game", HOMEWORK_GAMES)
def test_an_attempt_is_one_student_with_computer_players_and_waits_paused(class_7b, ms_rivera, ava, game):
    assignment = assign(class_7b, ms_rivera, game=game)
    session = services.attempt_start(assignment=assignment, student=ava, now=T0)
    assert session.is_homework and session.status == GameSession.Status.PAUSED
    table = GameTable.objects.get(session=session)
    players = table.config["players"]
    assert [p["id"] for p in players if not services.is_bot(p["id"])] == [f"s{ava.pk}"]
    assert len(players) == 1 + assignment.computer_players
    assert Participant.objects.get(session=session).table == table
    assert [e.kind for e in table.log.order_by("seq")] == ["setup", "pause"]


def test_generous_timers_triple_the_move_timer_and_off_gives_a_day(class_7b, ms_rivera, ava, ben):
    generous = assign(class_7b, ms_rivera, settings={"answer_seconds": 45})
    session = services.attempt_start(assignment=generous, student=ava, now=T0)
    assert session.settings["answer_seconds"] == 135
    off = assign(class_7b, ms_rivera, timers=Assignment.Timers.OFF)
    assert services.attempt_start(assignment=off, student=ben, now=T0).settings["answer_seconds"] == (
        UNTIMED_SECONDS
    )


def test_the_clocks_run_only_while_the_device_is_here(class_7b, ms_rivera, ava):
    session = services.attempt_start(assignment=assign(class_7b, ms_rivera), student=ava, now=T0)
    participant = Participant.objects.get(session=session)
    assert services.attempt_device_arrived(participant_id=participant.pk, now=T0 + 5)
    session.refresh_from_db()
    assert session.status == GameSession.Status.RUNNING
    table = GameTable.objects.get(session=session)
    deadline = table.deadline
    # The device leaves for an hour: nothing fires, no computer moves, and the time left is kept.
    assert services.attempt_device_left(participant_id=participant.pk, now=T0 + 10)
    assert services.deadline_sweep(now=T0 + 3600) == 0 and services.bots_sweep(now=T0 + 3600) == 0
    services.attempt_device_arrived(participant_id=participant.pk, now=T0 + 3600)
    table.refresh_from_db()
    assert table.deadline == pytest.approx(deadline + 3590)


@pytest.mark.parametrize("game", HOMEWORK_GAMES)
def test_a_paused_attempt_has_no_computer_move_due_until_it_resumes(class_7b, ms_rivera, ava, game):
    """The clock finds what is due by the tables' ``bot_due`` and ``deadline`` alone: a paused table has
    neither, and the computer thinks again from the moment the student is back."""
    session = services.attempt_start(assignment=assign(class_7b, ms_rivera, game=game), student=ava, now=T0)
    participant = Participant.objects.get(session=session)
    services.attempt_device_arrived(participant_id=participant.pk, now=T0)
    table = GameTable.objects.get(session=session)

    def computers_turn():
        table.refresh_from_db()
        return table.bot_due is not None

    now = play_through_runtime(
        table, get_engine(game), core.Rng("pause"), T0, steps=200, until=computers_turn
    )
    assert table.bot_due is not None
    services.attempt_device_left(participant_id=participant.pk, now=now)
    table.refresh_from_db()
    assert table.bot_due is None and table.deadline is None
    services.attempt_device_arrived(participant_id=participant.pk, now=now + 600)
    table.refresh_from_db()
    assert table.bot_due == pytest.approx(now + 600 + services.BOT_THINK_SECONDS)


def test_a_second_device_holding_the_seat_keeps_the_clocks_running(class_7b, ms_rivera, ava):
    session = services.attempt_start(assignment=assign(class_7b, ms_rivera), student=ava, now=T0)
    participant = Participant.objects.get(session=session)
    services.seat_claim(participant_id=participant.pk, connection="phone")
    services.attempt_device_arrived(participant_id=participant.pk, now=T0)
    services.seat_claim(participant_id=participant.pk, connection="laptop")
    services.seat_release(participant_id=participant.pk, connection="phone")
    assert not services.attempt_device_left(participant_id=participant.pk, now=T0 + 1)


def test_start_again_resumes_the_unfinished_attempt(class_7b, ms_rivera, ava):
    assignment = assign(class_7b, ms_rivera)
    first = services.attempt_start(assignment=assignment, student=ava, now=T0)
    assert services.attempt_start(assignment=assignment, student=ava, now=T0 + 60) == first


def test_attempts_are_counted(class_7b, ms_rivera, ava):
    assignment = assign(class_7b, ms_rivera, attempts_allowed=1)
    session = services.attempt_start(assignment=assignment, student=ava, now=T0)
    services.table_end(table=session.tables.get(), by=None)
    services.session_finish_if_done(session_id=session.pk)
    with pytest.raises(ValidationError, match="every attempt"):
        services.attempt_start(assignment=assignment, student=ava, now=T0 + 60)
    assignment.attempts_allowed = 2
    assignment.save()
    assert services.attempt_start(assignment=assignment, student=ava, now=T0 + 60) != session


def test_only_the_chosen_students_may_start(class_7b, ms_rivera, ava, ben, cleo):
    assignment = assign(class_7b, ms_rivera, students=[ava])
    with pytest.raises(PermissionDenied):
        services.attempt_start(assignment=assignment, student=ben)
    with pytest.raises(PermissionDenied):
        services.attempt_start(assignment=assignment, student=cleo)


def test_not_before_it_opens(class_7b, ms_rivera, ava):
    later = assign(class_7b, ms_rivera, opens_at=timezone.now() + timedelta(hours=1))
    with pytest.raises(ValidationError, match="not opened"):
        services.attempt_start(assignment=later, student=ava)


def test_closing_early_ends_the_attempts_under_way_and_refuses_new_ones(class_7b, ms_rivera, ava, ben):
    assignment = assign(class_7b, ms_rivera)
    session = services.attempt_start(assignment=assignment, student=ava, now=T0)
    services.assignment_close(assignment=assignment, by=ms_rivera)
    session.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED
    assert session.tables.get().status == GameTable.Status.ENDED
    with pytest.raises(ValidationError, match="closed"):
        services.attempt_start(assignment=assignment, student=ben)


def test_a_due_date_extended_for_one_student(class_7b, ms_rivera, ava, cleo):
    assignment = assign(class_7b, ms_rivera)
    later = assignment.due_at + timedelta(days=2)
    services.assignment_extend(assignment=assignment, student=ava, due_at=later, by=ms_rivera)
    assert assignment.extensions.get(student=ava).due_at == later
    with pytest.raises(ValidationError):
        services.assignment_extend(assignment=assignment, student=cleo, due_at=later, by=ms_rivera)


def test_the_game_cannot_change_once_started(class_7b, ms_rivera, ava):
    assignment = assign(class_7b, ms_rivera)
    services.assignment_update(assignment=assignment, by=ms_rivera, title="Week 3")
    services.attempt_start(assignment=assignment, student=ava, now=T0)
    with pytest.raises(ValidationError):
        services.assignment_update(assignment=assignment, by=ms_rivera, game="lineit")


@pytest.mark.parametrize("game", HOMEWORK_GAMES)
def test_every_homework_game_plays_to_its_end_and_replays(class_7b, ms_rivera, ava, game):
    settings = {"board": "short"} if game == "lineup" else {}
    if game == "wordup":
        settings["target"] = 1
    assignment = assign(class_7b, ms_rivera, game=game, settings=settings)
    session = services.attempt_start(assignment=assignment, student=ava, now=T0)
    participant = Participant.objects.get(session=session)
    services.attempt_device_arrived(participant_id=participant.pk, now=T0)
    table = GameTable.objects.get(session=session)
    engine = get_engine(game)
    play_through_runtime(table, engine, core.Rng("homework"), T0, steps=3000)
    services.session_finish_if_done(session_id=session.pk)  # after the commit, in the runtime
    table.refresh_from_db()
    session.refresh_from_db()
    assert table.status == GameTable.Status.FINISHED
    assert session.status == GameSession.Status.FINISHED
    log = [entry.as_log_entry() for entry in table.log.order_by("seq")]
    assert core.replay(engine, table.config, table.seed, log) == table.state
    assert TableLogEntry.objects.filter(table=table, kind="action").exclude(player__startswith="bot").exists()
    if game != "faces":  # Line-Up's facts are the match's questions: recorded as in live play
        assert recorded_facts(table).exists()


@pytest.mark.parametrize("game", HOMEWORK_GAMES)
@pytest.mark.parametrize("timers", list(Assignment.Timers))
def test_every_timer_choice_sets_up_in_every_game(class_7b, ms_rivera, ava, game, timers):
    """The longest move timers (generous on a long setting, or off) are within every game's rules."""
    form = definition(game).homework
    longest = {key: definition(game).spec.settings[key].maximum for key in form.timers}
    assignment = assign(class_7b, ms_rivera, game=game, timers=timers, settings=longest)
    table = services.attempt_start(assignment=assignment, student=ava, now=T0).tables.get()
    assert table.status == GameTable.Status.PLAYING and table.state["clock"]["remaining"]


def test_seats_of_a_killed_web_process_are_freed_and_its_homework_attempt_pauses(
    class_7b, ms_rivera, ava, ben
):
    """A web process killed mid-lesson never releases its devices' seats: the clock frees them (a live
    game's student no longer shows as connected; a homework attempt stops its clocks and computer players
    until the student is back). Seats on the other processes stay."""
    from tests.factories import started_session

    attempt = services.attempt_start(assignment=assign(class_7b, ms_rivera), student=ava, now=T0)
    homework_seat = Participant.objects.get(session=attempt)
    services.seat_claim(participant_id=homework_seat.pk, connection="specific.killed!a1")
    services.attempt_device_arrived(participant_id=homework_seat.pk, now=T0)
    live = started_session(class_7b, ms_rivera, [ava, ben], "wordup")
    on_killed, on_alive = Participant.objects.filter(session=live).order_by("pk")
    services.seat_claim(participant_id=on_killed.pk, connection="specific.killed!b2")
    services.seat_claim(participant_id=on_alive.pk, connection="specific.alive!c3")

    from games.realtime import balance

    freed = services.seats_release_gone(lambda channel: balance.process_of(channel) == "killed")

    assert freed == 2
    assert {p.pk: p.connection for p in Participant.objects.all()} == {
        homework_seat.pk: "",
        on_killed.pk: "",
        on_alive.pk: "specific.alive!c3",
    }
    attempt.refresh_from_db()
    live.refresh_from_db()
    assert attempt.status == GameSession.Status.PAUSED  # no clock runs, no computer moves, while away
    assert live.status == GameSession.Status.RUNNING  # a live game goes on: its teacher decides
    assert services.bots_sweep(now=T0 + 3600) == 0
    assert services.seats_release_gone(lambda channel: True) == 1  # only the alive one was still held


def test_the_clock_frees_the_seats_of_the_processes_redis_lists_as_gone(
    class_7b, ms_rivera, ava, monkeypatch
):
    from games import clock
    from games.realtime import balance

    attempt = services.attempt_start(assignment=assign(class_7b, ms_rivera), student=ava, now=T0)
    seat = Participant.objects.get(session=attempt)
    services.seat_claim(participant_id=seat.pk, connection="specific.killed!a1")
    services.attempt_device_arrived(participant_id=seat.pk, now=T0)
    monkeypatch.setattr(balance, "gone_processes", lambda: {"other"})
    assert clock.free_seats_of_gone_processes() == 0
    monkeypatch.setattr(balance, "gone_processes", lambda: {"killed"})
    assert clock.free_seats_of_gone_processes() == 1
    attempt.refresh_from_db()
    assert attempt.status == GameSession.Status.PAUSED


@pytest.mark.django_db(transaction=True)
def test_the_embedded_server_frees_every_seat_when_it_starts(class_7b, ms_rivera, ava, settings):
    """One process serves every device in embedded mode: when it starts (after a crash or a restart) no
    device can be connected, so a seat still held is from before, and its homework attempt pauses."""
    import asyncio

    from config.asgi import application

    settings.REDIS_URL, settings.CLASSPLAY_CLOCK_IN_PROCESS = "", False
    attempt = services.attempt_start(assignment=assign(class_7b, ms_rivera), student=ava, now=T0)
    seat = Participant.objects.get(session=attempt)
    services.seat_claim(participant_id=seat.pk, connection="specific..inmemory!before")
    services.attempt_device_arrived(participant_id=seat.pk, now=T0)

    async def start_and_stop():
        said = []
        messages = iter([{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}])

        async def receive():
            return next(messages)

        async def send(message):
            said.append(message["type"])

        await application({"type": "lifespan"}, receive, send)
        return said

    assert asyncio.run(start_and_stop()) == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
    seat.refresh_from_db()
    attempt.refresh_from_db()
    assert seat.connection == "" and attempt.status == GameSession.Status.PAUSED


@pytest.mark.django_db(transaction=True)
def test_a_new_attempts_game_is_made_before_its_transaction_takes_the_write_lock(
    class_7b, ms_rivera, ava, monkeypatch
):
    """Building a Word Up bank was most of an attempt's start, and on SQLite every move waited for it."""
    from django.db import connection

    from games.services import lobby

    made_in_a_transaction = []
    real_prepare = lobby._table_prepare

    def prepare(*args, **kwargs):
        made_in_a_transaction.append(connection.in_atomic_block)
        return real_prepare(*args, **kwargs)

    monkeypatch.setattr(lobby, "_table_prepare", prepare)
    monkeypatch.setattr(services.homework, "_table_prepare", prepare)
    session = services.attempt_start(assignment=assign(class_7b, ms_rivera), student=ava, now=T0)
    assert made_in_a_transaction == [False]
    table = GameTable.objects.get(session=session)
    assert [e.kind for e in table.log.order_by("seq")] == ["setup", "pause"]
    # Tapping again resumes it: nothing is made.
    assert services.attempt_start(assignment=session.assignment, student=ava, now=T0 + 5) == session
    assert made_in_a_transaction == [False]


def test_a_game_made_from_inputs_that_changed_meanwhile_is_made_again(class_7b, ms_rivera, ava, monkeypatch):
    """The student's level (or the homework's settings) may change between the game being made and the
    lock: the attempt is made from what holds under the lock."""
    from classrooms.models import StudentLevel
    from games.services import homework

    assignment = assign(class_7b, ms_rivera)
    real_prepared = homework._attempt_prepared

    def prepared_then_level_changes(assignment, student, level, now):
        made = real_prepared(assignment, student, level, now)
        StudentLevel.objects.update_or_create(
            student=student, skill="english_vocabulary", defaults={"level": 5}
        )
        return made

    monkeypatch.setattr(homework, "_attempt_prepared", prepared_then_level_changes)
    session = services.attempt_start(assignment=assignment, student=ava, now=T0)
    players = GameTable.objects.get(session=session).config["players"]
    assert {p["level"] for p in players if p["id"] == f"s{ava.pk}"} == {5}


def test_nothing_is_made_for_a_tap_that_cannot_open_an_attempt(class_7b, ms_rivera, ava, cleo, monkeypatch):
    from games.services import homework

    def must_not_make(*args, **kwargs):
        raise AssertionError("made a game for nothing")

    monkeypatch.setattr(homework, "_attempt_prepared", must_not_make)
    with pytest.raises(PermissionDenied):
        services.attempt_start(assignment=assign(class_7b, ms_rivera), student=cleo, now=T0)
    closed = services.assignment_close(assignment=assign(class_7b, ms_rivera), by=ms_rivera)
    with pytest.raises(ValidationError, match="closed"):
        services.attempt_start(assignment=closed, student=ava, now=T0)


def test_another_students_attempts_are_not_counted_as_theirs(class_7b, ms_rivera, ava, ben):
    assignment = assign(class_7b, ms_rivera, attempts_allowed=1)
    bens = services.attempt_start(assignment=assignment, student=ben, now=T0)
    services.table_end(table=bens.tables.get(), by=None)
    services.session_finish_if_done(session_id=bens.pk)
    assert services.attempt_start(assignment=assignment, student=ava, now=T0 + 60) != bens


def test_a_new_attempt_is_made_at_the_students_level(class_7b, ms_rivera, ava):
    from classrooms.models import StudentLevel

    StudentLevel.objects.create(student=ava, skill="english_vocabulary", level=4)
    session = services.attempt_start(assignment=assign(class_7b, ms_rivera), student=ava, now=T0)
    players = GameTable.objects.get(session=session).config["players"]
    assert [p["level"] for p in players if p["id"] == f"s{ava.pk}"] == [4]


def test_a_start_checks_everything_in_one_query_before_the_lock_and_one_under_it(class_7b, ms_rivera, ava):
    """Each of an evening's thousands of Starts: the enrolment, the chosen students, the unfinished
    attempt, the attempts made and the level are read together (they were five queries, twice)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    assignment = assign(class_7b, ms_rivera, attempts_allowed=3)
    with CaptureQueriesContext(connection) as queries:
        services.attempt_start(assignment=assignment, student=ava, now=T0)
    reads = [q["sql"] for q in queries if q["sql"].startswith("SELECT")]
    assert len([sql for sql in reads if "classrooms_enrolment" in sql]) == 2
    assert not [sql for sql in reads if "classrooms_enrolment" not in sql and "studentlevel" in sql]
    assert not [sql for sql in reads if "games_gamesession" in sql and "classrooms_enrolment" not in sql]
    assert len(queries) <= 20


def test_a_live_games_seat_is_not_paused_or_resumed_as_homework(class_7b, ms_rivera, ava, ben):
    from tests.factories import started_session

    session = started_session(class_7b, ms_rivera, [ava, ben], "wordup", now=T0)
    participant = Participant.objects.get(session=session, student=ava)
    seq = GameTable.objects.get(session=session).seq
    assert not services.attempt_device_left(participant_id=participant.pk, now=T0 + 1)
    assert not services.attempt_device_arrived(participant_id=participant.pk, now=T0 + 2)
    assert not services.attempt_device_left(participant_id=999_999, now=T0 + 3)
    session.refresh_from_db()
    assert session.status == GameSession.Status.RUNNING
    assert GameTable.objects.get(session=session).seq == seq
