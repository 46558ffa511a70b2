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
    real = play._bot_move_if_due

    def fails_for_one(write, now):
        moved = real(write, now)
        if write.table.pk == broken.pk:
            raise RuntimeError("a bug in one game")
        return moved

    monkeypatch.setattr(play, "_bot_move_if_due", fails_for_one)
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
    hub = SimpleNamespace(keep_committed=lambda tables: kept.extend(tables))
    monkeypatch.setattr(clock.fanout, "hub", lambda: hub)

    async def send_collected(what):
        sent.append((what, asyncio.get_running_loop()))

    monkeypatch.setattr(clock.broadcast, "send_collected", send_collected)
    sweep = clock.sweep_into(asyncio.get_running_loop())
    assert await asyncio.to_thread(sweep, None) == 1  # the clock's own thread
    assert kept == [table]
    assert sent == [(collection, asyncio.get_running_loop())]  # sent from the server's loop
