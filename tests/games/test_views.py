"""Session pages: scheduling, the console and its controls, the projector, the student's device,
results and the step-through replay, each with who may and may not see it."""

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import GameSession, GameTable, Participant, SessionControl

pytestmark = pytest.mark.django_db


@pytest.fixture
def session(class_7b, ms_rivera):
    return services.session_schedule(
        classroom=class_7b, by=ms_rivera, game="lineup", scheduled_for=timezone.now() + timedelta(hours=2)
    )


@pytest.fixture
def running(session, ms_rivera, ava, ben):
    services.session_open_lobby(session=session, by=ms_rivera)
    services.session_join(session=session, student=ava)
    services.session_join(session=session, student=ben)
    services.session_start(session=session, by=ms_rivera)
    session.refresh_from_db()
    return session


def _form(class_7b, game="lineup", **extra):
    start = timezone.localtime() + timedelta(days=1)
    data = {
        "classroom": class_7b.pk,
        "game": game,
        "title": "Planets in order",
        "scheduled_for": start.strftime("%Y-%m-%dT%H:%M"),
        "planned_minutes": 25,
        "arrangement": "balanced",
        "lineup__board": "short",
        "lineup__answer_seconds": 90,
        "lineup__min_level": 1,
        "lineup__max_level": 2,
    }
    data.update(extra)
    return data


def test_a_teacher_schedules_a_game_with_its_settings(client_of, ms_rivera, class_7b):
    client = client_of(ms_rivera)
    page = client.get(reverse("games:new") + f"?classroom={class_7b.pk}")
    assert page.status_code == 200
    assert b"Settings for Line Up!" in page.content
    response = client.post(reverse("games:new"), _form(class_7b))
    session = GameSession.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("games:console", args=[session.pk])
    assert session.settings == {
        "board": "short",
        "answer_seconds": 90,
        "subject": "all",
        "min_level": 1,
        "max_level": 2,
        "reveal_seconds": 25,  # not on the form: the setting's default
        "language": "",  # the teacher's language (games.definitions.lineup.session_language)
    }
    assert session.title == "Planets in order"


def test_bad_settings_show_a_clear_error_and_schedule_nothing(client_of, ms_rivera, class_7b):
    response = client_of(ms_rivera).post(reverse("games:new"), _form(class_7b, lineup__answer_seconds=3))
    assert response.status_code == 400
    assert not GameSession.objects.exists()


def test_a_teacher_cannot_schedule_for_another_teachers_class(client_of, ms_rivera, class_7b, class_9a):
    response = client_of(ms_rivera).post(reverse("games:new"), _form(class_9a))
    assert response.status_code == 400
    assert not GameSession.objects.exists()


def test_edit_cancel_and_duplicate(client_of, ms_rivera, class_7b, session):
    client = client_of(ms_rivera)
    assert client.get(reverse("games:edit", args=[session.pk])).status_code == 200
    client.post(reverse("games:edit", args=[session.pk]), _form(class_7b, planned_minutes=30, title="New"))
    session.refresh_from_db()
    assert (session.planned_minutes, session.title) == (30, "New")
    response = client.post(reverse("games:duplicate", args=[session.pk]))
    copy = GameSession.objects.exclude(pk=session.pk).get()
    assert response["Location"] == reverse("games:edit", args=[copy.pk])
    assert copy.scheduled_for == session.scheduled_for + timedelta(days=7)
    client.post(reverse("games:cancel", args=[session.pk]))
    session.refresh_from_db()
    assert session.status == GameSession.Status.CANCELLED


def test_the_dashboard_lists_upcoming_and_past_games(client_of, ms_rivera, session, class_7b):
    page = client_of(ms_rivera).get(reverse("dashboard")).content.decode()
    assert str(session) in page and "Coming up" in page
    detail = client_of(ms_rivera).get(reverse("classroom_detail", args=[class_7b.pk])).content.decode()
    assert reverse("games:console", args=[session.pk]) in detail


def test_the_console_and_projector_are_for_the_class_staff_only(client_of, ms_rivera, mr_okafor, session):
    assert client_of(ms_rivera).get(reverse("games:console", args=[session.pk])).status_code == 200
    assert client_of(ms_rivera).get(reverse("games:projector", args=[session.pk])).status_code == 200
    assert client_of(mr_okafor).get(reverse("games:console", args=[session.pk])).status_code == 404
    assert client_of(mr_okafor).get(reverse("games:projector", args=[session.pk])).status_code == 404


