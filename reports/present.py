"""Turn the stored report data into what pages and PDFs show: translated sentences, labels, charts.

The build stores numbers (so a report is the same in every language); the words are made here, at
request time, in the reader's language.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import catalog, charts


def pct(value: float | None) -> str:
    return "—" if value is None else f"{round(100 * value)}%"


def seconds(value: float | None) -> str:
    return "—" if value is None else _("%(seconds)s s") % {"seconds": f"{value:.1f}".rstrip("0").rstrip(".")}


def _short_day(iso: str) -> str:
    return date_format(dt.date.fromisoformat(iso), "j M")


def _where(note: dict) -> str:
    return _("%(category)s in %(game)s") % {
        "category": catalog.category_label(note["category"]),
        "game": catalog.game_label(note["game"]),
    }


def note_text(note: dict[str, Any]) -> str:
    kind = note["kind"]
    if kind == "strength":
        text = _("Strong at %(where)s: %(right)d of %(total)d right (%(pct)s).") % {
            "where": _where(note),
            "right": note["correct"],
            "total": note["answered"],
            "pct": pct(note["accuracy"]),
        }
        if note.get("class_accuracy") is not None and note["accuracy"] > note["class_accuracy"]:
            text += " " + _("The class average is %(pct)s.") % {"pct": pct(note["class_accuracy"])}
        return text
    if kind == "weakness":
        return _("Finds %(where)s hard: %(right)d of %(total)d right (%(pct)s). Worth practising.") % {
            "where": _where(note),
            "right": note["correct"],
            "total": note["answered"],
            "pct": pct(note["accuracy"]),
        }
    if kind == "rising":
        return _("Improving: %(recent)s right in the last five sessions, up from %(previous)s.") % {
            "recent": pct(note["recent"]),
            "previous": pct(note["previous"]),
        }
    if kind == "falling":
        return _("Slipping: %(recent)s right in the last five sessions, down from %(previous)s.") % {
            "recent": pct(note["recent"]),
            "previous": pct(note["previous"]),
        }
    if kind == "slow":
        return _("Takes longest over %(where)s (%(time)s an answer on average).") % {
            "where": _where(note),
            "time": seconds(note["mean_time"]),
        }
    if kind == "participation":
        return _("Took part in %(pct)s of the class's sessions.") % {"pct": pct(note["participation"])}
    return ""


def insight_lines(insights: dict[str, Any]) -> list[dict[str, Any]]:
    """Each game's own insight, one block per game the student played."""
    blocks = []
    lineup = insights.get("lineup")
    if lineup and lineup["questions"]:
        lines = [
            _(
                "On average %(own)s of 5 cards in the right place in their own ordering, "
                "%(team)s in the team's."
            )
            % {"own": lineup["own_mean"], "team": lineup["team_mean"]},
            _(
                "Their own order beat the team's %(better)d times and trailed it %(worse)d times "
                "(%(n)d questions)."
            )
            % {"better": lineup["better"], "worse": lineup["worse"], "n": lineup["questions"]},
        ]
        blocks.append({"game": catalog.game_label("lineup"), "lines": lines})
    faces = insights.get("faces")
    if faces and faces["questions"]:
        lines = [
            _("%(best)d of %(n)d questions split the faces as well as any question could (%(pct)s).")
            % {
                "best": faces["best"],
                "n": faces["questions"],
                "pct": pct(faces["best"] / faces["questions"]),
            },
        ]
        if faces["quality"] is not None:
            lines.append(
                _("Average question quality %(quality)s (1 is the best split).")
                % {"quality": faces["quality"]}
            )
        if faces["names"]:
            lines.append(
                _("Named the right face %(right)d of %(n)d times.")
                % {"right": faces["named"], "n": faces["names"]}
            )
        blocks.append({"game": catalog.game_label("faces"), "lines": lines})
    lineit = insights.get("lineit")
    if lineit and (lineit["comparisons"] or lineit["wrong"]):
        lines = [
            _("%(right)d of %(n)d number comparisons right.")
            % {"right": lineit["right"], "n": lineit["comparisons"]}
        ]
        for card, end, relation, times in lineit["wrong"]:
            direction = _("is bigger than") if relation == "greater" else _("is smaller than")
            lines.append(
                ngettext(
                    "Missed that %(card)s %(direction)s %(end)s (once).",
                    "Missed that %(card)s %(direction)s %(end)s (%(times)d times).",
                    times,
                )
                % {"card": card, "end": end, "direction": direction, "times": times}
            )
        blocks.append({"game": catalog.game_label("lineit"), "lines": lines})
    mindlines = insights.get("mindlines")
    if mindlines:
        lines = []
        if mindlines["drawings"]:
            lines.append(
                _("%(right)d of %(n)d drawings were recognised by the group.")
                % {"right": mindlines["recognised"], "n": mindlines["drawings"]}
            )
        if mindlines["exclusions"]:
            lines.append(
                _("%(right)d of %(n)d exclusions picked a decoy, as they should.")
                % {"right": mindlines["exclusions_right"], "n": mindlines["exclusions"]}
            )
        if lines:
            blocks.append({"game": catalog.game_label("mindlines"), "lines": lines})
    wordup = insights.get("wordup")
    if wordup:
        lines = [
            _("%(category)s: %(right)d of %(n)d right.")
            % {"category": catalog.category_label(category), "right": right, "n": total}
            for category, right, total in wordup["categories"]
        ]
        if wordup["marked"]:
            lines.append(
                ngettext(
                    "%(n)d answer was accepted by the teacher.",
                    "%(n)d answers were accepted by the teacher.",
                    wordup["marked"],
                )
                % {"n": wordup["marked"]}
            )
        blocks.append({"game": catalog.game_label("wordup"), "lines": lines})
    return blocks


