"""The game websocket through the channels test communicator: who may connect, what they receive,
and that bad messages get a clear error and change nothing."""

import json
from datetime import timedelta

import pytest
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from config.asgi import application
from games import services
from games.models import GameTable
from games.realtime.consumers import GameConsumer
from tests.live import CONNECT_TIMEOUT

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
ORIGIN = [(b"origin", b"http://127.0.0.1:8000")]


def _running_table(classroom, teacher, students):
    session = services.session_schedule(
        classroom=classroom, by=teacher, game="lineup", scheduled_for=timezone.now() + timedelta(minutes=1)
    )
    services.session_open_lobby(session=session, by=teacher)
    for student in students:
        services.session_join(session=session, student=student)
    services.session_start(session=session, by=teacher)
    return GameTable.objects.get(session=session)


async def connect(client, session_id, role="student"):
    from asgiref.sync import sync_to_async

    cookie = await sync_to_async(lambda: client.cookies["sessionid"].value)()
    headers = [*ORIGIN, (b"cookie", f"sessionid={cookie}".encode())]
    communicator = WebsocketCommunicator(
        application, f"/ws/sessions/{session_id}/?as={role}", headers=headers
    )
    connected, _code = await communicator.connect(timeout=CONNECT_TIMEOUT)
    return communicator, connected


async def receive_until(communicator, kind):
    for _ in range(20):
        message = json.loads(await communicator.receive_from(timeout=5))
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


@pytest.fixture
def table(class_7b, ms_rivera, ava, ben):
    return _running_table(class_7b, ms_rivera, [ava, ben])


async def test_a_student_gets_her_own_view_and_never_the_answer(table, student_client, ava):
    from asgiref.sync import sync_to_async

    client = await sync_to_async(student_client)(ava)
    communicator, connected = await connect(client, table.session_id)
    assert connected
    assert (await receive_until(communicator, "session"))["session"]["status"] == "running"
    message = await receive_until(communicator, "table")
    assert message["view"]["you"]["id"] == f"s{ava.pk}"
    question = await sync_to_async(lambda: GameTable.objects.get(pk=table.pk).config["questions"][0])()
    assert question["explanation"] not in json.dumps(message)
    assert "server_time" in message
    await communicator.disconnect()


async def test_a_student_of_another_class_is_refused_before_accept(table, student_client, cleo):
    from asgiref.sync import sync_to_async

    client = await sync_to_async(student_client)(cleo)
    _communicator, connected = await connect(client, table.session_id)
    assert not connected


async def test_a_teacher_of_another_school_is_refused(table, client_of, mr_okafor):
    from asgiref.sync import sync_to_async

    client = await sync_to_async(client_of)(mr_okafor)
    _communicator, connected = await connect(client, table.session_id, role="teacher")
    assert not connected


