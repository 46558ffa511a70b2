"""Mind the Lines' part of the progress reports: drawings the group recognised and exclusions right are
the game's own measures, each its own share, not added into the English vocabulary accuracy (a mark also
depends on the other players' drawings; nor are they level evidence). Only the decoys picked are short
enough to list as wrong answers (a drawing is strokes). A concept's text names it."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.definitions.reporting import Counted, InsightQuery, ItemLabels, ReportMeasures


def _gather(rows: list[tuple]) -> dict[str, Any]:
    return {category: [made, right] for category, made, right in rows}


def _summarise(raw: dict[str, Any] | None, categories: dict[str, dict]) -> dict[str, Any] | None:
    if not raw:
        return None
    drawing, exclusion = raw.get("drawing", [0, 0]), raw.get("exclusion", [0, 0])
    return {
        "drawings": drawing[0],
        "recognised": drawing[1],
        "exclusions": exclusion[0],
        "exclusions_right": exclusion[1],
    }


def _insight_lines(insight: dict[str, Any]) -> list[str]:
    lines = []
    if insight["drawings"]:
        lines.append(
            _("%(right)d of %(n)d drawings were recognised by the group.")
            % {"right": insight["recognised"], "n": insight["drawings"]}
        )
    if insight["exclusions"]:
        lines.append(
            _("%(right)d of %(n)d exclusions picked a decoy, as they should.")
            % {"right": insight["exclusions_right"], "n": insight["exclusions"]}
        )
    return lines


MEASURES = ReportMeasures(
    skill="english_vocabulary",
    category_labels={
        "drawing": gettext_lazy("Drawings recognised"),
        "exclusion": gettext_lazy("Decoys found"),
    },
    answer_categories=(),
    level_evidence=(),
    wrong_answer_categories=("exclusion",),
    summarise=_summarise,
    insight_lines=_insight_lines,
    share_categories=("drawing", "exclusion"),
    # A decoy hunt the turn clock decided: no response, neither right nor wrong.
    no_answer_categories=("exclusion",),
    insight_query=InsightQuery(
        where="category IN ('drawing', 'exclusion') AND correct IS NOT NULL",
        group_by=("category",),
        figures=(Counted(), Counted("correct")),
        gather=_gather,
    ),
    item_labels=ItemLabels(detail_key="text"),
)
