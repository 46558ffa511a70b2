"""Stage 2 of a build, the students' part: each student's report in each class (totals, games,
categories, levels, trend, the games' own insights, notes and attention flags) and their skill summaries
with the recommended level."""

from __future__ import annotations

import datetime as dt
import operator
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import F

from games.definitions import all_measures, measures_for

from .. import catalog, levels
from ..models import SkillSummary, StudentReport
from .read import BOTH, HOMEWORK, LIVE, MODES, FactFigures, SessionRow, seconds
from .write import Plan, Row

#: Sessions shown in a student's trend chart and sparkline.
TREND_SESSIONS = 30
SPARK_SESSIONS = 12
#: "Recent" form: the last few sessions with answers, against the few before them.
RECENT_SESSIONS = 5
#: A fall in accuracy of this much (recent against previous) puts a student on the attention list.
FALLING_BY = 0.15
#: Answers in a category before it can be called a strength or a weakness.
MIN_CATEGORY_ANSWERS = 5
STRENGTH_AT = 0.75
WEAKNESS_BELOW = 0.5


def ratio(right: int, total: int) -> float | None:
    return round(right / total, 4) if total else None


def mean(total: float | None, count: int) -> float | None:
    return round(total / count, 2) if count and total is not None else None


@dataclass
class CategoryTotals:
    """A student's facts of one game's category in one class, all levels added up."""

    game: str
    category: str
    facts: int = 0
    answered: int = 0
    right: int = 0
    time_count: int = 0
    score_count: int = 0
    marked: int = 0
    #: Whole millionths while the levels are added up, then seconds (``None``: none timed or scored).
    time_total: float | None = None
    score_total: float | None = None


@dataclass
class LevelTotals:
    skill: str
    level: int
    answered: int = 0
    right: int = 0


@dataclass
class _Answers:
    """Answers added up: how many, how many right, and their times."""

    answered: int = 0
    correct: int = 0
    time_total: float = 0.0
    time_count: int = 0

    def add(self, row: CategoryTotals) -> None:
        self.answered += row.answered
        self.correct += row.right
        self.time_total += row.time_total or 0.0
        self.time_count += row.time_count


@dataclass
class _Merged:
    """The build's category figures added up per class and student."""

    categories: dict[tuple[int, int], list[CategoryTotals]] = field(default_factory=lambda: defaultdict(list))
    levels: dict[tuple[int, int], list[LevelTotals]] = field(default_factory=lambda: defaultdict(list))
    #: ``(classroom, game, category)``: [right, answered] of the whole class
    class_categories: dict[tuple[int, str, str], list[int]] = field(
        default_factory=lambda: defaultdict(lambda: [0, 0])
    )


@dataclass
class _Student:
    """What one student's report in one class is made of."""

    classroom_id: int
    student_id: int
    categories: list[CategoryTotals]
    levels: list[LevelTotals]
    #: Their sessions in the class in the report's mode, by day.
    played: list[SessionRow]
    #: The class's live games held since the student joined it (none in a homework-only report: a
    #: classmate's homework is not a game the others missed).
    held: int
    insights: dict[str, Any]
    skills: dict[str, dict]
    #: Which of ``played`` were homework attempts (the others: the class's live games).
    homework: set[int] = field(default_factory=set)
    mode: str = BOTH

    @property
    def live_played(self) -> int:
        return len(self.played) - len(self.homework)


# --- all the students' reports ---------------------------------------------------------------------------


