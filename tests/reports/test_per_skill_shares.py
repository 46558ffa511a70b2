"""A share right is only ever taken within one skill (docs/reports.md): the school review, the class's
figures (the page's and the PDF's data) and a student's form and attention are per skill, so a class or
student who plays an easy game and a hard one is never summed into one misleading percentage."""

import pytest
from django.urls import reverse

from reports import selectors
from reports.build import classrooms_build
from reports.models import ClassReport, StudentReport

from .conftest import fact, finished_session

pytestmark = pytest.mark.django_db

TERM = {"start": "2026-03-01", "end": "2026-03-31"}


def _session(classroom, game, day, student, right, answers=10, by=None):
    session = finished_session(classroom, game, day=day, by=by, students=[student])
    category = "comparison" if game == "lineit" else "spelling"
    for index in range(answers):
        fact(student, session, category=category, correct=index < right, item=f"{game}{day}-{index}")
    return session


@pytest.fixture
def easy_words_then_hard_numbers(class_7b, ms_rivera, ava):
    """Ava: every word right in the first half of March, 2 of 10 numbers right in the second: her share
    right across both skills "falls" from 100% to 20%, but neither skill's does."""
    for day in range(1, 6):
        _session(class_7b, "wordup", day, ava, right=10, by=ms_rivera)
    for day in range(20, 25):
        _session(class_7b, "lineit", day, ava, right=2, by=ms_rivera)
    classrooms_build([class_7b.pk])
    return class_7b


def test_the_school_review_shows_each_skills_share_never_one_across_them(
    easy_words_then_hard_numbers, client_of, dr_patel
):
    response = client_of(dr_patel).get(reverse("reports:school"), TERM)
    row = next(row for row in response.context["review"]["classes"] if row["classroom"].name == "7B English")
    assert "accuracy" not in row
    assert row["skills"] == {"english_vocabulary": (50, 50), "numeracy": (10, 50)}
    page = response.content.decode()
    assert "Right in English vocabulary" in page and "Right in Numeracy" in page
    assert "100% (50/50)" in page and "20% (10/50)" in page
    assert "60%" not in page  # 60 of 100 across the two skills
    assert "Weekly participation of 7B English" in page
    # No skill fell: Ava is not on the attention list for "accuracy falling".
    assert all("falling" not in item["reasons"] for item in response.context["review"]["attention"])


def test_a_fall_within_one_skill_is_named_with_its_skill(class_7b, ms_rivera, ava, client_of, dr_patel):
    for day in range(1, 3):
        _session(class_7b, "wordup", day, ava, right=9, by=ms_rivera)
    for day in range(20, 22):
        _session(class_7b, "wordup", day, ava, right=4, by=ms_rivera)
    classrooms_build([class_7b.pk])
    response = client_of(dr_patel).get(reverse("reports:school"), TERM)
    (item,) = response.context["review"]["attention"]
    assert item["reasons"] == ["falling"]
    assert 'English vocabulary: 90% <span class="flip-rtl">→</span> 40%' in response.content.decode()


def test_the_class_figures_have_no_share_across_skills(easy_words_then_hard_numbers):
    totals = selectors.class_report(easy_words_then_hard_numbers)["data"]["totals"]
    assert "accuracy" not in totals
    assert totals["skills"] == {
        "english_vocabulary": {"answered": 50, "correct": 50, "accuracy": 1.0},
        "numeracy": {"answered": 50, "correct": 10, "accuracy": 0.2},
    }
    # A report built before: its share across skills is left out of what the page and the PDF get.
    report = ClassReport.objects.get(classroom=easy_words_then_hard_numbers)
    report.data["totals"] = {"sessions": 10, "answered": 100, "correct": 60, "accuracy": 0.6}
    report.save()
    totals = selectors.class_report(easy_words_then_hard_numbers)["data"]["totals"]
    assert "accuracy" not in totals


def test_a_students_form_is_compared_within_each_skill(
    easy_words_then_hard_numbers, ava, client_of, ms_rivera
):
    report = StudentReport.objects.get(student=ava, classroom=easy_words_then_hard_numbers)
    assert "falling" not in report.data["attention"]
    assert not [note for note in report.data["notes"] if note["kind"] in ("rising", "falling")]
    page = client_of(ms_rivera).get(
        reverse("reports:student", args=[easy_words_then_hard_numbers.pk, ava.pk])
    )
    assert "Slipping" not in page.content.decode()


def test_slipping_in_one_skill_is_said_with_the_skill(class_7b, ms_rivera, ava, client_of):
    for day in range(1, 11):
        _session(class_7b, "wordup", day, ava, right=9 if day <= 5 else 5, by=ms_rivera)
    classrooms_build([class_7b.pk])
    report = StudentReport.objects.get(student=ava, classroom=class_7b)
    assert "falling" in report.data["attention"]
    page = client_of(ms_rivera).get(reverse("reports:student", args=[class_7b.pk, ava.pk])).content.decode()
    assert "Slipping in English vocabulary: 50% right in the last five sessions of it, down from 90%." in page
