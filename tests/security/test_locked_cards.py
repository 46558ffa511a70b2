"""A flood of wrong codes can lock every login card of a class for new devices (shared lab PCs, guest
Chromebooks) for hours: the teacher sees which cards are locked, since and until when, wherever they
work (the dashboard, the class page, a game's console), with the one-click unlock; and a student on a new
device shows a code that the teacher types to let that device in. A device the teacher never looked at,
another teacher, or another class's page lets nobody in."""

import json
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import dateformat, timezone

from classrooms.middleware import STUDENT_SESSION_KEY
from classrooms.models import WaitingDevice, school_zone
from games import services as game_services
from tests.classrooms.test_student_signin import signin
from tests.factories import ClassroomFactory

pytestmark = pytest.mark.django_db

CHROMEBOOK = "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 Chrome/120.0 Safari/537.36"
WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36"


def lock(classroom, student, settings):
    for _attempt in range(settings.STUDENT_SIGNIN_MAX_FAILURES):  # a classmate's script, fresh devices
        signin(Client(), classroom, student, "0000")
    student.refresh_from_db()
    assert student.locked_until > timezone.now()


def shown(value, school):
    """A time as the teacher's pages show it (in the school's time zone)."""
    with timezone.override(school_zone(school.time_zone)):
        return dateformat.format(timezone.localtime(value), "D j M, H:i")


def waiting_device(classroom, student, agent=CHROMEBOOK):
    """A new device on which the student types their right code: it waits, showing a code."""
    device = Client(HTTP_USER_AGENT=agent)
    response = signin(device, classroom, student, student.signin_code)
    assert response.status_code == 400
    page = response.content.decode()
    assert "Ask your teacher to let you in on this device" in page
    assert STUDENT_SESSION_KEY not in device.session
    code = "".join(re.search(r'class="join-code"[^>]*>(\d{3}) (\d{3})<', page).groups())
    return device, code


def let_in(teacher, classroom, student, code, **extra):
    url = reverse("classroom_let_in", args=[classroom.pk, student.pk])
    return teacher.post(url, {"code": code, **extra}, follow=True)


def carry_on(device):
    return device.post(reverse("join_waiting"))


def test_the_dashboard_says_which_cards_are_locked_since_and_until_when_with_the_unlock(
    client_of, ms_rivera, riverside, class_7b, ava, ben, settings
):
    lock(class_7b, ava, settings)
    teacher = client_of(ms_rivera)
    page = teacher.get(reverse("dashboard")).content.decode()
    assert "Locked login cards" in page and "Ava M." in page and "Ben K." not in page
    since = ava.locked_until - timedelta(minutes=settings.STUDENT_SIGNIN_LOCK_MINUTES)
    assert shown(since, riverside) in page and shown(ava.locked_until, riverside) in page
    assert reverse("classroom_unlock_cards", args=[class_7b.pk]) in page
    response = teacher.post(
        reverse("classroom_unlock_cards", args=[class_7b.pk]), {"next": reverse("dashboard")}, follow=True
    )
    assert response.redirect_chain[-1][0] == reverse("dashboard")
    page = response.content.decode()
    assert "Every login card of the class works again (1 was locked)." in page
    assert "Locked login cards" not in page


def test_the_class_page_and_a_games_console_show_the_locked_cards_too(
    client_of, ms_rivera, riverside, class_7b, ava, settings
):
    lock(class_7b, ava, settings)
    teacher = client_of(ms_rivera)
    page = teacher.get(reverse("classroom_detail", args=[class_7b.pk])).content.decode()
    assert "1 login card is locked for new devices" in page
    assert "Locked since" in page and shown(ava.locked_until, riverside) in page
    session = game_services.session_schedule(
        classroom=class_7b, by=ms_rivera, game="lineup", scheduled_for=timezone.now() + timedelta(hours=1)
    )
    page = teacher.get(reverse("games:console", args=[session.pk])).content.decode()
    assert "Locked login cards" in page and "Ava M." in page
    assert reverse("classroom_let_in", args=[class_7b.pk, ava.pk]) in page


def test_the_teacher_typing_the_code_on_a_waiting_device_lets_that_device_in(
    client_of, ms_rivera, class_7b, ava, settings
):
    lock(class_7b, ava, settings)
    device, code = waiting_device(class_7b, ava)
    teacher = client_of(ms_rivera)
    page = teacher.get(reverse("dashboard")).content.decode()
    assert re.search(r"Ava M\.</bdi></th>(\s*<td>[^<]*</td>){2}\s*<td>1 · Chromebook</td>", page)  # waiting
    page = carry_on(device).content.decode()
    assert "Your teacher has not let this device in yet." in page and "Chromebook" in page
    assert STUDENT_SESSION_KEY not in device.session
    response = let_in(teacher, class_7b, ava, f"{code[:3]} {code[3:]}", next=reverse("dashboard"))
    assert response.redirect_chain[-1][0] == reverse("dashboard")
    assert "Ava M.’s device is let in" in response.content.decode()
    assert (
        "Your teacher has let you in. Press Continue." in device.get(reverse("join_waiting")).content.decode()
    )
    assert carry_on(device).url == reverse("student_home")
    assert device.session[STUDENT_SESSION_KEY] == ava.pk
    # The card stays locked on other new devices; this one is now a device Ava signed in on, where it works.
    assert signin(Client(), class_7b, ava, "4821").status_code == 400
    device.post(reverse("student_signout"))
    assert signin(device, class_7b, ava, "4821").status_code == 302


