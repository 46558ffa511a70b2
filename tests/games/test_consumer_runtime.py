"""The websocket runtime beyond the basics: one device per seat, resync by sequence number, presence for
the teacher, one channel-layer subscription per process, and fuzzed input that never changes anything."""

import asyncio
import json
from importlib import import_module
from unittest.mock import patch

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from classrooms.middleware import STUDENT_SESSION_KEY
from config.asgi import application
from games import services
from games.broadcast import session_group
from games.models import GameTable, Participant, TableLogEntry
from games.realtime import consumers, fanout
from games.realtime.consumers import TokenBucket
from tests.factories import started_session
from tests.live import CONNECT_TIMEOUT

pytestmark = [pytest.mark.django_db(transaction=True)]
ORIGIN = (b"origin", b"http://127.0.0.1:8000")


def _cookie_for(*, student=None, user=None) -> str:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    if student is not None:
        store[STUDENT_SESSION_KEY] = student.pk
    if user is not None:
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    return store.session_key


async def _connect(session_id, cookie, role="student"):
    headers = [ORIGIN, (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())]
    communicator = WebsocketCommunicator(
        application, f"/ws/sessions/{session_id}/?as={role}", headers=headers
    )
    connected, _code = await communicator.connect(timeout=CONNECT_TIMEOUT)
    assert connected
    return communicator


async def _until(communicator, kind, timeout=5):
    for _ in range(50):
        message = json.loads(await communicator.receive_from(timeout=timeout))
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


def _running(classroom, teacher, students):
    return GameTable.objects.get(session=started_session(classroom, teacher, students, "lineup"))


@pytest.fixture
def table(class_7b, ms_rivera, ava, ben):
    return _running(class_7b, ms_rivera, [ava, ben])


@pytest.mark.asyncio
async def test_a_second_device_takes_the_seat_and_the_first_is_told(table, ava):
    cookie_a = await sync_to_async(_cookie_for)(student=ava)
    cookie_b = await sync_to_async(_cookie_for)(student=ava)
    first = await _connect(table.session_id, cookie_a)
    await _until(first, "table")
    second = await _connect(table.session_id, cookie_b)
    await _until(second, "table")
    error = await _until(first, "error")
    assert error["code"] == "replaced"
    assert (await first.receive_output(timeout=5)) == {"type": "websocket.close", "code": 4409}
    participant = await sync_to_async(Participant.objects.get)(session_id=table.session_id, student=ava)
    assert participant.connection  # the second device holds it
    await second.disconnect()
    await sync_to_async(participant.refresh_from_db)()
    assert participant.connection == ""


@pytest.mark.asyncio
async def test_a_reconnecting_client_gets_only_what_it_missed(table, ava, monkeypatch):
    from games.realtime import consumers

    monkeypatch.setattr(consumers, "HELLO_EVERY", 0.0)  # two hellos in a row, as two reconnects would
    cookie = await sync_to_async(_cookie_for)(student=ava)
    device = await _connect(table.session_id, cookie)
    first = await _until(device, "table")
    await device.send_to(text_data=json.dumps({"type": "hello", "last_seq": {str(table.pk): first["seq"]}}))
    await _until(device, "session")
    assert await device.receive_nothing(timeout=0.3)  # nothing moved on: no table resent
    await device.send_to(text_data=json.dumps({"type": "hello", "last_seq": {str(table.pk): 0}}))
    assert (await _until(device, "table"))["seq"] == first["seq"]
    await device.disconnect()


@pytest.mark.asyncio
async def test_a_client_asking_for_the_whole_state_again_and_again_is_slowed(table, ava):
    cookie = await sync_to_async(_cookie_for)(student=ava)
    device = await _connect(table.session_id, cookie)
    await _until(device, "table")
    await device.send_to(text_data=json.dumps({"type": "hello", "last_seq": {}}))
    await _until(device, "table")
    await device.send_to(text_data=json.dumps({"type": "hello", "last_seq": {}}))
    refused = await _until(device, "error")
    assert refused["code"] == "rate_limited"
    await device.disconnect()


