"""From the item analysis a teacher flags a question for a look or retires it: the school's games stop
asking a retired question until someone puts it back; another school's bank is untouched."""

import pytest
from django.urls import reverse

from questions import selectors as bank
from questions import services as bank_services
from questions.models import ItemReview, LineupQuestion, WordUpQuestion
from reports.models import LearningFact

pytestmark = pytest.mark.django_db


@pytest.fixture
def answered(db, class_7b, ava, ben):
    bank_services.shipped_banks_load()
    question = WordUpQuestion.objects.filter(school=None, level=3).first()
    for n, (student, right) in enumerate([(ava, True), (ben, False)]):
        LearningFact.objects.create(
            student=student, classroom=class_7b, key=f"t:{n}", game="wordup", skill="english_vocabulary",
            category=question.category, level=3, correct=right, item_id=question.key, response="x",
        )  # fmt: skip
    return question


def review(client, classroom, question, action, game="wordup"):
    return client.post(
        reverse("reports:class_item_review", args=[classroom.pk]),
        {"game": game, "item_id": question.key, "action": action},
        follow=True,
    )


def in_bank(question, school):
    levels = bank.wordup_bank_for(school)[str(question.level)][question.category]
    return any(q["id"] == question.key for q in levels)


def test_a_retired_word_up_question_is_no_longer_asked_until_put_back(
    client_of, ms_rivera, class_7b, answered
):
    client = client_of(ms_rivera)
    page = client.get(reverse("reports:class_items", args=[class_7b.pk])).content.decode()
    assert 'value="retire"' in page and 'value="flag"' in page

    response = review(client, class_7b, answered, "retire")
    assert "Question retired" in response.content.decode()
    assert ItemReview.objects.get().status == "retired"
    assert not in_bank(answered, class_7b.school_id)
    assert "Retired" in response.content.decode() and 'value="restore"' in response.content.decode()

    review(client, class_7b, answered, "restore")
    assert not ItemReview.objects.exists() and in_bank(answered, class_7b.school_id)


def test_a_flagged_question_stays_in_play(client_of, ms_rivera, class_7b, answered):
    response = review(client_of(ms_rivera), class_7b, answered, "flag")
    assert "Flagged for a look" in response.content.decode()
    assert in_bank(answered, class_7b.school_id)


def test_a_retired_line_up_question_leaves_the_rotation(client_of, ms_rivera, class_7b, answered):
    question = LineupQuestion.objects.filter(school=None).first()
    review(client_of(ms_rivera), class_7b, question, "retire", game="lineup")
    assert question.key not in [q.key for q in bank.lineup_questions_for(class_7b)]


def test_retiring_is_for_the_school_that_retired(client_of, ms_rivera, class_7b, class_9a, answered):
    review(client_of(ms_rivera), class_7b, answered, "retire")
    assert not in_bank(answered, class_7b.school_id)
    assert in_bank(answered, class_9a.school_id)


def test_nobody_reviews_another_schools_class_or_an_unknown_question(
    client_of, ms_rivera, mr_okafor, class_7b, answered
):
    outsider = client_of(mr_okafor)
    assert review(outsider, class_7b, answered, "retire").status_code == 404
    unknown = WordUpQuestion(key="no-such-question")
    response = review(client_of(ms_rivera), class_7b, unknown, "retire")
    assert "That question is not in your school" in response.content.decode()
    assert not ItemReview.objects.exists()