def test_session_controls_answer_json_and_are_logged(client_of, ms_rivera, session, ava):
    client = client_of(ms_rivera)
    url = reverse("games:control", args=[session.pk, "open"])
    response = client.post(url, HTTP_ACCEPT="application/json")
    assert response.json()["ok"]
    session.refresh_from_db()
    services.session_join(session=session, student=ava)
    response = client.post(
        reverse("games:control", args=[session.pk, "pause"]), HTTP_ACCEPT="application/json"
    )
    assert response.status_code == 400 and "running" in response.json()["message"]
    client.post(reverse("games:control", args=[session.pk, "start"]), HTTP_ACCEPT="application/json")
    client.post(reverse("games:control", args=[session.pk, "pause"]), HTTP_ACCEPT="application/json")
    session.refresh_from_db()
    assert session.status == GameSession.Status.PAUSED
    kinds = set(SessionControl.objects.filter(session=session).values_list("kind", flat=True))
    assert {"open_lobby", "start", "pause"} <= kinds
    assert client.post(reverse("games:control", args=[session.pk, "explode"])).status_code == 404


def test_table_controls_extend_advance_and_end(
    client_of, ms_rivera, running, django_capture_on_commit_callbacks
):
    client = client_of(ms_rivera)
    table = running.tables.get()
    before = table.deadline
    client.post(reverse("games:table_control", args=[running.pk, table.pk, "extend"]), {"seconds": 30})
    table.refresh_from_db()
    assert table.deadline == pytest.approx(before + 30)
    client.post(reverse("games:table_control", args=[running.pk, table.pk, "advance"]))
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("games:table_control", args=[running.pk, table.pk, "end"]))
    table.refresh_from_db()
    running.refresh_from_db()
    assert table.status == GameTable.Status.ENDED
    assert running.status == GameSession.Status.FINISHED


def test_remove_and_readmit_a_student(client_of, ms_rivera, running, ava):
    participant = Participant.objects.get(session=running, student=ava)
    client = client_of(ms_rivera)
    client.post(reverse("games:participant_control", args=[running.pk, participant.pk, "remove"]))
    participant.refresh_from_db()
    assert participant.status == Participant.Status.REMOVED
    client.post(reverse("games:participant_control", args=[running.pk, participant.pk, "readmit"]))
    participant.refresh_from_db()
    assert participant.status == Participant.Status.PRESENT


def test_a_student_sees_open_games_and_joins_with_one_tap(student_client, ava, session, ms_rivera):
    client = student_client(ava)
    assert client.get(reverse("games:open_sessions")).json() == {"sessions": []}
    services.session_open_lobby(session=session, by=ms_rivera)
    listed = client.get(reverse("games:open_sessions")).json()["sessions"]
    assert [s["id"] for s in listed] == [session.pk]
    assert f'data-open-session="{session.pk}"' in client.get(reverse("student_home")).content.decode()
    page = client.get(reverse("games:play", args=[session.pk])).content.decode()
    assert "data-join" in page
    client.post(reverse("games:play_join", args=[session.pk]))
    assert Participant.objects.filter(session=session, student=ava).exists()
    page = client.get(reverse("games:play", args=[session.pk])).content.decode()
    assert "data-live-session" in page and "js/games/lineup/view.js" in page


def test_a_student_of_another_class_cannot_see_or_join(student_client, cleo, session, ms_rivera):
    services.session_open_lobby(session=session, by=ms_rivera)
    client = student_client(cleo)
    assert client.get(reverse("games:play", args=[session.pk])).status_code == 404
    client.post(reverse("games:play_join", args=[session.pk]))
    assert not Participant.objects.filter(student=cleo).exists()


