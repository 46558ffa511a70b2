"""A student's device between games: /ws/me/ tells it the moment a game of the student's classes opens
or ends, and /me/games.json (and the home page) list the open games with one-tap joining."""

import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.urls import reverse
from django.utils import timezone

from config.asgi import application
from games import services
from games.models import Participant

ORIGIN = [(b"origin", b"http://127.0.0.1:8000")]


def _scheduled(classroom, teacher, game="wordup"):
    return services.session_schedule(
        classroom=classroom, by=teacher, game=game, scheduled_for=timezone.now() + timedelta(hours=1)
    )


async def _watch(client):
    cookie = await sync_to_async(lambda: client.cookies["sessionid"].value)()
    headers = [*ORIGIN, (b"cookie", f"sessionid={cookie}".encode())]
    communicator = WebsocketCommunicator(application, "/ws/me/", headers=headers)
    connected, _code = await communicator.connect()
    return communicator, connected


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_students_device_hears_when_the_teacher_opens_and_ends_a_game(
    student_client, ava, class_7b, ms_rivera
):
    client = await sync_to_async(student_client)(ava)
    communicator, connected = await _watch(client)
    assert connected
    session = await sync_to_async(_scheduled)(class_7b, ms_rivera)
    assert await communicator.receive_nothing(timeout=0.2)  # scheduling ahead tells nobody

    await sync_to_async(services.session_open_lobby)(session=session, by=ms_rivera)
    assert json.loads(await communicator.receive_from(timeout=5)) == {"type": "games"}

    await sync_to_async(services.session_join)(session=session, student=ava)
    await sync_to_async(services.session_start)(session=session, by=ms_rivera)
    await sync_to_async(services.session_end)(session=session, by=ms_rivera)
    assert json.loads(await communicator.receive_from(timeout=5)) == {"type": "games"}
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_another_classs_game_is_not_heard(student_client, cleo, class_7b, ms_rivera):
    client = await sync_to_async(student_client)(cleo)
    communicator, connected = await _watch(client)
    assert connected
    session = await sync_to_async(_scheduled)(class_7b, ms_rivera)
    await sync_to_async(services.session_open_lobby)(session=session, by=ms_rivera)
    assert await communicator.receive_nothing(timeout=0.3)
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_watch_is_refused_without_a_signed_in_student(client_of, ms_rivera, client):
    communicator = WebsocketCommunicator(application, "/ws/me/", headers=ORIGIN)
    connected, _code = await communicator.connect()
    assert not connected
    teacher = await sync_to_async(client_of)(ms_rivera)
    communicator, connected = await _watch(teacher)
    assert not connected


def test_the_open_games_list_says_what_each_game_is_and_where_to_tap(
    student_client, ava, class_7b, ms_rivera
):
    lobby = _scheduled(class_7b, ms_rivera, game="wordup")
    services.session_open_lobby(session=lobby, by=ms_rivera)
    later = _scheduled(class_7b, ms_rivera, game="lineup")  # still scheduled: not listed
    client = student_client(ava)

    sessions = client.get(reverse("games:open_sessions")).json()["sessions"]
    assert [s["id"] for s in sessions] == [lobby.pk]
    assert sessions[0]["joined"] is False
    assert sessions[0]["join_url"] == reverse("games:play_join", args=[lobby.pk])
    assert later.pk not in [s["id"] for s in sessions]

    # One tap: the card's Join posts straight to the game's lobby.
    response = client.post(sessions[0]["join_url"])
    assert response.status_code == 302 and response["Location"] == reverse("games:play", args=[lobby.pk])
    assert Participant.objects.filter(session=lobby, student=ava).exists()
    again = client.get(reverse("games:open_sessions")).json()["sessions"]
    assert again[0]["joined"] is True


def test_the_home_page_shows_an_open_game_with_a_join_button(student_client, ava, class_7b, ms_rivera):
    lobby = _scheduled(class_7b, ms_rivera)
    services.session_open_lobby(session=lobby, by=ms_rivera)
    page = student_client(ava).get(reverse("student_home")).content.decode()
    assert f'action="{reverse("games:play_join", args=[lobby.pk])}"' in page
    assert "Open now: join and wait for the start" in page
