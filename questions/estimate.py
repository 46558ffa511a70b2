"""Estimated level of an English word from its CEFR grade, with cefrpy (its word list ships offline).

cefrpy grades a word per part of speech; we take its average level (``get_average_word_level_CEFR``)
and map A1 -> 1, A2 -> 2, B1 -> 3, B2 -> 4, C1 and C2 -> 5 (Classplay's five levels). A hyphenated
word cefrpy does not know is graded by its hardest part; a word it does not know at all has no estimate.
"""

from __future__ import annotations

from functools import lru_cache

CEFR_TO_LEVEL = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 5}
CEFR_NAMES = {1: "A1", 2: "A2", 3: "B1", 4: "B2", 5: "C1", 6: "C2"}


@lru_cache(maxsize=1)
def _analyzer():
    # Imported lazily: loading cefrpy reads its word data (a few tenths of a second).
    from cefrpy import CEFRAnalyzer

    return CEFRAnalyzer()


@lru_cache(maxsize=4096)
def cefr_grade(word: str) -> int | None:
    """cefrpy's CEFR grade of ``word`` as 1 (A1) .. 6 (C2), or None if it does not know the word."""
    word = (word or "").strip().lower()
    if not word:
        return None
    grade = _analyzer().get_average_word_level_CEFR(word)
    if grade is not None:
        return int(grade)
    if "-" in word:
        parts = [cefr_grade(part) for part in word.split("-") if part]
        if parts and all(part is not None for part in parts):
            return max(parts)
    return None


def estimate_word_level(word: str) -> int | None:
    """Classplay's level (1-5) for ``word``, or None."""
    grade = cefr_grade(word)
    return None if grade is None else CEFR_TO_LEVEL[grade]
