"""A device session ends when it should: a new sign-in code or class code signs out every device that
signed in with the old one (pages and game sockets alike), a teacher signing in on a student's device
takes it over, and a student moved to another class no longer opens that class's running game."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from classrooms import services as classroom_services
from classrooms.middleware import STUDENT_SESSION_KEY
from config.asgi import application
from tests.classrooms.test_student_signin import signin
from tests.factories import PASSWORD, started_session
from tests.live import CONNECT_TIMEOUT

ORIGIN = [(b"origin", b"http://127.0.0.1:8000")]


@pytest.mark.django_db
def test_a_new_sign_in_code_signs_out_the_devices_signed_in_with_the_old_one(client, class_7b, ava):
    signin(client, class_7b, ava, "4821")
    assert client.get(reverse("student_home")).status_code == 200
    classroom_services.student_new_signin_code(student=ava)
    assert client.get(reverse("student_home")).status_code == 302  # back to the join page


@pytest.mark.django_db
def test_a_new_class_code_signs_out_the_class(client, class_7b, ava):
    signin(client, class_7b, ava, "4821")
    classroom_services.classroom_new_join_code(classroom=class_7b)
    assert client.get(reverse("student_home")).status_code == 302


@pytest.mark.django_db
def test_a_teacher_signing_in_on_a_students_device_takes_it_over(client, class_7b, ava, ms_rivera):
    signin(client, class_7b, ava, "4821")
    response = client.post(reverse("account_login"), {"login": ms_rivera.email, "password": PASSWORD})
    assert response.status_code == 302
    assert STUDENT_SESSION_KEY not in client.session
    assert client.get(reverse("student_home")).status_code == 302


async def _socket(client, session_id):
    cookie = await sync_to_async(lambda: client.cookies["sessionid"].value)()
    headers = [*ORIGIN, (b"cookie", f"sessionid={cookie}".encode())]
    communicator = WebsocketCommunicator(
        application, f"/ws/sessions/{session_id}/?as=student", headers=headers
    )
    connected, _code = await communicator.connect(timeout=CONNECT_TIMEOUT)
    if connected:
        await communicator.disconnect()
    return connected


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_game_socket_refuses_a_signed_out_or_moved_student(
    client, class_7b, class_7c, ava, ben, ms_rivera
):
    session = await sync_to_async(started_session)(class_7b, ms_rivera, [ava, ben], "faces")
    await sync_to_async(signin)(client, class_7b, ava, "4821")
    assert await _socket(client, session.pk)
    await sync_to_async(lambda: ava.enrolments.filter(classroom=class_7b).update(classroom=class_7c))()
    assert not await _socket(client, session.pk)  # moved to 7C: 7B's game is closed to her
    await sync_to_async(lambda: ava.enrolments.update(classroom=class_7b))()
    assert await _socket(client, session.pk)
    await sync_to_async(classroom_services.student_new_signin_code)(student=ava)
    assert not await _socket(client, session.pk)
