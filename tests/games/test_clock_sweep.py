"""The clock's sweep: every due deadline and computer move of many tables in one transaction per
``limit`` tables, a table that fails rolled back alone; in the server's process, the tables it moved on
go to the fan-out as committed."""

import asyncio
from types import SimpleNamespace

import pytest

from games import broadcast, clock, services
from games.models import GameTable, TableLogEntry
from games.services import play
from tests.factories import enrolled_student, started_session

T0 = 1_000_000.0


@pytest.fixture
def lone_games(class_7b, ms_rivera, ava, ben):
    """Three Line Up! games of one student each against the computer's team, whose move is due."""
    tables = []
    for student in (ava, ben, enrolled_student(class_7b, given_name="Cara", display_name="Cara L.")):
        session = started_session(class_7b, ms_rivera, [student], "lineup", now=T0)
        tables.append(GameTable.objects.get(session=session))
    assert all(table.bot_due is not None for table in tables)
    return tables


def _computer_fails_at(broken, monkeypatch):
    """The computer's move raises at the ``broken`` table (after making it); returns the real step."""
    real = play._bot_move_if_due

    def fails_for_one(write, now):
        moved = real(write, now)
        if write.table.pk == broken.pk:
            raise RuntimeError("a bug in one game")
        return moved

    monkeypatch.setattr(play, "_bot_move_if_due", fails_for_one)
    return real


def _bot_moves(table) -> int:
    return table.log.filter(kind=TableLogEntry.Kind.ACTION, player__startswith="bot").count()


@pytest.mark.django_db
@pytest.mark.parametrize("limit", [100, 2, 1])
def test_one_sweep_moves_every_due_table_whatever_the_limit(
    lone_games, limit, django_capture_on_commit_callbacks
):
    with broadcast.collected() as collection, django_capture_on_commit_callbacks(execute=True):
        steps = services.clock_sweep(now=T0 + 2, limit=limit)
    assert steps == 3
    assert [_bot_moves(table) for table in lone_games] == [1, 1, 1]
    announced = {message["table"]: message["seq"] for _group, message in collection.messages.values()}
    for table in lone_games:
        table.refresh_from_db()
        assert announced[table.pk] == table.seq  # each announced once, at its latest
        assert collection.tables[table.pk].seq == table.seq  # handed over as committed


@pytest.mark.django_db
def test_nothing_due_is_nothing_done(lone_games):
    assert services.clock_sweep(now=T0) == 0
    assert [_bot_moves(table) for table in lone_games] == [0, 0, 0]


