"""Word Up's part of the progress reports: every answer counts, at its question's level, and its insight
is the student's score in each of the four categories and the answers the teacher accepted. A spelling
question is named by its instruction ("Listen and spell the word."), shown in the reader's language."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext

from games.definitions.reporting import ItemLabels, ReportMeasures
from games.engine.wordup.questions import SPELLING_INSTRUCTIONS

#: The wording a spelling question's name may be: the shipped bank's instruction and the engine's
#: standard ones (the instruction is in the reader's language; the words the game teaches stay English).
STANDARD_PROMPTS = frozenset((gettext_noop("Listen and spell the word."), *SPELLING_INSTRUCTIONS))


def _summarise(raw: dict[str, Any] | None, categories: dict[str, dict]) -> dict[str, Any] | None:
    rows = list(categories.values())
    if not rows:
        return None
    return {
        "categories": [[row["category"], row["correct"], row["answered"]] for row in rows],
        "marked": sum(row["marked"] for row in rows),
    }


CATEGORY_LABELS = {
    "missing_word": gettext_lazy("Missing Word"),
    "crossword": gettext_lazy("Crossword Clues"),
    "multiple_choice": gettext_lazy("Multiple Choice"),
    "spelling": gettext_lazy("Spelling"),
}


def _item_text(text: str) -> str:
    return _(text.strip()) if text.strip() in STANDARD_PROMPTS else text


def _insight_lines(insight: dict[str, Any]) -> list[str]:
    lines = [
        _("%(category)s: %(right)d of %(n)d right.")
        % {"category": CATEGORY_LABELS.get(category, category), "right": right, "n": total}
        for category, right, total in insight["categories"]
    ]
    if insight["marked"]:
        lines.append(
            ngettext(
                "%(n)d answer was accepted by the teacher.",
                "%(n)d answers were accepted by the teacher.",
                insight["marked"],
            )
            % {"n": insight["marked"]}
        )
    return lines


MEASURES = ReportMeasures(
    skill="english_vocabulary",
    category_labels=CATEGORY_LABELS,
    answer_categories=None,
    level_evidence=None,
    wrong_answer_categories=None,
    summarise=_summarise,
    insight_lines=_insight_lines,
    item_labels=ItemLabels(
        bank="questions.WordUpQuestion",
        text_field="prompt",
        # Every spelling reads "Listen and spell the word.": the word tells them apart.
        answer_field="answers",
        answer_categories=("spelling",),
    ),
    item_text=_item_text,
    # The answer clock ran out: the engine marks the question with no response.
    no_answer_categories=None,
    option_categories=("multiple_choice",),
    options_field="choices",
)
