"""Learning facts are recorded by a worker after the move commits (``games.tables_facts``), not inside
the move's transaction: a reveal in a class of 2000 makes 2000 facts, and the move must reach the
devices first. The session's wrap-up makes good any task that never ran, before the report build."""

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from games import services
from games.models import GameSession
from games.services.log import TableWrite
from reports.models import LearningFact, ReportBuild
from tests.factories import recorded_facts, started_session

pytestmark = pytest.mark.django_db
T0 = 1_000_000.0


@pytest.fixture
def table(class_7b, ms_rivera, ava, ben):
    return started_session(class_7b, ms_rivera, [ava, ben], "lineup", now=T0).tables.get()


def _reveal_seq(table) -> int:
    (seq,) = [
        entry.seq
        for entry in table.log.all()
        if any(event.get("type") == "question_revealed" for event in entry.events)
    ]
    return seq


def _answer(table, student, at=T0 + 5):
    """Both of a one-student team's moves: rack an order, confirm it."""
    player = f"s{student.pk}"
    return services.actions_submit(
        table_id=table.pk,
        submissions=[
            services.Submission(player=player, action={"type": "rack", "order": [2, 1, 3, 4, 5]}, key="r"),
            services.Submission(player=player, action={"type": "confirm"}, key="c"),
        ],
        now=at,
    )


def test_a_reveal_queues_one_task_with_its_entry_after_the_commit(
    table, ava, ben, django_capture_on_commit_callbacks
):
    with mock.patch("games.tasks.tables_facts.delay") as queued:
        with django_capture_on_commit_callbacks(execute=True):
            _answer(table, ava)
        queued.assert_not_called()  # racking and confirming hold no fact
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            _answer(table, ben)  # the second confirm reveals the answer
            assert not queued.called, "queued only once the move has committed"
        assert callbacks
    queued.assert_called_once_with([[table.pk, [_reveal_seq(table)]]])
    assert not LearningFact.objects.exists()  # the task, mocked here, is what records them


def test_the_task_records_the_facts_once_however_often_it_runs(
    table, ava, ben, eager_celery, django_capture_on_commit_callbacks
):
    from games.tasks import table_facts, tables_facts

    with django_capture_on_commit_callbacks(execute=True):
        _answer(table, ava)
        _answer(table, ben)
    facts = list(LearningFact.objects.order_by("key").values_list("key", "student", "correct"))
    assert {student for _key, student, _correct in facts} == {ava.pk, ben.pk}
    tables_facts.delay([[table.pk, [_reveal_seq(table)]]])  # a redelivered message
    table_facts.delay(table.pk, [_reveal_seq(table)])  # one queued by an earlier version
    services.table_facts_record(table_id=table.pk)  # and the wrap-up's pass over the whole log
    assert list(LearningFact.objects.order_by("key").values_list("key", "student", "correct")) == facts


def test_a_broker_that_is_down_never_fails_the_move_and_the_wrap_up_makes_it_good(
    table, ava, ben, ms_rivera, eager_celery, django_capture_on_commit_callbacks
):
    with (
        mock.patch("games.tasks.tables_facts.delay", side_effect=ConnectionError("broker down")),
        django_capture_on_commit_callbacks(execute=True),
    ):
        _answer(table, ava)
        outcomes = _answer(table, ben)
    assert all(isinstance(outcome, services.ActionResult) for outcome in outcomes)
    assert not LearningFact.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        services.session_end(session=table.session, by=ms_rivera)
    assert set(LearningFact.objects.values_list("student", flat=True)) == {ava.pk, ben.pk}
    assert ReportBuild.objects.filter(session=table.session, scope=ReportBuild.Scope.SESSION).exists()


