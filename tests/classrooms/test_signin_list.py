"""A class code travels (it is on the board, in a photo, passed on), so the list of names it opens is
the teacher's choice: first names and initials on every device (the default), or names only on the
devices the teacher opened for the class (and each student's own device)."""

import pytest
from django.test import Client
from django.urls import reverse

from classrooms import services
from classrooms.models import Classroom
from classrooms.selectors import short_name
from tests.classrooms.test_student_signin import signin
from tests.factories import enrolled_student

pytestmark = pytest.mark.django_db


def _pick_page(client, classroom) -> str:
    return client.get(reverse("join_pick", args=[classroom.join_code])).content.decode()


def _opened(classroom) -> Classroom:
    classroom.name_list = Classroom.NameList.OPENED
    classroom.save(update_fields=["name_list"])
    return classroom


def test_short_names_are_the_first_word_and_an_initial():
    assert short_name("Ava Martinez") == "Ava M."
    assert short_name("Ava M.") == "Ava M."
    assert short_name("Mary Ann Smith") == "Mary S."
    assert short_name("Cleo") == "Cleo"
    assert short_name("Sam Taylor", letters=2) == "Sam Ta."


def test_by_default_anyone_with_the_code_sees_first_names_and_initials_only(class_7b):
    enrolled_student(class_7b, display_name="Ava Martinez")
    enrolled_student(class_7b, display_name="Sam Taylor")
    enrolled_student(class_7b, display_name="Sam Thomas")
    page = _pick_page(Client(), class_7b)
    assert "Ava M." in page and "Martinez" not in page
    # two students who would both be "Sam T." get as many letters as it takes to tell them apart
    assert "Sam Ta." in page and "Sam Th." in page and "Taylor" not in page and "Thomas" not in page


def test_the_sign_in_step_shows_the_short_name_too(class_7b):
    student = enrolled_student(class_7b, display_name="Ava Martinez")
    page = Client().get(reverse("join_signin", args=[class_7b.join_code, student.pk])).content.decode()
    assert "Hi Ava M.!" in page and "Martinez" not in page


def test_a_teacher_chooses_the_list_for_the_class(client_of, ms_rivera, class_7b):
    response = client_of(ms_rivera).post(
        reverse("classroom_edit", args=[class_7b.pk]),
        {"name": class_7b.name, "subject": "", "grade": "", "name_list": "opened"},
    )
    assert response.status_code == 302
    class_7b.refresh_from_db()
    assert class_7b.name_list == Classroom.NameList.OPENED
    with pytest.raises(Exception, match="Choose how the class list shows"):
        services.classroom_update(classroom=class_7b, name="7B", subject="", grade="", name_list="everyone")


def test_a_class_open_only_on_opened_devices_shows_no_names_elsewhere(class_7b, ava, ben):
    _opened(class_7b)
    page = _pick_page(Client(), class_7b)
    assert "Ask your teacher to open this one" in page
    assert "Ava M." not in page and "Ben K." not in page
    # nor can a device that knows a student's id reach their sign-in step
    response = Client().get(reverse("join_signin", args=[class_7b.join_code, ava.pk]))
    assert response.status_code == 302 and response["Location"].endswith(f"/join/{class_7b.join_code}/")
    assert signin(Client(), class_7b, ava, "4821").status_code == 302  # refused: sent back to the list
    assert Client().session.get("classplay_student_id") is None


def test_the_teacher_opens_a_class_device_and_is_signed_out_of_it(client_of, ms_rivera, class_7b, ava, ben):
    _opened(class_7b)
    device = client_of(ms_rivera)
    response = device.post(reverse("classroom_open_device", args=[class_7b.pk]), follow=True)
    page = response.content.decode()
    assert "This device now shows the names of 7B English for signing in." in page
    assert "Ava M." in page and "Ben K." in page
    assert "_auth_user_id" not in device.session  # the teacher is signed out of the shared device
    assert signin(device, class_7b, ava, "4821").status_code == 302
    assert device.session["classplay_student_id"] == ava.pk


def test_an_opened_device_is_for_that_class_and_that_class_code_only(
    client_of, ms_rivera, class_7b, ava, riverside
):
    from tests.factories import ClassroomFactory

    _opened(class_7b)
    other = _opened(ClassroomFactory(school=riverside, name="8C", teachers=[ms_rivera]))
    enrolled_student(other, display_name="Dana P.")
    device = client_of(ms_rivera)
    device.post(reverse("classroom_open_device", args=[class_7b.pk]))
    assert "Ava M." in _pick_page(device, class_7b)
    assert "Dana P." not in _pick_page(device, other)
    services.classroom_new_join_code(classroom=class_7b)  # the code was shared where it should not be
    class_7b.refresh_from_db()
    assert "Ava M." not in _pick_page(device, class_7b)


def test_a_students_own_device_still_lists_them(class_7b, ava, ben):
    own = Client()
    assert signin(own, class_7b, ava, "4821").status_code == 302  # yesterday, before the change
    own.post(reverse("student_signout"))
    _opened(class_7b)
    page = _pick_page(own, class_7b)
    assert "Ava M." in page and "Ben K." not in page
    assert signin(own, class_7b, ava, "4821").status_code == 302
    assert own.session["classplay_student_id"] == ava.pk


def test_only_the_classs_staff_open_a_device_for_it(client_of, mr_okafor, class_7b):
    _opened(class_7b)
    response = client_of(mr_okafor).post(reverse("classroom_open_device", args=[class_7b.pk]))
    assert response.status_code in (403, 404)
    assert "classplay_opened" not in response.cookies
