"""Class codes cannot be tried by the thousand from one network address (the join page and the class
list each allow 1200 look-ups a minute: a whole school's bell, not a script's sweep), and what a device
types into a grade is cleaned like a name (no control or direction-changing characters)."""

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django_ratelimit.core import get_usage

from classrooms import services
from classrooms.models import Student
from classrooms.roster import parse_roster

# (their tries must all fall in one of the limit's minutes)
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("rate_limit_minute_held")]
ADDRESS = "203.0.113.50"


def _use_up(view: str, method: str, url: str) -> None:
    request = getattr(RequestFactory(), method.lower())(url, REMOTE_ADDR=ADDRESS)
    for _n in range(1200):
        get_usage(
            request, group=f"classrooms.views.{view}", key="ip", rate="1200/m", method=method, increment=True
        )


def test_a_network_that_tried_1200_class_codes_this_minute_waits(client, class_7b):
    _use_up("join", "POST", reverse("join"))
    response = client.post(reverse("join"), {"code": class_7b.join_code}, REMOTE_ADDR=ADDRESS)
    assert response.status_code == 400
    assert "Too many tries from this network" in response.content.decode()
    other = client.post(reverse("join"), {"code": class_7b.join_code}, REMOTE_ADDR="198.51.100.1")
    assert other.status_code == 302  # another network is not held up


def test_the_class_list_is_not_shown_to_a_network_over_its_limit(client, class_7b, ava):
    url = reverse("join_pick", args=[class_7b.join_code])
    _use_up("join_pick", "GET", url)
    response = client.get(url, REMOTE_ADDR=ADDRESS, follow=True)
    assert ava.display_name not in response.content.decode()
    assert response.redirect_chain[-1][0] == reverse("join")


def test_a_grade_loses_control_and_direction_characters(class_7b):
    student = services.student_create(
        classroom=class_7b, given_name="Ava", family_name="Moreno", grade="0\u202e7\x07"
    )
    assert Student.objects.get(pk=student.pk).grade == "07"
    data = "sourcedId,givenName,grades\ns-1,Ben,Year\u200b 8\x1b\n".encode()
    rows = parse_roster(data, classroom_name=class_7b.name, max_bytes=10_000, max_rows=10)
    assert rows[0].grade == "Year 8"
