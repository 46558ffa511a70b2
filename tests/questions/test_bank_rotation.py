"""A class does not see a Line Up! question again until the filtered bank is used up."""

from datetime import timedelta

import pytest
from django.utils import timezone

from questions import services
from questions.models import QuestionUse
from questions.selectors import lineup_questions_for, lineup_subjects_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def bank(db):
    services.shipped_banks_load()


def keys(questions):
    return [q.key for q in questions]


def test_the_filters_narrow_the_bank(bank, class_7b):
    questions = lineup_questions_for(class_7b, subjects=["maths", "science"], levels=[1, 2])
    assert questions
    assert {(q.subject in ("maths", "science"), q.level in (1, 2)) for q in questions} == {(True, True)}
    assert set(lineup_subjects_for(class_7b.school)) == {
        "arts",
        "body",
        "geography",
        "history",
        "language",
        "maths",
        "science",
        "sport",
        "technology",
    }


def test_questions_shown_go_to_the_back_until_the_bank_is_used_up(bank, class_7b, class_9a):
    start = timezone.now()
    filtered = keys(lineup_questions_for(class_7b, ["maths"], [1]))
    total = len(filtered)
    assert total >= 3

    # A first game shows two questions.
    services.questions_mark_used(class_7b, filtered[:2], now=start)
    after_one = keys(lineup_questions_for(class_7b, ["maths"], [1]))
    assert after_one[: total - 2] == filtered[2:]  # the unseen ones first
    assert after_one[total - 2 :] == filtered[:2]  # the seen ones last
    assert keys(lineup_questions_for(class_7b, ["maths"], [1], limit=total - 2)) == filtered[2:]

    # Another class is not affected.
    assert keys(lineup_questions_for(class_9a, ["maths"], [1])) == filtered

    # The rest of the bank is shown: every question has been seen, the oldest come round first.
    services.questions_mark_used(class_7b, filtered[2:], now=start + timedelta(minutes=1))
    assert keys(lineup_questions_for(class_7b, ["maths"], [1])) == filtered

    # Seeing the first one again sends it to the back of the new round.
    services.questions_mark_used(class_7b, filtered[:1], now=start + timedelta(minutes=2))
    assert keys(lineup_questions_for(class_7b, ["maths"], [1]))[-1] == filtered[0]
    use = QuestionUse.objects.get(classroom=class_7b, question__key=filtered[0], question__language="en")
    assert use.times_used == 2 and use.first_used_at == start


def test_a_school_s_own_questions_are_in_its_classes_bank_only(
    bank, class_7b, class_9a, ms_rivera, riverside
):
    own = services.item_create(
        kind="lineup",
        school=riverside,
        author=ms_rivera,
        data={**_question(), "id": "riverside-legs", "subject": "science", "level": 1},
    )
    assert own.key in keys(lineup_questions_for(class_7b, ["science"], [1]))
    assert own.key not in keys(lineup_questions_for(class_9a, ["science"], [1]))
    # Hillside cannot mark Riverside's question as used.
    assert services.questions_mark_used(class_9a, [own.key]) == 0


def test_unknown_ids_are_ignored(bank, class_7b):
    assert services.questions_mark_used(class_7b, ["no-such-question"]) == 0
    assert services.questions_mark_used(class_7b, []) == 0
    assert not QuestionUse.objects.exists()


def _question():
    return {
        "heading": "How many legs?",
        "order_label": "Fewest first",
        "direction": "asc",
        "items": [
            {"text": "Spider", "value": 8, "display": "8 legs"},
            {"text": "Snake", "value": 0, "display": "0 legs"},
            {"text": "Ant", "value": 6, "display": "6 legs"},
            {"text": "Dog", "value": 4, "display": "4 legs"},
            {"text": "Chicken", "value": 2, "display": "2 legs"},
        ],
        "answer": [2, 5, 4, 3, 1],
        "explanation": "Insects have six legs.",
        "source": "Britannica",
        "tags": [],
    }