def student_reports(
    figures: FactFigures, rows: list[SessionRow], now, plan: Plan
) -> dict[int, dict[str, dict]]:
    """The student reports and skill summaries of the build's students (into ``plan``); returns the
    summaries (``{student: {skill: {recommended, confidence, current}}}``)."""
    classroom_ids = figures.scope.classroom_ids
    # Students who left a class lose their report in it (their facts stay until erased or purged).
    unenrolled = StudentReport.objects.filter(classroom_id__in=classroom_ids).exclude(
        student__enrolments__classroom_id=F("classroom_id")
    )
    if not figures.targets:
        plan.delete(unenrolled)
        return {}
    student_ids = figures.target_students
    wanted = set(student_ids)
    # Every session row of these students once the build is written: its own and the ones it keeps.
    all_rows = [row for row in rows if row.student_id in wanted] + figures.kept_sessions
    series = _series(all_rows, set(classroom_ids))
    days_of = _class_days(figures)
    summaries = _skill_summaries(student_ids, figures, all_rows, now, plan)
    built: dict[str, dict[tuple[int, int], tuple[dict, dict]]] = {}
    with_homework = figures.classes_with_homework
    for mode in MODES:
        if mode == LIVE and not with_homework:
            built[LIVE] = built[BOTH]  # no homework in these classes: live games are all there is
            continue
        merged = _merged_categories(figures, wanted, mode)
        insights = _game_insights(figures, wanted, mode)
        built[mode] = {}
        for key in figures.targets:
            if mode == LIVE and key[0] not in with_homework:
                built[LIVE][key] = built[BOTH][key]
                continue
            played = [row for row in series[key] if _in_mode(figures, row.session_id, mode)]
            student = _Student(
                key[0],
                key[1],
                merged.categories[key],
                merged.levels[key],
                played,
                0 if mode == HOMEWORK else _sessions_held(figures, days_of[key[0]], key, series),
                insights.get(key, {}),
                summaries.get(key[1], {}),
                {row.session_id for row in played if figures.is_homework(row.session_id)},
                mode,
            )
            built[mode][key] = _student_report(student, merged.class_categories)
    reports = [_report_row(key, built, now) for key in figures.targets]
    plan.delete(StudentReport.objects.filter(classroom_id__in=classroom_ids, student_id__in=student_ids))
    plan.replace(unenrolled, StudentReport, reports)
    return summaries


def _in_mode(figures: FactFigures, session_id: int, mode: str) -> bool:
    return mode == BOTH or figures.is_homework(session_id) == (mode == HOMEWORK)


def _report_row(key: tuple[int, int], built, now) -> StudentReport:
    """The stored row: live games and homework together in its columns and data, each mode's own in
    ``data["modes"]``."""
    columns, data = built[BOTH][key]
    modes = {}
    for mode in (LIVE, HOMEWORK):  # (the live report may be the same objects as both's: copied here)
        row, part = built[mode][key]
        last = row["last_played"]
        modes[mode] = {**part, "row": {**row, "last_played": last.isoformat() if last else None}}
    return StudentReport(
        student_id=key[1], classroom_id=key[0], data={**data, "modes": modes}, built_at=now, **columns
    )


def _merged_categories(figures: FactFigures, students: set[int], mode: str = BOTH) -> _Merged:
    """By game and category, and (answers only) by skill and level: from the one grouped query (its live
    and homework rows added up for both)."""
    categories: dict[tuple, CategoryTotals] = {}
    levels_of: dict[tuple, LevelTotals] = {}
    for row in figures.grouped:
        if row.student_id not in students:
            continue
        if mode != BOTH and bool(row.homework) != (mode == HOMEWORK):
            continue
        key = (row.classroom_id, row.student_id, row.game, row.category)
        entry = categories.get(key)
        if entry is None:
            categories[key] = entry = CategoryTotals(row.game, row.category)
        _add_category(entry, row)
        if row.level is not None and row.answered and catalog.is_answer(row.game, row.category):
            level_key = (row.classroom_id, row.student_id, row.skill, row.level)
            level_entry = levels_of.setdefault(level_key, LevelTotals(row.skill, row.level))
            level_entry.answered += row.answered
            level_entry.right += row.right
    merged = _Merged()
    for (classroom_id, student_id, game, category), entry in categories.items():
        entry.time_total, entry.score_total = seconds(entry.time_total), seconds(entry.score_total)
        merged.categories[(classroom_id, student_id)].append(entry)
        if catalog.is_answer(game, category):
            class_entry = merged.class_categories[(classroom_id, game, category)]
            class_entry[0] += entry.right
            class_entry[1] += entry.answered
    for (classroom_id, student_id, _skill, _level), entry in levels_of.items():
        merged.levels[(classroom_id, student_id)].append(entry)
    return merged


def _add_category(entry: CategoryTotals, row) -> None:
    entry.facts += row.facts
    entry.answered += row.answered
    entry.right += row.right
    entry.time_count += row.timed
    entry.score_count += row.scored
    entry.marked += row.marked
    if row.time_micros is not None:  # whole millionths until all the levels are in
        entry.time_total = (entry.time_total or 0) + row.time_micros
    if row.score_micros is not None:
        entry.score_total = (entry.score_total or 0) + row.score_micros


def _series(rows: list[SessionRow], classroom_ids: set[int]) -> dict[tuple[int, int], list[SessionRow]]:
    """Each student's sessions in each of the build's classes, by day, then session."""
    series: dict[tuple[int, int], list[SessionRow]] = defaultdict(list)
    for stat in sorted(rows, key=operator.attrgetter("day", "session_id")):
        if stat.classroom_id in classroom_ids:
            series[(stat.classroom_id, stat.student_id)].append(stat)
    return series