def trend_chart(trend: list[dict], *, name: str, reference: float | None = None) -> charts.Chart:
    points = [(_short_day(point["day"]), point["accuracy"]) for point in trend]
    if trend:
        first, last = trend[0], trend[-1]
        summary = _(
            "Share of right answers in each of %(name)s's last %(n)d sessions, from %(first)s on %(d1)s "
            "to %(last)s on %(d2)s."
        ) % {
            "name": name,
            "n": len(trend),
            "first": pct(first["accuracy"]),
            "d1": _short_day(first["day"]),
            "last": pct(last["accuracy"]),
            "d2": _short_day(last["day"]),
        }
    else:
        summary = _("No sessions with answers yet.")
    return charts.line_chart(
        points, title=_("Right answers per session"), summary=summary, reference=reference
    )


def category_chart(categories: list[dict]) -> charts.Chart:
    rows = [
        (
            f"{catalog.category_label(row['category'])} · {catalog.game_label(row['game'])}"[:32],
            row["accuracy"],
            f"{row['correct']}/{row['answered']} · {pct(row['accuracy'])}",
        )
        for row in categories
    ]
    summary = "; ".join(f"{label}: {figure}" for label, _value, figure in rows) or _("No answers yet.")
    return charts.bar_chart(rows, title=_("Right answers by category"), summary=summary)


def student_view(report, summaries: list, *, name: str) -> dict[str, Any]:
    """Everything the student report page (and its PDF) shows, from one StudentReport row."""
    data = report.data
    categories = [
        {
            **row,
            "label": catalog.category_label(row["category"]),
            "game_label": catalog.game_label(row["game"]),
        }
        for row in data["categories"]
    ]
    games = [{**row, "label": catalog.game_label(row["game"])} for row in data["games"]]
    level_rows = [{**row, "skill_label": catalog.skill_label(row["skill"])} for row in data["levels"]]
    results = [
        {
            **row,
            "label": catalog.category_label(row["category"]),
            "game_label": catalog.game_label(row["game"]),
        }
        for row in data["results"]
    ]
    notes = [{"kind": note["kind"], "text": note_text(note)} for note in data["notes"]]
    # The two long tables, worded here: a template spends far longer resolving variables and filters.
    trend_rows = [
        {
            "day": date_format(dt.date.fromisoformat(point["day"]), "D j M Y"),
            "game": catalog.GAME_LABELS.get(point["game"]),
            "right": f"{point['correct']}/{point['answered']} ({pct(point['accuracy'])})",
            "time": seconds(point["mean_time"]),
        }
        for point in reversed(data["trend"])
    ]
    game_rows = [
        {
            "label": game["label"],
            "answered": game["answered"],
            "right": f"{game['correct']} ({pct(game['accuracy'])})",
            "time": seconds(game["mean_time"]),
            "categories": [
                {
                    "label": row["label"],
                    "answered": row["answered"],
                    "right": f"{row['correct']} ({pct(row['accuracy'])})",
                    "class": pct(row["class_accuracy"]),
                    "time": seconds(row["mean_time"]),
                }
                for row in categories
                if row["game"] == game["game"]
            ],
        }
        for game in games
    ]
    return {
        "totals": data["totals"],
        "games": games,
        "categories": categories,
        "levels": level_rows,
        "results": results,
        "trend": data["trend"],
        "trend_rows": trend_rows,
        "game_rows": game_rows,
        "trend_chart": trend_chart(data["trend"], name=name),
        "category_chart": category_chart(categories),
        "insights": insight_lines(data["insights"]),
        "strengths": [note for note in notes if note["kind"] in ("strength", "rising")],
        "weaknesses": [note for note in notes if note["kind"] not in ("strength", "rising")],
        "attention": data.get("attention", []),
        "skills": [skill_view(summary) for summary in summaries],
    }


def skill_view(summary) -> dict[str, Any]:
    evidence = [
        {
            "level": int(level),
            "right": right,
            "answered": total,
            "share": pct(right / total if total else None),
        }
        for level, (right, total) in sorted(summary.evidence.items(), key=lambda item: int(item[0]))
    ]
    confidence = summary.confidence
    word = ""
    if confidence is not None:
        word = _("high") if confidence >= 0.8 else (_("medium") if confidence >= 0.6 else _("low"))
    return {
        "skill": summary.skill,
        "label": catalog.skill_label(summary.skill),
        "answered": summary.answered,
        "correct": summary.correct,
        "accuracy": pct(summary.correct / summary.answered if summary.answered else None),
        "mean_time": seconds(summary.mean_time),
        "current": summary.current_level,
        "recommended": summary.recommended_level,
        "confidence": pct(confidence),
        "confidence_word": word,
        "evidence": evidence,
        "evidence_answers": summary.evidence_answers,
        "can_apply": summary.recommended_level is not None
        and summary.recommended_level != summary.current_level,
    }


ATTENTION_LABELS = {
    "falling": lambda: _("Accuracy falling"),
    "absent": lambda: _("Not taking part"),
    "rarely": lambda: _("Rarely takes part"),
}


def attention_labels(reasons: list[str]) -> list[str]:
    return [ATTENTION_LABELS[reason]() for reason in reasons if reason in ATTENTION_LABELS]
