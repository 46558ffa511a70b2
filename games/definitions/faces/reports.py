"""Line-Up's (Guess Who) part of the progress reports. Two different measures, never mixed:

* the questions a student asked have a quality score, not a mark: the share of the best split any
  question on the pad could have made at that moment (1: as good as any). Reports show its mean, never
  a share right;
* naming the face is right or wrong (accuracy).

Rounds and matches won are results."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.definitions.reporting import Counted, InsightQuery, ItemLabels, ReportMeasures, Summed, percent

_QUESTION = "category = 'question' AND score IS NOT NULL"


def _gather(rows: list[tuple]) -> dict[str, Any]:
    ((questions, quality_total, ideal),) = rows
    return {"questions": questions, "quality_total": quality_total or 0.0, "ideal": ideal}


def _summarise(raw: dict[str, Any] | None, categories: dict[str, dict]) -> dict[str, Any] | None:
    name = categories.get("name")
    if raw is None and name is None:
        return None
    raw = raw or {"questions": 0, "ideal": 0, "quality_total": 0.0}
    questions = raw["questions"]
    return {
        "questions": questions,
        "ideal": raw["ideal"],
        "quality": round(raw["quality_total"] / questions, 4) if questions else None,
        "named": name["correct"] if name else 0,
        "names": name["answered"] if name else 0,
    }


def _insight_lines(insight: dict[str, Any]) -> list[str]:
    lines = []
    if insight["questions"] and insight["quality"] is not None:
        lines.append(
            _(
                "Question quality %(quality)s: how well their questions split the faces, on average, "
                "where 100%% is as well as the best question on the pad could."
            )
            % {"quality": percent(insight["quality"])}
        )
        lines.append(
            ngettext(
                "%(ideal)d of their %(n)d question was the best split possible.",
                "%(ideal)d of their %(n)d questions were the best split possible.",
                insight["questions"],
            )
            % {"ideal": insight["ideal"], "n": insight["questions"]}
        )
    if insight["names"]:
        lines.append(
            _("Named the right face %(right)d of %(n)d times.")
            % {"right": insight["named"], "n": insight["names"]}
        )
    return lines


def _word_answer(response: Any) -> str | None:
    """A face named: the face's id."""
    return str(response["face"]) if isinstance(response, dict) and "face" in response else None


MEASURES = ReportMeasures(
    skill="reasoning",
    category_labels={
        "question": gettext_lazy("Question quality"),
        "name": gettext_lazy("Naming the face"),
        "round": gettext_lazy("Rounds won"),
        "match": gettext_lazy("Matches won"),
    },
    answer_categories=("name",),
    level_evidence=(),
    # A wrong name is a face's letter: nothing a teacher could act on.
    wrong_answer_categories=(),
    summarise=_summarise,
    insight_lines=_insight_lines,
    word_answer=_word_answer,
    quality_categories=("question",),
    # A face named reads as the student saw it ("Kofi: red hair, glasses, a hat"), not by its letter.
    item_labels=ItemLabels(detail_key="description"),
    insight_query=InsightQuery(
        where=_QUESTION,
        figures=(Counted(), Summed("score"), Counted("score >= 1")),
        gather=_gather,
    ),
)
