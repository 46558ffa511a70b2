"""Item analysis: how a class did on each question, and how well each question tells its stronger
students from its weaker ones on the same skill (the discrimination index).

Pure functions over per-student counts; :func:`reports.selectors.item_analysis` reads the counts.

The discrimination index of a question is the corrected item–rest correlation: across the students who
answered it, the Pearson correlation between their share right on this question and their share right on
every *other* question of the same skill in the class. Near 1: the students who do well on the skill get
it right and the others do not; near 0: it tells them apart no better than chance; below 0: the weaker
students do better on it than the stronger ones, a sign of a question that misleads or a wrong key."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

#: Students who must have answered a question (and others of its skill) before its index is given:
#: a correlation over fewer students swings too far with one answer to tell a teacher anything (from 4
#: students, one answer more can move it by more than 0.5). Below it the page says "too few answers".
MIN_STUDENTS = 10
#: The index is shown to two decimals: its third says nothing a class's answers can support.
INDEX_DECIMALS = 2
#: Below this index a question is worth a look (a common rule of thumb for classroom tests: 0.2).
WEAK_DISCRIMINATION = 0.2


@dataclass(frozen=True)
class Answers:
    """One student's answers to one question."""

    student_id: int
    game: str
    skill: str
    item_id: str
    answered: int
    correct: int


@dataclass
class ItemRow:
    game: str
    skill: str
    item_id: str
    #: Sessions it was asked in, students who answered it, and all their answers.
    sessions: int
    students: int
    answered: int
    correct: int
    discrimination: float | None
    #: Fewer than ``MIN_STUDENTS`` students answered it and others of its skill: no index.
    too_few: bool = False

    @property
    def share(self) -> float | None:
        return self.correct / self.answered if self.answered else None


def pearson(xs: list[float], ys: list[float]) -> float | None:
    """The correlation of two equally long lists; ``None`` when either does not vary."""
    count = len(xs)
    if count < 2:
        return None
    mean_x, mean_y = sum(xs) / count, sum(ys) / count
    sxx = sum((x - mean_x) ** 2 for x in xs)
    syy = sum((y - mean_y) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return None
    sxy = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True))
    return sxy / math.sqrt(sxx * syy)


def skill_totals(answers: list[Answers]) -> dict[tuple[str, int], tuple[int, int]]:
    """Each student's (answered, correct) over every question of each skill."""
    totals: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0])
    for row in answers:
        total = totals[(row.skill, row.student_id)]
        total[0] += row.answered
        total[1] += row.correct
    return {key: (answered, correct) for key, (answered, correct) in totals.items()}


def _item_and_rest(of_item: list[Answers], totals) -> tuple[list[float], list[float]]:
    """Each student's share right on the question and on the rest of its skill (students with both)."""
    xs, ys = [], []
    for row in sorted(of_item, key=lambda row: row.student_id):
        answered, correct = totals[(row.skill, row.student_id)]
        rest_answered, rest_correct = answered - row.answered, correct - row.correct
        if row.answered and rest_answered:
            xs.append(row.correct / row.answered)
            ys.append(rest_correct / rest_answered)
    return xs, ys


def discrimination(
    of_item: list[Answers],
    totals: dict[tuple[str, int], tuple[int, int]],
    *,
    min_students: int = MIN_STUDENTS,
) -> float | None:
    """The item–rest correlation of one question (``of_item``: its answers, one row per student), the
    rest being each student's other answers of the same skill (``totals`` less this question's), to
    ``INDEX_DECIMALS`` places."""
    xs, ys = _item_and_rest(of_item, totals)
    if len(xs) < min_students:
        return None
    found = pearson(xs, ys)
    return None if found is None else round(found, INDEX_DECIMALS)


def item_rows(answers: list[Answers], sessions_of: dict[tuple[str, str], int]) -> list[ItemRow]:
    """Every question answered in the class: its figures and discrimination index (hardest first).
    ``sessions_of``: how many of the class's sessions asked each (game, item)."""
    totals = skill_totals(answers)
    by_item: dict[tuple[str, str], list[Answers]] = defaultdict(list)
    for row in answers:
        by_item[(row.game, row.item_id)].append(row)
    rows = []
    for (game, item_id), of_item in by_item.items():
        skill = of_item[0].skill
        rows.append(
            ItemRow(
                game=game,
                skill=skill,
                item_id=item_id,
                sessions=sessions_of.get((game, item_id), 0),
                students=len({row.student_id for row in of_item}),
                answered=sum(row.answered for row in of_item),
                correct=sum(row.correct for row in of_item),
                discrimination=discrimination(of_item, totals),
                too_few=len(_item_and_rest(of_item, totals)[0]) < MIN_STUDENTS,
            )
        )
    rows.sort(key=lambda row: (row.share if row.share is not None else 1.0, row.game, row.item_id))
    return rows
