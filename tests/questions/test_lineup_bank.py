"""Checks for the Line Up! ordering-question bank (questions/data/lineup/*.json).

Pure Python (no Django): every question must be well formed and its data must really
sort into its stated answer.
"""

import json
import math
from collections import Counter
from pathlib import Path

import pytest

BANK_DIR = Path(__file__).resolve().parents[2] / "questions" / "data" / "lineup"
SUBJECTS = {
    "science": "sci-",
    "geography": "geo-",
    "history": "his-",
    "language": "lan-",
    "maths": "mat-",
    "body": "bod-",
    "technology": "tec-",
    "sport": "spo-",
    "arts": "art-",
}
LEVELS = range(1, 6)
QUESTION_KEYS = {
    "id",
    "heading",
    "order_label",
    "direction",
    "items",
    "answer",
    "explanation",
    "source",
    "level",
    "subject",
    "tags",
}
ITEM_KEYS = {"text", "value", "display"}
MIN_TOTAL = 400
MIN_PER_SUBJECT = 32
MIN_PER_LEVEL = 10


def _load_bank():
    bank = []
    for subject in SUBJECTS:
        path = BANK_DIR / f"{subject}.json"
        with path.open(encoding="utf-8") as f:
            data = json.load(f)
        assert isinstance(data, list), f"{path.name} must hold a JSON list"
        bank.extend((subject, q) for q in data)
    return bank


BANK = _load_bank()


def _qid(entry):
    subject, q = entry
    return q.get("id", f"{subject}-?") if isinstance(q, dict) else f"{subject}-?"


def _is_number(x):
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


def _non_empty_str(x):
    return isinstance(x, str) and x.strip() != ""


def _sorted_answer(q):
    """Card numbers (1-based) of the items sorted by value in the stated direction."""
    order = sorted(
        range(len(q["items"])), key=lambda i: q["items"][i]["value"], reverse=q["direction"] == "desc"
    )
    return [i + 1 for i in order]


def test_every_subject_file_exists():
    for subject in SUBJECTS:
        assert (BANK_DIR / f"{subject}.json").is_file(), f"missing {subject}.json"


@pytest.mark.parametrize("entry", BANK, ids=_qid)
def test_question_schema(entry):
    subject, q = entry
    assert isinstance(q, dict)
    assert set(q) == QUESTION_KEYS, f"keys differ: {set(q) ^ QUESTION_KEYS}"
    assert _non_empty_str(q["id"]) and q["id"].startswith(SUBJECTS[subject])
    assert q["subject"] == subject
    for key in ("heading", "order_label", "explanation", "source"):
        assert _non_empty_str(q[key]), f"{key} must be a non-empty string"
    assert q["direction"] in ("asc", "desc")
    assert isinstance(q["level"], int) and not isinstance(q["level"], bool)
    assert q["level"] in LEVELS
    assert isinstance(q["tags"], list) and q["tags"], "tags must be a non-empty list"
    assert all(_non_empty_str(t) for t in q["tags"])

    items = q["items"]
    assert isinstance(items, list) and len(items) == 5
    for item in items:
        assert isinstance(item, dict) and set(item) == ITEM_KEYS
        assert _non_empty_str(item["text"])
        assert _non_empty_str(item["display"])
        assert _is_number(item["value"])
    assert len({item["text"] for item in items}) == 5, "item texts must differ"

    answer = q["answer"]
    assert isinstance(answer, list) and all(isinstance(a, int) and not isinstance(a, bool) for a in answer)
    assert sorted(answer) == [1, 2, 3, 4, 5], "answer must be a permutation of 1..5"


@pytest.mark.parametrize("entry", BANK, ids=_qid)
def test_values_sort_into_answer(entry):
    _, q = entry
    values = [item["value"] for item in q["items"]]
    assert len(set(values)) == 5, "values must be distinct"
    assert _sorted_answer(q) == q["answer"], "sorting the items by value does not give the answer"


@pytest.mark.parametrize("entry", BANK, ids=_qid)
def test_items_not_listed_in_answer_order(entry):
    _, q = entry
    assert q["answer"] != [1, 2, 3, 4, 5], "items are already listed in answer order"


def test_ids_unique():
    counts = Counter(q["id"] for _, q in BANK)
    duplicates = sorted(i for i, n in counts.items() if n > 1)
    assert not duplicates, f"duplicate ids: {duplicates}"


def test_bank_size_and_spread():
    assert len(BANK) >= MIN_TOTAL
    per_subject = Counter(subject for subject, _ in BANK)
    per_level = Counter(q["level"] for _, q in BANK)
    for subject in SUBJECTS:
        assert per_subject[subject] >= MIN_PER_SUBJECT, f"{subject}: only {per_subject[subject]} questions"
    for level in LEVELS:
        assert per_level[level] >= MIN_PER_LEVEL, f"level {level}: only {per_level[level]} questions"


def test_every_subject_covers_every_level():
    levels_by_subject = {subject: set() for subject in SUBJECTS}
    for subject, q in BANK:
        levels_by_subject[subject].add(q["level"])
    for subject, levels in levels_by_subject.items():
        assert levels == set(LEVELS), f"{subject} lacks levels {set(LEVELS) - levels}"


def test_sort_helper_on_rulebook_example():
    """The sort helper reproduces the rulebook answer 2, 5, 3, 1, 4 (guards the test's own logic)."""
    q = {
        "direction": "desc",
        "items": [{"value": v} for v in (10, 50, 30, 0, 40)],
    }
    assert _sorted_answer(q) == [2, 5, 3, 1, 4]
