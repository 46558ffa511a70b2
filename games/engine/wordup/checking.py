"""Marking typed answers: gentle about capitals, hyphens, spaces and tablet punctuation; strict on letters."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

# Hyphen-minus and its look-alikes that phone and tablet keyboards produce.
_HYPHENS = frozenset("-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"})
# Stripped from both ends only: a full stop or quotes round an answer are not a spelling mistake.
_EDGE_PUNCTUATION = ' \t\r\n.,!?;:"()[]{}'
# Between several words typed for one gap: commas, slashes, "or", "and" ... (see several_words).
_LIST_SEPARATORS = re.compile(r"[,/;&+|]|\s+(?:or|and)\s+", re.IGNORECASE)


def match_key(text: str) -> str:
    """The form two answers are compared in: case, hyphens and spaces removed (so "Well-known",
    "well known" and "wellknown" are the same), curly apostrophes made straight."""
    text = unicodedata.normalize("NFKC", text).translate(_APOSTROPHES)
    text = text.strip(_EDGE_PUNCTUATION).casefold()
    return "".join(ch for ch in text if not ch.isspace() and ch not in _HYPHENS)


def accepted_keys(answers: Iterable[str]) -> frozenset[str]:
    return frozenset(key for key in (match_key(answer) for answer in answers) if key)


def several_words(text: str) -> list[str]:
    """The words of an answer that lists more than one ("big, large", "big or large", "big large")."""
    parts = [part for part in _LIST_SEPARATORS.split(text) if match_key(part)]
    if len(parts) < 2:
        parts = [part for part in text.split() if match_key(part)]
    return parts


def check_typed(question: dict[str, Any], text: str) -> bool:
    """Right if the answer is an accepted word or alternative spelling.

    Missing Word and Crossword Clues accept *any* accepted word. A student who types several words is
    right only if every one of them is accepted (naming two right words still wins one token; a right
    word hedged with a wrong guess is wrong). Spelling has one attempt: the whole answer must match.
    """
    keys = accepted_keys(question["answers"] + question.get("alternatives", []))
    if match_key(text) in keys:
        return True
    if question["category"] == "spelling":
        return False
    parts = several_words(text)
    return len(parts) >= 2 and all(match_key(part) in keys for part in parts)


def right_choices(question: dict[str, Any], choices: list[str]) -> list[int]:
    """Indexes of the multiple-choice options that match an accepted answer."""
    keys = accepted_keys(question["answers"] + question.get("alternatives", []))
    return [index for index, choice in enumerate(choices) if match_key(choice) in keys]


def choice_for_text(choices: list[str], text: str) -> int | None:
    """The option a typed (or tapped) text names, or None if it names none of them."""
    key = match_key(text)
    for index, choice in enumerate(choices):
        if key and match_key(choice) == key:
            return index
    return None
