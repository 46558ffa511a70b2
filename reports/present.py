"""Turn the stored report data into what pages and PDFs show: translated sentences, labels, charts.

The build stores numbers (so a report is the same in every language); the words are made here, at
request time, in the reader's language.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.definitions import all_measures
from games.definitions.reporting import percent

from . import catalog, charts
from .build.read import BOTH, HOMEWORK, LIVE

#: Longest label a bar chart shows (a longer one is shortened at a word, with "…").
LABEL_SHOWN = 32


def pct(value: float | None) -> str:
    return percent(value)


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
    if kind in ("rising", "falling"):
        return _form_text(note)
    if kind == "slow":
        return _("Takes longest over %(where)s (%(time)s an answer on average).") % {
            "where": _where(note),
            "time": seconds(note["mean_time"]),
        }
    if kind == "participation":
        return _("Took part in %(pct)s of the class's live games.") % {"pct": pct(note["participation"])}
    return ""


def named_questions(data: dict[str, Any] | None) -> dict[str, Any] | None:
    """A class report's data with its hardest questions and common wrong answers named in the reader's
    language (the build stored each question's name as its game or bank gives it)."""
    if not data:
        return data
    named = {
        key: [{**row, "label": catalog.item_text(row["game"], row["label"])} for row in data.get(key, [])]
        for key in ("hardest", "wrong")
    }
    return {**data, **named}


def _form_text(note: dict[str, Any]) -> str:
    """Rising or slipping form, in one skill (a note built before form was taken skill by skill has
    none: its sessions' skills are unknown)."""
    figures = {"recent": pct(note["recent"]), "previous": pct(note["previous"])}
    if note.get("skill"):
        figures["skill"] = catalog.skill_label(note["skill"])
        if note["kind"] == "rising":
            text = _(
                "Improving in %(skill)s: %(recent)s right in the last five sessions of it, up from "
                "%(previous)s."
            )
        else:
            text = _(
                "Slipping in %(skill)s: %(recent)s right in the last five sessions of it, down from "
                "%(previous)s."
            )
        return text % figures
    if note["kind"] == "rising":
        return _("Improving: %(recent)s right in the last five sessions, up from %(previous)s.") % figures
    return _("Slipping: %(recent)s right in the last five sessions, down from %(previous)s.") % figures


def insight_lines(insights: dict[str, Any]) -> list[dict[str, Any]]:
    """Each game's own insight, one block per game the student played (in words, by the game)."""
    blocks = []
    for game, measures in all_measures().items():
        insight = insights.get(game)
        lines = measures.insight_lines(insight) if insight else []
        if lines:
            blocks.append({"game": catalog.game_label(game), "lines": lines})
    return blocks


def session_labels(points: list[dict]) -> list[str]:
    """A label per session that tells sessions apart: the day, and its number that day when a day has
    more than one ("3 Dec", "4 Dec (1)", "4 Dec (2)")."""
    per_day: dict[str, int] = {}
    for point in points:
        per_day[point["day"]] = per_day.get(point["day"], 0) + 1
    seen: dict[str, int] = {}
    labels = []
    for point in points:
        day = point["day"]
        seen[day] = seen.get(day, 0) + 1
        label = _short_day(day)
        labels.append(f"{label} ({seen[day]})" if per_day[day] > 1 else label)
    return labels


def point_skill(point: dict) -> str:
    """The skill of a session's point (reports built before points named it: their game's)."""
    return point.get("skill") or catalog.game_skill(point["game"])


def trend_chart(
    trend: list[dict],
    *,
    name: str,
    reference: float | None = None,
    title: str | None = None,
    labels: list[str] | None = None,
) -> charts.Chart:
    """Right answers per session, of one skill's sessions (a share right is never averaged across
    skills: see :func:`trend_charts`); ``labels``: each point's, as the page's list of sessions names
    it (default: told apart among these points)."""
    labels = labels if labels is not None else session_labels(trend)
    points = list(zip(labels, (point["accuracy"] for point in trend), strict=True))
    if trend:
        first, last = trend[0], trend[-1]
        summary = _(
            "Share of right answers in each of %(name)s's last %(n)d sessions, from %(first)s on %(d1)s "
            "to %(last)s on %(d2)s."
        ) % {
            "name": name,
            "n": len(trend),
            "first": pct(first["accuracy"]),
            "d1": labels[0],
            "last": pct(last["accuracy"]),
            "d2": labels[-1],
        }
    else:
        summary = _("No sessions with answers yet.")
    return charts.line_chart(
        points, title=title or _("Right answers per session"), summary=summary, reference=reference
    )


def trend_charts(trend: list[dict], *, name: str) -> list[dict[str, Any]]:
    """One chart of right answers per session for each skill (in the skills' order), each titled with
    its skill: ``[{"skill", "label", "chart"}]``."""
    # The sessions are named once, all together, as the page's list of them names them ("4 Dec (2)" is
    # the day's second session of any skill), so a point on a skill's chart is found in the list.
    by_skill: dict[str, list[tuple[str, dict]]] = {}
    for label, point in zip(session_labels(trend), trend, strict=True):
        if point.get("accuracy") is not None:
            by_skill.setdefault(point_skill(point), []).append((label, point))
    order = {skill: index for index, skill in enumerate(catalog.SKILL_LABELS)}
    found = []
    for skill in sorted(by_skill, key=lambda skill: (order.get(skill, len(order)), skill)):
        label = catalog.skill_label(skill)
        title = _("%(skill)s: right answers per session") % {"skill": label}
        points = [point for _label, point in by_skill[skill]]
        labels = [point_label for point_label, _point in by_skill[skill]]
        chart = trend_chart(points, name=name, title=title, labels=labels)
        found.append({"skill": skill, "label": label, "chart": chart})
    return found


def skill_shares(data: dict[str, Any] | None) -> dict[str, tuple[int, int]]:
    """A student's (right, answers) per skill, from their report's answer categories: the share right is
    only ever taken within one skill."""
    shares: dict[str, list[int]] = {}
    for row in (data or {}).get("categories", []):
        entry = shares.setdefault(catalog.game_skill(row["game"]), [0, 0])
        entry[0] += row["correct"]
        entry[1] += row["answered"]
    return {skill: (right, answered) for skill, (right, answered) in shares.items()}


def skills_in_order(skills) -> list[str]:
    order = {skill: index for index, skill in enumerate(catalog.SKILL_LABELS)}
    return sorted(set(skills), key=lambda skill: (order.get(skill, len(order)), skill))


def _skill_share_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    shares = skill_shares(data)
    return [
        {
            "label": catalog.skill_label(skill),
            "right": shares[skill][0],
            "answered": shares[skill][1],
            "share": shares[skill][0] / shares[skill][1],
        }
        for skill in skills_in_order(shares)
        if shares[skill][1]
    ]


def result_figure(row: dict) -> str:
    """A game's own figure as its measure says: games won, a quality category's mean score, or a share
    category's right of made."""
    if row.get("measure") == "quality":
        return _("quality %(pct)s") % {"pct": pct(row["mean_score"])}
    if row.get("measure") == "share":
        marked = row.get("marked") or 0
        return _("%(right)d of %(n)d (%(pct)s)") % {
            "right": row["wins"],
            "n": marked,
            "pct": pct(row["wins"] / marked if marked else None),
        }
    return str(row["wins"] if row["wins"] is not None else "—")


def session_figures(session: dict[str, Any], label: str = "") -> dict[str, Any]:
    """A class's session as its list shows it: answers and their share right, or a game's own marks
    (Mind the Lines' drawings and decoy hunts: "6 of 9", never a share right), and the questions left
    to run out of time apart ("no answer", never counted as wrong)."""
    measured = session.get("measured", 0)
    if session["answered"] or not measured:
        answers, right = session["answered"], pct(session["accuracy"])
    else:
        answers = measured
        right = _("%(right)d of %(n)d") % {"right": session.get("measured_right", 0), "n": measured}
    return {
        **session,
        "label": label,
        "answers_shown": answers,
        "right_shown": right,
        "no_answer": session.get("no_answer", 0),
    }


def participation_chart(sessions: list[dict]) -> charts.Chart:
    """Who took part in each of the class's last sessions: a bar per session, the share of the students
    enrolled then who played."""
    labels = session_labels([{"day": session["day"].isoformat()} for session in sessions])
    rows = [
        (
            catalog.shorten(f"{label} · {catalog.game_label(session['game'])}", LABEL_SHOWN),
            session["share"],
            _("%(present)d of %(total)d")
            % {
                "present": len(session["present"]),
                "total": len(session["present"]) + len(session["absent"]),
            },
        )
        for label, session in zip(labels, sessions, strict=True)
    ]
    summary = "; ".join(f"{label}: {figure}" for label, _value, figure in rows)
    return charts.bar_chart(rows, title=_("Students who took part in each session"), summary=summary)


def weak_spot_charts(spots: dict[str, list[dict]]) -> list[charts.Chart]:
    """The class's weakest categories and question levels, as bars of their share right."""
    found = []
    categories = [
        (
            catalog.shorten(
                f"{catalog.category_label(row['category'])} · {catalog.game_label(row['game'])}", LABEL_SHOWN
            ),
            row["share"],
            f"{row['correct']}/{row['answered']} · {pct(row['share'])}",
        )
        for row in spots["categories"]
    ]
    if categories:
        summary = "; ".join(f"{label}: {figure}" for label, _value, figure in categories)
        found.append(charts.bar_chart(categories, title=_("Weakest categories"), summary=summary))
    levels = [
        (
            _("%(skill)s, level %(level)d")
            % {"skill": catalog.skill_label(row["skill"]), "level": row["level"]},
            row["share"],
            f"{row['correct']}/{row['answered']} · {pct(row['share'])}",
        )
        for row in spots["levels"]
    ]
    if levels:
        summary = "; ".join(f"{label}: {figure}" for label, _value, figure in levels)
        found.append(charts.bar_chart(levels, title=_("Weakest question levels"), summary=summary))
    return found


def category_chart(categories: list[dict]) -> charts.Chart:
    rows = [
        (
            catalog.shorten(
                f"{catalog.category_label(row['category'])} · {catalog.game_label(row['game'])}", LABEL_SHOWN
            ),
            row["accuracy"],
            f"{row['correct']}/{row['answered']} · {pct(row['accuracy'])}",
        )
        for row in categories
    ]
    summary = "; ".join(f"{label}: {figure}" for label, _value, figure in rows) or _("No answers yet.")
    return charts.bar_chart(rows, title=_("Right answers by category"), summary=summary)


def student_view(report, summaries: list, *, name: str, mode: str = BOTH) -> dict[str, Any]:
    """Everything the student report page (and its PDF) shows, from one StudentReport row (as
    ``reports.selectors.report_in_mode`` gives it for ``mode``)."""
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
            "figure": result_figure(row),
        }
        for row in data["results"]
    ]
    notes = [{"kind": note["kind"], "text": note_text(note)} for note in data["notes"]]
    # The two long tables, worded here: a template spends far longer resolving variables and filters.
    labels = session_labels(data["trend"])  # as the charts name the sessions
    trend_rows = [
        {
            "day": label,
            "date": date_format(dt.date.fromisoformat(point["day"]), "D j M Y"),
            "game": catalog.GAME_LABELS.get(point["game"]),
            "skill": catalog.skill_label(point_skill(point)),
            "right": f"{point['correct']}/{point['answered']} ({pct(point['accuracy'])})",
            "no_answer": point.get("no_answer", 0),
            "time": seconds(point["mean_time"]),
            "homework": point.get("homework", False),
        }
        for label, point in reversed(list(zip(labels, data["trend"], strict=True)))
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
    totals = data["totals"]
    homework = totals.get("homework_sessions", 0)  # none in a report built before homework was counted
    return {
        "totals": {
            **totals,
            "homework_sessions": homework,
            "live_played": totals["sessions_played"] - homework,
        },
        "skill_shares": _skill_share_rows(data),
        "games": games,
        "categories": categories,
        "levels": level_rows,
        "results": results,
        "trend": data["trend"],
        "trend_rows": trend_rows,
        "game_rows": game_rows,
        "trend_charts": trend_charts(data["trend"], name=name),
        "category_chart": category_chart(categories),
        "insights": insight_lines(data["insights"]),
        "strengths": [note for note in notes if note["kind"] in ("strength", "rising")],
        "weaknesses": [note for note in notes if note["kind"] not in ("strength", "rising")],
        "attention": data.get("attention", []),
        "attention_labels": attention_labels(data.get("attention", []), mode),
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
    # Live games and homework: neither played (a student who only did homework is taking part).
    "absent": lambda: _("Not taking part: no live games or homework"),
    "rarely": lambda: _("Rarely takes part in live games"),
}
#: Live games only: "not taking part" means in the class's live games.
LIVE_ATTENTION_LABELS = {**ATTENTION_LABELS, "absent": lambda: _("Not taking part in live games")}


def attention_labels(reasons: list[str], mode: str = BOTH) -> list[str]:
    """Why a student needs attention, worded for what the report counts (participation is always in
    the class's live games; a homework-only report has no participation reason)."""
    labels = LIVE_ATTENTION_LABELS if mode == LIVE else ATTENTION_LABELS
    return [labels[reason]() for reason in reasons if reason in labels]


#: How each mode is named, everywhere: the filter, the pages, the exports (one wording).
MODE_LABELS = {
    BOTH: gettext_lazy("Live games and homework"),
    LIVE: gettext_lazy("Live games"),
    HOMEWORK: gettext_lazy("Homework"),
}
#: The end of an export's file name (never translated: a file keeps its name in every language).
MODE_SUFFIXES = {BOTH: "live-games-and-homework", LIVE: "live-games", HOMEWORK: "homework"}


def mode_label(mode: str) -> str:
    return str(MODE_LABELS[mode])


def games_played(played: int, held: int, homework: int, mode: str) -> str:
    """A student's games as a card prints them: live games played of the class's, and homework apart
    ("4 / 5 + 2 homework"), or with homework only, the attempts."""
    if mode == HOMEWORK:
        return str(played)
    text = f"{played - homework} / {held}"
    if homework:
        text += " " + ngettext("+ %(counter)s homework", "+ %(counter)s homework", homework) % {
            "counter": homework
        }
    return text


def rebuild_needed_text() -> str:
    return _(
        "This report was built before live games and homework could be shown apart: rebuild it to see "
        "them apart (it is rebuilt after the next session and every night)."
    )


def shows_line(mode: str) -> str:
    """The line an export or card prints to say what it counts."""
    return _("Shows: %(mode)s") % {"mode": mode_label(mode)}


# --- the printable summary for a student and their family -------------------------------------------------


def family_summary(report, summaries: list, *, name: str) -> dict[str, Any]:
    """What a student and their family read on one printed page (in the student's language): the games
    played, the share right in each skill, the level recommended in each levelled skill, and one sentence
    of advice."""
    data = report.data
    played = {row["game"]: row.get("sessions", 0) for row in data.get("games", [])}
    for row in data.get("results", []):
        played.setdefault(row["game"], 0)
    games = [
        {"label": catalog.game_label(game), "sessions": sessions} for game, sessions in sorted(played.items())
    ]
    levels = [
        {
            "label": catalog.skill_label(summary.skill),
            "current": summary.current_level,
            "recommended": summary.recommended_level,
        }
        for summary in summaries
        if summary.skill in catalog.LEVELLED_SKILLS and (summary.answered or summary.current_level)
    ]
    return {
        "games": games,
        "sessions": data.get("totals", {}).get("sessions_played", 0),
        "skills": _skill_share_rows(data),
        "levels": levels,
        "advice": family_advice(data.get("notes", []), name=name, answered=report.answered),
    }


def family_advice(notes: list[dict], *, name: str, answered: int) -> str:
    """One sentence of advice: the weakest category to practise, else the strongest to build on."""
    weakness = next((note for note in notes if note["kind"] == "weakness"), None)
    if weakness is not None:
        return _(
            "Next, practise %(where)s: %(name)s got %(right)d of %(total)d right there. A few minutes of it "
            "on most days will help."
        ) % {
            "where": _where(weakness),
            "name": name,
            "right": weakness["correct"],
            "total": weakness["answered"],
        }
    strength = next((note for note in notes if note["kind"] == "strength"), None)
    if strength is not None:
        return _("%(name)s is doing well at %(where)s: keep playing to build on it.") % {
            "name": name,
            "where": _where(strength),
        }
    if not answered:
        return _("%(name)s has not answered any questions yet: the next games will show how it is going.") % {
            "name": name
        }
    return _("%(name)s is making steady progress: playing regularly is what helps most.") % {"name": name}
