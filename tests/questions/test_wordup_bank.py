"""Structural checks for the Word Up question bank (questions/data/wordup/level<N>.json).

Pure Python on purpose: no Django, so it runs with ``-p no:django``.
"""

import json
import re
from collections import Counter
from pathlib import Path

import pytest

BANK_DIR = Path(__file__).resolve().parents[2] / "questions" / "data" / "wordup"
LEVELS = (1, 2, 3, 4, 5)
PER_CATEGORY = 50
CATEGORIES = {
    "missing_word": "mw",
    "crossword": "cw",
    "multiple_choice": "mc",
    "spelling": "sp",
}
COMMON_KEYS = {"id", "level", "category", "prompt", "answers", "alternatives", "letters"}
EXTRA_KEYS = {
    "missing_word": set(),
    "crossword": {"first_letter"},
    "multiple_choice": {"choices"},
    "spelling": {"sentence"},
}
GAP = "____"
SPELLING_PROMPT = "Listen and spell the word."
WORD_RE = re.compile(r"^[a-z]+(-[a-z]+)*$")
# Spoken by speech synthesis: letters, spaces and plain punctuation only (no digits or symbols).
SPOKEN_RE = re.compile(r"^[A-Za-z ,.;:!?'-]+$")


def load(level):
    with open(BANK_DIR / f"level{level}.json", encoding="utf-8") as f:
        return json.load(f)


BANK = {level: load(level) for level in LEVELS}
ALL = [q for level in LEVELS for q in BANK[level]]


def qid(q):
    return q["id"]


def whole_word_count(word, text):
    return len(re.findall(rf"(?<![A-Za-z]){re.escape(word)}(?![A-Za-z])", text, flags=re.IGNORECASE))


def by_category(category):
    return [q for q in ALL if q["category"] == category]


@pytest.mark.parametrize("level", LEVELS)
def test_file_shape(level):
    questions = BANK[level]
    assert isinstance(questions, list)
    assert len(questions) == len(CATEGORIES) * PER_CATEGORY
    assert Counter(q["category"] for q in questions) == dict.fromkeys(CATEGORIES, PER_CATEGORY)
    assert all(q["level"] == level for q in questions)


@pytest.mark.parametrize("level", LEVELS)
def test_ids_follow_category_order(level):
    questions = BANK[level]
    # Listed per category, in asking order: wu<level>-<code>-01 .. -50.
    expected = [
        f"wu{level}-{code}-{n:02d}" for code in CATEGORIES.values() for n in range(1, PER_CATEGORY + 1)
    ]
    assert sorted(q["id"] for q in questions) == sorted(expected)
    for category, code in CATEGORIES.items():
        ids = [q["id"] for q in questions if q["category"] == category]
        assert ids == [f"wu{level}-{code}-{n:02d}" for n in range(1, PER_CATEGORY + 1)]


def test_ids_unique():
    ids = [q["id"] for q in ALL]
    assert len(ids) == len(set(ids)) == len(LEVELS) * len(CATEGORIES) * PER_CATEGORY


@pytest.mark.parametrize("q", ALL, ids=qid)
def test_common_fields(q):
    assert q["category"] in CATEGORIES
    assert set(q) == COMMON_KEYS | EXTRA_KEYS[q["category"]]
    assert isinstance(q["prompt"], str) and q["prompt"].strip() == q["prompt"] and q["prompt"]
    answers, alternatives = q["answers"], q["alternatives"]
    assert isinstance(answers, list) and answers
    assert isinstance(alternatives, list)
    for word in answers + alternatives:
        assert isinstance(word, str)
        assert word == word.lower(), f"not lower case: {word!r}"
        assert WORD_RE.match(word), f"not a single word: {word!r}"
    assert len(set(answers)) == len(answers)
    assert len(set(alternatives)) == len(alternatives)
    assert not set(answers) & set(alternatives)
    assert isinstance(q["letters"], int) and not isinstance(q["letters"], bool)
    for word in answers:
        assert len(word) == q["letters"], f"{word!r} does not have {q['letters']} letters"


@pytest.mark.parametrize("q", by_category("missing_word"), ids=qid)
def test_missing_word(q):
    prompt = q["prompt"]
    assert prompt.count(GAP) == 1
    assert "_" not in prompt.replace(GAP, "", 1), "stray underscores around the gap"
    for word in q["answers"] + q["alternatives"]:
        assert whole_word_count(word, prompt) == 0, f"prompt gives away {word!r}"


@pytest.mark.parametrize("q", by_category("crossword"), ids=qid)
def test_crossword(q):
    first = q["first_letter"]
    assert isinstance(first, str) and len(first) == 1 and first.isalpha() and first == first.lower()
    for word in q["answers"] + q["alternatives"]:
        assert word.startswith(first)
        assert whole_word_count(word, q["prompt"]) == 0, f"clue gives away {word!r}"
    assert GAP not in q["prompt"] or q["prompt"].count(GAP) == 1


@pytest.mark.parametrize("q", by_category("multiple_choice"), ids=qid)
def test_multiple_choice(q):
    choices = q["choices"]
    right = q["answers"][0]
    assert isinstance(choices, list) and len(choices) == 3
    assert all(isinstance(c, str) and c.strip() == c and c for c in choices)
    assert len({c.lower() for c in choices}) == 3, "choices must be distinct"
    assert choices.count(right) == 1
    accepted = set(q["answers"]) | set(q["alternatives"])
    wrong = [c for c in choices if c != right]
    assert not accepted & {c.lower() for c in wrong}, "a distractor is also an accepted answer"
    assert whole_word_count(right, q["prompt"]) == 0, "question gives away the answer"


@pytest.mark.parametrize("level", LEVELS)
def test_multiple_choice_positions_vary(level):
    positions = Counter(
        q["choices"].index(q["answers"][0]) for q in BANK[level] if q["category"] == "multiple_choice"
    )
    assert set(positions) == {0, 1, 2}
    assert min(positions.values()) >= 4, positions


@pytest.mark.parametrize("q", by_category("spelling"), ids=qid)
def test_spelling(q):
    assert q["prompt"] == SPELLING_PROMPT
    assert len(q["answers"]) == 1
    word, sentence = q["answers"][0], q["sentence"]
    assert isinstance(sentence, str) and sentence.strip() == sentence
    assert SPOKEN_RE.match(sentence), f"sentence is not plain speakable text: {sentence!r}"
    assert whole_word_count(word, sentence) == 1, f"{word!r} must occur exactly once in {sentence!r}"


@pytest.mark.parametrize("level", LEVELS)
def test_spelling_words_not_shown_elsewhere_in_level(level):
    """A spelling word is never shown as text, so no other question of its level may display it."""
    shown = []
    for q in BANK[level]:
        if q["category"] == "spelling":
            continue
        shown.append(q["prompt"])
        shown.extend(q.get("choices", []))
        shown.extend(q["answers"] + q["alternatives"])  # revealed after answering
    text = "\n".join(shown)
    leaks = [
        (q["id"], word)
        for q in BANK[level]
        if q["category"] == "spelling"
        for word in q["answers"] + q["alternatives"]
        if whole_word_count(word, text)
    ]
    assert leaks == [], "spelling words shown by other questions of the level"


def test_main_answers_unique_across_bank():
    mains = Counter(q["answers"][0] for q in ALL)
    assert [w for w, n in mains.items() if n > 1] == []


def test_no_word_is_accepted_by_two_questions():
    """A word is practised once in the whole bank: no question accepts another question's word."""
    accepted = Counter(word for q in ALL for word in set(q["answers"] + q["alternatives"]))
    assert [word for word, n in accepted.items() if n > 1] == []