@pytest.mark.asyncio
async def test_the_teacher_sees_who_is_connected_now(table, ava, ms_rivera):
    teacher = await _connect(table.session_id, await sync_to_async(_cookie_for)(user=ms_rivera), "teacher")
    summary = (await _until(teacher, "session"))["session"]
    assert not any(p["connected"] for p in summary["participants"])
    device = await _connect(table.session_id, await sync_to_async(_cookie_for)(student=ava))
    for _ in range(10):
        summary = (await _until(teacher, "session"))["session"]
        if any(p["connected"] for p in summary["participants"]):
            break
    assert [p["name"] for p in summary["participants"] if p["connected"]] == ["Ava M."]
    await device.disconnect()
    for _ in range(10):
        summary = (await _until(teacher, "session"))["session"]
        if not any(p["connected"] for p in summary["participants"]):
            break
    assert not any(p["connected"] for p in summary["participants"])
    await teacher.disconnect()


@pytest.mark.asyncio
async def test_a_students_device_never_gets_the_class_list(table, ava):
    device = await _connect(table.session_id, await sync_to_async(_cookie_for)(student=ava))
    summary = (await _until(device, "session"))["session"]
    assert summary["participants"] == [] and summary["counts"]["present"] == 2
    await device.disconnect()


@pytest.mark.asyncio
async def test_one_process_subscribes_once_per_session_however_many_connect(table, ava, ben, ms_rivera):
    cookies = [
        await sync_to_async(_cookie_for)(student=ava),
        await sync_to_async(_cookie_for)(student=ben),
    ]
    devices = [await _connect(table.session_id, cookie) for cookie in cookies]
    teacher = await _connect(table.session_id, await sync_to_async(_cookie_for)(user=ms_rivera), "teacher")
    for communicator in [*devices, teacher]:
        assert (await _until(communicator, "table"))["seq"] == 1
    hub = fanout.hub()
    assert len(hub.sessions[table.session_id]) == 3
    layer = get_channel_layer()
    if hasattr(layer, "groups"):  # the in-memory layer shows its groups; Redis is covered by two_process
        assert list(layer.groups[session_group(table.session_id)]) == [hub.channel]
    # One change reaches everyone through that one subscription.
    await sync_to_async(services.table_extend)(table=table, by=ms_rivera, seconds=30)
    for communicator in [*devices, teacher]:
        assert (await _until(communicator, "table"))["seq"] == 2
    for communicator in [*devices, teacher]:
        await communicator.disconnect()
    assert table.session_id not in hub.sessions


@pytest.mark.asyncio
async def test_a_pause_or_resume_reuses_the_seats_and_any_other_change_reads_them_again(
    table, ava, ben, ms_rivera
):
    """A pause only moves clocks: the hub reuses the seats it last read (2000 rows in a big session);
    a removal (or anything else) reads every seat again, so the teacher sees it."""
    teacher = await _connect(table.session_id, await sync_to_async(_cookie_for)(user=ms_rivera), "teacher")
    await _until(teacher, "table")
    reads = []
    real = fanout.selectors.session_snapshot

    def counting(session_id, seats_from=None, languages=None):
        reads.append(seats_from is not None)
        return real(session_id, seats_from, languages)

    session = await sync_to_async(lambda: table.session)()
    with patch.object(fanout.selectors, "session_snapshot", counting):
        await sync_to_async(services.session_pause)(session=session, by=ms_rivera)
        paused = (await _until(teacher, "bundle"))["messages"][0]  # the session, with its table
        assert paused["session"]["status"] == "paused" and reads == [False]  # nothing read before
        await asyncio.sleep(fanout.THROTTLE_SECONDS + 0.1)
        await sync_to_async(services.session_resume)(session=session, by=ms_rivera)
        bundle = await _until(teacher, "bundle")
        resumed = bundle["messages"][0]
        assert resumed["session"]["status"] == "running" and reads == [False, True]
        assert resumed["session"]["participants"] == paused["session"]["participants"]
        # What the hub keeps between the two is the seats, not the tables and their states; the resume
        # reads its table afresh and sends it.
        kept = fanout.hub().seated[session.pk]
        assert kept.tables == {} and kept.seats
        assert [message["type"] for message in bundle["messages"][1:]] == ["table"]
        await asyncio.sleep(fanout.THROTTLE_SECONDS + 0.1)
        participant = await sync_to_async(Participant.objects.get)(session=session, student=ava)
        await sync_to_async(services.participant_remove)(participant=participant, by=ms_rivera)
        removed = await _until(teacher, "session")
        assert reads == [False, True, False]
        statuses = {p["id"]: p["status"] for p in removed["session"]["participants"]}
        assert statuses[participant.pk] == Participant.Status.REMOVED
    await teacher.disconnect()


