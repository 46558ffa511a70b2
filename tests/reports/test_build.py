"""The build against hand-computed figures (the fixture ``word_up_week`` is in conftest.py)."""

import pytest

from reports.build import classrooms_build
from reports.models import (
    ClassItemStat,
    ClassReport,
    ClassSessionStat,
    ClassWrongAnswer,
    SkillSummary,
    StudentReport,
    StudentSessionStat,
)

pytestmark = pytest.mark.django_db


def test_student_figures_match_the_hand_computed_ones(word_up_week, class_7b, ava, ben):
    classrooms_build([class_7b.pk])
    report = StudentReport.objects.get(student=ava, classroom=class_7b)
    assert (report.answered, report.correct) == (6, 4)
    assert report.accuracy == pytest.approx(4 / 6, abs=1e-4)
    totals = report.data["totals"]
    assert totals["mean_time"] == pytest.approx((4 + 6 + 10 + 12 + 3 + 3) / 6, abs=0.01)
    assert (totals["sessions_played"], totals["sessions_held"], totals["participation"]) == (2, 2, 1.0)
    by_category = {row["category"]: (row["correct"], row["answered"]) for row in report.data["categories"]}
    assert by_category == {"missing_word": (1, 2), "spelling": (1, 2), "crossword": (2, 2)}
    class_missing = next(r for r in report.data["categories"] if r["category"] == "missing_word")
    assert class_missing["class_accuracy"] == pytest.approx(1 / 4)  # Ava 1 of 2, Ben 0 of 2
    assert [(p["correct"], p["answered"]) for p in report.data["trend"]] == [(2, 4), (2, 2)]
    assert report.data["levels"] == [
        {"skill": "english_vocabulary", "level": 3, "answered": 6, "correct": 4, "accuracy": 0.6667}
    ]

    vocabulary = SkillSummary.objects.get(student=ava, skill="english_vocabulary")
    assert (vocabulary.answered, vocabulary.correct, vocabulary.sessions) == (6, 4, 2)
    assert vocabulary.evidence == {"3": [4, 6]} and vocabulary.evidence_answers == 6
    assert vocabulary.recommended_level is None  # fewer than 8 answers: no recommendation yet

    ben_report = StudentReport.objects.get(student=ben, classroom=class_7b)
    assert (ben_report.answered, ben_report.correct, ben_report.sessions_played) == (3, 0, 2)
    # Ben's second session: present, no answers.
    assert StudentSessionStat.objects.get(student=ben, session=word_up_week[1]).answered == 0


def test_class_figures(word_up_week, class_7b):
    first, second = word_up_week
    classrooms_build([class_7b.pk])
    stat = ClassSessionStat.objects.get(session=first)
    assert (stat.participants, stat.answered, stat.correct) == (2, 7, 2)
    assert ClassSessionStat.objects.get(session=second).participants == 2
    q2 = ClassItemStat.objects.get(item_id="q2")
    assert (q2.answered, q2.correct) == (2, 0)
    # "cat" and "Cat" are one wrong answer, given twice.
    assert list(ClassWrongAnswer.objects.filter(item_id="q2").values_list("answer", "count")) == [("Cat", 2)]
    data = ClassReport.objects.get(classroom=class_7b).data
    # The share right is per skill, never one across the class's skills.
    assert data["totals"] == {
        "sessions": 2,
        "answered": 9,
        "correct": 4,
        "skills": {"english_vocabulary": {"answered": 9, "correct": 4, "accuracy": 0.4444}},
    }
    hardest = [(row["item_id"], row["correct"], row["answered"]) for row in data["hardest"]]
    assert hardest == []  # no question was answered three times yet
    assert data["wrong"][0]["answer"] == "Cat" and data["wrong"][0]["times"] == 2


def test_a_rebuild_writes_the_same_rows(word_up_week, class_7b):
    def rows(model, *fields):
        return sorted(model.objects.values_list(*fields))

    def snapshot():
        return {
            "sessions": rows(StudentSessionStat, "student", "session", "answered", "correct"),
            "class": rows(ClassSessionStat, "session", "participants", "answered", "correct"),
            "items": rows(ClassItemStat, "item_id", "answered", "correct", "archived"),
            "wrong": rows(ClassWrongAnswer, "item_id", "answer", "count", "archived"),
            "reports": sorted((r.student_id, r.classroom_id, r.data) for r in StudentReport.objects.all()),
            "skills": rows(SkillSummary, "student", "skill", "answered", "recommended_level", "confidence"),
            "class_report": list(ClassReport.objects.values_list("classroom", "data")),
        }

    classrooms_build([class_7b.pk])
    first = snapshot()
    classrooms_build([class_7b.pk])
    assert snapshot() == first
    classrooms_build([class_7b.pk], session_ids=[word_up_week[0].pk])
    assert snapshot() == first
