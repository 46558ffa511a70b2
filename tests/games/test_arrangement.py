"""Before the start the teacher may propose tables and move students between them; the start honours
the plan, seats anyone left out, and refuses a table the game cannot play with, saying why."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import GameTable, Participant
from tests.factories import enrolled_student

pytestmark = pytest.mark.django_db


def _lobby(class_7b, teacher, game, count):
    session = services.session_schedule(
        classroom=class_7b, by=teacher, game=game, scheduled_for=timezone.now() + timedelta(hours=1)
    )
    services.session_open_lobby(session=session, by=teacher)
    students = [enrolled_student(class_7b, display_name=f"Student {n:02}") for n in range(count)]
    for student in students:
        services.session_join(session=session, student=student)
    session.refresh_from_db()
    return session, students


def test_proposed_tables_can_be_changed_and_the_start_keeps_them(class_7b, ms_rivera):
    session, _students = _lobby(class_7b, ms_rivera, "faces", 4)
    assert services.session_arrange(session=session, by=ms_rivera) == 2
    first, second = [list(session.participants.filter(planned_table=n)) for n in (1, 2)]
    assert len(first) == len(second) == 2
    # Swap one student each way: still two pairs, but different ones.
    services.participant_plan(participant=first[0], by=ms_rivera, table=2)
    services.participant_plan(participant=second[0], by=ms_rivera, table=1)
    services.session_start(session=session, by=ms_rivera)
    for participant in Participant.objects.filter(session=session):
        assert participant.table.number == participant.planned_table
    assert GameTable.objects.filter(session=session).count() == 2


def test_a_table_the_game_cannot_play_with_is_refused_with_the_reason(class_7b, ms_rivera):
    session, _students = _lobby(class_7b, ms_rivera, "faces", 4)
    services.session_arrange(session=session, by=ms_rivera)
    for participant in session.participants.filter(planned_table=2):
        services.participant_plan(participant=participant, by=ms_rivera, table=1)
    with pytest.raises(ValidationError, match="Table 1 has 4 players; this game needs 1 to 2"):
        services.session_start(session=session, by=ms_rivera)


def test_teams_are_planned_too_and_both_need_someone(class_7b, ms_rivera):
    session, students = _lobby(class_7b, ms_rivera, "lineup", 4)
    services.session_arrange(session=session, by=ms_rivera)
    for participant in session.participants.all():
        services.participant_plan(participant=participant, by=ms_rivera, table=1)
    with pytest.raises(ValidationError, match="each team"):
        services.session_start(session=session, by=ms_rivera)
    mover = session.participants.get(student=students[0])
    services.participant_plan(participant=mover, by=ms_rivera, table=2)
    services.session_start(session=session, by=ms_rivera)
    state = GameTable.objects.get(session=session).state
    assert state["teams"]["yellow"]["members"] == [f"s{students[0].pk}"]


def test_a_student_left_out_of_the_plan_joins_the_smallest_table(class_7b, ms_rivera):
    session, _students = _lobby(class_7b, ms_rivera, "wordup", 5)
    services.session_arrange(session=session, by=ms_rivera)
    late = enrolled_student(class_7b, display_name="Zed")
    services.session_join(session=session, student=late)
    services.session_start(session=session, by=ms_rivera)
    assert Participant.objects.get(student=late).table is not None


def test_the_console_moves_a_student_by_post(client_of, class_7b, ms_rivera):
    session, _students = _lobby(class_7b, ms_rivera, "faces", 4)
    client = client_of(ms_rivera)
    client.post(reverse("games:control", args=[session.pk, "arrange"]), HTTP_ACCEPT="application/json")
    participant = session.participants.filter(planned_table=1).first()
    url = reverse("games:participant_control", args=[session.pk, participant.pk, "plan"])
    assert client.post(url, {"table": 2}, HTTP_ACCEPT="application/json").json()["ok"]
    participant.refresh_from_db()
    assert participant.planned_table == 2
    refused = client.post(url, {"table": 99}, HTTP_ACCEPT="application/json")
    assert refused.status_code == 400 and "no table 99" in refused.json()["message"]


def test_the_console_snapshot_carries_the_plan_and_levels_in_the_lobby(class_7b, ms_rivera):
    from classrooms.models import StudentLevel
    from games.selectors import session_snapshot

    session, students = _lobby(class_7b, ms_rivera, "wordup", 3)
    StudentLevel.objects.update_or_create(
        student=students[0], skill="english_vocabulary", defaults={"level": 4}
    )
    services.session_arrange(session=session, by=ms_rivera)
    people = session_snapshot(session.pk).summary["participants"]
    assert all(p["planned_table"] == 1 for p in people)
    assert {p["name"]: p["level"] for p in people}["Student 00"] == 4