# --- fuzzing ------------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=12,
)


def _messages(table_id: int, other_table: int):
    action_bodies = st.one_of(
        json_values,
        st.fixed_dictionaries(
            {"type": st.sampled_from(["rack", "confirm", "predict", "bid", "lay", "stop", "explode"])},
            optional={
                "order": json_values,
                "value": json_values,
                "card": json_values,
                "position": json_values,
            },
        ),
    )
    actions = st.fixed_dictionaries(
        {
            "type": st.just("action"),
            "table": st.sampled_from([table_id, other_table, -1, 0]) | st.integers(),
            "key": st.sampled_from(["k1", "k1", "k2"]) | st.text(max_size=80),
            "action": action_bodies,
        }
    )
    return st.lists(
        st.one_of(
            actions.map(json.dumps),
            json_values.map(json.dumps),
            st.text(min_size=1, max_size=200),
            st.just("x" * 20_000),
            st.just(json.dumps({"type": "hello", "last_seq": {"1": 1}})),
            st.just(json.dumps({"type": "ping"})),
        ),
        min_size=1,
        max_size=12,
    )


@hypothesis_settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_fuzzed_messages_never_crash_and_only_acknowledged_actions_change_the_table(table, ava, data):
    cookie = _cookie_for(student=ava)
    raws = data.draw(_messages(table.pk, table.pk + 1000))
    actions = TableLogEntry.objects.filter(table=table, kind=TableLogEntry.Kind.ACTION)
    start = actions.count()  # not the seq: the game's own clock may move it on meanwhile (a deadline)

    async def scenario():
        device = await _connect(table.session_id, cookie)
        await _until(device, "table")
        applied = 0
        for raw in raws:
            await device.send_to(text_data=raw)
            await device.send_to(text_data=json.dumps({"type": "ping"}))
            while True:  # every message gets its answer before the pong that follows it
                reply = json.loads(await device.receive_from(timeout=5))
                assert reply["type"] in ("ack", "error", "pong", "session", "table")
                if reply["type"] == "error":
                    assert reply["code"] and reply["message"]
                if reply["type"] == "ack" and not reply["duplicate"]:
                    applied += 1
                if reply["type"] == "pong":
                    break
        await device.disconnect()
        return applied

    with patch.object(TokenBucket, "take", return_value=True):  # the limiter has its own test
        applied = asyncio.run(scenario())
    assert actions.count() - start == applied


@pytest.mark.asyncio
async def test_a_flood_of_messages_is_rate_limited_with_a_clear_error(table, ava):
    device = await _connect(table.session_id, await sync_to_async(_cookie_for)(student=ava))
    await _until(device, "table")
    for _ in range(40):
        await device.send_to(text_data=json.dumps({"type": "ping"}))
    error = await _until(device, "error")
    assert error["code"] == "rate_limited" and "Slow down" in error["message"]
    await device.disconnect()


async def _flood(device, pings: int) -> dict[str, int]:
    """Send ``pings`` pings at once, then a message too large to read (refused before the rate limit, so
    its answer comes after every ping's): how many pongs and errors of each code the pings got (updates
    of the session that come meanwhile are not answers)."""
    for _ in range(pings):
        await device.send_to(text_data=json.dumps({"type": "ping"}))
    await device.send_to(text_data=" " * (consumers.MAX_MESSAGE_BYTES + 1))
    answers: dict[str, int] = {}
    while True:
        message = json.loads(await device.receive_from(timeout=5))
        if message.get("code") == "too_large":
            return answers
        if message["type"] in ("pong", "error"):
            kind = message.get("code") or message["type"]
            answers[kind] = answers.get(kind, 0) + 1


