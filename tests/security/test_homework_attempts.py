"""A homework attempt is its own student's alone: a classmate cannot join it (attempt ids are sequential,
so Ben can guess Ava's), open its play page or its websocket, and a device of anyone but Ava neither
resumes her paused attempt (its clock and computer players would run, a turn deadline fire against her
while she is away) nor pauses it while she plays. Made as the attack was: Ben's own signed-in device
posting the join, fetching the page and opening the socket."""

import importlib

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.messages import get_messages
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classrooms.middleware import STUDENT_SESSION_KEY
from config.asgi import application
from games import services
from games.models import GameSession, Participant, TableLogEntry
from tests.factories import open_assignment
from tests.live import CONNECT_TIMEOUT

ORIGIN = [(b"origin", b"http://127.0.0.1:8000")]


def device_of(student) -> Client:
    client = Client()
    session = client.session
    session[STUDENT_SESSION_KEY] = student.pk
    session.save()
    return client


def avas_attempt(class_7b, ms_rivera, ava) -> GameSession:
    return services.attempt_start(assignment=open_assignment(class_7b, ms_rivera, "faces"), student=ava)


def what_it_is(session_id: int) -> tuple:
    """The attempt's status and its tables' logs: any resume, pause or move shows here."""
    session = GameSession.objects.get(pk=session_id)
    log = list(TableLogEntry.objects.filter(table__session=session).values_list("kind", flat=True))
    return session.status, log


def intruder_row(session: GameSession, student) -> Participant:
    """The row Ben's join left in Ava's attempt before it was refused (as ``session_join`` wrote it)."""
    return Participant.objects.create(session=session, student=student, status=Participant.Status.WAITING)


async def socket_of(client: Client, session_id: int) -> WebsocketCommunicator | None:
    """The device's game socket to the session, or None when it is refused."""
    cookie = await sync_to_async(lambda: client.cookies["sessionid"].value)()
    headers = [*ORIGIN, (b"cookie", f"sessionid={cookie}".encode())]
    communicator = WebsocketCommunicator(
        application, f"/ws/sessions/{session_id}/?as=student", headers=headers
    )
    connected, _code = await communicator.connect(timeout=CONNECT_TIMEOUT)
    return communicator if connected else None


@pytest.mark.django_db
def test_a_classmate_cannot_join_anothers_attempt(class_7b, ms_rivera, ava, ben):
    session = avas_attempt(class_7b, ms_rivera, ava)
    before = what_it_is(session.pk)
    response = device_of(ben).post(reverse("games:play_join", args=[session.pk]))
    assert response.status_code == 302 and response.url == reverse("student_home")
    assert [str(message) for message in get_messages(response.wsgi_request)] == [
        "This game is another student's homework: only they can play it."
    ]
    assert list(Participant.objects.filter(session=session).values_list("student", flat=True)) == [ava.pk]
    assert what_it_is(session.pk) == before


@pytest.mark.django_db
def test_the_service_refuses_anyone_but_the_attempts_student(class_7b, ms_rivera, ava, ben):
    session = avas_attempt(class_7b, ms_rivera, ava)
    with pytest.raises(PermissionDenied):
        services.session_join(session=session, student=ben)
    assert not Participant.objects.filter(session=session, student=ben).exists()
    own = Participant.objects.get(session=session, student=ava)
    assert services.session_join(session=session, student=ava) == own  # hers, unchanged


