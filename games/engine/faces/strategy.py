"""The optimal-play table, after M. Nica, "Optimal strategy in Guess Who?: beyond binary search" (2016).

Only the numbers of faces matter: the other player's face is equally likely to be any face left on
your board. ``win_chance(n, m)`` is the probability that the player to move, with ``n`` faces left
against the other player's ``m``, wins the round when both play perfectly.

Line-Up's rules differ from Nica's model in two ways, and the table follows Line-Up's:

* Naming is a move: right wins at once, wrong loses at once, so naming with ``n`` left is worth 1/n.
* Narrowing your board to one face does not win by itself: you name it on your next turn, so the other
  player gets one more turn (in which naming can still win).

A question that keeps ``b`` of ``n`` faces on a "yes" is worth
``b/n * (1 - P(m, b)) + (n - b)/n * (1 - P(m, n - b))`` (after it, the other player moves with ``m``
against your ``b`` or ``n - b``); ``P(n, m)`` is the best of naming and every split, and ``P(1, m) = 1``.
The recursion always lowers ``n + m``, so it ends. ``nica_win_chance`` is Nica's original model (the
first player narrowed to one face wins) for comparison: there, 4 of 24 is the best question against an
opponent down to 6 (a bold play); under Line-Up's rules the trailing player's bold plays appear at
other sizes (e.g. 4 of 10 against 7, and 1 of 4 against 4).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

MAX_FACES = 24


@cache
def win_chance(n: int, m: int) -> Fraction:
    """P(n, m) under Line-Up's rules (exact)."""
    _check(n, m)
    if n == 1:
        return Fraction(1)
    best = name_value(n)
    for keep in range(1, n // 2 + 1):
        best = max(best, question_value(n, m, keep))
    return best


def name_value(n: int) -> Fraction:
    """Winning chance of naming one of ``n`` faces now."""
    return Fraction(1, n)


def question_value(n: int, m: int, keep: int) -> Fraction:
    """Winning chance of asking a question that keeps ``keep`` of ``n`` faces on a yes (then perfect play)."""
    if not 0 < keep < n:
        raise ValueError("a question must keep some faces and remove some")
    other = n - keep
    return Fraction(keep, n) * (1 - win_chance(m, keep)) + Fraction(other, n) * (1 - win_chance(m, other))


def best_sizes(n: int, m: int) -> list[int]:
    """The optimal question sizes ``keep <= n/2`` (a split of b is the same question as one of n - b);
    empty when naming a face is strictly better than every question."""
    if n == 1:
        return []
    values = {keep: question_value(n, m, keep) for keep in range(1, n // 2 + 1)}
    top = max(values.values())
    if name_value(n) > top:
        return []
    return [keep for keep, value in values.items() if value == top]


@cache
def nica_win_chance(n: int, m: int) -> Fraction:
    """Nica's model: no naming; the first player whose question leaves one face wins at once."""
    _check(n, m)
    if n == 1:
        return Fraction(1)
    return max(_nica_question_value(n, m, keep) for keep in range(1, n // 2 + 1))


def nica_best_sizes(n: int, m: int) -> list[int]:
    values = {keep: _nica_question_value(n, m, keep) for keep in range(1, n // 2 + 1)}
    top = max(values.values())
    return [keep for keep, value in values.items() if value == top]


def _nica_question_value(n: int, m: int, keep: int) -> Fraction:
    def after(faces: int) -> Fraction:
        return Fraction(1) if faces == 1 else 1 - nica_win_chance(m, faces)

    return Fraction(keep, n) * after(keep) + Fraction(n - keep, n) * after(n - keep)


def _check(n: int, m: int) -> None:
    if not (1 <= n <= MAX_FACES and 1 <= m <= MAX_FACES):
        raise ValueError(f"face counts must be between 1 and {MAX_FACES}")


def choose(n: int, m: int, splits: dict[str, int]) -> tuple[str, str | None, Fraction]:
    """The hard bot's move with ``n`` faces left against ``m``, given the legal questions and how many
    faces each keeps on a yes: ``("name", None, value)`` or ``("ask", question, value)``.

    The 20 fixed questions offer only some sizes, so the bot takes the available question with the
    highest table value (not merely the size nearest an optimal one: the value is not monotone in the
    size, which is exactly what makes bold plays). Ties go to the split nearest a half (the table
    assumes every size stays available later, which halving keeps most true), then to pad order.
    Naming wins only when strictly better than every question."""
    if n == 1 or not splits:
        return ("name", None, name_value(n))
    ranked = sorted(
        splits.items(),
        key=lambda item: (-question_value(n, m, item[1]), abs(2 * item[1] - n)),
    )
    question, keep = ranked[0]
    value = question_value(n, m, keep)
    if name_value(n) > value:
        return ("name", None, name_value(n))
    return ("ask", question, value)
