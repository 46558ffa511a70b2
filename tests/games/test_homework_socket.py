"""A homework attempt through the real websocket: the device connecting starts its clocks, leaving stops
them, and a second device (another computer at home) resumes the same game where it stopped."""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from games import services
from games.models import GameSession, GameTable
from tests.factories import open_assignment

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
ORIGIN = [(b"origin", b"http://127.0.0.1:8000")]


async def connect(client, session_id):
    cookie = await sync_to_async(lambda: client.cookies["sessionid"].value)()
    headers = [*ORIGIN, (b"cookie", f"sessionid={cookie}".encode())]
    communicator = WebsocketCommunicator(
        application, f"/ws/sessions/{session_id}/?as=student", headers=headers
    )
    connected, _code = await communicator.connect()
    assert connected
    return communicator


async def receive_until(communicator, kind):
    for _ in range(20):
        message = json.loads(await communicator.receive_from(timeout=5))
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


def device_of(student):
    from classrooms.middleware import STUDENT_SESSION_KEY

    client = Client()
    session = client.session
    session[STUDENT_SESSION_KEY] = student.pk
    session.save()
    return client


def start_attempt(classroom, teacher, student):
    return services.attempt_start(assignment=open_assignment(classroom, teacher, "faces"), student=student)


def status_of(session_id):
    return GameSession.objects.get(pk=session_id).status


async def test_the_attempt_runs_while_a_device_is_connected_and_resumes_on_another(class_7b, ms_rivera, ava):
    session = await sync_to_async(start_attempt)(class_7b, ms_rivera, ava)
    assert await sync_to_async(status_of)(session.pk) == GameSession.Status.PAUSED
    laptop = await connect(await sync_to_async(device_of)(ava), session.pk)
    assert (await receive_until(laptop, "session"))["session"]["status"] == "running"
    first = await receive_until(laptop, "table")
    assert f"s{ava.pk}" in json.dumps(first["view"])
    await laptop.disconnect()
    assert await sync_to_async(status_of)(session.pk) == GameSession.Status.PAUSED
    seq = await sync_to_async(lambda: GameTable.objects.get(session=session).seq)()
    tablet = await connect(await sync_to_async(device_of)(ava), session.pk)
    assert (await receive_until(tablet, "session"))["session"]["status"] == "running"
    again = await receive_until(tablet, "table")
    assert again["seq"] >= seq and f"s{ava.pk}" in json.dumps(again["view"])
    await tablet.disconnect()
