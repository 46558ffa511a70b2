"""The shipped banks in the database: the loader, the engine dicts, the rules, the CEFR estimate."""

import json
from pathlib import Path

import pytest

from questions import services
from questions.estimate import estimate_word_level
from questions.models import Concept, LineupQuestion, WordUpQuestion
from questions.selectors import concepts_for, wordup_bank_for
from questions.validation import clean_concept, clean_lineup, clean_wordup

DATA_DIR = Path(__file__).resolve().parents[2] / "questions" / "data"


def shipped_files():
    lineup = [
        q for path in sorted((DATA_DIR / "lineup").glob("*.json")) for q in json.loads(path.read_text())
    ]
    wordup = [
        q for level in range(1, 6) for q in json.loads((DATA_DIR / f"wordup/level{level}.json").read_text())
    ]
    concepts = [
        c for name in ("easy", "hard") for c in json.loads((DATA_DIR / f"mindlines/{name}.json").read_text())
    ]
    return lineup, wordup, concepts


LINEUP, WORDUP, CONCEPTS = shipped_files()
#: Line Up!'s translated editions (questions/data/lineup/<language>/): the loader stores them too.
LINEUP_TRANSLATIONS = sum(
    len(json.loads(path.read_text())) for path in (DATA_DIR / "lineup").glob("*/*.json")
)


@pytest.fixture
def loaded(db):
    return services.shipped_banks_load()


# --- the rules agree with the shipped content --------------------------------------------------------------


@pytest.mark.parametrize(
    ("cleaner", "items"),
    [(clean_lineup, LINEUP), (clean_wordup, WORDUP), (clean_concept, CONCEPTS)],
    ids=["lineup", "wordup", "concepts"],
)
def test_every_shipped_item_passes_the_rules_and_cleans_to_itself(cleaner, items):
    for item in items:
        cleaned, problems = cleaner(item)
        assert problems == [], (item["id"], problems)
        assert cleaned == item, item["id"]


@pytest.mark.parametrize(
    "text", ["cat", "arc-en-ciel", "bird's nest", "naïve", "ле́то", "قوس قزح", "عالِم", "ذَرّة"]
)
def test_a_concept_is_letters_of_any_alphabet_with_their_accents_and_vowel_marks(text):
    """Arabic vowel marks (and decomposed accents) are combining marks, not letters, to a regex."""
    assert clean_concept({"id": "c1", "text": text, "difficulty": "easy"})[1] == []


@pytest.mark.parametrize("text", ["\u0650قطة", "قطة 2", "عالِم -", "\u064b"])
def test_a_vowel_mark_on_no_letter_or_a_digit_is_not_a_concept(text):
    problems = clean_concept({"id": "c1", "text": text, "difficulty": "easy"})[1]
    assert [p.field for p in problems] == ["text"]


# --- the loader ------------------------------------------------------------------------------------------


def test_loader_creates_every_shipped_item(loaded):
    english = LineupQuestion.objects.filter(school=None, language="en")
    assert english.count() == len(LINEUP)
    assert loaded["lineup"].created == len(LINEUP) + LINEUP_TRANSLATIONS == LineupQuestion.objects.count()
    assert loaded["wordup"].created == len(WORDUP) == WordUpQuestion.objects.filter(school=None).count()
    assert loaded["concepts"].created == len(CONCEPTS) == Concept.objects.filter(school=None).count()


def test_to_engine_dict_round_trips_every_shipped_item_exactly(loaded):
    """The database gives back exactly the JSON files' dicts (same keys, same values, same types)."""
    english = LineupQuestion.objects.filter(language="en")
    for rows, items in ((english, LINEUP), (WordUpQuestion.objects, WORDUP), (Concept.objects, CONCEPTS)):
        stored = {item.key: item.to_engine_dict() for item in rows.all()}
        for item in items:
            assert stored[item["id"]] == item
            # 8 and 8.0 compare equal in Python: the JSON text must be the same too.
            assert json.dumps(stored[item["id"]], sort_keys=True) == json.dumps(item, sort_keys=True)


