"""Erasure keeps anonymous class counts, the export holds everything, the retention purge."""

import datetime as dt
import json

import pytest
from django.urls import reverse
from django.utils import timezone

from reports import services
from reports.build import classrooms_build
from reports.models import (
    ClassItemStat,
    ClassReport,
    ClassSessionStat,
    ClassWrongAnswer,
    DataErasure,
    LearningFact,
    SkillSummary,
    StudentReport,
    StudentSessionStat,
)

pytestmark = pytest.mark.django_db


def test_erasure_removes_facts_and_reports_and_keeps_anonymous_class_counts(
    word_up_week, class_7b, dr_patel, ava, ben, django_capture_on_commit_callbacks
):
    classrooms_build([class_7b.pk])
    before = ClassReport.objects.get(classroom=class_7b).data
    wrong = LearningFact.objects.filter(correct=False).exclude(response="")
    only_avas = set(wrong.filter(student=ava).values_list("response", flat=True)) - set(
        wrong.exclude(student=ava).values_list("response", flat=True)
    )
    with django_capture_on_commit_callbacks(execute=False):
        erasure = services.student_data_erase(student=ava, by=dr_patel)
    assert erasure.facts_removed == 6
    assert not LearningFact.objects.filter(student=ava).exists()
    for model in (StudentReport, StudentSessionStat, SkillSummary):
        assert not model.objects.filter(student=ava).exists(), model
    assert LearningFact.objects.filter(student=ben).count() == 3  # nobody else's

    classrooms_build([class_7b.pk])  # the class is rebuilt after an erasure
    after = ClassReport.objects.get(classroom=class_7b).data
    assert after["totals"] == before["totals"]  # 9 answers, 4 right: Ava's still counted, anonymously
    assert after["sessions"] == before["sessions"]
    # Her wrong answers' words go with her (they are her own words); everyone else's stay.
    words = lambda report: {row["answer"] for row in report["wrong"]}  # noqa: E731
    assert only_avas and words(after) == words(before) - only_avas
    assert not ClassWrongAnswer.objects.filter(archived=True).exists()
    assert ClassSessionStat.objects.filter(classroom=class_7b, frozen=True).count() == 2
    q1 = ClassItemStat.objects.filter(item_id="q1")
    assert sum(q1.values_list("answered", flat=True)) == 2 and q1.filter(archived=True).count() == 1
    # and the erased student's sessions are not rebuilt from their participation records
    assert not StudentSessionStat.objects.filter(student=ava).exists()
    assert StudentReport.objects.get(student=ava, classroom=class_7b).answered == 0


def test_the_admin_erases_from_the_page_after_typing_the_name(
    word_up_week, class_7b, client_of, dr_patel, ava
):
    url = reverse("reports:student_data", args=[ava.pk])
    client = client_of(dr_patel)
    assert client.post(url, {"confirm": "Ben K."}).status_code == 400
    assert LearningFact.objects.filter(student=ava).exists()
    response = client.post(url, {"confirm": "ava m."})
    assert response.status_code == 302
    assert not LearningFact.objects.filter(student=ava).exists()
    assert DataErasure.objects.get(student=ava).erased_by == dr_patel


def test_the_export_holds_the_students_answers_reports_and_levels(
    word_up_week, class_7b, client_of, dr_patel, ava
):
    classrooms_build([class_7b.pk])
    response = client_of(dr_patel).get(reverse("reports:student_data_export", args=[ava.pk]))
    assert response["Content-Disposition"].startswith('attachment; filename="ava-m-data-')
    document = json.loads(response.content)
    assert document["student"]["given_name"] == "Ava"
    assert len(document["answers"]) == 6
    assert {answer["response"] for answer in document["answers"]} >= {"freind", "cat"}
    assert document["reports"][0]["class"] == "7B English"
    assert [s["skill"] for s in document["skills"]] == ["english_vocabulary", "numeracy"]
    assert "Ben" not in response.content.decode()


