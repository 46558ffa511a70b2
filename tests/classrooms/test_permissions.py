"""Who may see and change what. Every denial is a test; denials answer 404 so nothing leaks."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

CLASS_PAGES = [
    "classroom_detail",
    "classroom_edit",
    "classroom_cards",
    "classroom_export",
    "roster_import",
    "classroom_qr",
]


@pytest.mark.parametrize("page", CLASS_PAGES)
def test_a_teacher_sees_her_own_class(client_of, ms_rivera, class_7b, page):
    assert client_of(ms_rivera).get(reverse(page, args=[class_7b.pk])).status_code == 200


@pytest.mark.parametrize("page", CLASS_PAGES)
def test_a_teacher_cannot_see_another_teachers_class_in_her_school(client_of, ms_rivera, class_7c, page):
    assert client_of(ms_rivera).get(reverse(page, args=[class_7c.pk])).status_code == 404


@pytest.mark.parametrize("page", CLASS_PAGES)
def test_a_teacher_of_another_school_cannot_see_the_class(client_of, mr_okafor, class_7b, page):
    assert client_of(mr_okafor).get(reverse(page, args=[class_7b.pk])).status_code == 404


@pytest.mark.parametrize("page", CLASS_PAGES)
def test_the_school_admin_sees_every_class_of_her_school(client_of, dr_patel, class_7b, class_7c, page):
    client = client_of(dr_patel)
    assert client.get(reverse(page, args=[class_7b.pk])).status_code == 200
    assert client.get(reverse(page, args=[class_7c.pk])).status_code == 200


@pytest.mark.parametrize("page", CLASS_PAGES)
def test_an_admin_of_another_school_cannot_see_the_class(client_of, mrs_lindqvist, class_7b, page):
    assert client_of(mrs_lindqvist).get(reverse(page, args=[class_7b.pk])).status_code == 404


@pytest.mark.parametrize("page", CLASS_PAGES)
def test_a_signed_in_student_cannot_open_staff_pages(student_client, ava, class_7b, page):
    response = student_client(ava).get(reverse(page, args=[class_7b.pk]))
    assert response.status_code == 302
    assert reverse("account_login") in response["Location"]


@pytest.mark.parametrize("page", CLASS_PAGES)
def test_an_anonymous_visitor_is_sent_to_sign_in(client, class_7b, page):
    response = client.get(reverse(page, args=[class_7b.pk]))
    assert response.status_code == 302
    assert reverse("account_login") in response["Location"]


def test_a_teacher_manages_her_own_student(client_of, ms_rivera, ava):
    assert client_of(ms_rivera).get(reverse("student_detail", args=[ava.pk])).status_code == 200


def test_a_teacher_cannot_manage_a_student_of_another_class(client_of, ms_rivera, cleo):
    assert client_of(ms_rivera).get(reverse("student_detail", args=[cleo.pk])).status_code == 404


def test_a_teacher_cannot_change_a_student_of_another_class(client_of, ms_rivera, cleo):
    response = client_of(ms_rivera).post(
        reverse("student_detail", args=[cleo.pk]), {"action": "level", "skill": "numeracy", "level": 5}
    )
    assert response.status_code == 404
    assert not cleo.levels.exists()


def test_a_teacher_of_another_school_cannot_manage_the_student(client_of, mr_okafor, ava):
    assert client_of(mr_okafor).get(reverse("student_detail", args=[ava.pk])).status_code == 404


def test_the_school_admin_manages_any_student_of_her_school(client_of, dr_patel, ava, cleo):
    client = client_of(dr_patel)
    assert client.get(reverse("student_detail", args=[ava.pk])).status_code == 200
    assert client.get(reverse("student_detail", args=[cleo.pk])).status_code == 200


def test_an_admin_of_another_school_cannot_manage_the_student(client_of, mrs_lindqvist, ava):
    assert client_of(mrs_lindqvist).get(reverse("student_detail", args=[ava.pk])).status_code == 404


def test_a_teacher_cannot_add_students_to_another_teachers_class(client_of, ms_rivera, class_7c):
    response = client_of(ms_rivera).post(
        reverse("student_add", args=[class_7c.pk]),
        {"given_name": "Eve", "english_vocabulary": 3, "numeracy": 3},
    )
    assert response.status_code == 404
    assert not class_7c.enrolments.exists()


def test_a_teacher_cannot_move_her_student_into_another_schools_class(
    client_of, ms_rivera, ava, class_7b, class_9a
):
    response = client_of(ms_rivera).post(
        reverse("student_detail", args=[ava.pk]),
        {"action": "move", "class": class_7b.pk, "to_classroom": class_9a.pk},
    )
    assert response.status_code == 400
    assert list(ava.enrolments.values_list("classroom_id", flat=True)) == [class_7b.pk]


def test_the_school_overview_is_for_school_admins_only(
    client_of, dr_patel, ms_rivera, mrs_lindqvist, class_7b, class_9a
):
    page = client_of(dr_patel).get(reverse("school_overview"))
    assert page.status_code == 200
    assert "7B English" in page.content.decode()
    assert "9A English" not in page.content.decode()
    assert client_of(ms_rivera).get(reverse("school_overview")).status_code == 403


def test_an_admin_of_another_school_sees_only_her_school(client_of, mrs_lindqvist, class_7b, class_9a):
    page = client_of(mrs_lindqvist).get(reverse("school_overview")).content.decode()
    assert "9A English" in page
    assert "7B English" not in page


def test_the_dashboard_lists_only_the_teachers_own_classes(
    client_of, ms_rivera, class_7b, class_7c, class_9a
):
    page = client_of(ms_rivera).get(reverse("dashboard")).content.decode()
    assert "7B English" in page
    assert "7C Maths" not in page
    assert "9A English" not in page


def test_a_student_sees_only_her_own_home(student_client, ava, ben):
    page = student_client(ava).get(reverse("student_home")).content.decode()
    assert "Ava M." in page
    assert "Ben K." not in page


def test_a_student_home_without_a_signed_in_student_goes_to_join(client):
    response = client.get(reverse("student_home"))
    assert response.status_code == 302
    assert response["Location"] == reverse("join")
