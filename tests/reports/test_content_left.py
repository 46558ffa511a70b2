"""The content report: how many questions each class has not met yet, per game and subject."""

import pytest
from django.urls import reverse

from questions import services as bank_services
from questions.models import Concept, LineupQuestion, WordUpQuestion
from reports import selectors
from reports.models import LearningFact

pytestmark = pytest.mark.django_db


@pytest.fixture
def banks(db):
    bank_services.shipped_banks_load()


def fact(student, classroom, game, item_id, n):
    return LearningFact.objects.create(
        student=student, classroom=classroom, key=f"t:{game}:{n}", game=game, skill="x", item_id=item_id
    )


def cells_of(report, classroom):
    return next(row for row in report["rows"] if row["classroom"] == classroom)["cells"]


def test_each_class_has_its_own_count_of_questions_not_met(banks, class_7b, class_7c, ava):
    # A question counts once, whichever languages it comes in (Line Up!'s editions share its id).
    english = LineupQuestion.objects.filter(school=None, language="en")
    science = list(english.filter(subject="science").order_by("position")[:3])
    bank_services.questions_mark_used(class_7b, [q.key for q in science])
    level2 = list(WordUpQuestion.objects.filter(school=None, level=2).order_by("position")[:4])
    for n, question in enumerate([*level2, level2[0]]):  # met twice counts once
        fact(ava, class_7b, "wordup", question.key, n)
    fact(ava, class_7b, "wordup", "vocab9-1-crossword", 99)  # a vocabulary list's question: not the bank's
    easy = Concept.objects.filter(school=None, difficulty="easy").first()
    fact(ava, class_7b, "mindlines", easy.key, 100)

    lineup, wordup, mindlines = selectors.content_left([class_7b, class_7c])

    science_total = english.filter(subject="science").count()
    column = lineup["groups"].index("science")
    assert cells_of(lineup, class_7b)[column]["left"] == science_total - 3
    assert cells_of(lineup, class_7c)[column] == {
        "left": science_total,
        "total": science_total,
        "running_out": False,
    }
    level_total = WordUpQuestion.objects.filter(school=None, level=2).count()
    assert wordup["groups"] == [1, 2, 3, 4, 5]
    assert cells_of(wordup, class_7b)[1]["left"] == level_total - 4
    assert (
        cells_of(wordup, class_7b)[0]["left"] == WordUpQuestion.objects.filter(school=None, level=1).count()
    )
    assert mindlines["groups"] == ["easy", "hard"]
    assert (
        cells_of(mindlines, class_7b)[0]["left"]
        == Concept.objects.filter(school=None, difficulty="easy").count() - 1
    )


def test_a_subject_nearly_used_up_is_flagged(banks, class_7b):
    arts = list(LineupQuestion.objects.filter(school=None, subject="arts", language="en"))
    bank_services.questions_mark_used(class_7b, [q.key for q in arts[:-2]])
    lineup = selectors.content_left([class_7b])[0]
    cell = cells_of(lineup, class_7b)[lineup["groups"].index("arts")]
    assert cell == {"left": 2, "total": len(arts), "running_out": True}


def test_the_page_shows_the_teachers_classes_only(banks, client_of, ms_rivera, mr_okafor, class_7b, class_9a):
    page = client_of(ms_rivera).get(reverse("reports:content"))
    assert page.status_code == 200
    html = page.content.decode()
    assert "What is left to play" in html and class_7b.name in html and class_9a.name not in html
    assert "Art and music" in html and "Level 5" in html and "Hard" in html
    maths = LineupQuestion.objects.filter(school=None, subject="maths", language="en").count()
    assert f"{maths} of " in html
    assert reverse("reports:content") in client_of(ms_rivera).get(reverse("reports:index")).content.decode()
