"""A student's accommodations: set by their teacher or a school admin, with a history like levels."""

import pytest
from django.urls import reverse

from classrooms import selectors, services
from classrooms.models import AccommodationChange, Accommodations

pytestmark = pytest.mark.django_db


def _post(client, student, **data):
    return client.post(reverse("student_detail", args=[student.pk]), {"action": "accommodations", **data})


def test_a_teacher_sets_accommodations_and_the_history_keeps_who_when_and_why(client_of, ms_rivera, ava):
    response = _post(
        client_of(ms_rivera), ava, extra_time="2", read_aloud="on", larger_text="on", reason="Dyslexia plan"
    )
    assert response.status_code == 302
    record = Accommodations.objects.get(student=ava)
    assert (record.time_factor, record.read_aloud, record.larger_text, record.fewer_options) == (
        2.0,
        True,
        True,
        False,
    )
    change = AccommodationChange.objects.get(student=ava)
    assert (change.changed_by, change.reason, change.before["extra_time"], change.after["extra_time"]) == (
        ms_rivera,
        "Dyslexia plan",
        "1",
        "2",
    )
    page = client_of(ms_rivera).get(reverse("student_detail", args=[ava.pk])).content.decode()
    assert "Dyslexia plan" in page
    assert "Double time (×2)" in page
    assert "Read aloud" in page


def test_saving_the_same_accommodations_again_adds_no_history(ms_rivera, ava):
    for _time in range(2):
        services.student_accommodations_set(student=ava, by=ms_rivera, extra_time="1.5", colour_safe=True)
    assert AccommodationChange.objects.filter(student=ava).count() == 1


def test_a_change_back_is_kept_too(ms_rivera, ava):
    services.student_accommodations_set(student=ava, by=ms_rivera, extra_time="untimed")
    services.student_accommodations_set(student=ava, by=ms_rivera, extra_time="1")
    latest = AccommodationChange.objects.filter(student=ava).first()
    assert (latest.before["extra_time"], latest.after["extra_time"]) == ("untimed", "1")
    assert Accommodations.objects.get(student=ava).time_factor == 1.0
    assert selectors.accommodations_by_student([ava.pk]) == {}  # nothing on: no seat is marked


def test_untimed_has_no_factor(ms_rivera, ava):
    record = services.student_accommodations_set(student=ava, by=ms_rivera, extra_time="untimed")
    assert record.time_factor is None


def test_a_school_admin_sets_them_too(client_of, dr_patel, ava):
    assert _post(client_of(dr_patel), ava, fewer_options="on", extra_time="1").status_code == 302
    assert Accommodations.objects.get(student=ava).fewer_options


def test_a_teacher_of_another_class_cannot(client_of, mr_moss, ava):
    response = _post(client_of(mr_moss), ava, extra_time="2")
    assert response.status_code == 404
    assert not Accommodations.objects.exists()


def test_a_bad_time_allowance_changes_nothing(client_of, ms_rivera, ava):
    response = _post(client_of(ms_rivera), ava, extra_time="10")
    assert response.status_code == 400
    assert not Accommodations.objects.exists()
