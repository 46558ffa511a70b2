"""What the progress reports need to know about one game: the skill its facts practise, the names of its
categories, which of its facts are answers, and its own insight beyond right and wrong (read from its
facts, summarised, and put into words). The reports hold no game's name: they ask the registry
(``games.definitions.all_measures``).

Plain data and functions: nothing here may import the reports app (the reports depend on the games,
never the other way round)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise

#: A game's categories that something holds for: ``None`` means every category of the game.
Categories = tuple[str, ...] | None


@dataclass(frozen=True)
class DetailColumn:
    """A value of some of the game's facts' ``detail`` that a build reads into its facts table, as the
    column ``name`` (``None`` on the other facts). ``when``: an SQL condition on the facts' columns."""

    name: str
    key: str
    when: str
    number: bool = False


@dataclass(frozen=True)
class Counted:
    """An insight figure: how many facts of the group (those meeting the SQL condition ``where``)."""

    where: str = ""


@dataclass(frozen=True)
class Summed:
    """An insight figure: the exact sum of a numeric column of the group (``None`` if it has none)."""

    column: str


@dataclass(frozen=True)
class InsightQuery:
    """The game's own figures per student: its facts meeting ``where`` (an SQL condition on the build's
    facts table, already limited to this game), grouped per class, student and the ``group_by`` columns.

    ``gather`` turns one student's rows (the ``group_by`` values, then the ``figures``) into the raw
    insight that :attr:`ReportMeasures.summarise` receives."""

    where: str
    figures: tuple[Counted | Summed, ...]
    gather: Callable[[list[tuple]], dict[str, Any]]
    group_by: tuple[str, ...] = ()


@dataclass(frozen=True)
class ItemLabels:
    """Where a report finds a readable name for one of the game's questions (by its ``item_id``): the
    ``text_field`` of a question bank (``bank``, "app_label.Model", keyed by ``key``; the school's own
    question before a shipped one), a ``detail_key`` of the game's facts, or the id itself (``from_id``)."""

    bank: str = ""
    text_field: str = ""
    #: Narrows the bank's shipped questions to one per key (Line Up!'s English edition).
    shipped_filter: tuple[tuple[str, Any], ...] = ()
    detail_key: str = ""
    from_id: Callable[[str], str | None] | None = None
    #: Bank questions of these categories (the bank's ``category``) are named by their answer, the first
    #: of the list in ``answer_field``: their text is the same for every question (a spelling's
    #: "Listen and spell the word.").
    answer_field: str = ""
    answer_categories: tuple[str, ...] = ()


@dataclass(frozen=True)
class ReportMeasures:
    """One game's part of the progress reports."""

    #: The skill the game's facts practise (the engine writes it on every fact).
    skill: str
    #: Readable names of the game's categories (others are shown as written).
    category_labels: Mapping[str, Promise]
    #: Which facts are answers that accuracy counts; the rest are results (wins, banked lines).
    answer_categories: Categories
    #: Which answers are evidence for a level recommendation: asked at a known level, their mark the
    #: student's alone. ``()``: none.
    level_evidence: Categories
    #: Which wrong answers are short enough to list.
    wrong_answer_categories: Categories
    #: The game's student insight, from its raw insight (or ``None``) and the student's answer categories
    #: of this game (``{category: row}``, in order); ``None``: nothing to say.
    summarise: Callable[[dict[str, Any] | None, dict[str, dict]], dict[str, Any] | None]
    #: That insight in words, at request time in the reader's language.
    insight_lines: Callable[[dict[str, Any]], list[str]]
    #: A response of the game's own shape (not text) as a teacher would read it; ``None``: not its shape.
    word_answer: Callable[[Any], str | None] = lambda response: None
    insight_query: InsightQuery | None = None
    #: Categories measured by a quality score (the fact's ``score``, 0 to 1, 1 the best possible), not
    #: by right or wrong: a report shows their mean score, never a share right.
    quality_categories: tuple[str, ...] = ()
    #: Categories with a right and a wrong that are the game's own measure, not the skill's accuracy (a
    #: drawing recognised by the group also depends on the others): shown as their own share ("6 of 9"),
    #: never added into the skill's share right.
    share_categories: tuple[str, ...] = ()
    #: Multiple-choice categories: their answers are counted per option picked (the fact's response, the
    #: option's text), with the options of the question bank's ``options_field`` nobody picked.
    option_categories: tuple[str, ...] = ()
    options_field: str = ""
    #: Categories whose facts without a response (and not right) are questions the student let run out
    #: of time: "no answer", counted apart, never a wrong answer (nor in the share right, nor level
    #: evidence). ``None``: every category of the game.
    no_answer_categories: Categories = ()
    detail_columns: tuple[DetailColumn, ...] = ()
    item_labels: ItemLabels = field(default_factory=ItemLabels)
    #: A question's name (found by ``item_labels``) as the reader reads it, at request time: the game's
    #: own standard wording in their language; a question's text from a bank is shown as written.
    item_text: Callable[[str], str] = lambda text: text


def percent(value: float | None) -> str:
    return "—" if value is None else f"{round(100 * value)}%"