def test_the_report_build_is_queued_only_after_the_last_facts_are_in(
    table, ava, ben, ms_rivera, eager_celery, django_capture_on_commit_callbacks
):
    # Every per-move task lost:
    with mock.patch("games.tasks.tables_facts.delay"), django_capture_on_commit_callbacks(execute=True):
        _answer(table, ava)
        _answer(table, ben)
    facts_when_queued = []

    def build_request(**target):
        facts_when_queued.append(LearningFact.objects.filter(session=target["session"]).count())

    with (
        mock.patch("reports.services.build_request", side_effect=build_request),
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.session_end(session=table.session, by=ms_rivera)
    assert facts_when_queued == [2]


def test_facts_erased_after_the_move_are_not_brought_back(table, ava, ben, dr_patel):
    from reports.services import student_data_erase

    _answer(table, ava)
    _answer(table, ben)
    assert set(recorded_facts(table).values_list("student", flat=True)) == {ava.pk, ben.pk}
    student_data_erase(student=ava, by=dr_patel)
    assert set(recorded_facts(table).values_list("student", flat=True)) == {ben.pk}


def test_a_student_deleted_before_the_task_runs_is_skipped(table, ava, ben):
    _answer(table, ava)
    _answer(table, ben)
    ben.delete()
    assert set(recorded_facts(table).values_list("student", flat=True)) == {ava.pk}


def test_the_wrap_up_of_a_session_still_running_does_nothing(table, ava, ben):
    _answer(table, ava)
    _answer(table, ben)
    services.session_wrap_up(session_id=table.session_id)  # e.g. a stray message for another database
    assert not LearningFact.objects.exists()
    assert not ReportBuild.objects.exists()


def test_line_up_says_which_events_hold_facts_without_building_them():
    """The runtime queues a facts task only when ``records_facts`` says so; Line Up! answers it without
    building a reveal's facts (2000 of them in a big class), and must agree with ``facts`` on every step
    of a whole bot game. (The other engines use the default: ``bool(facts(events))``.)"""
    from games.engine import core
    from games.management.commands.simulate import build

    engine, config, seed = build("lineup", seed=5, players=6)
    with_facts = 0
    for _state, _entry, events in core.bot_moves(engine, config, seed):
        assert engine.records_facts(events) == bool(engine.facts(events)), events
        with_facts += engine.records_facts(events)
    assert with_facts >= 5


def test_a_session_is_wrapped_up_once(
    table, ava, ben, ms_rivera, eager_celery, django_capture_on_commit_callbacks
):
    _answer(table, ava)
    _answer(table, ben)
    with django_capture_on_commit_callbacks(execute=True):
        services.session_end(session=table.session, by=ms_rivera)
    session = GameSession.objects.get(pk=table.session_id)
    assert session.wrapped_up_at is not None
    with django_capture_on_commit_callbacks(execute=True):
        services.session_wrap_up(session_id=session.pk)  # a redelivered message
    assert ReportBuild.objects.filter(session=session).count() == 1


def test_the_clock_requeues_a_wrap_up_that_never_happened(
    table, ava, ben, ms_rivera, eager_celery, django_capture_on_commit_callbacks
):
    from games import clock

    _answer(table, ava)
    _answer(table, ben)
    # The session ends, but its wrap-up task is lost (a broker down at that moment).
    with (
        mock.patch("games.tasks.session_wrap_up.delay", side_effect=ConnectionError("broker down")),
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.session_end(session=table.session, by=ms_rivera)
    session = GameSession.objects.get(pk=table.session_id)
    assert session.wrapped_up_at is None and not LearningFact.objects.exists()

    clock.tick(check_lobbies=False, check_wrap_ups=True)
    assert not LearningFact.objects.exists(), "not before the grace period (its own task may be queued)"
    GameSession.objects.filter(pk=session.pk).update(ended_at=timezone.now() - timedelta(minutes=6))
    with django_capture_on_commit_callbacks(execute=True):
        clock.tick(check_lobbies=False, check_wrap_ups=True)
    session.refresh_from_db()
    assert session.wrapped_up_at is not None
    assert set(LearningFact.objects.values_list("student", flat=True)) == {ava.pk, ben.pk}
    assert ReportBuild.objects.filter(session=session).count() == 1
    with mock.patch("games.tasks.session_wrap_up.delay") as queued:
        clock.tick(check_lobbies=False, check_wrap_ups=True)
    queued.assert_not_called()  # wrapped up: never again


def test_a_table_object_used_again_after_a_commit_queues_its_next_entries_too(
    table, django_capture_on_commit_callbacks
):
    """Each transaction queues its own entries, even when the caller keeps the same table object."""
    from django.db import transaction

    with mock.patch("games.tasks.tables_facts.delay") as queued:
        for seq in (7, 8):
            with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
                TableWrite(table).facts_after_commit(seq)
    assert queued.call_args_list == [mock.call([[table.pk, [7]]]), mock.call([[table.pk, [8]]])]


def test_a_computer_players_answers_queue_no_task_their_facts_are_not_kept(
    class_7b, ms_rivera, ava, django_capture_on_commit_callbacks
):
    """A Word Up homework against the computer: only the entries holding the student's facts are queued
    (with 1000 homework games, the computer's answers made a task of nearly every clock sweep)."""
    from games.definitions import get_engine
    from games.engine import core
    from games.models import GameTable, Participant
    from tests.factories import open_assignment, play_through_runtime

    session = services.attempt_start(assignment=open_assignment(class_7b, ms_rivera), student=ava, now=T0)
    services.attempt_device_arrived(participant_id=Participant.objects.get(session=session).pk, now=T0)
    table = GameTable.objects.get(session=session)
    engine = get_engine("wordup")
    with (
        mock.patch("games.tasks.tables_facts.delay") as queued,
        django_capture_on_commit_callbacks(execute=True),
    ):
        play_through_runtime(table, engine, core.Rng("facts"), T0, steps=300)
    queued_seqs = {seq for (items,), _ in queued.call_args_list for _table, seqs in items for seq in seqs}
    players_by_seq = {entry.seq: engine.fact_players(entry.events) for entry in table.log.exclude(events=[])}
    with_facts = {seq for seq, players in players_by_seq.items() if players}
    students = {seq for seq in with_facts if f"s{ava.pk}" in players_by_seq[seq]}
    assert students and with_facts - students, "the game had answers of both"
    assert queued_seqs == students


def test_facts_held_by_a_thread_go_as_one_task_when_flushed(
    table, ava, ben, django_capture_on_commit_callbacks
):
    """The clock holds its sweeps' facts and queues them together (a task per sweep, many a second, was
    a seventh of its work); the entries are the same."""
    from games.services.log import facts_held

    with mock.patch("games.tasks.tables_facts.delay") as queued:
        with facts_held() as held:
            with django_capture_on_commit_callbacks(execute=True):
                _answer(table, ava)
            with django_capture_on_commit_callbacks(execute=True):
                _answer(table, ben)  # the reveal: a fact
            queued.assert_not_called()
            assert held.seqs == {table.pk: [_reveal_seq(table)]} and held.held_for() >= 0
            held.flush()
            queued.assert_called_once_with([[table.pk, [_reveal_seq(table)]]])
            held.flush()  # nothing more held: nothing more queued
        queued.assert_called_once()


def test_facts_still_held_when_the_holder_leaves_are_queued_then(
    table, ava, ben, django_capture_on_commit_callbacks
):
    from games.services.log import facts_held

    with mock.patch("games.tasks.tables_facts.delay") as queued:
        with facts_held(), django_capture_on_commit_callbacks(execute=True):
            _answer(table, ava)
            _answer(table, ben, at=T0 + 6)
        queued.assert_called_once_with([[table.pk, [_reveal_seq(table)]]])
