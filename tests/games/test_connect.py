"""A class connecting at once: the devices' snapshots are read once for all of them
(games.realtime.welcome), each still gets its own seat's view, and the lazy session middleware leaves a
student's Django session unread."""

import asyncio
import json
from unittest.mock import patch

import pytest
from asgiref.sync import sync_to_async

from games import selectors
from tests.factories import started_session
from tests.games.test_consumer_runtime import _connect, _cookie_for

pytestmark = [pytest.mark.django_db(transaction=True)]


async def _first_messages(communicator):
    session = json.loads(await communicator.receive_from(timeout=5))
    table = json.loads(await communicator.receive_from(timeout=5))
    return session, table


@pytest.mark.asyncio
async def test_devices_connecting_together_each_get_their_own_seat_from_shared_reads(
    class_7b, ms_rivera, ava, ben
):
    session = await sync_to_async(started_session)(class_7b, ms_rivera, [ava, ben], "lineup")
    cookies = [await sync_to_async(_cookie_for)(student=student) for student in (ava, ben)]
    reads = []
    real = selectors.players_snapshot

    def counted(session_id, participant_ids):
        reads.append(list(participant_ids))
        return real(session_id, participant_ids)

    with patch.object(selectors, "players_snapshot", counted):
        devices = await asyncio.gather(*(_connect(session.pk, cookie) for cookie in cookies))
        firsts = [await _first_messages(device) for device in devices]
    assert sum(len(ids) for ids in reads) == 2 and len(reads) <= 2
    players = {first[0]["player"] for first in firsts}
    assert len(players) == 2  # each device is told its own seat
    for session_message, table_message in firsts:
        assert session_message["type"] == "session" and session_message["role"] == "player"
        assert (
            "participants" not in session_message["session"] or not session_message["session"]["participants"]
        )
        assert table_message["type"] == "table"
        assert table_message["seq"] >= 1
    for device in devices:
        await device.disconnect()


@pytest.mark.asyncio
async def test_a_students_socket_never_reads_the_django_session(class_7b, ms_rivera, ava, ben):
    session = await sync_to_async(started_session)(class_7b, ms_rivera, [ava, ben], "lineup")
    cookie = await sync_to_async(_cookie_for)(student=ava)
    from classrooms.sessions import SessionStore

    with patch.object(SessionStore, "load", side_effect=AssertionError("the session was read")):
        device = await _connect(session.pk, cookie)
        session_message, _table = await _first_messages(device)
    assert session_message["role"] == "player"
    await device.disconnect()


@pytest.mark.asyncio
async def test_a_teachers_socket_still_signs_in_through_the_session(class_7b, ms_rivera, ava, ben):
    session = await sync_to_async(started_session)(class_7b, ms_rivera, [ava, ben], "lineup")
    cookie = await sync_to_async(_cookie_for)(user=ms_rivera)
    console = await _connect(session.pk, cookie, role="teacher")
    message = json.loads(await console.receive_from(timeout=5))
    assert message["type"] == "session" and message["role"] == "teacher"
    assert len(message["session"]["participants"]) == 2
    await console.disconnect()
