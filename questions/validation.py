"""The rules a bank item must follow, for each kind: one place for the forms, the importers and the tests
(each kind's :meth:`~questions.kinds.base.BankKind.clean` is its function here).

Each ``clean_<kind>(raw)`` takes a dict shaped like one entry of the shipped JSON files and returns
``(cleaned, problems)``: ``cleaned`` is the normalised dict (text trimmed, inner whitespace folded,
words lower-cased) or None, ``problems`` a list of :class:`Problem` (empty when the item is good).
Cleaning a shipped item gives it back unchanged (a test checks this for every shipped item).

No database access here: checks against other items (duplicate ids, shipped ids) live in ``services``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$")
CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
LEVELS = (1, 2, 3, 4, 5)

# --- Line Up! ------------------------------------------------------------------------------------------
LINEUP_KEYS = (
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
)
LINEUP_ITEM_KEYS = ("text", "value", "display")
DIRECTIONS = ("asc", "desc")
SUBJECT_RE = re.compile(r"^[^\W\d_][\w -]{0,39}$")
MAX_TAGS = 10

# --- Word Up --------------------------------------------------------------------------------------------
MISSING_WORD, CROSSWORD, MULTIPLE_CHOICE, SPELLING = (
    "missing_word",
    "crossword",
    "multiple_choice",
    "spelling",
)
WORDUP_CATEGORIES = (MISSING_WORD, CROSSWORD, MULTIPLE_CHOICE, SPELLING)
WORDUP_COMMON_KEYS = ("id", "level", "category", "prompt", "answers", "alternatives", "letters")
WORDUP_EXTRA_KEYS = {
    MISSING_WORD: (),
    CROSSWORD: ("first_letter",),
    MULTIPLE_CHOICE: ("choices",),
    SPELLING: ("sentence",),
}
WORDUP_ALL_KEYS = (*WORDUP_COMMON_KEYS, "first_letter", "choices", "sentence")
GAP = "____"
SPELLING_PROMPT = "Listen and spell the word."
WORD_RE = re.compile(r"^[a-z]+(-[a-z]+)*$")
SPOKEN_RE = re.compile(r"^[A-Za-z ,.;:!?'-]+$")
MAX_WORDS = 6
WORD_MAX_LENGTH = 40

# --- Mind the Lines ---------------------------------------------------------------------------------------
CONCEPT_KEYS = ("id", "text", "difficulty", "theme", "alt")
DIFFICULTIES = ("easy", "hard")
# Letters (any alphabet), single spaces, inner hyphens and apostrophes; no digits (nothing to count).
# A letter may carry combining accents or Arabic vowel marks (as in عالِم, "scientist", told apart from
# عالم, "world"): those are marks, not word characters, to the regex engine.
_MARKS = r"\u0300-\u036f\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed"
_LETTER = rf"[^\W\d_][{_MARKS}]*"
_CONCEPT_WORD = rf"(?:{_LETTER})+(?:['-](?:{_LETTER})+)*"
CONCEPT_TEXT_RE = re.compile(rf"^{_CONCEPT_WORD}(?: {_CONCEPT_WORD})*$")
CONCEPT_MAX_LENGTH = 60
THEME_RE = re.compile(r"^[^\W\d_][\w '-]{0,39}$")


@dataclass(frozen=True)
class Problem:
    field: str | None
    message: str

    def __str__(self) -> str:
        return self.message


class Collector:
    """The problems found while cleaning one item, and the checks every kind's rules share: an item's
    cleaner calls these for each field, then returns ``(cleaned if not c.problems else None, c.problems)``."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, field: str | None, message: str) -> None:
        self.problems.append(Problem(field, message))

    def text(
        self, raw: dict, field: str, *, max_length: int, required: bool = True, label: str | None = None
    ) -> str:
        """A trimmed single-spaced text (numbers are taken as their text)."""
        label = label or field
        value = raw.get(field)
        if value is None:
            value = ""
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            self.add(field, _("%(field)s must be text") % {"field": label})
            return ""
        value = clean_text(str(value))
        if required and not value:
            self.add(field, _("%(field)s is empty") % {"field": label})
        elif len(value) > max_length:
            self.add(
                field,
                _("%(field)s is longer than %(max)d characters") % {"field": label, "max": max_length},
            )
        return value

    def key(self, raw: dict) -> str:
        value = raw.get("id")
        value = value.strip() if isinstance(value, str) else value
        if not isinstance(value, str) or not value:
            self.add("id", _("id is empty"))
            return ""
        if not ID_RE.match(value):
            self.add("id", _("id may only hold letters, digits and . _ : - (at most 64, no spaces)"))
        return value

    def level(self, raw: dict) -> int | None:
        value = raw.get("level")
        if isinstance(value, str) and value.strip() in {"1", "2", "3", "4", "5"}:
            value = int(value.strip())
        if isinstance(value, bool) or value not in LEVELS or not isinstance(value, int):
            self.add("level", _("level must be a whole number from 1 to 5"))
            return None
        return value

    def unknown_keys(self, raw: dict, known: tuple[str, ...]) -> None:
        unknown = sorted(str(key) for key in raw if key not in known)
        if unknown:
            self.add(None, _("unknown field(s): %(fields)s") % {"fields": ", ".join(unknown)})


