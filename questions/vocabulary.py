"""A teacher's vocabulary list (a Quizlet-style export: term and definition, tab or comma separated, an
example sentence optional) and the Word Up questions built from it.

Quizlet's "Export" writes one term per line, the term and its definition separated by a tab (or a
comma, or a custom separator); a third column, if the teacher adds one, is an example sentence. From each
word Word Up makes whichever of its four question kinds the word allows:

* **crossword**: the definition is the clue (first letter and length shown, as in the shipped bank);
* **multiple choice**: "Which word means ‘definition’?" with the word and two other words of the list;
* **spelling**: the word is spoken in its example sentence (or on its own, "The word is …");
* **missing word**: the example sentence with the word taken out (needs an example holding the word).

Every question built is checked by the same rules as the bank's own (``validation.clean_wordup``); a kind
a word cannot make is reported with the reason, and a word that makes none is listed as not used.
No database access here.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from .formats import BankFileError, decode, refuse_unclosed_quote
from .validation import (
    CROSSWORD,
    GAP,
    MISSING_WORD,
    MULTIPLE_CHOICE,
    SPELLING,
    WORD_MAX_LENGTH,
    WORD_RE,
    WORDUP_CATEGORIES,
    clean_text,
    clean_wordup,
    whole_word_count,
)

MAX_BYTES = 200_000
MAX_WORDS = 300
TERM_MAX = 40
DEFINITION_MAX = 160
EXAMPLE_MAX = 200
LIST_LEVEL = 3
SEPARATORS = {"tab": "\t", "comma": ",", "semicolon": ";"}
_FORMULA_STARTS = ("=", "+", "-", "@")
# Word Up teaches English: what the game shows and speaks is English whatever the teacher's language.
CHOICE_PROMPT = "Which word means “{definition}”?"
SPOKEN_ALONE = "The word is {word}."


@dataclass
class VocabularyRow:
    line: int
    term: str
    definition: str
    example: str = ""
    problems: list[str] = field(default_factory=list)

    def entry(self) -> dict[str, str]:
        return {"term": self.term, "definition": self.definition, "example": self.example}


@dataclass
class BuiltWord:
    """One word of the list: the questions it makes, and why it makes no question of the other kinds."""

    term: str
    questions: list[dict[str, Any]] = field(default_factory=list)
    not_built: dict[str, str] = field(default_factory=dict)

    @property
    def used(self) -> bool:
        return bool(self.questions)

    @property
    def categories(self) -> list[str]:
        return [question["category"] for question in self.questions]


# --- reading ---------------------------------------------------------------------------------------------


def parse_vocabulary(data: bytes, *, separator: str = "auto") -> list[VocabularyRow]:
    """The rows of a pasted or uploaded list. Raises :class:`BankFileError` when the text as a whole is
    unusable (encoding, size, too many rows, nothing in it); a bad row carries its problems."""
    text = decode(data, max_bytes=MAX_BYTES)
    delimiter = SEPARATORS.get(separator) or _guess_separator(text)
    refuse_unclosed_quote(text, delimiter)
    lines = [
        line for line in csv.reader(io.StringIO(text), delimiter=delimiter) if any(c.strip() for c in line)
    ]
    if len(lines) > MAX_WORDS:
        raise BankFileError(_("A list may hold at most %(max)d words.") % {"max": MAX_WORDS})
    rows = [_row(number, cells) for number, cells in enumerate(lines, start=1)]
    if rows and _is_header(rows[0]):
        rows = rows[1:]
    if not rows:
        raise BankFileError(_("The list holds no words."))
    _flag_repeats(rows)
    return rows


def _guess_separator(text: str) -> str:
    first_lines = text.splitlines()[:20]
    if any("\t" in line for line in first_lines):
        return "\t"
    if sum(";" in line for line in first_lines) > sum("," in line for line in first_lines):
        return ";"
    return ","


def _row(number: int, cells: list[str]) -> VocabularyRow:
    cells = [_undefuse(clean_text(cell)) for cell in cells]
    term, definition, example = ([*cells, "", "", ""])[:3]
    row = VocabularyRow(number, term.lower(), definition, example)
    if len(cells) > 3 and any(cells[3:]):
        row.problems.append(_("more than three columns (word, definition, example sentence)"))
    if not term:
        row.problems.append(_("the word is missing"))
    elif len(term) > TERM_MAX:
        row.problems.append(_("the word is longer than %(max)d characters") % {"max": TERM_MAX})
    if not definition:
        row.problems.append(_("the definition is missing"))
    elif len(definition) > DEFINITION_MAX:
        row.problems.append(_("the definition is longer than %(max)d characters") % {"max": DEFINITION_MAX})
    if len(example) > EXAMPLE_MAX:
        row.problems.append(
            _("the example sentence is longer than %(max)d characters") % {"max": EXAMPLE_MAX}
        )
    return row


def _is_header(row: VocabularyRow) -> bool:
    return row.term in {"term", "word", "words", "terms"} and row.definition.lower() in {
        "definition",
        "definitions",
        "meaning",
    }


def _flag_repeats(rows: list[VocabularyRow]) -> None:
    seen: dict[str, int] = {}
    for row in rows:
        if row.term and row.term in seen:
            row.problems.append(_("the word is already on line %(line)d") % {"line": seen[row.term]})
        seen.setdefault(row.term, row.line)


def _undefuse(value: str) -> str:
    """Our own export puts an apostrophe before a cell a spreadsheet would run as a formula."""
    if value[:1] == "'" and value[1:2] in _FORMULA_STARTS:
        return value[1:]
    return value


# --- writing ---------------------------------------------------------------------------------------------


def export_vocabulary(entries: list[dict[str, str]], *, separator: str = "tab") -> str:
    """The list in the format it came in (Quizlet's: one word per line, tab between the columns); a
    cell a spreadsheet would run as a formula gets a leading apostrophe."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=SEPARATORS[separator], lineterminator="\r\n")
    for entry in entries:
        cells = [entry["term"], entry["definition"]] + ([entry["example"]] if entry.get("example") else [])
        writer.writerow(["'" + cell if cell[:1] in _FORMULA_STARTS else cell for cell in cells])
    return buffer.getvalue()


# --- building the questions ------------------------------------------------------------------------------


def build_questions(entries: list[dict[str, str]], *, id_prefix: str) -> list[BuiltWord]:
    """Word Up questions of every kind each word allows, with ids ``<id_prefix>-<n>-<kind>``. A session
    asks them of every player, whatever their level (the game counts each answer at the player's level),
    so the level written here is only the bank's required field."""
    playable = [entry["term"] for entry in entries if is_single_word(entry["term"])]
    built = []
    for number, entry in enumerate(entries, start=1):
        word = BuiltWord(entry["term"])
        built.append(word)
        if not is_single_word(entry["term"]):
            reason = _("Word Up's answers are single words (letters and hyphens)")
            word.not_built = dict.fromkeys(WORDUP_CATEGORIES, reason)
            continue
        makers = {
            CROSSWORD: _crossword,
            MULTIPLE_CHOICE: lambda e: _multiple_choice(e, _distractors(playable, e["term"])),
            SPELLING: _spelling,
            MISSING_WORD: _missing_word,
        }
        for category in WORDUP_CATEGORIES:
            raw, reason = makers[category](entry)
            if raw is None:
                word.not_built[category] = reason
                continue
            raw |= {"id": f"{id_prefix}-{number}-{category}", "level": LIST_LEVEL, "category": category}
            cleaned, problems = clean_wordup(raw)
            if cleaned is None:
                word.not_built[category] = "; ".join(problem.message for problem in problems)
            else:
                word.questions.append(cleaned)
    return built


def is_single_word(term: str) -> bool:
    return len(term) <= WORD_MAX_LENGTH and bool(WORD_RE.match(term))


def _crossword(entry: dict[str, str]) -> tuple[dict | None, str]:
    return {"prompt": entry["definition"], "answers": [entry["term"]]}, ""


def _multiple_choice(entry: dict[str, str], others: list[str]) -> tuple[dict | None, str]:
    if len(others) < 2:
        return None, _("a list needs at least three words for multiple choice")
    choices = sorted([entry["term"], *others[:2]])
    prompt = CHOICE_PROMPT.format(definition=entry["definition"].rstrip("."))
    return {"prompt": prompt, "answers": [entry["term"]], "choices": choices}, ""


def _distractors(terms: list[str], term: str) -> list[str]:
    """Two other words of the list for a multiple-choice question: the next ones round the list, so
    every word appears as a wrong choice about as often as a right one."""
    index = terms.index(term)
    return [terms[(index + step) % len(terms)] for step in range(1, len(terms))][:2]


def _spelling(entry: dict[str, str]) -> tuple[dict | None, str]:
    example = entry.get("example", "")
    sentence = example if example and whole_word_count(entry["term"], example) == 1 else ""
    sentence = sentence or SPOKEN_ALONE.format(word=entry["term"])
    return {"sentence": sentence, "answers": [entry["term"]]}, ""


def _missing_word(entry: dict[str, str]) -> tuple[dict | None, str]:
    example = entry.get("example", "")
    if not example:
        return None, _("no example sentence (add one in a third column)")
    if whole_word_count(entry["term"], example) != 1:
        return None, _("the example sentence must hold the word exactly once")
    pattern = rf"(?<![A-Za-z]){re.escape(entry['term'])}(?![A-Za-z])"
    return {
        "prompt": re.sub(pattern, GAP, example, count=1, flags=re.IGNORECASE),
        "answers": [entry["term"]],
    }, ""


def questions_by_category(built: list[BuiltWord]) -> dict[str, list[dict[str, Any]]]:
    by_category: dict[str, list[dict[str, Any]]] = {category: [] for category in WORDUP_CATEGORIES}
    for word in built:
        for question in word.questions:
            by_category[question["category"]].append(question)
    return by_category
