"""A form sent twice is saved once: a double click on Play now schedules one game, Add student adds one
student, Send invitation sends one invitation, Save makes one class."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from classrooms.models import Classroom, Invitation, Student
from games.models import GameSession
from tests.classrooms.test_roster import GOOD, confirm, upload

pytestmark = pytest.mark.django_db


def _token(page: str) -> str:
    return re.search(r'name="once_token" value="([^"]+)"', page).group(1)


def test_a_double_click_on_play_now_opens_one_game(client_of, ms_rivera, class_7b):
    client = client_of(ms_rivera)
    token = _token(client.get(reverse("games:new")).content.decode())
    data = {"classroom": class_7b.pk, "game": "faces", "planned_minutes": 20, "arrangement": "balanced"}
    first = client.post(reverse("games:new"), {**data, "play_now": "1", "once_token": token})
    second = client.post(reverse("games:new"), {**data, "play_now": "1", "once_token": token}, follow=True)
    assert GameSession.objects.count() == 1
    assert second.redirect_chain[0][0] == first["Location"]
    assert "That was already saved" in second.content.decode()
    # A new visit to the form is a new form: it schedules another game.
    again = _token(client.get(reverse("games:new")).content.decode())
    client.post(reverse("games:new"), {**data, "play_now": "1", "once_token": again})
    assert GameSession.objects.count() == 2


def test_a_form_with_errors_can_be_sent_again_with_its_token(client_of, ms_rivera, class_7b):
    client = client_of(ms_rivera)
    token = _token(client.get(reverse("games:new")).content.decode())
    data = {"classroom": class_7b.pk, "game": "faces", "planned_minutes": 20, "arrangement": "balanced"}
    assert (
        client.post(reverse("games:new"), {**data, "once_token": token}).status_code == 400
    )  # no start time
    client.post(reverse("games:new"), {**data, "play_now": "1", "once_token": token})
    assert GameSession.objects.count() == 1


def test_a_student_is_added_once(client_of, ms_rivera, class_7b):
    client = client_of(ms_rivera)
    token = _token(client.get(reverse("classroom_detail", args=[class_7b.pk])).content.decode())
    data = {
        "given_name": "Zoe",
        "family_name": "Quinn",
        "english_vocabulary": 2,
        "numeracy": 2,
        "once_token": token,
    }
    for _click in range(2):
        client.post(reverse("student_add", args=[class_7b.pk]), data)
    assert Student.objects.filter(given_name="Zoe").count() == 1


def test_an_invitation_is_sent_once_and_a_class_made_once(client_of, dr_patel):
    client = client_of(dr_patel)
    token = _token(client.get(reverse("school_overview")).content.decode())
    for _click in range(2):
        client.post(
            reverse("school_overview"),
            {"email": "new@riverside.example", "role": "teacher", "once_token": token},
        )
    assert Invitation.objects.filter(email="new@riverside.example").count() == 1
    assert len(mail.outbox) == 1
    token = _token(client.get(reverse("classroom_create")).content.decode())
    for _click in range(2):
        client.post(reverse("classroom_create"), {"name": "9Z Science", "once_token": token})
    assert Classroom.objects.filter(name="9Z Science").count() == 1


def test_a_roster_import_confirmed_twice_imports_once(client_of, ms_rivera, class_7b):
    client = client_of(ms_rivera)
    upload(client, class_7b, GOOD.encode())
    first, second = confirm(client, class_7b), confirm(client, class_7b)  # a double click on Import all
    assert (first.status_code, second.status_code) == (302, 302)
    assert Student.objects.filter(enrolments__classroom=class_7b).count() == 3
