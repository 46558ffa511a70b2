"""One device per seat, with a class's claims and releases batched (games.realtime.seats,
services.seats_update) and the calls of devices connecting together sharing trips (games.realtime.trips)."""

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async

from games import services
from games.models import Participant
from games.realtime import trips as trips_module
from games.services import SeatChange
from tests.factories import started_session
from tests.games.test_consumer_runtime import _connect, _cookie_for


@pytest.fixture
def seats(class_7b, ms_rivera, ava, ben):
    session = started_session(class_7b, ms_rivera, [ava, ben], "lineup")
    return {p.student_id: p.pk for p in Participant.objects.filter(session=session)}


def _held(participant_id):
    return Participant.objects.get(pk=participant_id).connection


@pytest.mark.django_db
def test_claims_in_one_batch_go_in_order_and_the_later_device_wins(seats, ava):
    seat = seats[ava.pk]
    previous = services.seats_update(
        [SeatChange(seat, "first", claim=True), SeatChange(seat, "second", claim=True)]
    )
    assert previous == ["", "first"]  # the first device is the one told to close
    assert _held(seat) == "second"


@pytest.mark.django_db
def test_a_late_release_of_the_earlier_device_leaves_the_newer_one_seated(seats, ava):
    seat = seats[ava.pk]
    services.seats_update([SeatChange(seat, "old", claim=True)])
    services.seats_update([SeatChange(seat, "new", claim=True), SeatChange(seat, "old", claim=False)])
    assert _held(seat) == "new"
    services.seats_update([SeatChange(seat, "new", claim=False)])
    assert _held(seat) == ""


@pytest.mark.django_db
def test_a_release_then_a_claim_in_one_batch_seat_the_claimer(seats, ava, ben):
    services.seats_update([SeatChange(seats[ava.pk], "a1", claim=True)])
    previous = services.seats_update(
        [
            SeatChange(seats[ava.pk], "a1", claim=False),
            SeatChange(seats[ava.pk], "a2", claim=True),
            SeatChange(seats[ben.pk], "b1", claim=True),
        ]
    )
    assert previous == ["", "", ""]
    assert (_held(seats[ava.pk]), _held(seats[ben.pk])) == ("a2", "b1")


@pytest.mark.django_db
def test_one_presence_message_per_batch(seats, ava, ben, django_capture_on_commit_callbacks):
    from unittest.mock import patch

    with patch("games.services.lobby.broadcast.presence_changed") as presence:
        services.seats_update(
            [SeatChange(seats[ava.pk], "a", claim=True), SeatChange(seats[ben.pk], "b", claim=True)]
        )
    assert presence.call_count == 1


@pytest.mark.asyncio
@pytest.mark.django_db  # a trip runs on the database thread, which tidies its connections
async def test_calls_arriving_during_a_trip_share_the_next_one():
    answered: list[list[int]] = []

    def answer(items):
        answered.append(list(items))
        return [item * 10 for item in items]

    queue = trips_module.Trips(answer)
    results = await asyncio.gather(*(queue.call(n) for n in range(5)))
    assert results == [0, 10, 20, 30, 40]
    assert len(answered) < 5  # not a trip each
    assert sorted(n for trip in answered for n in trip) == [0, 1, 2, 3, 4]


@pytest.mark.asyncio
@pytest.mark.django_db  # a trip runs on the database thread, which tidies its connections
async def test_an_error_in_a_trip_reaches_every_caller_of_it():
    def answer(items):
        raise RuntimeError("database down")

    queue = trips_module.Trips(answer)
    outcomes = await asyncio.gather(queue.call(1), queue.call(2), return_exceptions=True)
    assert all(isinstance(outcome, RuntimeError) for outcome in outcomes)


async def _until_table(communicator):
    for _ in range(10):
        if json.loads(await communicator.receive_from(timeout=5))["type"] == "table":
            return
    raise AssertionError("no table")


async def _close_code(communicator):
    """The close code this device gets (after its "replaced" error), or None if it stays open."""
    if await communicator.receive_nothing(timeout=1):
        return None
    error = json.loads(await communicator.receive_from(timeout=5))
    assert error["code"] == "replaced"
    return (await communicator.receive_output(timeout=5))["code"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_two_devices_of_one_student_connecting_at_once_leave_one_seated(class_7b, ms_rivera, ava, ben):
    session = await sync_to_async(started_session)(class_7b, ms_rivera, [ava, ben], "lineup")
    cookies = [await sync_to_async(_cookie_for)(student=ava) for _ in range(2)]
    devices = await asyncio.gather(*(_connect(session.pk, cookie) for cookie in cookies))
    for device in devices:
        await _until_table(device)
    codes = [await _close_code(device) for device in devices]
    assert sorted(codes, key=str) == [4409, None]  # exactly one was closed; the other plays on
    seat = await sync_to_async(Participant.objects.get)(session=session, student=ava)
    assert seat.connection != ""
    await devices[codes.index(None)].disconnect()