def _class_days(figures: FactFigures) -> dict[int, list[dt.date]]:
    """The days of the live games each class held (a homework attempt is one student's, not the class's:
    it counts for the student who played it but not as a game the others missed)."""
    days: dict[int, list[dt.date]] = defaultdict(list)
    for session in figures.sessions.values():
        if session.get("assignment_id") is None:
            days[session["classroom_id"]].append(session["day"])
    return days


def _sessions_held(figures: FactFigures, days: list[dt.date], key: tuple[int, int], series) -> int:
    """Sessions held since the student joined the class (or since they first played, if earlier)."""
    since = figures.enrolled_on.get(key)
    if since is not None and series[key]:
        since = min(since, series[key][0].day)
    return sum(1 for day in days if since is None or day >= since)


def _game_insights(
    figures: FactFigures, students: set[int], mode: str = BOTH
) -> dict[tuple[int, int], dict[str, Any]]:
    """What each game's own facts tell beyond right and wrong (see docs/reports.md), raw."""
    found: dict[tuple[int, int], dict[str, Any]] = defaultdict(dict)
    for game, rows in figures.insights[mode].items():
        rows_of: dict[tuple[int, int], list[tuple]] = defaultdict(list)
        for classroom_id, student_id, *values in rows:
            if student_id in students:
                rows_of[(classroom_id, student_id)].append(tuple(values))
        gather = measures_for(game).insight_query.gather
        for key, student_rows in rows_of.items():
            found[key][game] = gather(student_rows)
    return found


# --- skill summaries ---------------------------------------------------------------------------------------


@dataclass
class _SkillTotals:
    answered: int = 0
    correct: int = 0
    #: Added up exactly, in thousandths of a second (each session's total is rounded to them), so a total
    #: never depends on the order of the rows.
    thousandths: int = 0
    timed: int = 0
    sessions: int = 0


def _skill_summaries(student_ids: list[int], figures: FactFigures, stats: list, now, plan: Plan) -> dict:
    """Each student's totals per levelled skill and the recommended level (all their classes: a level
    belongs to the student, not to one class), from their session rows (``stats``)."""
    totals = _skill_totals(stats)
    evidence: dict[tuple[int, str], list[tuple[int, bool]]] = defaultdict(list)
    for student_id, skill, level, correct in figures.evidence:
        evidence[(student_id, skill)].append((level, correct))
    current = {(student_id, skill): level for student_id, skill, level in figures.levels_now}
    rows, found = [], defaultdict(dict)
    for student_id in student_ids:
        for skill in catalog.LEVELLED_SKILLS:
            recommendation = levels.recommend(levels.evidence_of(evidence.get((student_id, skill), [])))
            summary = _skill_summary(
                student_id, skill, totals.get((student_id, skill), _SkillTotals()), recommendation, now
            )
            summary.current_level = current.get((student_id, skill))
            rows.append(summary)
            found[student_id][skill] = {
                "recommended": recommendation.level,
                "confidence": recommendation.confidence,
                "current": summary.current_level,
            }
    plan.replace(SkillSummary.objects.filter(student_id__in=student_ids), SkillSummary, rows)
    return found


def _skill_totals(stats: list[SessionRow]) -> dict[tuple[int, str], _SkillTotals]:
    """Totals of the sessions with answers, per student and levelled skill."""
    totals: dict[tuple[int, str], _SkillTotals] = {}
    for stat in stats:
        if stat.answered > 0 and stat.skill in catalog.LEVELLED_SKILLS:
            total = totals.setdefault((stat.student_id, stat.skill), _SkillTotals())
            total.answered += stat.answered
            total.correct += stat.correct
            total.thousandths += round(stat.time_total * 1000)
            total.timed += stat.time_count
            total.sessions += 1
    return totals


def _skill_summary(student_id: int, skill: str, total: _SkillTotals, recommendation, now) -> Row:
    return Row(
        student_id=student_id,
        skill=skill,
        answered=total.answered,
        correct=total.correct,
        mean_time=mean(total.thousandths / 1000, total.timed) if total.sessions else None,
        sessions=total.sessions,
        current_level=None,
        recommended_level=recommendation.level,
        confidence=recommendation.confidence,
        ability=recommendation.ability,
        evidence={str(level): list(pair) for level, pair in recommendation.evidence.items()},
        evidence_answers=recommendation.answers,
        built_at=now,
    )


# --- one student's report --------------------------------------------------------------------------------


