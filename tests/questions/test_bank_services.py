"""Writing a school's own items and word lists: who may, and the rules each item must follow."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from questions import selectors, services
from questions.models import Concept, LineupQuestion, WordList, WordUpQuestion

pytestmark = pytest.mark.django_db

LEGS = {
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
    "level": 1,
    "subject": "science",
    "tags": ["animals"],
}


@pytest.fixture
def rivera_question(riverside, ms_rivera):
    return services.item_create(
        kind="lineup", school=riverside, author=ms_rivera, data={**LEGS, "id": "legs"}
    )


@pytest.fixture
def shipped_question(db):
    services.shipped_banks_load()
    return LineupQuestion.objects.filter(school=None).first()


def test_a_teacher_writes_an_item_with_a_new_id(riverside, ms_rivera):
    question = services.item_create(kind="lineup", school=riverside, author=ms_rivera, data=LEGS)
    assert question.key.startswith("lu-") and question.school == riverside and question.author == ms_rivera
    assert question.to_engine_dict() == {**LEGS, "id": question.key}


def test_text_is_trimmed_and_words_lower_cased(riverside, ms_rivera):
    question = services.item_create(
        kind="wordup",
        school=riverside,
        author=ms_rivera,
        data={
            "level": 2,
            "category": "crossword",
            "prompt": "  A   long yellow\tfruit. ",
            "answers": [" Banana "],
        },
    )
    assert question.prompt == "A long yellow fruit."
    assert (question.answers, question.letters, question.first_letter) == (["banana"], 6, "b")
    assert question.estimated_level == 1


def test_an_item_that_breaks_the_rules_is_refused_with_reasons(riverside, ms_rivera):
    with pytest.raises(ValidationError) as caught:
        services.item_create(
            kind="lineup", school=riverside, author=ms_rivera, data={**LEGS, "answer": [1, 2, 3, 4, 5]}
        )
    assert "not the stated answer" in str(caught.value.message_dict["answer"])
    with pytest.raises(ValidationError) as caught:
        services.item_create(
            kind="lineup", school=riverside, author=ms_rivera, data={**LEGS, "heading": "x" * 201}
        )
    assert "longer than 200" in str(caught.value.message_dict["heading"])
    assert not LineupQuestion.objects.exists()


def test_an_id_may_not_repeat_in_a_school_or_reuse_a_shipped_one(
    riverside, hillside, ms_rivera, mr_okafor, rivera_question, shipped_question
):
    with pytest.raises(ValidationError, match="already has"):
        services.item_create(kind="lineup", school=riverside, author=ms_rivera, data={**LEGS, "id": "legs"})
    with pytest.raises(ValidationError, match="shipped"):
        services.item_create(
            kind="lineup", school=riverside, author=ms_rivera, data={**LEGS, "id": shipped_question.key}
        )
    other = services.item_create(
        kind="lineup", school=hillside, author=mr_okafor, data={**LEGS, "id": "legs"}
    )
    assert other.key == rivera_question.key


def test_a_teacher_edits_her_own_item(ms_rivera, rivera_question):
    services.item_update(item=rivera_question, by=ms_rivera, data={**LEGS, "heading": "Legs!"})
    rivera_question.refresh_from_db()
    assert rivera_question.heading == "Legs!" and rivera_question.key == "legs"


def test_the_school_admin_edits_a_teachers_item(dr_patel, rivera_question):
    services.item_update(item=rivera_question, by=dr_patel, data={**LEGS, "heading": "Checked"})
    assert LineupQuestion.objects.get(pk=rivera_question.pk).heading == "Checked"


def test_a_colleague_cannot_edit_or_delete_it(mr_moss, rivera_question):
    with pytest.raises(PermissionDenied):
        services.item_update(item=rivera_question, by=mr_moss, data=LEGS)
    with pytest.raises(PermissionDenied):
        services.item_delete(item=rivera_question, by=mr_moss)


def test_another_school_cannot_edit_it_even_as_admin(mrs_lindqvist, mr_okafor, rivera_question):
    for person in (mrs_lindqvist, mr_okafor):
        assert not selectors.can_edit_item(person, rivera_question)
        with pytest.raises(PermissionDenied):
            services.item_update(item=rivera_question, by=person, data=LEGS)
        assert selectors.item_for_user("lineup", person, rivera_question.pk) is None


def test_nobody_edits_a_shipped_item(ms_rivera, dr_patel, shipped_question):
    for person in (ms_rivera, dr_patel):
        assert selectors.item_for_user("lineup", person, shipped_question.pk) == shipped_question
        with pytest.raises(PermissionDenied):
            services.item_update(item=shipped_question, by=person, data=LEGS)
        with pytest.raises(PermissionDenied):
            services.item_delete(item=shipped_question, by=person)


def test_a_teacher_deletes_her_own_item(ms_rivera, rivera_question):
    services.item_delete(item=rivera_question, by=ms_rivera)
    assert not LineupQuestion.objects.exists()


def test_changing_a_wordup_questions_level_moves_it_to_the_end_of_that_sheet_pile(riverside, ms_rivera):
    def make(key, level):
        return services.item_create(
            kind="wordup",
            school=riverside,
            author=ms_rivera,
            data={
                "id": key,
                "level": level,
                "category": "missing_word",
                "prompt": "My ____.",
                "answers": ["aunt"],
            },
        )

    first, second, moved = make("a", 1), make("b", 1), make("c", 2)
    assert (first.position, second.position, moved.position) == (1, 2, 1)
    services.item_update(item=moved, by=ms_rivera, data={**moved.to_engine_dict(), "level": 1})
    moved.refresh_from_db()
    assert moved.position == 3
    assert moved.estimated_level == 1 and not moved.looks_misplaced
    bank = selectors.wordup_bank_for(riverside, own_only=True)
    assert [q["id"] for q in bank["1"]["missing_word"]] == ["a", "b", "c"]


# --- word lists ------------------------------------------------------------------------------------------


def test_this_weeks_vocabulary(riverside, ms_rivera, mr_moss, dr_patel):
    week = services.word_list_create(school=riverside, author=ms_rivera, name=" Week  12 ")
    assert week.name == "Week 12"
    with pytest.raises(ValidationError, match="already has a list"):
        services.word_list_create(school=riverside, author=mr_moss, name="week 12")

    result = services.word_list_add_words(
        word_list=week,
        by=ms_rivera,
        texts=["volcano", "Volcano", "glacier", "3 cats", "", "river delta"],
        difficulty="easy",
        theme="Nature",
    )
    assert [c.text for c in result.added] == ["volcano", "glacier", "river delta"]
    assert result.skipped == ["Volcano"]
    assert [text for text, _why in result.refused] == ["3 cats"]
    concepts = week.to_engine_list()
    assert [c["text"] for c in concepts] == ["volcano", "glacier", "river delta"]
    assert all(c["difficulty"] == "easy" and c["theme"] == "nature" for c in concepts)
    assert selectors.concepts_for(riverside, word_list=week) == concepts

    with pytest.raises(PermissionDenied):
        services.word_list_add_words(word_list=week, by=mr_moss, texts=["x"], difficulty="easy")
    concept = week.concepts.first()
    assert not selectors.can_edit_item(mr_moss, concept)
    assert selectors.can_edit_item(dr_patel, concept)
    services.word_list_rename(word_list=week, by=dr_patel, name="Week 13")
    services.word_list_delete(word_list=week, by=ms_rivera)
    assert not Concept.objects.exists() and not WordList.objects.exists()


def test_another_schools_word_list_is_not_theirs(riverside, ms_rivera, mr_okafor, hillside):
    week = services.word_list_create(school=riverside, author=ms_rivera, name="Week 12")
    services.word_list_add_words(word_list=week, by=ms_rivera, texts=["volcano"], difficulty="easy")
    assert list(selectors.visible_word_lists(mr_okafor)) == []
    assert selectors.concepts_for(hillside, word_list=week) == []
    with pytest.raises(PermissionDenied):
        services.word_list_delete(word_list=week, by=mr_okafor)


def test_a_concept_can_only_go_on_a_list_of_the_authors(riverside, ms_rivera, mr_moss):
    week = services.word_list_create(school=riverside, author=ms_rivera, name="Week 12")
    with pytest.raises(PermissionDenied):
        services.item_create(
            kind="concepts",
            school=riverside,
            author=mr_moss,
            data={"text": "kite", "difficulty": "easy"},
            word_list=week,
        )
    concept = services.item_create(
        kind="concepts",
        school=riverside,
        author=ms_rivera,
        data={"text": "kite", "difficulty": "easy"},
        word_list=week,
    )
    assert concept.key.startswith("c-") and concept.word_list == week


def test_the_bank_filters(riverside, ms_rivera, rivera_question, shipped_question):
    def keys(**filters):
        return set(selectors.bank_items("lineup", ms_rivera, filters).values_list("key", flat=True))

    assert keys(scope="own") == {"legs"}
    assert "legs" not in keys(scope="shipped") and shipped_question.key in keys(scope="shipped")
    assert keys(scope="own", level=2) == set()
    assert keys(scope="own", subject="science", q="LEGS") == {"legs"}
    assert all(
        q.level == 3 and q.subject == "maths"
        for q in selectors.bank_items("lineup", ms_rivera, {"level": 3, "subject": "maths"})
    )


def test_the_misplaced_filter(riverside, ms_rivera):
    for key, level in (("ok", 1), ("off", 4)):
        services.item_create(
            kind="wordup",
            school=riverside,
            author=ms_rivera,
            data={
                "id": key,
                "level": level,
                "category": "missing_word",
                "prompt": "An ____ a day.",
                "answers": ["apple"],
            },
        )
    misplaced = selectors.bank_items("wordup", ms_rivera, {"misplaced": True, "scope": "own"})
    assert [q.key for q in misplaced] == ["off"]
    assert WordUpQuestion.objects.get(key="off").looks_misplaced