def test_results_and_step_through_replay(client_of, ms_rivera, running, mr_okafor):
    services.session_end(session=running, by=ms_rivera)
    client = client_of(ms_rivera)
    page = client.get(reverse("games:results", args=[running.pk]))
    assert page.status_code == 200 and b"Table 1" in page.content
    table = running.tables.get()
    assert client.get(reverse("games:replay", args=[running.pk, 1])).status_code == 200
    step = client.get(reverse("games:replay_step", args=[running.pk, 1, 1])).json()
    assert step["step"] == 1 and step["table"]["view"]["viewer"] == "teacher"
    assert step["steps"] == table.log.count()
    assert client.get(reverse("games:replay_step", args=[running.pk, 1, 999])).status_code == 404
    assert client_of(mr_okafor).get(reverse("games:results", args=[running.pk])).status_code == 404


@pytest.mark.parametrize("game", ["lineup", "wordup", "faces", "lineit", "mindlines"])
@pytest.mark.parametrize("page", ["how_to_play", "guide", "rules"])
def test_every_game_has_its_help_pages(client, game, page):
    assert client.get(reverse(f"games:game_{page}", args=[game])).status_code == 200


def test_an_unknown_game_has_no_pages(client):
    assert client.get(reverse("games:game_rules", args=["chess"])).status_code == 404


def test_the_replay_step_is_the_logged_table_exactly(client_of, ms_rivera, running):
    table = running.tables.get()
    last = table.log.count()
    step = client_of(ms_rivera).get(reverse("games:replay_step", args=[running.pk, 1, last])).json()
    assert json.dumps(step["table"]["view"], sort_keys=True) == json.dumps(
        __import__("games.selectors").selectors.table_view(table, {"role": "teacher"})["view"], sort_keys=True
    )


def test_the_console_names_settings_as_the_teacher_chose_them(client_of, ms_rivera, session):
    page = client_of(ms_rivera).get(reverse("games:console", args=[session.pk])).content.decode()
    assert "Seconds to answer" in page and "answer_seconds" not in page
    assert "Standard" in page  # the board's name, not its key


def test_a_replay_step_sends_no_raw_events(client_of, ms_rivera, running):
    step = client_of(ms_rivera).get(reverse("games:replay_step", args=[running.pk, 1, 1])).json()
    assert "events" not in step


def test_line_up_guess_who_warns_before_move_on_because_it_can_decide_the_match(
    client_of, ms_rivera, class_7b, ava
):
    faces = services.session_schedule(
        classroom=class_7b, by=ms_rivera, game="faces", scheduled_for=timezone.now() + timedelta(hours=1)
    )
    page = client_of(ms_rivera).get(reverse("games:console", args=[faces.pk])).content.decode()
    assert 'data-advance-confirm="Between rounds this starts the next round.' in page


def test_a_class_page_lists_that_class_games_only(client_of, ms_rivera, session, class_7b, riverside):
    from tests.factories import ClassroomFactory

    other_class = ClassroomFactory(school=riverside, name="8C Maths", teachers=[ms_rivera])
    other = services.session_schedule(
        classroom=other_class, by=ms_rivera, game="lineit", scheduled_for=timezone.now() + timedelta(hours=3)
    )
    detail = client_of(ms_rivera).get(reverse("classroom_detail", args=[class_7b.pk])).content.decode()
    assert reverse("games:console", args=[session.pk]) in detail
    assert reverse("games:console", args=[other.pk]) not in detail
    assert f"?classroom={class_7b.pk}" in detail  # "Schedule a game" starts with this class chosen
    dashboard = client_of(ms_rivera).get(reverse("dashboard")).content.decode()
    assert reverse("games:console", args=[other.pk]) in dashboard and "8C Maths" in dashboard


def test_starting_with_nobody_in_the_lobby_stays_on_the_console_with_a_message(client_of, ms_rivera, session):
    services.session_open_lobby(session=session, by=ms_rivera)
    client = client_of(ms_rivera)
    console = reverse("games:console", args=[session.pk])
    refusal = "Nobody has joined yet: wait for your students to join, then start the game."
    response = client.post(reverse("games:control", args=[session.pk, "start"]))
    assert response.status_code == 302 and response["Location"] == console
    assert refusal in client.get(console).content.decode()
    # The console's script asks for JSON and shows the same words in its message line.
    response = client.post(
        reverse("games:control", args=[session.pk, "start"]), HTTP_ACCEPT="application/json"
    )
    assert response.json() == {"ok": False, "message": refusal}
    session.refresh_from_db()
    assert session.status == GameSession.Status.LOBBY