def _student_report(student: _Student, class_categories) -> tuple[dict[str, Any], dict[str, Any]]:
    """A student's report in one mode: its columns and its data."""
    totals, games, category_list, results = _answers_and_results(student, class_categories)
    played = student.played
    with_answers = [stat for stat in played if stat.answered]
    trend = _trend(with_answers, student.homework)
    forms = _form_by_skill(with_answers)
    held = student.held
    participation = ratio(student.live_played, held) if held else None
    attention = _attention(forms, held, played, participation)
    moved = max(forms, key=lambda form: (abs(form.recent - form.previous), form.skill), default=None)
    data = {
        "totals": {
            "answered": totals.answered,
            "correct": totals.correct,
            "accuracy": ratio(totals.correct, totals.answered),
            "mean_time": mean(totals.time_total, totals.time_count),
            "sessions_played": len(played),
            "sessions_with_answers": len(with_answers),
            "sessions_held": held,
            "homework_sessions": len(student.homework),
            # Questions left to run out of time: counted apart, never as wrong answers.
            "no_answer": sum(stat.no_answer for stat in played),
            "participation": participation,
            "first_played": played[0].day.isoformat() if played else None,
        },
        "games": _game_list(games, played),
        "categories": category_list,
        "levels": _level_list(student.levels),
        "results": results,
        "trend": trend,
        "spark": [point["accuracy"] for point in trend[-SPARK_SESSIONS:]],
        "insights": _insight_data(student.insights, category_list),
        "notes": _notes(category_list, forms, participation),
        "attention": attention,
        "skills": student.skills,
    }
    columns = {
        "answered": totals.answered,
        "correct": totals.correct,
        "accuracy": ratio(totals.correct, totals.answered),
        "sessions_played": len(played),
        "sessions_held": held,
        "last_played": played[-1].day if played else None,
        # The skill whose form moved most (a share right is only ever taken within one skill).
        "recent_accuracy": moved.recent if moved else None,
        "previous_accuracy": moved.previous if moved else None,
        "needs_attention": bool(attention),
    }
    return columns, data


def _answers_and_results(student: _Student, class_categories):
    """The student's answers in total and per game, each answer category's row and each result's."""
    totals, games = _Answers(), {}
    category_list, results = [], []
    for row in sorted(student.categories, key=lambda r: (r.game, r.category)):
        answer = catalog.is_answer(row.game, row.category)
        if answer and row.answered:
            totals.add(row)
            games.setdefault(row.game, _Answers()).add(row)
            class_right, class_total = class_categories[(student.classroom_id, row.game, row.category)]
            category_list.append(_category_row(row, ratio(class_right, class_total)))
        elif not answer:
            measure = catalog.measure_of(row.game, row.category)
            results.append(
                {
                    "game": row.game,
                    "category": row.category,
                    "count": row.facts,
                    # A quality category has no wins: its measure is the mean score (0 to 1).
                    "wins": None if measure == "quality" else row.right,
                    "mean_score": mean(row.score_total, row.score_count),
                    "measure": measure,
                    "marked": row.answered,
                }
            )
    return totals, games, category_list, results


def _category_row(row: CategoryTotals, class_accuracy: float | None) -> dict[str, Any]:
    return {
        "game": row.game,
        "category": row.category,
        "answered": row.answered,
        "correct": row.right,
        "accuracy": ratio(row.right, row.answered),
        "mean_time": mean(row.time_total, row.time_count),
        "mean_score": mean(row.score_total, row.score_count),
        "marked": row.marked,
        "class_accuracy": class_accuracy,
    }


def _game_list(games: dict[str, _Answers], played: list[SessionRow]) -> list[dict[str, Any]]:
    sessions_by_game = Counter(stat.game for stat in played)
    return [
        {
            "game": game,
            "answered": entry.answered,
            "correct": entry.correct,
            "accuracy": ratio(entry.correct, entry.answered),
            "mean_time": mean(entry.time_total, entry.time_count),
            "sessions": sessions_by_game.get(game, 0),
        }
        for game, entry in sorted(games.items())
    ]


def _trend(with_answers: list[SessionRow], homework: set[int]) -> list[dict[str, Any]]:
    """The last sessions with answers; a homework attempt's point says so (``"homework": true``)."""
    points = []
    for stat in with_answers[-TREND_SESSIONS:]:
        point = {
            "session": stat.session_id,
            "day": stat.day.isoformat(),
            "game": stat.game,
            "skill": stat.skill,
            "answered": stat.answered,
            "correct": stat.correct,
            "accuracy": ratio(stat.correct, stat.answered),
            "mean_time": mean(stat.time_total, stat.time_count),
        }
        if stat.session_id in homework:
            point["homework"] = True
        if stat.no_answer:
            point["no_answer"] = stat.no_answer
        points.append(point)
    return points