def test_another_device_asking_for_the_same_card_is_not_let_in(client_of, ms_rivera, class_7b, ava, settings):
    lock(class_7b, ava, settings)
    stranger, stranger_code = waiting_device(class_7b, ava, agent=WINDOWS)  # whoever locked the card
    device, code = waiting_device(class_7b, ava)
    assert code != stranger_code
    let_in(client_of(ms_rivera), class_7b, ava, code)  # read off Ava's own screen
    assert carry_on(device).status_code == 302
    assert carry_on(stranger).status_code == 200
    assert STUDENT_SESSION_KEY not in stranger.session


def test_a_wrong_code_or_an_old_wait_lets_nothing_in(client_of, ms_rivera, class_7b, ava, settings):
    lock(class_7b, ava, settings)
    device, code = waiting_device(class_7b, ava)
    teacher = client_of(ms_rivera)
    wrong = "000000" if code != "000000" else "111111"
    assert (
        "No device is waiting for Ava M. with that code"
        in let_in(teacher, class_7b, ava, wrong).content.decode()
    )
    WaitingDevice.objects.filter(student=ava).update(created_at=timezone.now() - timedelta(hours=1))
    assert "No device is waiting" in let_in(teacher, class_7b, ava, code).content.decode()
    # The device's wait is over: it goes back to the card's page, where it may ask again.
    assert carry_on(device).url == reverse("join_signin", args=[class_7b.join_code, ava.pk])
    assert STUDENT_SESSION_KEY not in device.session


def test_only_the_classs_own_staff_let_a_device_in_and_only_through_its_class(
    client, client_of, ms_rivera, mr_moss, mr_okafor, dr_patel, class_7b, ava, cleo, riverside, settings
):
    lock(class_7b, ava, settings)
    device, code = waiting_device(class_7b, ava)
    # Another school's teacher, and a colleague who does not teach 7B: the class is not theirs.
    assert let_in(client_of(mr_okafor), class_7b, ava, code).status_code == 404
    assert let_in(client_of(mr_moss), class_7b, ava, code).status_code == 404
    # Ms Rivera's other class, which Ava is in too: the device asked through 7B's code, not this class.
    other = ClassroomFactory(school=riverside, name="7B Drama", teachers=[ms_rivera])
    other.enrolments.create(student=ava)
    response = let_in(client_of(ms_rivera), other, ava, code)
    assert "No device is waiting for Ava M. with that code" in response.content.decode()
    # A student of another class, through Ms Rivera's class.
    assert let_in(client_of(ms_rivera), class_7b, cleo, code).status_code == 404
    assert carry_on(device).status_code == 200 and STUDENT_SESSION_KEY not in device.session
    # The school's admin may (they manage every class of the school), as on the class page.
    let_in(client_of(dr_patel), class_7b, ava, code)
    assert carry_on(device).status_code == 302


def test_unlocking_the_class_sends_a_waiting_device_back_to_its_card_and_no_page_returns_elsewhere(
    client_of, ms_rivera, class_7b, ava, settings
):
    lock(class_7b, ava, settings)
    device, _code = waiting_device(class_7b, ava)
    teacher = client_of(ms_rivera)
    response = teacher.post(
        reverse("classroom_unlock_cards", args=[class_7b.pk]), {"next": "https://evil.example/"}
    )
    assert response.url == reverse("classroom_detail", args=[class_7b.pk])
    response = device.get(reverse("join_waiting"))
    assert response.url == reverse("join_signin", args=[class_7b.join_code, ava.pk])
    assert signin(device, class_7b, ava, "4821").status_code == 302


def test_a_students_data_export_lists_the_devices_waiting_with_their_card(
    client_of, dr_patel, class_7b, ava, settings
):
    lock(class_7b, ava, settings)
    waiting_device(class_7b, ava)
    response = client_of(dr_patel).get(reverse("reports:student_data_export", args=[ava.pk]))
    [waiting] = json.loads(response.content)["sign_in"]["devices_waiting_to_be_let_in"]
    assert waiting["device"] == "chromebook" and waiting["let_in"] is False