@pytest.mark.django_db
def test_a_classmate_cannot_open_the_attempts_play_page(class_7b, ms_rivera, ava, ben):
    session = avas_attempt(class_7b, ms_rivera, ava)
    ben_device = device_of(ben)
    ben_device.post(reverse("games:play_join", args=[session.pk]))
    assert ben_device.get(reverse("games:play", args=[session.pk])).status_code == 404
    intruder_row(session, ben)  # a row an earlier join left: it opens nothing either
    assert ben_device.get(reverse("games:play", args=[session.pk])).status_code == 404
    assert device_of(ava).get(reverse("games:play", args=[session.pk])).status_code == 200


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_classmates_socket_is_refused_and_the_attempt_stays_paused(class_7b, ms_rivera, ava, ben):
    session = await sync_to_async(avas_attempt)(class_7b, ms_rivera, ava)
    before = await sync_to_async(what_it_is)(session.pk)
    ben_device = await sync_to_async(device_of)(ben)
    await sync_to_async(ben_device.post)(reverse("games:play_join", args=[session.pk]))
    assert await socket_of(ben_device, session.pk) is None
    assert await sync_to_async(what_it_is)(session.pk) == before  # still paused: no resume, no move


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_another_students_socket_neither_resumes_nor_pauses_the_attempt(class_7b, ms_rivera, ava, ben):
    """Even with a row in the attempt (left by a join before it was refused), Ben's device is refused
    before anything changes: Ava's paused attempt stays paused, and her running one keeps running."""
    session = await sync_to_async(avas_attempt)(class_7b, ms_rivera, ava)
    await sync_to_async(intruder_row)(session, ben)
    paused = await sync_to_async(what_it_is)(session.pk)
    ben_device = await sync_to_async(device_of)(ben)
    assert await socket_of(ben_device, session.pk) is None
    assert await sync_to_async(what_it_is)(session.pk) == paused

    avas_laptop = await socket_of(await sync_to_async(device_of)(ava), session.pk)
    assert avas_laptop is not None
    running = await sync_to_async(what_it_is)(session.pk)
    assert running[0] == GameSession.Status.RUNNING
    assert await socket_of(ben_device, session.pk) is None  # connects and goes: nothing paused
    assert await sync_to_async(what_it_is)(session.pk) == running
    await avas_laptop.disconnect()
    assert (await sync_to_async(what_it_is)(session.pk))[0] == GameSession.Status.PAUSED


@pytest.mark.django_db
def test_arrival_and_leaving_act_only_for_the_attempts_student(class_7b, ms_rivera, ava, ben):
    session = avas_attempt(class_7b, ms_rivera, ava)
    intruder = intruder_row(session, ben)
    assert not services.attempt_device_arrived(participant_id=intruder.pk)
    assert what_it_is(session.pk)[0] == GameSession.Status.PAUSED
    own = Participant.objects.get(session=session, student=ava)
    services.seat_claim(participant_id=own.pk, connection="avas-laptop")
    assert services.attempt_device_arrived(participant_id=own.pk)
    assert not services.attempt_device_left(participant_id=intruder.pk)
    assert what_it_is(session.pk)[0] == GameSession.Status.RUNNING


@pytest.mark.django_db
def test_rows_earlier_joins_left_in_attempts_are_removed(class_7b, ms_rivera, ava, ben, student_client):
    """Before the fix Ben's row in Ava's attempt made it his unfinished attempt too: his Start led to it."""
    from django.apps import apps

    migration = importlib.import_module("games.migrations.0010_attempts_keep_only_their_own_student")
    session = avas_attempt(class_7b, ms_rivera, ava)
    intruder_row(session, ben)
    live = services.session_schedule(
        classroom=class_7b, by=ms_rivera, game="faces", scheduled_for=timezone.now()
    )
    services.session_open_lobby(session=live, by=ms_rivera)
    services.session_join(session=live, student=ava)
    services.session_join(session=live, student=ben)
    migration.remove_rows_of_others_in_attempts(apps, None)
    assert list(Participant.objects.filter(session=session).values_list("student", flat=True)) == [ava.pk]
    assert Participant.objects.filter(session=live).count() == 2  # a live game's rows stay
    start = student_client(ben).post(reverse("games:homework_start", args=[session.assignment_id]))
    assert start.url != reverse("games:play", args=[session.pk])  # a Start of his own