def clean_text(value: str) -> str:
    """Control characters dropped, whitespace trimmed and folded to single spaces."""
    return " ".join(CONTROL_CHARS.sub(" ", value).split())


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def whole_word_count(word: str, text: str) -> int:
    return len(re.findall(rf"(?<![A-Za-z]){re.escape(word)}(?![A-Za-z])", text, flags=re.IGNORECASE))


def format_number(value: int | float) -> str:
    """A number as a person would write it in a form (no trailing ``.0`` on whole floats)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value)


def parse_number(text: str) -> int | float | str:
    """``"8"`` -> 8, ``"8.5"`` -> 8.5, ``"-40"`` -> -40; anything else comes back as it was."""
    candidate = text.strip().replace("\u2212", "-").replace("_", "")
    if re.fullmatch(r"[-+]?\d+", candidate):
        return int(candidate)
    if re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", candidate):
        number = float(candidate)
        if math.isfinite(number):
            return number
    return text


# ---------------------------------------------------------------------------------------------------------
# Line Up!
# ---------------------------------------------------------------------------------------------------------


def sorted_answer(items: list[dict], direction: str) -> list[int]:
    """Card numbers (1-5) of the items sorted by value in ``direction``."""
    order = sorted(range(len(items)), key=lambda i: items[i]["value"], reverse=direction == "desc")
    return [index + 1 for index in order]


def clean_lineup(raw: Any) -> tuple[dict | None, list[Problem]]:
    """An ordering question: five items whose values really sort into the stated answer."""
    if not isinstance(raw, dict):
        return None, [Problem(None, _("a question must be an object with named fields"))]
    c = Collector()
    c.unknown_keys(raw, LINEUP_KEYS)
    cleaned: dict[str, Any] = {"id": c.key(raw)}
    cleaned["heading"] = c.text(raw, "heading", max_length=200)
    cleaned["order_label"] = c.text(raw, "order_label", max_length=100)
    direction = raw.get("direction")
    if direction not in DIRECTIONS:
        c.add("direction", _("direction must be asc (smallest first) or desc (largest first)"))
    cleaned["direction"] = direction
    items = _lineup_items(raw.get("items"), c)
    cleaned["items"] = items
    answer = raw.get("answer")
    answer_ok = (
        isinstance(answer, list)
        and all(isinstance(n, int) and not isinstance(n, bool) for n in answer)
        and sorted(answer) == [1, 2, 3, 4, 5]
    )
    if not answer_ok:
        c.add("answer", _("answer must list the card numbers 1 to 5, each once"))
    cleaned["answer"] = list(answer) if isinstance(answer, list) else answer
    cleaned["explanation"] = c.text(raw, "explanation", max_length=1000)
    cleaned["source"] = c.text(raw, "source", max_length=300)
    cleaned["level"] = c.level(raw)
    subject = c.text(raw, "subject", max_length=40).lower()
    if subject and not SUBJECT_RE.match(subject):
        c.add("subject", _("subject must be a word or two, such as science or maths"))
    cleaned["subject"] = subject
    cleaned["tags"] = _tags(raw.get("tags", []), c)
    if items is not None and direction in DIRECTIONS:
        values = [item["value"] for item in items]
        if len(set(values)) != 5:
            c.add("items", _("the five values must all differ, or the order is not decided"))
        elif answer_ok:
            order = sorted_answer(items, direction)
            if order != answer:
                c.add(
                    "answer",
                    _("sorting the items by value gives %(order)s, not the stated answer %(answer)s")
                    % {"order": " ".join(map(str, order)), "answer": " ".join(map(str, answer))},
                )
            elif answer == [1, 2, 3, 4, 5]:
                c.add("items", _("the items are already listed in the right order: mix them up"))
    return (cleaned if not c.problems else None), c.problems


def _lineup_items(raw: Any, c: Collector) -> list[dict] | None:
    if not isinstance(raw, list) or len(raw) != 5:
        c.add("items", _("a question needs exactly five items"))
        return None
    items = []
    ok = True
    for number, item in enumerate(raw, start=1):
        if not isinstance(item, dict):
            c.add("items", _("item %(n)d must have a text, a value and a display") % {"n": number})
            ok = False
            continue
        unknown = sorted(str(key) for key in item if key not in LINEUP_ITEM_KEYS)
        if unknown:
            c.add(
                "items",
                _("item %(n)d has unknown field(s): %(fields)s")
                % {"n": number, "fields": ", ".join(unknown)},
            )
        text = c.text(item, "text", max_length=100, label=_("item %(n)d text") % {"n": number})
        display = c.text(item, "display", max_length=100, label=_("item %(n)d display") % {"n": number})
        value = item.get("value")
        if not is_number(value):
            c.add("items", _("item %(n)d value must be a number") % {"n": number})
            ok = False
        elif isinstance(value, float) and abs(value) >= 1e16:
            # Python writes such floats as 1e+20, which PostgreSQL's jsonb reads back as the integer
            # 100000000000000000000: store the int it is, so the bank gives back exactly what it took.
            value = int(value)
        items.append({"text": text, "value": value, "display": display})
    if not ok:
        return None
    texts = [item["text"].casefold() for item in items]
    if all(texts) and len(set(texts)) != 5:
        c.add("items", _("the five items must have different texts"))
    return items


def _tags(raw: Any, c: Collector) -> list[str]:
    if raw is None:
        return []
    if not isinstance(raw, list) or not all(isinstance(tag, str) for tag in raw):
        c.add("tags", _("tags must be a list of words"))
        return []
    tags: list[str] = []
    for tag in raw:
        tag = clean_text(tag).lower()
        if not tag or tag in tags:
            continue
        if len(tag) > 40:
            c.add("tags", _("a tag is longer than %(max)d characters") % {"max": 40})
        tags.append(tag)
    if len(tags) > MAX_TAGS:
        c.add("tags", _("at most %(max)d tags") % {"max": MAX_TAGS})
    return tags


# ---------------------------------------------------------------------------------------------------------
# Word Up
# ---------------------------------------------------------------------------------------------------------


def clean_wordup(raw: Any) -> tuple[dict | None, list[Problem]]:
    """A Word Up question, with the per-category rules of the shipped bank."""
    if not isinstance(raw, dict):
        return None, [Problem(None, _("a question must be an object with named fields"))]
    c = Collector()
    c.unknown_keys(raw, WORDUP_ALL_KEYS)
    category = raw.get("category")
    if category not in WORDUP_CATEGORIES:
        c.add("category", _("category must be one of %(names)s") % {"names": ", ".join(WORDUP_CATEGORIES)})
        category = None
    cleaned: dict[str, Any] = {"id": c.key(raw), "level": c.level(raw), "category": category}
    if category == SPELLING and not raw.get("prompt"):
        raw = {**raw, "prompt": SPELLING_PROMPT}
    cleaned["prompt"] = c.text(raw, "prompt", max_length=200, label=_("question"))
    answers = _words(raw.get("answers"), "answers", c, required=True)
    alternatives = _words(raw.get("alternatives", []), "alternatives", c, required=False)
    if set(answers) & set(alternatives):
        c.add("alternatives", _("a word cannot be both an answer and an alternative spelling"))
    if category == SPELLING:
        cleaned["sentence"] = c.text(raw, "sentence", max_length=200, label=_("spoken sentence"))
    cleaned |= {"answers": answers, "alternatives": alternatives, "letters": _wordup_letters(raw, answers, c)}
    for other in ("first_letter", "choices", "sentence"):
        if category and other not in WORDUP_EXTRA_KEYS[category] and raw.get(other) not in (None, "", []):
            c.add(other, _("%(field)s is not used by this category") % {"field": other})
    if category:
        _WORDUP_CATEGORY_CHECKS[category](raw, cleaned, c)
    return (cleaned if not c.problems else None), c.problems


def _wordup_letters(raw: dict, answers: list[str], c: Collector) -> int | None:
    """How many letters the answer has: given, or read from the answers when they all agree."""
    lengths = {len(word) for word in answers}
    letters = raw.get("letters")
    if letters in (None, ""):
        letters = next(iter(lengths)) if len(lengths) == 1 else None
    if isinstance(letters, str) and letters.strip().isdigit():
        letters = int(letters.strip())
    if isinstance(letters, bool) or not isinstance(letters, int) or letters < 1:
        if len(lengths) > 1:
            c.add("answers", _("all accepted answers must have the same number of letters"))
        else:
            c.add("letters", _("letters must be a whole number"))
        return letters
    for word in answers:
        if len(word) != letters:
            c.add("answers", _("%(word)s does not have %(n)d letters") % {"word": word, "n": letters})
    return letters


def _check_missing_word(raw: dict, cleaned: dict, c: Collector) -> None:
    prompt = cleaned["prompt"]
    if prompt.count(GAP) != 1 or "_" in prompt.replace(GAP, "", 1):
        c.add("prompt", _("the sentence needs exactly one gap, written as four underscores ____"))
    _no_giveaway(prompt, cleaned["answers"] + cleaned["alternatives"], c, "prompt")


def _check_crossword(raw: dict, cleaned: dict, c: Collector) -> None:
    prompt, answers = cleaned["prompt"], cleaned["answers"]
    accepted = answers + cleaned["alternatives"]
    first = raw.get("first_letter")
    if first in (None, "") and answers:
        first = answers[0][0]
    first = first.strip().lower() if isinstance(first, str) else first
    if not isinstance(first, str) or len(first) != 1 or not first.isalpha():
        c.add("first_letter", _("first letter must be one letter"))
    elif any(not word.startswith(first) for word in accepted):
        c.add("first_letter", _("every accepted word must start with the first letter"))
    cleaned["first_letter"] = first
    _no_giveaway(prompt, accepted, c, "prompt")
    if prompt.count(GAP) > 1:
        c.add("prompt", _("a clue has at most one gap"))


def _check_multiple_choice(raw: dict, cleaned: dict, c: Collector) -> None:
    answers = cleaned["answers"]
    cleaned["choices"] = _choices(raw.get("choices"), answers, cleaned["alternatives"], c)
    if answers and whole_word_count(answers[0], cleaned["prompt"]):
        c.add("prompt", _("the question gives away the answer"))


def _check_spelling(raw: dict, cleaned: dict, c: Collector) -> None:
    sentence, answers = cleaned["sentence"], cleaned["answers"]
    if len(answers) != 1:
        c.add("answers", _("a spelling question has exactly one word to spell"))
    if sentence and not SPOKEN_RE.match(sentence):
        c.add("sentence", _("the spoken sentence may only hold letters, spaces and plain punctuation"))
    if answers and sentence and whole_word_count(answers[0], sentence) != 1:
        c.add("sentence", _("the word must occur exactly once in the spoken sentence"))
    # The instruction may contain the word ("Listen and spell the word." for "listen"): the engine
    # then shows a standard instruction instead, so that is not a problem of the question.


_WORDUP_CATEGORY_CHECKS = {
    MISSING_WORD: _check_missing_word,
    CROSSWORD: _check_crossword,
    MULTIPLE_CHOICE: _check_multiple_choice,
    SPELLING: _check_spelling,
}


def _words(raw: Any, field: str, c: Collector, *, required: bool) -> list[str]:
    if raw is None:
        raw = []
    if not isinstance(raw, list) or not all(isinstance(word, str) for word in raw):
        c.add(field, _("%(field)s must be a list of words") % {"field": field})
        return []
    words: list[str] = []
    for word in raw:
        word = clean_text(word).lower()
        if not word:
            continue
        if len(word) > WORD_MAX_LENGTH or not WORD_RE.match(word):
            c.add(field, _("%(word)s is not a single word of letters (and hyphens)") % {"word": word[:40]})
        elif word in words:
            c.add(field, _("%(word)s is listed twice") % {"word": word})
        else:
            words.append(word)
    if required and not words and not any(p.field == field for p in c.problems):
        c.add(field, _("at least one accepted answer is needed"))
    if len(words) > MAX_WORDS:
        c.add(field, _("at most %(max)d words") % {"max": MAX_WORDS})
    return words


def _choices(raw: Any, answers: list[str], alternatives: list[str], c: Collector) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(choice, str) for choice in raw):
        c.add("choices", _("a multiple-choice question needs three choices"))
        return []
    choices = [clean_text(choice) for choice in raw]
    if len(choices) != 3 or not all(choices):
        c.add("choices", _("a multiple-choice question needs three choices"))
        return choices
    if any(len(choice) > WORD_MAX_LENGTH for choice in choices):
        c.add("choices", _("a choice is longer than %(max)d characters") % {"max": WORD_MAX_LENGTH})
    lowered = [choice.lower() for choice in choices]
    if len(set(lowered)) != 3:
        c.add("choices", _("the three choices must differ"))
    if answers:
        right = answers[0]
        if lowered.count(right) != 1:
            c.add("choices", _("the answer %(word)s must be one of the choices") % {"word": right})
        accepted = set(answers) | set(alternatives)
        if any(choice in accepted for choice in lowered if choice != right):
            c.add("choices", _("a wrong choice is also an accepted answer"))
    return choices


def _no_giveaway(text: str, words: list[str], c: Collector, field: str) -> None:
    for word in words:
        if whole_word_count(word, text):
            c.add(field, _("the question gives away %(word)s") % {"word": word})
            return


# ---------------------------------------------------------------------------------------------------------
# Mind the Lines
# ---------------------------------------------------------------------------------------------------------


def clean_concept(raw: Any) -> tuple[dict | None, list[Problem]]:
    """A drawable concept: a word or a few, letters only (no digits: drawings may hold no numbers)."""
    if not isinstance(raw, dict):
        return None, [Problem(None, _("a concept must be an object with named fields"))]
    c = Collector()
    c.unknown_keys(raw, CONCEPT_KEYS)
    cleaned: dict[str, Any] = {"id": c.key(raw)}
    text = c.text(raw, "text", max_length=CONCEPT_MAX_LENGTH, label=_("concept"))
    if text and not CONCEPT_TEXT_RE.match(text):
        c.add("text", _("a concept may only hold letters, spaces, hyphens and apostrophes (no digits)"))
    cleaned["text"] = text
    difficulty = raw.get("difficulty")
    difficulty = difficulty.strip().lower() if isinstance(difficulty, str) else difficulty
    if difficulty not in DIFFICULTIES:
        c.add("difficulty", _("difficulty must be easy or hard"))
    cleaned["difficulty"] = difficulty
    theme = c.text(raw, "theme", max_length=40, required=False).lower()
    if theme and not THEME_RE.match(theme):
        c.add("theme", _("a theme is a word or two, such as animals"))
    cleaned["theme"] = theme
    alt = c.text(raw, "alt", max_length=CONCEPT_MAX_LENGTH, required=False, label=_("other name"))
    if alt:
        if not CONCEPT_TEXT_RE.match(alt):
            c.add("alt", _("a concept may only hold letters, spaces, hyphens and apostrophes (no digits)"))
        elif alt.casefold() == text.casefold():
            c.add("alt", _("the other name must differ from the concept"))
        cleaned["alt"] = alt
    return (cleaned if not c.problems else None), c.problems
