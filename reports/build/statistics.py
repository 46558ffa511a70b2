"""Stage 2 of a build, computing the statistics tables: each student's figures per session, each
session's for the class, and per question the answers and the wrong answers given (anonymous, whole
class)."""

from __future__ import annotations

import json
import operator
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import BooleanField, Count, ExpressionWrapper, Q

from .. import catalog
from .read import MICRO, FactFigures, SessionRow
from .write import Row


@dataclass(frozen=True)
class _SessionFacts:
    """What every row of a session says about it."""

    classroom_id: int
    game: str
    skill: str
    day: Any


def _session_facts(figures: FactFigures) -> dict[int, _SessionFacts]:
    return {
        pk: _SessionFacts(
            session["classroom_id"], session["game"], catalog.game_skill(session["game"]), session["day"]
        )
        for pk, session in figures.sessions.items()
    }


def session_rows(figures: FactFigures) -> list[SessionRow]:
    """Each student's figures in each rebuilt session: from their answers, or empty rows for those who
    took part without answering (unless their data was erased since)."""
    about = _session_facts(figures)
    stats: dict[tuple[int, int], SessionRow] = {}
    for student_id, session_id, answered, right, time_micros, timed, *others in figures.per_session:
        if session_id in figures.wanted:
            session = about[session_id]
            no_answer, measured, measured_right = others
            stats[(student_id, session_id)] = SessionRow(
                student_id,
                session.classroom_id,
                session_id,
                session.game,
                session.skill,
                session.day,
                answered,
                right,
                round((time_micros or 0) / MICRO, 3),
                timed,
                no_answer,
                measured,
                measured_right,
            )
    for student_id, session_id in figures.joined:
        if (student_id, session_id) in stats or _erased_since(figures, student_id, session_id):
            continue
        session = about[session_id]
        stats[(student_id, session_id)] = SessionRow(
            student_id,
            session.classroom_id,
            session_id,
            session.game,
            session.skill,
            session.day,
            0,
            0,
            0.0,
            0,
        )
    return sorted(stats.values(), key=operator.attrgetter("session_id", "student_id"))


def _erased_since(figures: FactFigures, student_id: int, session_id: int) -> bool:
    session = figures.sessions[session_id]
    when = session["ended_at"] or session["started_at"] or session["scheduled_for"]
    return student_id in figures.erased and when <= figures.erased[student_id]


@dataclass
class _SessionTotals:
    participants: int = 0
    answered: int = 0
    correct: int = 0
    time_total: float = 0.0
    time_count: int = 0
    no_answer: int = 0
    measured: int = 0
    measured_right: int = 0


def class_session_rows(figures: FactFigures, rows: list[SessionRow]) -> list[Row]:
    """Each rebuilt session's figures for the class (not those of frozen sessions)."""
    sessions, live = figures.sessions, figures.wanted - figures.frozen
    totals: dict[int, _SessionTotals] = {}
    for stat in rows:
        total = totals.setdefault(stat.session_id, _SessionTotals())
        total.participants += 1
        total.answered += stat.answered
        total.correct += stat.correct
        total.time_total += stat.time_total
        total.time_count += stat.time_count
        total.no_answer += stat.no_answer
        total.measured += stat.measured
        total.measured_right += stat.measured_right
    return [
        Row(
            classroom_id=sessions[session_id]["classroom_id"],
            session_id=session_id,
            game=sessions[session_id]["game"],
            skill=catalog.game_skill(sessions[session_id]["game"]),
            day=sessions[session_id]["day"],
            participants=total.participants,
            answered=total.answered,
            correct=total.correct,
            time_total=round(total.time_total, 3),
            time_count=total.time_count,
            no_answer=total.no_answer,
            measured=total.measured,
            measured_right=total.measured_right,
            frozen=False,
        )
        for session_id, total in sorted(totals.items())
        if session_id in live
    ]


def item_rows(figures: FactFigures) -> tuple[list[tuple], list[tuple]]:
    """Per question: answers and right answers, and the wrong answers given (anonymous, whole class), as
    ``ITEM_FIELDS`` and ``WRONG_FIELDS`` tuples."""
    items = [
        (classroom_id, game, category, level, item_id, answered, right, False, bool(homework))
        for classroom_id, game, category, level, item_id, answered, right, homework in sorted(
            figures.items,
            key=lambda item: (*item[:3], item[3] or 0, item[4], item[7]),  # level None first
        )
    ]
    # The wrong answers as raw SQL reads them: JSON text (Django's loader on PostgreSQL, and SQLite).
    return items, _merged_wrong_answers(figures.wrong, encoded=True)


def wrong_answer_rows(facts, *, archived: bool = False) -> list[tuple]:
    """The wrong answers of some facts (a queryset), merged as a class report lists them
    (``WRONG_FIELDS`` tuples)."""
    wrong = (
        facts.filter(catalog.wrong_answers_q())
        .annotate(homework=homework_fact())
        .values("classroom_id", "game", "category", "item_id", "response", "homework")
        .annotate(count=Count("id"))
        .values_list("classroom_id", "game", "category", "item_id", "response", "count", "homework")
        .order_by()
    )
    return _merged_wrong_answers(wrong, archived=archived)


def homework_fact() -> ExpressionWrapper:
    """Whether a fact (or a row with a ``session``) comes from a homework attempt."""
    return ExpressionWrapper(Q(session__assignment__isnull=False), output_field=BooleanField())


class _AnswerWording:
    """Wrong answers in words, each distinct JSON text (as raw SQL reads a response) decoded and worded
    once; with the case-folded text they are merged by."""

    def __init__(self, *, encoded: bool) -> None:
        self.encoded = encoded
        self.worded: dict[tuple[str, str], tuple[str, str]] = {}

    def __call__(self, game: str, response: Any) -> tuple[str, str]:
        key = (game, response) if self.encoded and isinstance(response, str) else None
        if key is not None and key in self.worded:
            return self.worded[key]
        text = catalog.answer_text(game, json.loads(response) if key is not None else response)
        if key is not None:
            self.worded[key] = (text, text.casefold())
        return text, text.casefold()


def _merged_wrong_answers(
    rows: Iterable[tuple], *, archived: bool = False, encoded: bool = False
) -> list[tuple]:
    """Wrong answers merged per question, case-insensitively, live games and homework apart.
    ``encoded``: the responses are JSON text."""
    word = _AnswerWording(encoded=encoded)
    texts_of: dict[tuple, dict[str, int]] = {}
    for classroom_id, game, category, item_id, response, count, homework in rows:
        text, folded = word(game, response)
        if not text:
            continue
        texts = texts_of.setdefault((classroom_id, game, category, item_id, bool(homework), folded), {})
        texts[text] = texts.get(text, 0) + count
    # Spellings that differ only in case are one answer, shown as most often written.
    return [
        (classroom_id, game, category, item_id, most_written(texts), sum(texts.values()), archived, homework)
        for (classroom_id, game, category, item_id, homework, _key), texts in sorted(texts_of.items())
    ]


def most_written(texts: dict[str, int]) -> str:
    """The spelling given most often (the first in alphabetical order among equals)."""
    if len(texts) == 1:
        return next(iter(texts))
    return min(texts, key=lambda text: (-texts[text], text))