def test_loader_keeps_bank_order(loaded):
    english = LineupQuestion.objects.filter(school=None, language="en")
    keys = list(english.order_by("position").values_list("key", flat=True))
    assert keys == [q["id"] for q in LINEUP]
    bank = wordup_bank_for(0)  # a school id no school has: the shipped questions alone
    for level in range(1, 6):
        for category in ("missing_word", "crossword", "multiple_choice", "spelling"):
            expected = [q for q in WORDUP if q["level"] == level and q["category"] == category]
            assert bank[str(level)][category] == expected
    assert concepts_for(0, difficulty="easy") == [c for c in CONCEPTS if c["difficulty"] == "easy"]


def test_loader_is_idempotent(loaded):
    before = {
        model: list(model.objects.order_by("pk").values_list("pk", "updated_at"))
        for model in (LineupQuestion, WordUpQuestion, Concept)
    }
    again = services.shipped_banks_load()
    for result in again.values():
        assert (result.created, result.updated, result.deleted) == (0, 0, 0)
    assert again["lineup"].unchanged == len(LINEUP) + LINEUP_TRANSLATIONS
    for model, rows in before.items():
        assert list(model.objects.order_by("pk").values_list("pk", "updated_at")) == rows


def test_loader_follows_changed_files(loaded, tmp_path, ms_rivera, riverside):
    """A corrected file updates its item, a removed item goes, and teachers' items are never touched."""
    own = services.item_create(
        kind="lineup", school=riverside, author=ms_rivera, data={**LINEUP[0], "id": "my-legs"}
    )
    for sub in ("lineup", "wordup", "mindlines"):
        (tmp_path / sub).mkdir()
    for path in (DATA_DIR / "lineup").glob("**/*.json"):
        copy = tmp_path / "lineup" / path.relative_to(DATA_DIR / "lineup")
        copy.parent.mkdir(exist_ok=True)
        copy.write_text(path.read_text())
    # The last file by name: dropping its last item moves no other item's position in the bank.
    last_file = max(path.name for path in (DATA_DIR / "lineup").glob("*.json"))
    questions = json.loads((DATA_DIR / "lineup" / last_file).read_text())
    corrected, removed = questions[0]["id"], questions[-1]["id"]
    questions = [{**questions[0], "explanation": "Corrected."}, *questions[1:-1]]
    (tmp_path / "lineup" / last_file).write_text(json.dumps(questions))
    for level in range(1, 6):
        (tmp_path / f"wordup/level{level}.json").write_text(
            (DATA_DIR / f"wordup/level{level}.json").read_text()
        )
    for name in ("easy", "hard"):
        (tmp_path / f"mindlines/{name}.json").write_text((DATA_DIR / f"mindlines/{name}.json").read_text())

    result = services.shipped_banks_load(data_dir=tmp_path)

    assert (result["lineup"].updated, result["lineup"].deleted, result["lineup"].created) == (1, 1, 0)
    assert LineupQuestion.objects.get(key=corrected, school=None, language="en").explanation == "Corrected."
    assert not LineupQuestion.objects.filter(key=removed, school=None, language="en").exists()
    assert (result["wordup"].updated, result["concepts"].updated) == (0, 0)
    own.refresh_from_db()
    assert own.to_engine_dict() == {**LINEUP[0], "id": "my-legs"}


def test_the_command_prints_what_it_did(db, capsys):
    from django.core.management import call_command

    call_command("load_question_banks")
    call_command("load_question_banks")
    out = capsys.readouterr().out
    total = len(LINEUP) + LINEUP_TRANSLATIONS
    assert f"lineup: {total} created" in out
    assert f"lineup: 0 created, 0 updated, 0 deleted, {total} unchanged" in out
    assert f"Line Up!: {len(LINEUP)} questions" in out


