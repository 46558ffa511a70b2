"""Mind the Lines over the game websocket: the largest stroke a device sends (64 pieces) fits in one
message under the limit and is acknowledged; the teacher's console sees it at once, never a concept."""

import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from config.asgi import application
from games import services
from games.engine.mindlines import boards, rules
from games.models import GameTable
from games.realtime.consumers import MAX_MESSAGE_BYTES
from tests.live import CONNECT_TIMEOUT

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
ORIGIN = [(b"origin", b"http://127.0.0.1:8000")]


def _running_table(classroom, teacher, students):
    session = services.session_schedule(
        classroom=classroom, by=teacher, game="mindlines", scheduled_for=timezone.now() + timedelta(minutes=1)
    )
    services.session_open_lobby(session=session, by=teacher)
    for student in students:
        services.session_join(session=session, student=student)
    services.session_start(session=session, by=teacher)
    table = GameTable.objects.get(session=session)
    for player in table.state["players"]:
        services.action_submit(table_id=table.pk, player=player, action={"type": "ready"}, key=f"r-{player}")
    table.refresh_from_db()
    return table


async def connect(client, session_id, role="student"):
    cookie = await sync_to_async(lambda: client.cookies["sessionid"].value)()
    headers = [*ORIGIN, (b"cookie", f"sessionid={cookie}".encode())]
    communicator = WebsocketCommunicator(
        application, f"/ws/sessions/{session_id}/?as={role}", headers=headers
    )
    connected, _code = await communicator.connect(timeout=CONNECT_TIMEOUT)
    assert connected
    return communicator


async def receive_until(communicator, kind, test=lambda message: True):
    for _ in range(30):
        message = json.loads(await communicator.receive_from(timeout=20))  # a busy CI machine
        if message["type"] == kind and test(message):
            return message
    raise AssertionError(f"no {kind} message")


#: Keys whose values are the protocol's own words ("table", "teacher", ...), which are concepts too.
PROTOCOL_KEYS = {"type", "viewer", "status", "phase", "game", "difficulty", "role"}


def free_text(message) -> set[str]:
    """Every string value of a message but the protocol's words (as whole values: a short concept,
    "sea", may well be part of another word, "seat")."""
    found: set[str] = set()

    def walk(value, key=None):
        if isinstance(value, dict):
            for name, inner in value.items():
                walk(inner, name)
        elif isinstance(value, list):
            for inner in value:
                walk(inner, key)
        elif isinstance(value, str) and key not in PROTOCOL_KEYS:
            found.add(value)

    walk(message)
    return found


def biggest_stroke(table, player):
    """64 pieces on the player's lines, as single halves (the longest form; a side has 45+ segments)."""
    drawing = table.state["drawings"][player]
    lines = boards.side_lines(table.state["board_seed"], rules.BOARD_COUNT, drawing["board"], drawing["side"])
    pieces = [[*segment, half] for segment in lines for half in (0, 1)]
    return pieces[: rules.MAX_PIECES_PER_STROKE]


@pytest.fixture
def table(class_7b, ms_rivera, ava, ben):
    return _running_table(class_7b, ms_rivera, [ava, ben])


async def test_the_biggest_stroke_fits_one_message_and_the_console_sees_it_but_no_concept(
    table, student_client, ava, ms_rivera
):
    student = await connect(await sync_to_async(student_client)(ava), table.session_id)
    teacher_client = Client()
    await sync_to_async(teacher_client.force_login)(ms_rivera)
    teacher = await connect(teacher_client, table.session_id, role="teacher")
    await receive_until(teacher, "table")
    player = f"s{ava.pk}"
    stroke = biggest_stroke(table, player)
    assert len(stroke) == rules.MAX_PIECES_PER_STROKE
    message = json.dumps(
        {
            "type": "action",
            "table": table.pk,
            "key": "x" * 64,
            "action": {"type": "stroke", "segments": stroke},
        }
    )
    assert len(message.encode()) < MAX_MESSAGE_BYTES / 4
    await student.send_to(text_data=message)
    ack = await receive_until(student, "ack")
    assert ack["duplicate"] is False
    update = await receive_until(
        teacher, "table", lambda m: m["view"]["teacher"]["drawings"][player]["strokes"]
    )
    assert update["view"]["teacher"]["drawings"][player]["strokes"][0]
    state = await sync_to_async(lambda: GameTable.objects.get(pk=table.pk).state)()
    shown = free_text(update)
    for cid in state["plan"][0]:
        assert cid not in shown and state["concepts"][cid]["text"] not in shown
    await student.disconnect()
    await teacher.disconnect()
