"""Mind the Lines' sessions count its own marks (drawings judged and decoy hunts made), never "0
answers"; a question the student let run out of time is "no answer", counted apart and never as a wrong
answer (Word Up's answer clock, a decoy hunt the turn clock decided)."""

import csv
import io

import pytest
from django.urls import reverse

from reports import catalog
from reports.build import classrooms_build
from reports.models import ClassSessionStat, LearningFact, SkillSummary, StudentReport, StudentSessionStat
from reports.selectors import item_analysis

from .conftest import fact, finished_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def timed_out(class_7b, ms_rivera, ava, ben):
    words = finished_session(class_7b, day=1, by=ms_rivera, students=[ava, ben])
    fact(ava, words, category="spelling", correct=True, item="q1", response="river")
    fact(ava, words, category="spelling", correct=False, item="q2", response="frend")
    # The answer clock ran out: the engine marks the question wrong with no response.
    fact(ava, words, category="spelling", correct=False, item="q3", response=None)
    drawing = finished_session(class_7b, "mindlines", day=2, by=ms_rivera, students=[ava, ben])
    fact(ava, drawing, category="drawing", correct=True, item="c1", response={"strokes": []})
    fact(ben, drawing, category="drawing", correct=False, item="c2", response={"strokes": []})
    fact(ben, drawing, category="exclusion", correct=True, item="c3", response="a ladder")
    # A decoy hunt the turn clock decided: no response, neither right nor wrong.
    fact(ava, drawing, category="exclusion", correct=None, item="c2", response=None)
    classrooms_build([class_7b.pk])
    return words, drawing


def test_a_mind_the_lines_session_counts_its_own_marks(timed_out, class_7b, client_of, ms_rivera):
    _words, drawing = timed_out
    stat = ClassSessionStat.objects.get(session=drawing)
    assert (stat.answered, stat.measured, stat.measured_right, stat.no_answer) == (0, 3, 2, 1)
    response = client_of(ms_rivera).get(reverse("reports:class", args=[class_7b.pk]))
    shown = next(s for s in response.context["sessions"] if s["game"] == "mindlines")
    assert (shown["answers_shown"], shown["right_shown"], shown["no_answer"]) == (3, "2 of 3", 1)
    # Not added into English vocabulary's share right.
    totals = response.context["data"]["totals"]["skills"]["english_vocabulary"]
    assert (totals["answered"], totals["correct"]) == (2, 1)


def test_a_timeout_is_no_answer_not_a_wrong_one(timed_out, class_7b, ava, client_of, ms_rivera):
    words, _drawing = timed_out
    stat = StudentSessionStat.objects.get(student=ava, session=words)
    assert (stat.answered, stat.correct, stat.no_answer) == (2, 1, 1)
    report = StudentReport.objects.get(student=ava, classroom=class_7b)
    assert (report.answered, report.correct, report.data["totals"]["no_answer"]) == (2, 1, 2)
    assert report.data["trend"][0]["no_answer"] == 1
    assert not LearningFact.objects.filter(catalog.level_evidence_q(), item_id="q3").exists()
    assert SkillSummary.objects.get(student=ava, skill="english_vocabulary").evidence_answers == 2
    assert "q3" not in {row["item_id"] for row in item_analysis(class_7b)}
    page = client_of(ms_rivera).get(reverse("reports:student", args=[class_7b.pk, ava.pk])).content.decode()
    assert "questions with no answer (time ran out), not counted as wrong" in page


def _csv(response) -> list[dict]:
    return list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig"))))


def test_the_exports_say_no_answer(timed_out, class_7b, client_of, ms_rivera):
    client = client_of(ms_rivera)
    answers = _csv(client.get(reverse("reports:class_answers_csv", args=[class_7b.pk])))
    q3 = next(row for row in answers if row["item_id"] == "q3")
    assert (q3["correct"], q3["no_answer"]) == ("", "yes")
    assert {
        row["no_answer"] for row in answers if row["item_id"] != "q3" and row["category"] != "exclusion"
    } == {"no"}
    sessions = _csv(client.get(reverse("reports:class_sessions_csv", args=[class_7b.pk])))
    assert [(row["game"], row["answered"], row["no_answer"], row["game_marks"]) for row in sessions] == [
        ("wordup", "2", "1", "0"),
        ("mindlines", "0", "1", "3"),
    ]