# --- the estimated level (cefrpy) ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "level"),
    [("apple", 1), ("because", 1), ("colour", 1), ("manuscript", 5), ("Apple", 1), ("xyzzy", None)],
)
def test_estimate_word_level(word, level):
    assert estimate_word_level(word) == level


def test_c1_and_c2_both_map_to_level_5():
    from questions.estimate import CEFR_TO_LEVEL

    assert CEFR_TO_LEVEL == {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 5}


def test_shipped_wordup_questions_store_their_estimate(loaded):
    question = WordUpQuestion.objects.get(key="wu1-mw-01")  # "aunt"
    assert question.estimated_level == estimate_word_level("aunt") is not None
    assert WordUpQuestion.objects.filter(school=None, estimated_level=None).count() == 0
    # The shipped bank's words sit at (or next to) their stated level: none looks misplaced.
    assert [q.key for q in WordUpQuestion.objects.all() if q.looks_misplaced] == []


def test_a_word_two_levels_off_looks_misplaced(db):
    easy_word_at_level_5 = WordUpQuestion(
        key="t-1", level=5, category="missing_word", prompt="I eat an ____.", answers=["apple"], letters=5
    )
    easy_word_at_level_5.save()
    assert easy_word_at_level_5.estimated_level == 1
    assert easy_word_at_level_5.looks_misplaced

    one_level_off = WordUpQuestion(
        key="t-2", level=2, category="missing_word", prompt="I eat an ____.", answers=["apple"], letters=5
    )
    one_level_off.save()
    assert not one_level_off.looks_misplaced

    unknown = WordUpQuestion(
        key="t-3", level=5, category="missing_word", prompt="A ____.", answers=["xyzzy"], letters=5
    )
    unknown.save()
    assert unknown.estimated_level is None and not unknown.looks_misplaced


@pytest.mark.django_db
def test_a_teachers_huge_value_round_trips_through_the_database():
    """1e20 written by a teacher comes back as the same number and the loader sees no change."""
    question = {**LINEUP[0], "id": "huge-values", "direction": "asc", "answer": [2, 3, 4, 5, 1]}
    question["items"] = [
        {"text": "A", "value": 5e20, "display": "5 × 10²⁰"},
        {"text": "B", "value": 1, "display": "1"},
        {"text": "C", "value": 1e17, "display": "10¹⁷"},
        {"text": "D", "value": 2e17, "display": "2 × 10¹⁷"},
        {"text": "E", "value": 4e20, "display": "4 × 10²⁰"},
    ]
    cleaned, problems = clean_lineup(question)
    assert problems == []
    stored = LineupQuestion.objects.create(
        key=cleaned["id"], **{k: v for k, v in cleaned.items() if k != "id"}
    )
    stored.refresh_from_db()
    assert json.dumps(stored.to_engine_dict(), sort_keys=True) == json.dumps(cleaned, sort_keys=True)


def test_the_command_prints_what_the_banks_hold(db, capsys):
    from django.core.management import call_command

    call_command("load_question_banks")
    out = capsys.readouterr().out
    subjects = sorted({q["subject"] for q in LINEUP})
    assert f"Line Up!: {len(LINEUP)} questions in {len(subjects)} subjects" in out
    for subject in subjects:
        assert f"{subject}: {sum(q['subject'] == subject for q in LINEUP)}" in out
    assert (
        f"Word Up: {len(WORDUP)} questions; "
        + ", ".join(f"level {level}: {sum(q['level'] == level for q in WORDUP)}" for level in range(1, 6))
        in out
    )
    assert f"Mind the Lines (en): {len(CONCEPTS)} concepts" in out
    for folder in sorted(p for p in (DATA_DIR / "mindlines").iterdir() if p.is_dir()):
        size = sum(len(json.loads(deck.read_text())) for deck in folder.glob("*.json"))
        assert f"Mind the Lines ({folder.name}): {size} concepts" in out
