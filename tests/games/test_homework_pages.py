"""Homework pages: setting it, the student's list (due soon first), Start and Carry on, the teacher's
view and reminder list, extending and closing, and late marking on a frozen clock."""

from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import homework_selectors, services
from games.models import Assignment, GameSession, GameTable, Participant

pytestmark = pytest.mark.django_db
MONDAY = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
def clock(monkeypatch):
    """A frozen clock: ``clock.now`` is what every ``timezone.now()`` returns; move it by assigning."""

    class Clock:
        now = MONDAY

    monkeypatch.setattr(timezone, "now", lambda: Clock.now)
    return Clock


def assign(classroom, teacher, **fields):
    fields.setdefault("opens_at", timezone.now() - timedelta(hours=1))
    fields.setdefault("due_at", timezone.now() + timedelta(days=7))
    fields.setdefault("game", "wordup")
    return services.assignment_create(classroom=classroom, by=teacher, **fields)


def finish(session):
    """End the attempt's table (as its game's end does) and the session with it."""
    services.table_end(table=session.tables.get(), by=None)
    services.session_finish_if_done(session_id=session.pk)


def test_a_teacher_sets_homework_from_the_form(client_of, ms_rivera, class_7b, ava):
    client = client_of(ms_rivera)
    page = client.get(reverse("games:homework_new") + f"?classroom={class_7b.pk}")
    assert page.status_code == 200
    assert "Mind the Lines" in page.content.decode() and "cannot draw" in page.content.decode()
    response = client.post(
        reverse("games:homework_new") + f"?classroom={class_7b.pk}",
        {
            "game": "faces",
            "title": "Guess Who practice",
            "opens_at": timezone.localtime().strftime("%Y-%m-%dT%H:%M"),
            "due_at": (timezone.localtime() + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M"),
            "timers": "relaxed",
            "attempts_allowed": "2",
            "computer_players": "3",
            "students": [ava.pk],
            "faces__turn_seconds": "60",
            "faces__timeout": "pass",
            "faces__bot": "medium",
            "once_token": "t1",
        },
    )
    assignment = Assignment.objects.get()
    assert response.url == reverse("games:homework", args=[assignment.pk])
    assert assignment.settings["bot"] == "medium" and assignment.computer_players == 1
    assert list(assignment.students.all()) == [ava] and assignment.attempts_allowed == 2


def test_another_teacher_cannot_see_it(client_of, ms_rivera, mr_okafor, class_7b):
    assignment = assign(class_7b, ms_rivera)
    assert client_of(mr_okafor).get(reverse("games:homework", args=[assignment.pk])).status_code == 404


def test_students_see_their_homework_due_soon_first_and_start_with_one_tap(
    student_client, ms_rivera, class_7b, ava
):
    later = assign(class_7b, ms_rivera, title="Later", due_at=timezone.now() + timedelta(days=9))
    sooner = assign(
        class_7b, ms_rivera, title="Sooner", game="lineit", due_at=timezone.now() + timedelta(days=2)
    )
    assign(class_7b, ms_rivera, title="Not yet", opens_at=timezone.now() + timedelta(days=1))
    client = student_client(ava)
    page = client.get(reverse("student_home")).content.decode()
    assert page.index("Sooner") < page.index("Later") and "Not yet" not in page
    response = client.post(reverse("games:homework_start", args=[sooner.pk]))
    session = GameSession.objects.get(assignment=sooner)
    assert response.url == reverse("games:play", args=[session.pk])
    assert client.get(response.url).status_code == 200
    assert "Carry on" in client.get(reverse("student_home")).content.decode()
    assert later.attempts.count() == 0


def test_an_attempt_is_not_a_class_game(student_client, ms_rivera, class_7b, ava, ben):
    assignment = assign(class_7b, ms_rivera)
    session = services.attempt_start(assignment=assignment, student=ava)
    client = student_client(ben)
    assert client.get(reverse("games:open_sessions")).json()["sessions"] == []
    assert client.get(reverse("games:play", args=[session.pk])).status_code == 404


def test_a_student_not_chosen_does_not_see_it(student_client, ms_rivera, class_7b, ava, ben):
    assignment = assign(class_7b, ms_rivera, title="For Ava", students=[ava])
    assert "For Ava" not in student_client(ben).get(reverse("student_home")).content.decode()
    assert student_client(ben).post(reverse("games:homework_start", args=[assignment.pk])).status_code == 404


def test_the_teacher_view_lists_each_student(client_of, ms_rivera, class_7b, ava, ben):
    assignment = assign(class_7b, ms_rivera, title="Week 1")
    finish(services.attempt_start(assignment=assignment, student=ava))
    services.attempt_start(assignment=assignment, student=ben)
    client = client_of(ms_rivera)
    page = client.get(reverse("games:homework", args=[assignment.pk])).content.decode()
    assert "2 of 2 started · 1 finished" in page
    assert "Started, not finished" in page and "Closed before the end" in page
    ava_attempt = GameSession.objects.get(assignment=assignment, participants__student=ava)
    replay = reverse("games:replay", args=[ava_attempt.pk, 1])
    assert replay in page and client.get(replay).status_code == 200
    part = client.get(reverse("games:homework", args=[assignment.pk]) + "?part=progress").content.decode()
    assert "Ben K." in part and "<h1>" not in part
    reminders = client.get(reverse("games:homework_reminders", args=[assignment.pk])).content.decode()
    assert "Ben K." in reminders and "Ava M." not in reminders
    assert "Week 1" in client.get(reverse("dashboard")).content.decode()


def test_who_is_playing_now(ms_rivera, class_7b, ava):
    assignment = assign(class_7b, ms_rivera)
    session = services.attempt_start(assignment=assignment, student=ava)
    participant = Participant.objects.get(session=session)
    services.seat_claim(participant_id=participant.pk, connection="tablet")
    services.attempt_device_arrived(participant_id=participant.pk)
    (row,) = homework_selectors.assignment_progress(assignment)
    assert row.state == "playing"


def test_late_finishes_are_marked_on_a_frozen_clock(clock, ms_rivera, class_7b, ava, ben):
    assignment = assign(class_7b, ms_rivera, due_at=MONDAY + timedelta(days=2), attempts_allowed=0)
    services.assignment_extend(
        assignment=assignment, student=ben, due_at=MONDAY + timedelta(days=4), by=ms_rivera
    )
    ava_attempt = services.attempt_start(assignment=assignment, student=ava)
    ben_attempt = services.attempt_start(assignment=assignment, student=ben)
    clock.now = MONDAY + timedelta(days=3)  # after the due date, before Ben's
    rows = {row.student: row for row in homework_selectors.assignment_progress(assignment)}
    assert rows[ava].state == "in_progress" and rows[ava].late
    finish(ava_attempt)
    finish(ben_attempt)
    rows = {row.student: row for row in homework_selectors.assignment_progress(assignment)}
    assert rows[ava].state == "late" and rows[ava].finished[0].late
    assert rows[ben].state == "finished" and rows[ben].extended
    # A second, on-time attempt does not undo the late first finish.
    assert homework_selectors.progress_counts(list(rows.values()))["late"] == 1


def test_a_student_past_due_can_still_finish_and_sees_it_was_due(
    clock, student_client, ms_rivera, class_7b, ava
):
    assign(class_7b, ms_rivera, title="Week 2", due_at=MONDAY + timedelta(days=1))
    clock.now = MONDAY + timedelta(days=2)
    page = student_client(ava).get(reverse("student_home")).content.decode()
    assert "you can still finish it (late)" in page and "Start" in page


def test_closing_early_and_extending_from_the_page(client_of, ms_rivera, class_7b, ava):
    assignment = assign(class_7b, ms_rivera)
    session = services.attempt_start(assignment=assignment, student=ava)
    client = client_of(ms_rivera)
    client.post(
        reverse("games:homework_extend", args=[assignment.pk]),
        {"student": ava.pk, "due_at": (timezone.localtime() + timedelta(days=10)).strftime("%Y-%m-%dT%H:%M")},
    )
    assert assignment.extensions.filter(student=ava).exists()
    client.post(reverse("games:homework_close", args=[assignment.pk]))
    session.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED
    assert session.tables.get().status == GameTable.Status.ENDED
    assert "Close now" not in client.get(reverse("games:homework", args=[assignment.pk])).content.decode()


def test_editing_keeps_attempts_begun_as_they_were(client_of, ms_rivera, class_7b, ava):
    assignment = assign(class_7b, ms_rivera, settings={"answer_seconds": 45})
    session = services.attempt_start(assignment=assignment, student=ava)
    client = client_of(ms_rivera)
    form = client.get(reverse("games:homework_edit", args=[assignment.pk]))
    assert form.status_code == 200
    data = {
        "game": "wordup",
        "title": "Renamed",
        "opens_at": timezone.localtime(assignment.opens_at).strftime("%Y-%m-%dT%H:%M"),
        "due_at": timezone.localtime(assignment.due_at).strftime("%Y-%m-%dT%H:%M"),
        "timers": "off",
        "attempts_allowed": "1",
        "computer_players": "2",
        "wordup__answer_seconds": "60",
        "once_token": "t2",
    }
    client.post(reverse("games:homework_edit", args=[assignment.pk]), data)
    assignment.refresh_from_db()
    assert assignment.title == "Renamed" and assignment.settings["answer_seconds"] == 60
    session.refresh_from_db()
    assert session.settings["answer_seconds"] == 135


def test_the_last_attempt_under_way_says_carry_on_not_none_left(student_client, ms_rivera, class_7b, ava):
    assignment = assign(class_7b, ms_rivera, title="Week 3", attempts_allowed=1)
    services.attempt_start(assignment=assignment, student=ava)
    page = student_client(ava).get(reverse("student_home")).content.decode()
    assert "Carry on" in page and "Your last attempt: carry on to finish it." in page
    assert "0 attempts left" not in page and "Started: carry on where you stopped." not in page


def test_an_attempt_under_way_with_more_to_come_counts_what_is_left(student_client, ms_rivera, class_7b, ava):
    assignment = assign(class_7b, ms_rivera, title="Week 3", attempts_allowed=2)
    services.attempt_start(assignment=assignment, student=ava)
    page = student_client(ava).get(reverse("student_home")).content.decode()
    assert "Started: carry on where you stopped." in page and "1 attempt left" in page
    assert "Your last attempt" not in page