@pytest.mark.asyncio
async def test_a_flood_gets_one_notice_per_window_not_one_per_dropped_message(table, ava, monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(consumers, "clock", lambda: now[0])
    device = await _connect(table.session_id, await sync_to_async(_cookie_for)(student=ava))
    await _until(device, "table")
    assert await _flood(device, 300) == {"pong": consumers.RATE_BURST, "rate_limited": 1}
    now[0] += consumers.RATE_NOTICE_EVERY / 4  # within the window: the few refilled pass, the rest silent
    assert await _flood(device, 300) == {
        "pong": int(consumers.RATE_PER_SECOND * consumers.RATE_NOTICE_EVERY / 4)
    }
    now[0] += consumers.RATE_NOTICE_EVERY  # the next window: its excess is told once again
    assert await _flood(device, 300) == {"pong": consumers.RATE_BURST, "rate_limited": 1}
    await device.disconnect()


def test_a_students_snapshot_reads_only_its_own_seat_and_table(class_7b, ms_rivera, ava, ben):
    from games import selectors

    session = started_session(class_7b, ms_rivera, [ava, ben], "faces")
    mine = Participant.objects.get(session=session, student=ava)
    full = selectors.session_snapshot(session.pk)
    light = selectors.student_snapshot(session.pk, mine.pk)
    assert light.summary_for("player") == full.summary_for("player")
    assert light.seats == {mine.pk: full.seats[mine.pk]}
    assert list(light.tables) == [mine.table_id]
    assert light.tables[mine.table_id].state == full.tables[mine.table_id].state


@pytest.mark.asyncio
async def test_a_pause_reaches_a_device_as_one_message_with_the_session_and_its_table(table, ava, ms_rivera):
    cookie = await sync_to_async(_cookie_for)(student=ava)
    device = await _connect(table.session_id, cookie)
    first = await _until(device, "table")
    session = await sync_to_async(lambda: table.session)()
    await sync_to_async(services.session_pause)(session=session, by=ms_rivera)
    bundle = await _until(device, "bundle")
    kinds = [message["type"] for message in bundle["messages"]]
    assert kinds == ["session", "table"]
    assert bundle["messages"][0]["session"]["status"] == "paused"
    assert bundle["messages"][1]["seq"] > first["seq"] and "server_time" in bundle
    await device.disconnect()


class _Blocked:
    """A send that must wait until the test lets it through (a slow device's full buffer)."""

    def __init__(self):
        self.sent, self.cancelled, self.closed = [], 0, 0

    async def send(self, gate, text):
        try:
            if gate is not None:
                await gate
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        finally:
            self.closed += 1
        self.sent.append(text)


@pytest.mark.asyncio
async def test_sends_run_at_once_and_only_those_that_must_wait_become_tasks():
    device = _Blocked()
    assert fanout._start_eagerly(device.send(None, "now")) is None
    assert device.sent == ["now"]  # done before _start_eagerly returned: no task, no loop turn
    gate = asyncio.get_running_loop().create_future()
    task = fanout._start_eagerly(device.send(gate, "later"))
    assert task is not None and device.sent == ["now"]
    gate.set_result(None)
    await task
    assert device.sent == ["now", "later"]

    async def broken():
        raise ConnectionResetError

    assert fanout._start_eagerly(broken()) is None  # a device that has gone: dropped, nothing raised
    stuck = fanout._start_eagerly(device.send(asyncio.get_running_loop().create_future(), "never"))
    await asyncio.sleep(0)  # the task is waiting now
    stuck.cancel()
    with pytest.raises(asyncio.CancelledError):
        await stuck
    assert device.cancelled == 1  # told, as a task would be
    never = fanout._start_eagerly(device.send(asyncio.get_running_loop().create_future(), "never"))
    never.cancel()  # cancelled before its first step
    with pytest.raises(asyncio.CancelledError):
        await never
    assert device.closed == 4 and device.sent == ["now", "later"]  # every send was finished or closed


@pytest.mark.asyncio
async def test_a_game_socket_reads_the_session_but_its_sends_skip_the_session_saver(table, ava):
    from channels.sessions import InstanceSessionWrapper

    from games.realtime.consumers import GameConsumer

    seen = {}
    original = GameConsumer.connect

    async def connect(self):
        seen["session"] = self.scope["session"].session_key
        seen["wrapped"] = getattr(self.base_send, "__func__", None) is InstanceSessionWrapper.send
        await original(self)

    cookie = await sync_to_async(_cookie_for)(student=ava)
    with patch.object(GameConsumer, "connect", connect):
        device = await _connect(table.session_id, cookie)
        await _until(device, "table")  # signed in as Ava from the session cookie
    assert seen == {"session": cookie, "wrapped": False}
    await device.disconnect()
