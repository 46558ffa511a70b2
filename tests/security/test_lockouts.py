"""Lockouts are not a weapon: a flood of wrong codes from anyone with the class code cannot keep a
student out of their own device, a guessing device is slowed down, and the teacher unlocks the whole
class in one click and sees that it happened. A whole school behind one address still gets in."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classrooms.middleware import STUDENT_SESSION_KEY
from tests.classrooms.test_student_signin import signin
from tests.factories import enrolled_student

pytestmark = pytest.mark.django_db


def test_a_flood_of_wrong_codes_cannot_keep_a_student_off_their_own_device(class_7b, ava, settings):
    own = Client()
    assert signin(own, class_7b, ava, "4821").status_code == 302  # Ava's tablet, yesterday
    own.post(reverse("student_signout"))
    for _attempt in range(5 * settings.STUDENT_SIGNIN_MAX_FAILURES):  # a classmate's script, new devices
        signin(Client(), class_7b, ava, "0000")
    ava.refresh_from_db()
    assert ava.locked_until and ava.locked_until > timezone.now()
    assert signin(own, class_7b, ava, "4821").status_code == 302
    assert own.session[STUDENT_SESSION_KEY] == ava.pk


def test_a_guessing_device_waits_longer_after_each_wrong_code_and_the_wait_is_not_a_guess(
    class_7b, ava, settings
):
    device = Client()
    for _attempt in range(settings.STUDENT_SIGNIN_FREE_TRIES):
        assert "That code is not right" in signin(device, class_7b, ava, "0000").content.decode()
    failures = ava.__class__.objects.get(pk=ava.pk).failed_signins
    waited = signin(device, class_7b, ava, "4821")  # even the right code waits: the device must slow down
    assert waited.status_code == 400
    assert re.search(r"Too many wrong codes from this device\. Wait [12] seconds?", waited.content.decode())
    assert ava.__class__.objects.get(pk=ava.pk).failed_signins == failures  # waiting does not count


def test_the_teacher_unlocks_every_card_in_one_click_and_sees_it(
    client_of, ms_rivera, class_7b, ava, ben, settings
):
    for student in (ava, ben):
        for _attempt in range(settings.STUDENT_SIGNIN_MAX_FAILURES):
            signin(Client(), class_7b, student, "0000")
    teacher = client_of(ms_rivera)
    page = teacher.get(reverse("classroom_detail", args=[class_7b.pk])).content.decode()
    assert "2 login cards are locked for new devices" in page and "Ava M., Ben K." in page
    response = teacher.post(reverse("classroom_unlock_cards", args=[class_7b.pk]), follow=True)
    page = response.content.decode()
    assert "Every login card of the class works again (2 were locked)." in page
    assert "last unlocked by" in page and "are locked for new devices" not in page
    assert signin(Client(), class_7b, ava, "4821").status_code == 302


def test_only_the_classs_staff_unlock_its_cards(client_of, mr_okafor, class_7b, ava):
    ava.__class__.objects.filter(pk=ava.pk).update(locked_until=timezone.now() + timezone.timedelta(hours=1))
    assert client_of(mr_okafor).post(reverse("classroom_unlock_cards", args=[class_7b.pk])).status_code == 404
    ava.refresh_from_db()
    assert ava.locked_until is not None


def test_a_whole_school_behind_one_address_gets_through_the_join_page(client, class_7b):
    for _student in range(300):  # a bell's worth of class-code entries from the school's one address
        response = client.post(reverse("join"), {"code": class_7b.join_code}, REMOTE_ADDR="203.0.113.9")
        assert response.status_code == 302


def test_few_guesses_can_be_made_against_a_class_in_a_day(class_7b, settings):
    """The odds of guessing into some card of a class of 25 in a school day: every card takes
    STUDENT_SIGNIN_MAX_FAILURES wrong codes per lock (8 hours) from new devices."""
    cards = 25
    guesses = cards * settings.STUDENT_SIGNIN_MAX_FAILURES
    assert guesses / 10_000 < 0.03
    students = [enrolled_student(class_7b) for _n in range(3)]
    for student in students:
        for _attempt in range(settings.STUDENT_SIGNIN_MAX_FAILURES + 5):
            signin(Client(), class_7b, student, "0000")
        student.refresh_from_db()
        assert (
            student.failed_signins < settings.STUDENT_SIGNIN_MAX_FAILURES
        )  # the extra tries were not counted
