"""Line-it's part of the progress reports: its number comparisons are answers (and level evidence);
lines banked, bets, jackpots and games won are results. Its insight lists the comparisons a student
got wrong most often (a wrong comparison's ``detail`` names the card, the line's end and how they relate)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.definitions.reporting import Counted, DetailColumn, InsightQuery, ItemLabels, ReportMeasures

#: The wrong comparisons a student report lists.
WRONG_SHOWN = 8
_WRONG_COMPARISON = "category = 'comparison' AND correct = FALSE"


def _gather(rows: list[tuple]) -> dict[str, Any]:
    wrong = [[card, end, relation, times] for card, end, relation, times in rows]
    wrong.sort(key=lambda comparison: (-comparison[3], str(comparison[0]), str(comparison[1])))
    return {"wrong": wrong[:WRONG_SHOWN]}


def _summarise(raw: dict[str, Any] | None, categories: dict[str, dict]) -> dict[str, Any] | None:
    comparison = categories.get("comparison")
    if raw is None and comparison is None:
        return None
    return {
        "comparisons": comparison["answered"] if comparison else 0,
        "right": comparison["correct"] if comparison else 0,
        "wrong": raw["wrong"] if raw else [],
    }


def _insight_lines(insight: dict[str, Any]) -> list[str]:
    if not (insight["comparisons"] or insight["wrong"]):
        return []
    lines = [
        _("%(right)d of %(n)d number comparisons right.")
        % {"right": insight["right"], "n": insight["comparisons"]}
    ]
    for card, end, relation, times in insight["wrong"]:
        direction = _("is bigger than") if relation == "greater" else _("is smaller than")
        lines.append(
            ngettext(
                "Missed that %(card)s %(direction)s %(end)s (once).",
                "Missed that %(card)s %(direction)s %(end)s (%(times)d times).",
                times,
            )
            % {"card": card, "end": end, "direction": direction, "times": times}
        )
    return lines


def _word_answer(response: Any) -> str | None:
    """A card placed, as the student saw it: "-13.5 after -18.2, on a line going down"."""
    if not (isinstance(response, dict) and "card" in response):
        return None
    values = {"card": response.get("card"), "end": response.get("after")}
    if response.get("direction") == "up":
        return _("%(card)s after %(end)s, on a line going up") % values
    if response.get("direction") == "down":
        return _("%(card)s after %(end)s, on a line going down") % values
    return _("%(card)s after %(end)s") % values


def _comparison_label(item_id: str) -> str | None:
    """``compare:LOW|HIGH`` (the two cards' faces) reads "LOW vs HIGH" (stored by the build: no words)."""
    if not item_id.startswith("compare:"):
        return None
    low, _bar, high = item_id.removeprefix("compare:").partition("|")
    return f"{low} vs {high}"


MEASURES = ReportMeasures(
    skill="numeracy",
    category_labels={
        "comparison": gettext_lazy("Comparing numbers"),
        "line": gettext_lazy("Lines banked"),
        "bet": gettext_lazy("Bets"),
        "jackpot": gettext_lazy("Jackpots"),
        "final_score": gettext_lazy("Games won"),
    },
    answer_categories=("comparison",),
    level_evidence=("comparison",),
    wrong_answer_categories=("comparison",),
    summarise=_summarise,
    insight_lines=_insight_lines,
    word_answer=_word_answer,
    detail_columns=(
        DetailColumn("card", "card_face", when=_WRONG_COMPARISON),
        DetailColumn("end_face", "end_face", when=_WRONG_COMPARISON),
        DetailColumn("relation", "relation", when=_WRONG_COMPARISON),
    ),
    insight_query=InsightQuery(
        where=_WRONG_COMPARISON,
        group_by=("card", "end_face", "relation"),
        figures=(Counted(),),
        gather=_gather,
    ),
    item_labels=ItemLabels(from_id=_comparison_label),
)