async def test_a_foreign_origin_is_refused(table, student_client, ava):
    communicator = WebsocketCommunicator(
        application, f"/ws/sessions/{table.session_id}/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _code = await communicator.connect(timeout=CONNECT_TIMEOUT)
    assert not connected


async def test_an_action_is_acknowledged_once_and_pushed_to_the_teacher(
    table, student_client, client_of, ava, ms_rivera
):
    from asgiref.sync import sync_to_async
    from django.test import Client

    student, _ = await connect(await sync_to_async(student_client)(ava), table.session_id)
    teacher_client = Client()
    await sync_to_async(teacher_client.force_login)(ms_rivera)
    teacher, connected = await connect(teacher_client, table.session_id, role="teacher")
    assert connected
    await receive_until(teacher, "table")
    action = {
        "type": "action",
        "table": table.pk,
        "key": "k-1",
        "action": {"type": "rack", "order": [2, 1, 3, 4, 5]},
    }
    await student.send_to(text_data=json.dumps(action))
    ack = await receive_until(student, "ack")
    assert ack == {**ack, "key": "k-1", "seq": 2, "duplicate": False}
    update = await receive_until(teacher, "table")
    assert update["seq"] == 2
    await student.send_to(text_data=json.dumps(action))  # a double tap
    assert (await receive_until(student, "ack"))["duplicate"] is True
    await student.disconnect()
    await teacher.disconnect()


@pytest.mark.parametrize(
    "raw",
    [
        "not json",
        json.dumps({"type": "explode"}),
        json.dumps({"type": "action", "table": "one", "key": "k", "action": {}}),
        json.dumps({"type": "action", "table": 1, "key": "", "action": {}}),
        json.dumps({"type": "action", "table": 1, "key": "k", "action": {}, "extra": 1}),
        json.dumps({"type": "hello", "last_seq": {"1": "x" * 20000}}),
        # nested a thousand deep (the decoder's own recursion limit), and deeper than any game's action
        '{"type":"action","table":1,"key":"k","action":' + '{"a":' * 1000 + "1" + "}" * 1000 + "}",
        json.dumps({"type": "action", "table": 1, "key": "k", "action": {"a": [[[[[[[[[1]]]]]]]]]}}),
    ],
)
async def test_bad_messages_get_a_clear_error_and_change_nothing(table, student_client, ava, raw):
    from asgiref.sync import sync_to_async

    communicator, _ = await connect(await sync_to_async(student_client)(ava), table.session_id)
    await communicator.send_to(text_data=raw)
    error = await receive_until(communicator, "error")
    assert error["message"]
    seq = await sync_to_async(lambda: GameTable.objects.get(pk=table.pk).seq)()
    assert seq == 1
    await communicator.send_to(text_data=json.dumps({"type": "ping"}))
    assert (await receive_until(communicator, "pong"))["type"] == "pong"  # the connection lives on
    await communicator.disconnect()


async def test_a_student_cannot_act_at_another_table(table, student_client, ava):
    from asgiref.sync import sync_to_async

    communicator, _ = await connect(await sync_to_async(student_client)(ava), table.session_id)
    await communicator.send_to(
        text_data=json.dumps(
            {"type": "action", "table": table.pk + 99, "key": "k", "action": {"type": "confirm"}}
        )
    )
    assert (await receive_until(communicator, "error"))["code"] == "not_allowed"
    await communicator.disconnect()


@pytest.mark.parametrize("failure", ["OperationalError", "InterfaceError"])
async def test_a_move_the_database_cannot_take_gets_unavailable_and_the_connection_stays(
    table, student_client, ava, monkeypatch, failure
):
    """PostgreSQL restarting under play: the move is refused with a clear error naming its key, nothing
    changes, and the same key sent again once the database is back is applied."""
    from asgiref.sync import sync_to_async
    from django import db

    def database_out(*_args, **_kwargs):
        raise getattr(db, failure)("server closed the connection unexpectedly")

    communicator, _ = await connect(await sync_to_async(student_client)(ava), table.session_id)
    await receive_until(communicator, "table")
    move = {"type": "rack", "order": [2, 1, 3, 4, 5]}
    action = {"type": "action", "table": table.pk, "key": "k-out", "action": move}
    with monkeypatch.context() as patched:
        patched.setattr(services, "tables_actions_submit", database_out)  # the batcher's one trip
        await communicator.send_to(text_data=json.dumps(action))
        error = await receive_until(communicator, "error")
    assert error["code"] == "unavailable" and error["key"] == "k-out"
    assert "not saved" in error["message"]
    assert await sync_to_async(lambda: GameTable.objects.get(pk=table.pk).seq)() == 1
    await communicator.send_to(text_data=json.dumps(action))  # the database is back: tried again
    ack = await receive_until(communicator, "ack")
    assert ack["key"] == "k-out" and ack["duplicate"] is False
    await communicator.disconnect()


def test_a_devices_own_part_of_a_session_message_is_serialised_once_per_seat():
    consumer = GameConsumer()
    consumer.role, consumer.player_id, consumer.table_id, consumer.removed = "player", "p1", 4, False
    first = consumer.me_members()
    assert json.loads("{" + first + "}") == consumer.me()
    assert consumer.me_members() is first  # a class's every update: not serialised again
    consumer.table_id = 5  # seated at another table
    assert json.loads("{" + consumer.me_members() + "}")["table"] == 5
    consumer.removed = True
    assert json.loads("{" + consumer.me_members() + "}")["removed"] is True