def test_the_retention_purge_erases_old_facts_only(
    word_up_week, class_7b, ava, settings, django_capture_on_commit_callbacks
):
    classrooms_build([class_7b.pk])
    first, second = word_up_week
    settings.REPORT_RETENTION_DAYS = 30
    now = second.ended_at + dt.timedelta(days=29, hours=12)  # day 1 is past the limit, day 3 is not
    with django_capture_on_commit_callbacks(execute=False):
        removed = services.facts_purge_expired(now=now)
    assert removed == 7  # Ava's 4 and Ben's 3 of the first session
    assert set(LearningFact.objects.values_list("session", flat=True)) == {second.pk}
    assert ClassSessionStat.objects.get(session=first).frozen
    classrooms_build([class_7b.pk])
    assert ClassReport.objects.get(classroom=class_7b).data["totals"]["answered"] == 9


def test_retention_zero_keeps_everything(word_up_week, settings):
    settings.REPORT_RETENTION_DAYS = 0
    assert services.facts_purge_expired(now=timezone.now() + dt.timedelta(days=3650)) == 0
    assert LearningFact.objects.count() == 9


def _played_word_up(classroom, teacher, students):
    """A Word Up session played through the runtime by these students (their moves in the table's log,
    their facts recorded from it), then ended by the teacher."""
    from games import services as games
    from games.definitions import get_engine
    from games.engine import core
    from tests.factories import play_through_runtime, recorded_facts, started_session

    session = started_session(classroom, teacher, students, "wordup", now=2_000_000.0)
    table = session.tables.get()
    # Until every student has a marked answer (marks come after the reveal).
    play_through_runtime(
        table,
        get_engine("wordup"),
        core.Rng("erasure"),
        2_000_000.0,
        300,
        until=lambda: (
            set(recorded_facts(table).values_list("student", flat=True)) >= {s.pk for s in students}
        ),
    )
    games.session_end(session=session, by=teacher)
    return session


def test_erasure_pseudonymises_the_games_records_and_nothing_comes_back_from_them(
    class_7b, ms_rivera, dr_patel, ava, ben, django_capture_on_commit_callbacks
):
    """What docs/reports.md says under Privacy: the games' own records of a session (the seats, the
    table's state and its action log, which replay the table for everyone at it) keep her seat and her
    moves under a pseudonym, without her name or her typed words; and no build reads facts back from
    them."""
    from games import services as games_services
    from games.models import GameTable, Participant, TableLogEntry

    with django_capture_on_commit_callbacks(execute=False):
        session = _played_word_up(class_7b, ms_rivera, [ava, ben])
    player = f"s{ava.pk}"
    assert LearningFact.objects.filter(student=ava).exists()
    assert TableLogEntry.objects.filter(table__session=session, player=player).exists()

    def games_records():
        return (
            list(
                TableLogEntry.objects.filter(table__session=session).values_list(
                    "seq", "player", "action", "events"
                )
            ),
            list(GameTable.objects.filter(session=session).values_list("config", "state", "outcome")),
            list(Participant.objects.filter(session=session).values_list("student", "player_id", "status")),
        )

    before = games_records()
    classrooms_build([class_7b.pk])
    with django_capture_on_commit_callbacks(execute=False):
        services.student_data_erase(student=ava, by=dr_patel)
    after = games_records()
    assert after[2] == before[2]  # her seat
    assert [entry[:2] for entry in after[0]] == [entry[:2] for entry in before[0]]  # her moves, in order
    assert ava.display_name in str(before[1]) and ava.display_name not in str(after)
    assert "Student " in str(after[1])

    # The facts workers derive from the log (a move's task arriving late, the session's wrap-up) leave
    # out what was erased.
    games_services.table_facts_record(table_id=session.tables.get().pk)
    games_services.session_wrap_up(session_id=session.pk)
    assert not LearningFact.objects.filter(student=ava).exists()
    classrooms_build([class_7b.pk])  # a rebuild after the erasure
    assert not LearningFact.objects.filter(student=ava).exists()
    assert not StudentSessionStat.objects.filter(student=ava).exists()  # her seat is not counted again
    assert not SkillSummary.objects.filter(student=ava, answered__gt=0).exists()
    report = StudentReport.objects.get(student=ava, classroom=class_7b)
    assert (report.answered, report.sessions_played) == (0, 0)
    assert StudentSessionStat.objects.filter(student=ben, session=session).exists()  # nobody else's
