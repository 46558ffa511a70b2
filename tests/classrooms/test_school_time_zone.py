"""A school schedules and reads times in its own time zone, whatever the server's."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from games import selectors
from games.models import GameSession

pytestmark = pytest.mark.django_db


def _schedule(client, classroom, when: str):
    data = {
        "classroom": classroom.pk,
        "game": "faces",
        "title": "Guess who",
        "scheduled_for": when,
        "planned_minutes": 20,
        "arrangement": "balanced",
    }
    return client.post(reverse("games:new"), data)


def test_a_start_time_is_typed_in_the_schools_time_zone(client_of, dr_patel, ms_rivera, riverside, class_7b):
    admin = client_of(dr_patel)
    response = admin.post(
        reverse("school_settings"), {"name": riverside.name, "time_zone": "America/New_York"}
    )
    assert response.status_code == 302
    riverside.refresh_from_db()
    assert riverside.time_zone == "America/New_York"

    teacher = client_of(ms_rivera)
    form = teacher.get(reverse("games:new")).content.decode()
    assert "America/New York" in form
    day = (datetime.now(ZoneInfo("America/New_York")) + timedelta(days=30)).date()
    _schedule(teacher, class_7b, f"{day.isoformat()}T09:00")
    session = GameSession.objects.get()
    assert session.scheduled_for == datetime(
        day.year, day.month, day.day, 9, 0, tzinfo=ZoneInfo("America/New_York")
    )
    shown = f"Starts {day.strftime('%a')} {day.day} {day.strftime('%b')}, 09:00"
    assert selectors.session_when(session)["text"] == shown
    console = teacher.get(reverse("games:console", args=[session.pk])).content.decode()
    assert shown in console


def test_an_unknown_time_zone_is_refused_and_nothing_changes(client_of, dr_patel, riverside):
    response = client_of(dr_patel).post(
        reverse("school_settings"), {"name": "X", "time_zone": "Mars/Olympus"}
    )
    assert response.status_code == 400
    riverside.refresh_from_db()
    assert riverside.time_zone == "" and riverside.name != "X"


def test_only_the_schools_admin_changes_its_settings(client_of, ms_rivera, mrs_lindqvist, riverside):
    assert client_of(ms_rivera).get(reverse("school_settings")).status_code == 403
    client_of(mrs_lindqvist).post(reverse("school_settings"), {"name": "Taken", "time_zone": "Asia/Tokyo"})
    riverside.refresh_from_db()
    assert riverside.time_zone == ""


def test_a_students_homework_is_due_in_their_schools_time_zone(riverside, class_7b, ms_rivera, ava):
    from games import services
    from tests.games.test_homework_socket import device_of

    riverside.time_zone = "America/New_York"
    riverside.save()
    zone = ZoneInfo("America/New_York")
    due = (datetime.now(zone) + timedelta(days=3)).replace(hour=17, minute=30, second=0, microsecond=0)
    services.assignment_create(
        classroom=class_7b,
        by=ms_rivera,
        game="wordup",
        opens_at=datetime.now(zone) - timedelta(hours=1),
        due_at=due,
    )
    page = device_of(ava).get(reverse("student_home")).content.decode()
    assert f"Due {due.strftime('%a')} {due.day} {due.strftime('%b')}, 17:30" in page


def test_a_students_time_zone_comes_with_the_student_already_read(
    rf, riverside, ava, django_assert_num_queries
):
    """The language middleware reads the device's student with their school: the zone asks nothing more."""
    from django.utils import timezone

    from classrooms.middleware import SchoolTimeZoneMiddleware

    riverside.time_zone = "Asia/Tokyo"
    riverside.save()
    request = rf.get("/")
    request.session = {}
    request.student = type(ava).objects.select_related("school").get(pk=ava.pk)
    seen = []
    middleware = SchoolTimeZoneMiddleware(lambda request: seen.append(timezone.get_current_timezone_name()))
    with django_assert_num_queries(0):
        middleware(request)
    assert seen == ["Asia/Tokyo"]
