"""The console tells the truth: when a game was played, what the teacher did in sentences with names,
what each game is, Play now, and a school admin's dashboard that shows the school."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from games import selectors, services
from games.definitions import game_full_name
from games.models import GameSession, Participant
from reports import catalog as report_catalog

pytestmark = pytest.mark.django_db


@pytest.fixture
def planned(class_7b, ms_rivera):
    return services.session_schedule(
        classroom=class_7b, by=ms_rivera, game="wordup", scheduled_for=timezone.now() + timedelta(hours=3)
    )


def _play_and_end(session, teacher, students):
    services.session_open_lobby(session=session, by=teacher)
    for student in students:
        services.session_join(session=session, student=student)
    services.session_start(session=session, by=teacher)
    services.session_end(session=session, by=teacher)
    session.refresh_from_db()
    return session


def test_a_finished_game_shows_when_it_finished_not_when_it_was_planned(
    client_of, ms_rivera, planned, ava, ben
):
    session = _play_and_end(planned, ms_rivera, [ava, ben])
    finished = timezone.localtime(session.ended_at).strftime("%H:%M")
    planned_at = timezone.localtime(session.scheduled_for).strftime("%H:%M")
    assert selectors.session_when(session)["text"] == f"Finished {finished}"
    client = client_of(ms_rivera)
    console = client.get(reverse("games:console", args=[session.pk])).content.decode()
    assert f"Finished {finished}" in console
    dashboard = client.get(reverse("dashboard")).content.decode()
    assert f"Finished {finished}" in dashboard
    if planned_at != finished:
        assert f"Finished {planned_at}" not in dashboard


def test_each_state_names_its_own_moment(planned, ms_rivera, ava):
    tomorrow = timezone.now() + timedelta(days=1)
    planned.scheduled_for = tomorrow
    assert selectors.session_when(planned)["text"].startswith("Starts ")
    assert timezone.localtime(tomorrow).strftime("%-d %b") in selectors.session_when(planned)["text"]
    services.session_open_lobby(session=planned, by=ms_rivera)
    assert selectors.session_when(planned)["text"].startswith("Lobby opened ")
    services.session_join(session=planned, student=ava)
    services.session_start(session=planned, by=ms_rivera)
    planned.refresh_from_db()
    assert selectors.session_when(planned)["text"].startswith("Started ")


def test_the_control_log_reads_as_sentences_with_names(planned, ms_rivera, ava, ben):
    services.session_open_lobby(session=planned, by=ms_rivera)
    services.session_join(session=planned, student=ava)
    joined = services.session_join(session=planned, student=ben)
    services.session_start(session=planned, by=ms_rivera)
    services.participant_remove(participant=joined, by=ms_rivera)
    services.session_pause(session=planned, by=ms_rivera)
    family = ms_rivera.name.split()[-1]
    lines = [line["text"] for line in selectors.control_log(planned.pk)]
    assert lines == [
        f"{family} paused the game.",
        f"{family} removed {ben.display_name}",  # "Ben K." ends the sentence: one full stop
        f"{family} started the game at 1 table.",
        f"{family} opened the lobby.",
    ]
    for line in lines:
        assert "_" not in line and line[0].isupper() and ".." not in line


def test_the_control_log_reaches_the_console_live_and_never_a_students_device(planned, ms_rivera, ava):
    services.session_open_lobby(session=planned, by=ms_rivera)
    participant = services.session_join(session=planned, student=ava)
    snapshot = selectors.session_snapshot(planned.pk)
    assert snapshot.summary_for("teacher")["log"][0]["text"].endswith("opened the lobby.")
    student_view = snapshot.summary_for("player")
    assert "log" not in student_view and "missing" not in student_view
    assert participant.status == Participant.Status.PRESENT


def test_the_session_is_put_in_the_languages_of_its_screens_only(planned, ms_rivera):
    services.session_open_lobby(session=planned, by=ms_rivera)
    snapshot = selectors.session_snapshot(planned.pk, languages={"es"})
    assert set(snapshot.localized) == {"es"}
    assert snapshot.summary_for("teacher", "es")["log"][0]["text"].endswith("la sala de espera.")
    everyone = selectors.session_snapshot(planned.pk)
    assert set(everyone.localized) == {code for code, _name in settings.LANGUAGES}


def test_the_projector_lobby_knows_who_is_still_missing(planned, ms_rivera, ava, ben):
    services.session_open_lobby(session=planned, by=ms_rivera)
    services.session_join(session=planned, student=ava)
    assert selectors.session_snapshot(planned.pk).summary["missing"] == [ben.display_name]
    services.session_join(session=planned, student=ben)
    assert selectors.session_snapshot(planned.pk).summary["missing"] == []


def test_play_now_schedules_and_opens_the_lobby_in_one_step(client_of, ms_rivera, class_7b):
    client = client_of(ms_rivera)
    data = {
        "classroom": class_7b.pk,
        "game": "faces",
        "title": "",
        "scheduled_for": "",
        "planned_minutes": 20,
        "arrangement": "balanced",
        "play_now": "1",
    }
    response = client.post(reverse("games:new"), data)
    session = GameSession.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("games:console", args=[session.pk])
    assert session.status == GameSession.Status.LOBBY and session.opened_at is not None
    assert abs((session.scheduled_for - timezone.now()).total_seconds()) < 60


def test_scheduling_ahead_still_needs_a_start_time(client_of, ms_rivera, class_7b):
    data = {"classroom": class_7b.pk, "game": "faces", "planned_minutes": 20, "arrangement": "balanced"}
    response = client_of(ms_rivera).post(reverse("games:new"), data)
    assert response.status_code == 400
    assert "Choose a start time, or press Play now." in response.content.decode()
    assert not GameSession.objects.exists()


def test_the_game_menu_and_reports_say_what_each_game_is(client_of, ms_rivera, class_7b):
    page = client_of(ms_rivera).get(reverse("games:new")).content.decode()
    for name in ("Line-Up — Guess Who", "Line-it — number lines", "Line Up! — ordering quiz"):
        assert name in page
    assert report_catalog.game_label("faces") == game_full_name("faces") == "Line-Up — Guess Who"
    assert str(report_catalog.GAME_LABELS["lineup"]) == "Line Up! — ordering quiz"


def test_a_school_admin_dashboard_shows_the_school(
    client_of, dr_patel, class_7b, class_7c, ms_rivera, planned
):
    page = client_of(dr_patel).get(reverse("dashboard")).content.decode()
    assert "You have no classes yet" not in page
    assert "Your school: <bdi>Riverside Academy</bdi>" in page
    assert class_7b.name in page and class_7c.name in page
    assert ms_rivera.name in page  # the classes' teachers
    assert str(planned) in page  # the school's games
    assert reverse("reports:school") in page


def test_a_new_class_code_is_asked_for_before_it_is_made(client_of, ms_rivera, class_7b):
    page = client_of(ms_rivera).get(reverse("classroom_detail", args=[class_7b.pk])).content.decode()
    assert f'href="{reverse("classroom_new_code", args=[class_7b.pk])}"' in page


def test_a_start_beyond_a_year_is_refused_and_a_copy_of_an_old_game_lands_after_today(
    client_of, ms_rivera, class_7b, planned
):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        services.session_schedule(
            classroom=class_7b,
            by=ms_rivera,
            game="faces",
            scheduled_for=timezone.now() + timedelta(days=3650),
        )
    response = client_of(ms_rivera).post(
        reverse("games:new"),
        {
            "classroom": class_7b.pk,
            "game": "faces",
            "scheduled_for": "9999-12-31T09:00",
            "planned_minutes": 20,
            "arrangement": "balanced",
        },
    )
    assert response.status_code == 400 and "a year from now" in response.content.decode()

    GameSession.objects.filter(pk=planned.pk).update(scheduled_for=timezone.now() - timedelta(days=30))
    planned.refresh_from_db()
    copy = services.session_duplicate(session=planned, by=ms_rivera)
    assert timezone.now() < copy.scheduled_for <= timezone.now() + timedelta(days=7)
    assert copy.scheduled_for.weekday() == planned.scheduled_for.weekday()
    GameSession.objects.filter(pk=planned.pk).update(scheduled_for=timezone.now() + timedelta(days=36500))
    planned.refresh_from_db()
    assert services.session_duplicate(
        session=planned, by=ms_rivera
    ).scheduled_for < timezone.now() + timedelta(days=8)


def test_the_demo_refuses_to_load_on_a_production_site(settings):
    from django.core.management import CommandError, call_command

    settings.DEMO_ALLOWED = False  # as with DEBUG=false
    with pytest.raises(CommandError, match="only with DEBUG on"):
        call_command("load_demo")
