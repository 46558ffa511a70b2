"""Students sign in on a shared device with the class code, their name and their sign-in code."""

import pytest
from django.urls import reverse

from classrooms.middleware import STUDENT_SESSION_KEY

pytestmark = pytest.mark.django_db


def signin(client, classroom, student, code):
    return client.post(reverse("join_signin", args=[classroom.join_code, student.pk]), {"code": code})


def test_the_class_code_leads_to_the_class_list(client, class_7b, ava, ben, cleo):
    response = client.post(reverse("join"), {"code": f" {class_7b.join_code.lower()} "})
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "Ava M." in page and "Ben K." in page
    assert "Cleo N." not in page


def test_a_wrong_class_code_is_refused_clearly(client, class_7b):
    response = client.post(reverse("join"), {"code": "ZZZZZZ"})
    assert response.status_code == 400
    assert "No class has that code" in response.content.decode()


def test_the_qr_link_fills_in_the_code(client, class_7b):
    page = client.get(reverse("join") + f"?code={class_7b.join_code}").content.decode()
    assert f'value="{class_7b.join_code}"' in page


def test_the_right_sign_in_code_signs_the_student_in(client, class_7b, ava):
    response = signin(client, class_7b, ava, "4821")
    assert response.status_code == 302
    assert client.session[STUDENT_SESSION_KEY] == ava.pk
    page = client.get(reverse("student_home")).content.decode()
    assert "Welcome, <bdi>Ava M.</bdi>!" in page
    assert "Not you? Sign out" in page


def test_a_wrong_sign_in_code_is_refused_and_signs_nobody_in(client, class_7b, ava):
    response = signin(client, class_7b, ava, "0000")
    assert response.status_code == 400
    assert "That code is not right" in response.content.decode()
    assert STUDENT_SESSION_KEY not in client.session


def test_a_student_of_another_class_cannot_sign_in_through_this_class(client, class_7b, cleo):
    assert signin(client, class_7b, cleo, "2468").status_code == 404


def _guess_from_new_devices(class_7b, student, times):
    """Wrong codes from as many fresh devices (each a new browser: no cookie, no history)."""
    from django.test import Client

    for _attempt in range(times):
        signin(Client(), class_7b, student, "0000")


def test_repeated_wrong_codes_lock_the_card_for_new_devices(client, class_7b, ava, settings):
    _guess_from_new_devices(class_7b, ava, settings.STUDENT_SIGNIN_MAX_FAILURES)
    response = signin(client, class_7b, ava, "4821")  # even the right code, on a device it never used
    assert response.status_code == 400
    assert "Too many wrong codes for this card on a new device" in response.content.decode()
    assert STUDENT_SESSION_KEY not in client.session


def test_a_teacher_resetting_the_code_unlocks_the_card(client, client_of, ms_rivera, class_7b, ava, settings):
    _guess_from_new_devices(class_7b, ava, settings.STUDENT_SIGNIN_MAX_FAILURES)
    teacher = client_of(ms_rivera)
    teacher.post(reverse("student_detail", args=[ava.pk]), {"action": "reset_code"})
    ava.refresh_from_db()
    assert ava.signin_code != "4821" and ava.locked_until is None
    teacher.logout()
    assert signin(client, class_7b, ava, "4821").status_code == 400
    assert signin(client, class_7b, ava, ava.signin_code).status_code == 302


def test_signing_out_ends_the_device_session(client, class_7b, ava):
    signin(client, class_7b, ava, "4821")
    response = client.post(reverse("student_signout"))
    assert response.status_code == 302
    assert STUDENT_SESSION_KEY not in client.session
    assert client.get(reverse("student_home")).status_code == 302


def test_a_student_signing_in_signs_out_a_teacher_on_the_same_device(client, ms_rivera, class_7b, ava):
    client.force_login(ms_rivera)
    signin(client, class_7b, ava, "4821")
    assert client.get(reverse("dashboard")).status_code == 302  # the teacher is no longer signed in


def test_a_new_class_code_asks_first_and_says_the_printed_cards_stop_working(client_of, ms_rivera, class_7b):
    old = class_7b.join_code
    teacher = client_of(ms_rivera)
    page = teacher.get(reverse("classroom_new_code", args=[class_7b.pk])).content.decode()
    assert "every printed login card and QR code" in page
    teacher.post(reverse("classroom_new_code", args=[class_7b.pk]))  # not confirmed: nothing changes
    class_7b.refresh_from_db()
    assert class_7b.join_code == old


def test_a_new_class_code_stops_the_old_one(client, client_of, ms_rivera, class_7b):
    old = class_7b.join_code
    client_of(ms_rivera).post(reverse("classroom_new_code", args=[class_7b.pk]), {"confirm": "yes"})
    class_7b.refresh_from_db()
    assert class_7b.join_code != old
    client.logout()
    assert client.post(reverse("join"), {"code": old}).status_code == 400


def test_names_a_student_typed_are_escaped(client, class_7b):
    from tests.factories import enrolled_student

    enrolled_student(class_7b, given_name="<script>", display_name="<script>alert(1)</script>")
    page = client.get(reverse("join_pick", args=[class_7b.join_code])).content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
