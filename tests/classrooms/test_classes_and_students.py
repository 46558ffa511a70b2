"""Teachers create classes and manage students one by one; every bad input changes nothing."""

import pytest
from django.urls import reverse

from classrooms.models import Classroom, LevelChange, Student

pytestmark = pytest.mark.django_db


def test_a_teacher_creates_a_class_she_then_teaches(client_of, ms_rivera, riverside):
    response = client_of(ms_rivera).post(
        reverse("classroom_create"), {"name": "  8A   English ", "subject": "English", "grade": "8"}
    )
    classroom = Classroom.objects.get()
    assert response["Location"] == reverse("classroom_detail", args=[classroom.pk])
    assert classroom.name == "8A English"
    assert list(classroom.teachers.all()) == [ms_rivera]
    assert classroom.school == riverside


def test_a_class_name_already_used_in_the_school_is_refused(client_of, ms_rivera, class_7b):
    response = client_of(ms_rivera).post(reverse("classroom_create"), {"name": "7b english"})
    assert "already has a class called" in response.content.decode()
    assert Classroom.objects.count() == 1


@pytest.mark.parametrize("name", ["", "   ", "x" * 61])
def test_a_bad_class_name_is_refused(client_of, ms_rivera, riverside, name):
    response = client_of(ms_rivera).post(reverse("classroom_create"), {"name": name})
    assert response.status_code == 200
    assert 'class="error"' in response.content.decode()
    assert not Classroom.objects.exists()


def test_a_teacher_without_a_school_sets_one_up_first(client_of, db):
    from tests.factories import UserFactory

    newcomer = UserFactory()
    client = client_of(newcomer)
    assert client.get(reverse("dashboard"))["Location"] == reverse("school_setup")
    client.post(reverse("school_setup"), {"name": "Lakeside Primary"})
    assert client.get(reverse("dashboard")).status_code == 200


def test_adding_a_student_with_levels_records_the_history(client_of, ms_rivera, class_7b):
    client_of(ms_rivera).post(
        reverse("student_add", args=[class_7b.pk]),
        {"given_name": " Zoë ", "family_name": "Ng", "english_vocabulary": 2, "numeracy": 4},
    )
    zoe = Student.objects.get()
    assert zoe.display_name == "Zoë N."
    assert dict(zoe.levels.values_list("skill", "level")) == {"english_vocabulary": 2, "numeracy": 4}
    assert set(LevelChange.objects.values_list("changed_by", flat=True)) == {ms_rivera.pk}


@pytest.mark.parametrize(
    "data",
    [
        {"given_name": "", "english_vocabulary": 3, "numeracy": 3},
        {"given_name": "x" * 61, "english_vocabulary": 3, "numeracy": 3},
        {"given_name": "Eve", "english_vocabulary": 9, "numeracy": 3},
        {"given_name": "Eve", "english_vocabulary": "three", "numeracy": 3},
    ],
)
def test_a_bad_new_student_is_refused(client_of, ms_rivera, class_7b, data):
    response = client_of(ms_rivera).post(reverse("student_add", args=[class_7b.pk]), data)
    assert response.status_code == 400
    assert not Student.objects.exists()


def test_renaming_a_student(client_of, ms_rivera, ava):
    client_of(ms_rivera).post(
        reverse("student_detail", args=[ava.pk]),
        {"action": "rename", "given_name": "Ava", "family_name": "Stone"},
    )
    ava.refresh_from_db()
    assert (ava.family_name, ava.display_name) == ("Stone", "Ava S.")


def test_setting_a_level_keeps_who_when_and_why(client_of, ms_rivera, ava):
    client_of(ms_rivera).post(
        reverse("student_detail", args=[ava.pk]),
        {"action": "level", "skill": "english_vocabulary", "level": 4, "reason": "Reads well above her year"},
    )
    change = LevelChange.objects.get(student=ava)
    assert (change.old_level, change.new_level, change.changed_by, change.reason) == (
        None,
        4,
        ms_rivera,
        "Reads well above her year",
    )
    page = client_of(ms_rivera).get(reverse("student_detail", args=[ava.pk])).content.decode()
    assert "Reads well above her year" in page


def test_a_bad_level_changes_nothing(client_of, ms_rivera, ava):
    response = client_of(ms_rivera).post(
        reverse("student_detail", args=[ava.pk]), {"action": "level", "skill": "astrology", "level": 3}
    )
    assert response.status_code == 400
    assert not LevelChange.objects.exists()


def test_moving_a_student_to_another_class_of_the_school(client_of, dr_patel, ava, class_7b, class_7c):
    client_of(dr_patel).post(
        reverse("student_detail", args=[ava.pk]),
        {"action": "move", "class": class_7b.pk, "to_classroom": class_7c.pk},
    )
    assert list(ava.enrolments.values_list("classroom_id", flat=True)) == [class_7c.pk]


def test_removing_a_student_from_her_only_class_deletes_her_card(client_of, ms_rivera, ava, class_7b):
    client_of(ms_rivera).post(
        reverse("student_detail", args=[ava.pk]), {"action": "remove", "class": class_7b.pk}
    )
    assert not Student.objects.filter(pk=ava.pk).exists()


def test_removing_a_student_from_one_of_two_classes_keeps_her(client_of, ms_rivera, ava, class_7b, class_7c):
    ava.enrolments.create(classroom=class_7c)
    client_of(ms_rivera).post(
        reverse("student_detail", args=[ava.pk]), {"action": "remove", "class": class_7b.pk}
    )
    assert list(ava.enrolments.values_list("classroom_id", flat=True)) == [class_7c.pk]


def test_login_cards_show_each_students_code_and_the_class_code(client_of, ms_rivera, class_7b, ava, ben):
    page = client_of(ms_rivera).get(reverse("classroom_cards", args=[class_7b.pk])).content.decode()
    assert page.count('class="login-card"') == 2
    assert "4821" in page and "1357" in page and class_7b.join_code in page
    assert "<svg" in page


def test_the_qr_code_is_an_svg_of_the_join_link(client_of, ms_rivera, class_7b):
    response = client_of(ms_rivera).get(reverse("classroom_qr", args=[class_7b.pk]))
    assert response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b"<svg")
    assert b'xmlns="http://www.w3.org/2000/svg"' in response.content  # needed to show in an <img>


def test_the_class_page_shows_roster_levels_and_join_code(client_of, ms_rivera, class_7b, ava):
    page = client_of(ms_rivera).get(reverse("classroom_detail", args=[class_7b.pk])).content.decode()
    assert class_7b.join_code in page
    assert "Ava M." in page
    assert "Print login cards" in page