def _level_list(level_rows: list[LevelTotals]) -> list[dict[str, Any]]:
    return [
        {
            "skill": row.skill,
            "level": row.level,
            "answered": row.answered,
            "correct": row.right,
            "accuracy": ratio(row.right, row.answered),
        }
        for row in sorted(level_rows, key=lambda r: (r.skill, r.level))
    ]


@dataclass(frozen=True)
class _Form:
    """A skill's recent form: the share right in its last sessions against the ones before them."""

    skill: str
    recent: float
    previous: float


def _form_by_skill(with_answers: list[SessionRow]) -> list[_Form]:
    """Each skill's form, for the skills with at least twice ``RECENT_SESSIONS`` sessions with answers:
    a share right is only ever taken within one skill, so form is compared skill by skill."""
    by_skill: dict[str, list[SessionRow]] = defaultdict(list)
    for stat in with_answers:
        by_skill[stat.skill].append(stat)
    forms = []
    for skill, stats in sorted(by_skill.items()):
        recent = stats[-RECENT_SESSIONS:]
        previous = stats[-2 * RECENT_SESSIONS : -RECENT_SESSIONS]
        if len(previous) == RECENT_SESSIONS:
            recent_share = ratio(sum(s.correct for s in recent), sum(s.answered for s in recent))
            previous_share = ratio(sum(s.correct for s in previous), sum(s.answered for s in previous))
            if recent_share is not None and previous_share is not None:
                forms.append(_Form(skill, recent_share, previous_share))
    return forms


def _attention(forms: list[_Form], held, played, participation) -> list[str]:
    """Why the student needs a teacher's attention: accuracy falling (in a skill), not taking part, or
    rarely."""
    falling = any(form.previous - form.recent >= FALLING_BY for form in forms)
    absent = held >= 2 and not played
    low_participation = held >= 4 and participation is not None and participation < 0.5
    return [
        reason
        for reason, flag in (
            ("falling", falling),
            ("absent", absent),
            ("rarely", low_participation and not absent),
        )
        if flag
    ]


def _insight_data(insights: dict[str, Any], category_list: list[dict]) -> dict[str, Any]:
    """Each game's own insight, summarised by the game from its raw insight and its answer categories."""
    categories_of: dict[str, dict[str, dict]] = defaultdict(dict)
    for row in category_list:
        categories_of[row["game"]][row["category"]] = row
    data: dict[str, Any] = {}
    for game, measures in all_measures().items():
        summary = measures.summarise(insights.get(game), categories_of.get(game, {}))
        if summary is not None:
            data[game] = summary
    return data


def _notes(categories, forms: list[_Form], participation) -> list[dict[str, Any]]:
    """Strengths and weaknesses as data (``reports.present`` turns them into sentences)."""
    notes = []
    enough = [row for row in categories if row["answered"] >= MIN_CATEGORY_ANSWERS]
    for row in sorted(enough, key=lambda r: (-(r["accuracy"] or 0), r["game"], r["category"])):
        if row["accuracy"] >= STRENGTH_AT:
            notes.append({"kind": "strength", **_note_fields(row)})
    for row in sorted(enough, key=lambda r: (r["accuracy"] or 0, r["game"], r["category"])):
        if row["accuracy"] < WEAKNESS_BELOW:
            notes.append({"kind": "weakness", **_note_fields(row)})
    for form in forms:
        change = {"skill": form.skill, "recent": form.recent, "previous": form.previous}
        if form.recent - form.previous >= 0.1:
            notes.append({"kind": "rising", **change})
        elif form.previous - form.recent >= 0.1:
            notes.append({"kind": "falling", **change})
    timed = [row for row in enough if row["mean_time"] is not None]
    if len(timed) >= 2:
        fastest = min(timed, key=lambda r: (r["mean_time"], r["game"], r["category"]))
        slowest = max(timed, key=lambda r: (r["mean_time"], r["game"], r["category"]))
        if slowest["mean_time"] >= 1.5 * fastest["mean_time"]:
            notes.append({"kind": "slow", **_note_fields(slowest)})
    if participation is not None and participation < 0.5:
        notes.append({"kind": "participation", "participation": participation})
    return notes


def _note_fields(row: dict) -> dict[str, Any]:
    return {
        "game": row["game"],
        "category": row["category"],
        "correct": row["correct"],
        "answered": row["answered"],
        "accuracy": row["accuracy"],
        "class_accuracy": row["class_accuracy"],
        "mean_time": row["mean_time"],
    }