@pytest.mark.django_db
def test_a_table_that_fails_is_rolled_back_alone_and_tried_again_next_sweep(
    lone_games, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    broken = lone_games[1]
    real = _computer_fails_at(broken, monkeypatch)
    before = GameTable.objects.get(pk=broken.pk).seq
    with broadcast.collected() as collection, django_capture_on_commit_callbacks(execute=True):
        assert services.clock_sweep(now=T0 + 2) == 2
    assert [_bot_moves(table) for table in lone_games] == [1, 0, 1]
    assert GameTable.objects.get(pk=broken.pk).seq == before
    assert broken.pk not in {message["table"] for _group, message in collection.messages.values()}
    assert "the next sweep tries again" in caplog.text
    monkeypatch.setattr(play, "_bot_move_if_due", real)
    assert services.clock_sweep(now=T0 + 2) == 1
    assert _bot_moves(broken) == 1


@pytest.mark.asyncio
async def test_in_the_server_process_the_sweep_hands_its_tables_to_the_fan_out(monkeypatch):
    table = SimpleNamespace(pk=3, session_id=7, seq=4)
    collection = broadcast.Collected()
    collection.add("classplay.session.7", {"type": "table.changed", "table": 3, "seq": 4}, "k", table)
    monkeypatch.setattr(clock, "sweep_collected", lambda now: (1, collection))
    kept, sent = [], []
    hub = SimpleNamespace(committed_here=lambda what: kept.extend(what.tables.values()) or {"k": "here"})
    monkeypatch.setattr(clock.fanout, "hub", lambda: hub)

    async def send_collected(what, told):
        sent.append((what, told, asyncio.get_running_loop()))

    monkeypatch.setattr(clock.broadcast, "send_collected", send_collected)
    sweep = clock.sweep_into(asyncio.get_running_loop())
    assert await asyncio.to_thread(sweep, None) == 1  # the clock's own thread
    assert kept == [table]
    # Sent from the server's loop, not to its hub, which has the tables already.
    assert sent == [(collection, {"k": "here"}, asyncio.get_running_loop())]


def _rack_and_confirm(table, student, at):
    player = f"s{student.pk}"
    return [
        services.Submission(player=player, action={"type": "rack", "order": [2, 1, 3, 4, 5]}, key=f"r{at}"),
        services.Submission(player=player, action={"type": "confirm"}, key=f"c{at}"),
    ]


def _revealed(table) -> list[int]:
    return [
        entry.seq
        for entry in table.log.order_by("seq")
        if any(event.get("type") == "question_revealed" for event in entry.events)
    ]


@pytest.mark.django_db
def test_a_sweep_queues_one_facts_task_for_all_its_tables_and_none_for_one_rolled_back(
    lone_games, class_7b, monkeypatch, django_capture_on_commit_callbacks
):
    """Every student has confirmed an order and the computer has racked its own: its confirm in the
    sweep reveals at each table."""
    from unittest import mock

    students = [table.session.participants.get().student for table in lone_games]
    for table, student in zip(lone_games, students, strict=True):
        services.actions_submit(
            table_id=table.pk, submissions=_rack_and_confirm(table, student, 1), now=T0 + 1
        )
    _computer_racks_and_confirms(until=T0 + 10)
    broken = lone_games[1]
    _computer_fails_at(broken, monkeypatch)
    with (
        mock.patch("games.tasks.tables_facts.delay") as queued,
        broadcast.collected(),
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert services.clock_sweep(now=T0 + 20) == 2
    fine = [lone_games[0], lone_games[2]]
    assert all(_revealed(table) for table in fine)
    queued.assert_called_once_with([[table.pk, _revealed(table)] for table in fine])


@pytest.mark.django_db
def test_a_trip_of_moves_at_several_tables_queues_one_facts_task(
    lone_games, django_capture_on_commit_callbacks
):
    """The computer confirms first; the students' confirms, arriving together, reveal."""
    from unittest import mock

    _computer_racks_and_confirms(until=T0 + 20)
    students = [table.session.participants.get().student for table in lone_games]
    batches = {
        table.pk: _rack_and_confirm(table, student, 11)
        for table, student in zip(lone_games, students, strict=True)
    }
    with (
        mock.patch("games.tasks.tables_facts.delay") as queued,
        broadcast.collected(),
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.tables_actions_submit(batches, now=T0 + 11)
    queued.assert_called_once_with([[table.pk, _revealed(table)] for table in lone_games])
    assert all(len(_revealed(table)) == 1 for table in lone_games)


@pytest.mark.django_db
def test_the_worker_records_the_facts_of_every_table_of_a_task_at_once(
    lone_games, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    from games.tasks import tables_facts
    from reports.models import LearningFact

    _computer_racks_and_confirms(until=T0 + 20)
    with mock_queue() as queued, broadcast.collected(), django_capture_on_commit_callbacks(execute=True):
        students = [table.session.participants.get().student for table in lone_games]
        batches = {t.pk: _rack_and_confirm(t, s, 11) for t, s in zip(lone_games, students, strict=True)}
        services.tables_actions_submit(batches, now=T0 + 11)
    (items,) = queued.call_args.args
    missing_table = [max(table.pk for table in lone_games) + 1000, [1]]
    with django_assert_max_num_queries(5):  # the tables, their entries, erasures, students, the insert
        assert tables_facts.apply(args=[[*items, missing_table]]).get() == 3
    assert sorted(LearningFact.objects.values_list("student", flat=True)) == sorted(s.pk for s in students)
    assert tables_facts.apply(args=[items]).get() == 3  # offered again, stored once
    assert LearningFact.objects.count() == 3


def _computer_racks_and_confirms(until: float) -> None:
    """Sweeps 10 s apart up to ``until``: the computer racks in one, confirms in the next."""
    with broadcast.collected():
        for now in range(int(T0) + 10, int(until) + 1, 10):
            services.clock_sweep(now=now)


def mock_queue():
    from unittest import mock

    return mock.patch("games.tasks.tables_facts.delay")


@pytest.mark.django_db
def test_a_sweep_where_nothing_fails_makes_no_savepoint_per_table(lone_games):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with broadcast.collected(), CaptureQueriesContext(connection) as queries:
        assert services.clock_sweep(now=T0 + 2) == 3
    savepoints = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SAVEPOINT")]
    assert len(savepoints) <= 1  # the sweep's own transaction, a savepoint inside the test's


@pytest.mark.django_db
def test_a_trip_where_one_table_fails_is_made_again_with_a_savepoint_per_table(
    lone_games, monkeypatch, django_capture_on_commit_callbacks
):
    """The first pass, without savepoints, rolls back whole; the second keeps the other tables' moves."""
    _computer_racks_and_confirms(until=T0 + 20)
    students = [table.session.participants.get().student for table in lone_games]
    batches = {t.pk: _rack_and_confirm(t, s, 21) for t, s in zip(lone_games, students, strict=True)}
    broken = lone_games[1]
    real = play._submit_one
    passes = []

    def fails_at_one(write, submission, now, logged):
        if write.table.pk == broken.pk:
            passes.append(now)
            raise RuntimeError("a bug in one game")
        return real(write, submission, now, logged)

    monkeypatch.setattr(play, "_submit_one", fails_at_one)
    with broadcast.collected() as collection, django_capture_on_commit_callbacks(execute=True):
        outcomes = services.tables_actions_submit(batches, now=T0 + 21)
    assert len(passes) == 2  # once without savepoints, once with
    assert isinstance(outcomes[broken.pk], RuntimeError)
    fine = [lone_games[0], lone_games[2]]
    assert all(isinstance(result, services.ActionResult) for t in fine for result in outcomes[t.pk])
    assert all(len(_revealed(table)) == 1 for table in fine)
    assert _revealed(broken) == []
    assert {message["table"] for _group, message in collection.messages.values()} == {t.pk for t in fine}
