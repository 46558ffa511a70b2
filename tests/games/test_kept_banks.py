"""A school's Word Up bank is read once per process while it stays the same (every homework attempt at
an evening's assignment starts from it), and every change a school can make is seen by the next game."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.definitions import wordup
from questions import services as bank_services
from questions.models import WordUpQuestion
from questions.vocabulary import parse_vocabulary

pytestmark = pytest.mark.django_db

OWN = {"level": 3, "category": "crossword", "prompt": "A long yellow fruit.", "answers": ["banana"]}


@pytest.fixture
def session(class_7b, ms_rivera):
    bank_services.shipped_banks_load()
    return services.session_schedule(
        classroom=class_7b, by=ms_rivera, game="wordup", scheduled_for=timezone.now() + timedelta(hours=1)
    )


def ids(bank, level=3, category="crossword"):
    return [question["id"] for question in bank[str(level)][category]]


def test_the_bank_is_read_once_while_it_is_unchanged(session, django_assert_max_num_queries):
    first = wordup.school_bank(session)
    with django_assert_max_num_queries(3):  # its version only, not the bank
        assert wordup.school_bank(session) is first


def test_a_new_question_an_edit_and_a_deletion_are_seen_at_once(session, riverside, ms_rivera):
    before = wordup.school_bank(session)
    own = bank_services.item_create(kind="wordup", school=riverside, author=ms_rivera, data=OWN)
    added = wordup.school_bank(session)
    assert added is not before and own.key in ids(added) and own.key not in ids(before)

    bank_services.item_update(item=own, by=ms_rivera, data={**OWN, "prompt": "A curved yellow fruit."})
    edited = wordup.school_bank(session)
    prompts = {q["id"]: q["prompt"] for q in edited["3"]["crossword"]}
    assert prompts[own.key] == "A curved yellow fruit."

    bank_services.item_delete(item=own, by=ms_rivera)
    assert own.key not in ids(wordup.school_bank(session))


def test_a_retired_question_leaves_and_comes_back(session, riverside, ms_rivera):
    shipped = WordUpQuestion.objects.filter(school=None, level=3, category="crossword").first()
    assert shipped.key in ids(wordup.school_bank(session))
    review = {"school": riverside, "kind": "wordup", "key": shipped.key, "by": ms_rivera}
    bank_services.item_review_set(**review, status="retired")
    assert shipped.key not in ids(wordup.school_bank(session))
    bank_services.item_review_set(**review, status=None)
    assert shipped.key in ids(wordup.school_bank(session))


def test_a_vocabulary_list_read_again_when_its_words_change(session, riverside, ms_rivera):
    words = "volcano\tA mountain that can throw out hot melted rock\tThe volcano erupted last year.\n"
    more = words + "glacier\tA huge river of ice that moves very slowly\n"
    entries = [row.entry() for row in parse_vocabulary(words.encode())]
    vocabulary = bank_services.vocabulary_list_save(
        school=riverside, author=ms_rivera, name="Landforms", entries=entries
    )
    session.settings = {**session.settings, "vocabulary": vocabulary.pk}
    assert len(ids(wordup.school_bank(session))) == 1
    entries = [row.entry() for row in parse_vocabulary(more.encode())]
    bank_services.vocabulary_list_save(
        school=riverside, author=ms_rivera, name="Landforms", entries=entries, replacing=vocabulary
    )
    assert len(ids(wordup.school_bank(session))) == 2


def test_another_school_keeps_its_own_bank(session, class_9a, mr_okafor, riverside, ms_rivera):
    theirs = services.session_schedule(
        classroom=class_9a, by=mr_okafor, game="wordup", scheduled_for=timezone.now() + timedelta(hours=1)
    )
    own = bank_services.item_create(kind="wordup", school=riverside, author=ms_rivera, data=OWN)
    assert own.key in ids(wordup.school_bank(session))
    assert own.key not in ids(wordup.school_bank(theirs))
