"""Stage 2 of a build, the classes' part: each class's report (its sessions, hardest questions, most
common wrong answers, and its students' levels and recommended levels), with readable names for the
questions."""

from __future__ import annotations

import heapq
from collections import defaultdict
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.apps import apps
from django.db.models import Q
from django.db.models.fields.json import KT

from classrooms.models import Classroom
from games.definitions import all_measures
from games.definitions.reporting import ItemLabels

from .. import catalog
from ..models import LearningFact
from .read import BOTH, HOMEWORK, LIVE, MODES, FactFigures, SessionLine, attempt_students
from .statistics import most_written
from .students import mean, ratio
from .write import Row

HARDEST_SHOWN = 10
MIN_ITEM_ANSWERS = 3
WRONG_SHOWN = 10
#: Sessions listed in a class report.
SESSIONS_SHOWN = 40


class _Question(NamedTuple):
    game: str
    category: str
    level: int | None
    item_id: str
    answered: int
    right: int


@dataclass
class _ClassFigures:
    """A class's rows as they will be once the build is written (its new rows and those it keeps)."""

    sessions: list[SessionLine]
    #: ``(game, category, level, item_id)``: [answered, right]
    items: dict[tuple, list[int]]
    #: ``(game, category, item_id, folded answer)``: {spelling: times}
    wrong: dict[tuple, dict[str, int]]
    students: set[int]


def class_reports(figures: FactFigures, class_sessions, items, wrong, summaries, now) -> list[Row]:
    """Each class's report, from this build's rows and the stored rows it keeps (as they will be once the
    build is written)."""
    classroom_ids = figures.scope.classroom_ids
    classes = _class_figures(figures, class_sessions or (), items or (), wrong or ())
    levels_of: dict[int, list[tuple[str, int]]] = defaultdict(list)
    for student_id, skill, level in figures.levels_now:
        levels_of[student_id].append((skill, level))
    recommended_of = _recommended_levels(figures, summaries)
    lists = {
        (mode, classroom_id): (_hardest(found[classroom_id].items), _most_wrong(found[classroom_id].wrong))
        for mode, found in classes.items()
        for classroom_id in classroom_ids
        if mode != LIVE or classroom_id in figures.classes_with_homework
    }
    for classroom_id in classroom_ids:  # no homework: live games are all there is
        lists.setdefault((LIVE, classroom_id), lists[(BOTH, classroom_id)])
    wanted: dict[int, set[tuple[str, str]]] = defaultdict(set)
    for (_mode, classroom_id), (hardest, wrong_list) in lists.items():
        wanted[classroom_id] |= {(row["game"], row["item_id"]) for row in hardest + wrong_list}
    labels = item_labels({classroom_id: sorted(pairs) for classroom_id, pairs in wanted.items()})
    for (_mode, classroom_id), (hardest, wrong_list) in lists.items():
        for row in hardest + wrong_list:
            row["label"] = labels.get((classroom_id, row["game"], row["item_id"]), row["item_id"])
    reports = []
    for classroom_id in classroom_ids:
        part = {
            mode: {
                **_session_data(classes[mode][classroom_id].sessions),
                "hardest": lists[(mode, classroom_id)][0],
                "wrong": lists[(mode, classroom_id)][1],
            }
            for mode in MODES
            if mode != LIVE or classroom_id in figures.classes_with_homework
        }
        part.setdefault(LIVE, part[BOTH])
        students = classes[BOTH][classroom_id].students
        data = {
            **part[BOTH],
            **_level_data(students, levels_of, recommended_of),
            # The same report of live games only and of homework only (the levels are the students').
            "modes": {LIVE: part[LIVE], HOMEWORK: part[HOMEWORK]},
        }
        reports.append(Row(classroom_id=classroom_id, data=data, built_at=now))
    return reports


def _class_figures(figures: FactFigures, class_sessions, items, wrong) -> dict[str, dict[int, _ClassFigures]]:
    """The classes' figures in each mode: every row counts in both and in its own (live or homework),
    in one pass over the rows."""
    classes: dict[str, dict[int, _ClassFigures]] = {
        mode: defaultdict(lambda: _ClassFigures([], {}, {}, set())) for mode in MODES
    }
    both, of_mode = classes[BOTH], {False: classes[LIVE], True: classes[HOMEWORK]}
    titles = {pk: session["title"] for pk, session in figures.sessions.items()}
    assignments = {pk: session["assignment_id"] for pk, session in figures.sessions.items()}
    students = attempt_students([row.session_id for row in class_sessions if assignments.get(row.session_id)])
    lines = [
        (
            row.classroom_id,
            SessionLine(
                row.day,
                row.session_id,
                titles.get(row.session_id, ""),
                row.game,
                row.participants,
                row.answered,
                row.correct,
                row.time_total,
                row.time_count,
                assignments.get(row.session_id),
                students.get(row.session_id),
                row.no_answer,
                row.measured,
                row.measured_right,
            ),
        )
        for row in class_sessions
    ]
    for classroom_id, line in [*lines, *figures.kept_class_sessions]:
        both[classroom_id].sessions.append(line)
        of_mode[line.homework][classroom_id].sessions.append(line)
    for classroom_id, game, category, level, item_id, answered, right, _archived, homework in [
        *items,
        *figures.kept_items,
    ]:
        key = (game, category, level, item_id)
        for found in (both[classroom_id], of_mode[bool(homework)][classroom_id]):
            total = found.items.setdefault(key, [0, 0])
            total[0] += answered
            total[1] += right
    for classroom_id, game, category, item_id, answer, count, _archived, homework in [
        *wrong,
        *figures.kept_wrong,
    ]:
        key = (game, category, item_id, answer.casefold())
        for found in (both[classroom_id], of_mode[bool(homework)][classroom_id]):
            texts = found.wrong.setdefault(key, {})
            texts[answer] = texts.get(answer, 0) + count
    for classroom_id, student_id in figures.enrolled:
        both[classroom_id].students.add(student_id)
    return classes


def _recommended_levels(figures: FactFigures, summaries) -> dict[int, list[tuple[str, int]]]:
    """``{student: [(skill, level)]}`` recommended: kept, and this build's."""
    recommended_of: dict[int, list[tuple[str, int]]] = defaultdict(list)
    for student_id, skill, level in figures.kept_recommended:
        recommended_of[student_id].append((skill, level))
    for student_id, skills in summaries.items():
        for skill, summary in skills.items():
            if summary["recommended"] is not None:
                recommended_of[student_id].append((skill, summary["recommended"]))
    return recommended_of


def _hardest(items: dict[tuple, list[int]]) -> list[dict[str, Any]]:
    """The questions with the lowest share of right answers (answered at least a few times)."""
    asked = [
        _Question(game, category, level, item_id, answered, right)
        for (game, category, level, item_id), (answered, right) in items.items()
        if answered >= MIN_ITEM_ANSWERS
    ]
    hardest = heapq.nsmallest(
        HARDEST_SHOWN,
        asked,
        key=lambda q: (
            ratio(q.right, q.answered),
            -q.answered,
            q.game,
            q.item_id,
            q.category,
            -1 if q.level is None else q.level,
        ),
    )
    return [
        {
            "game": q.game,
            "category": q.category,
            "level": q.level,
            "item_id": q.item_id,
            "answered": q.answered,
            "correct": q.right,
            "share": ratio(q.right, q.answered),
        }
        for q in hardest
    ]


def _most_wrong(wrong: dict[tuple, dict[str, int]]) -> list[dict[str, Any]]:
    """The wrong answers given most often, each as most often written."""
    answers = [
        {
            "game": game,
            "category": category,
            "item_id": item_id,
            "answer": most_written(texts),
            "times": sum(texts.values()),
        }
        for (game, category, item_id, _key), texts in wrong.items()
    ]
    return heapq.nsmallest(
        WRONG_SHOWN,
        answers,
        key=lambda row: (-row["times"], row["game"], row["item_id"], row["answer"], row["category"]),
    )


def _session_data(sessions: list[SessionLine]) -> dict[str, Any]:
    lines = sorted(sessions, key=lambda line: (line.day, line.session_id))
    answered = sum(line.answered for line in lines)
    right = sum(line.correct for line in lines)
    live = [_session_entry([line]) for line in lines if not line.homework]
    attempts: dict[int, list[SessionLine]] = defaultdict(list)
    for line in lines:
        if line.assignment is not None:
            attempts[line.assignment].append(line)
    # A homework assignment is one entry (its attempts together, on the day of the last): a class of 30
    # doing it would otherwise push every live game out of the chart and the list.
    homework = [_session_entry(group) for group in attempts.values()]
    per_session = sorted(live + homework, key=lambda entry: (entry["day"], entry["session"]))
    return {
        "totals": {
            "sessions": len(lines),
            "answered": answered,
            "correct": right,
            # The share right is taken within each skill, never across them.
            "skills": _skill_totals(lines),
        },
        "sessions": per_session[-SESSIONS_SHOWN:],
    }


def _skill_totals(lines: list[SessionLine]) -> dict[str, dict[str, Any]]:
    """``{skill: {answered, correct, accuracy}}`` of the sessions with answers, in the skills' order."""
    totals: dict[str, list[int]] = {}
    for line in lines:
        if line.answered:
            entry = totals.setdefault(catalog.game_skill(line.game), [0, 0])
            entry[0] += line.answered
            entry[1] += line.correct
    order = {skill: index for index, skill in enumerate(catalog.reported_skills())}
    return {
        skill: {"answered": answered, "correct": right, "accuracy": ratio(right, answered)}
        for skill, (answered, right) in sorted(
            totals.items(), key=lambda item: (order.get(item[0], 99), item[0])
        )
    }


def _session_entry(lines: list[SessionLine]) -> dict[str, Any]:
    """One live session, or one homework assignment's attempts (``lines``, oldest first)."""
    first, last = lines[0], lines[-1]
    answered, right = sum(line.answered for line in lines), sum(line.correct for line in lines)
    entry = {
        "session": last.session_id,
        "title": last.title,
        "day": last.day.isoformat(),
        "game": last.game,
        "participants": first.participants,
        "answered": answered,
        "correct": right,
        "accuracy": ratio(right, answered),
        "mean_time": mean(sum(line.time_total for line in lines), sum(line.time_count for line in lines)),
        # Timed-out questions, and the game's own marks (Mind the Lines'), apart from the answers.
        "no_answer": sum(line.no_answer for line in lines),
        "measured": sum(line.measured for line in lines),
        "measured_right": sum(line.measured_right for line in lines),
    }
    if first.homework:
        entry.update(
            homework=True,
            participants=len({line.student for line in lines}),
            attempts=len(lines),
            first_day=first.day.isoformat(),
        )
    return entry


def _level_data(students: set[int], levels_of, recommended_of) -> dict[str, Any]:
    """How many of the class's students are at each level of each skill, and are recommended each."""
    distribution: dict[str, dict[str, int]] = {skill: {} for skill in catalog.LEVELLED_SKILLS}
    recommended: dict[str, dict[str, int]] = {skill: {} for skill in catalog.LEVELLED_SKILLS}
    for student_id in students:
        for skill, level in levels_of[student_id]:
            distribution.setdefault(skill, {})
            distribution[skill][str(level)] = distribution[skill].get(str(level), 0) + 1
        for skill, level in recommended_of[student_id]:
            recommended[skill][str(level)] = recommended[skill].get(str(level), 0) + 1
    return {"levels": distribution, "recommended": recommended}


# --- readable names for questions --------------------------------------------------------------------------


def item_labels(keys: dict[int, list[tuple[str, str]]]) -> dict[tuple[int, str, str], str]:
    """Readable names for questions, per class, where each game says to find them (see ``ItemLabels``):
    a question bank's text (the school's own question before a shipped one with the same key), a text
    of the facts' detail, or one made from the id."""
    wanted: dict[str, set[str]] = defaultdict(set)
    for pairs in keys.values():
        for game, item_id in pairs:
            wanted[game].add(item_id)
    if not wanted:
        return {}
    sources = {game: measures.item_labels for game, measures in all_measures().items() if game in wanted}
    school_of = dict(Classroom.objects.filter(pk__in=list(keys)).values_list("pk", "school_id"))
    bank = _bank_texts(sources, wanted, set(school_of.values()))
    details = _detail_texts(sources, wanted, list(keys))
    labels: dict[tuple[int, str, str], str] = {}
    for classroom_id, pairs in keys.items():
        for game, item_id in pairs:
            source = sources.get(game)
            if source is None:
                continue
            if source.bank:
                text = bank.get((game, school_of.get(classroom_id), item_id)) or bank.get(
                    (game, None, item_id)
                )
            elif source.detail_key:
                text = details.get((game, classroom_id, item_id))
            else:
                text = source.from_id(item_id) if source.from_id else None
            if text:
                labels[(classroom_id, game, item_id)] = text
    return labels


def _bank_texts(
    sources: dict[str, ItemLabels], wanted: dict[str, set[str]], schools: set[int]
) -> dict[tuple[str, int | None, str], str]:
    """``(game, school or None, key)``: the text of the games' questions in their banks."""
    texts: dict[tuple[str, int | None, str], str] = {}
    for game, source in sources.items():
        if source.bank:
            visible = Q(school__isnull=True, **dict(source.shipped_filter)) | Q(school_id__in=schools)
            model = apps.get_model(source.bank)
            fields = ["key", source.text_field, "school_id"]
            if source.answer_field:
                fields += [source.answer_field, "category"]
            for key, text, school_id, *answer in model.objects.filter(
                visible, key__in=wanted[game]
            ).values_list(*fields):
                texts[(game, school_id, key)] = _bank_text(source, text, answer)
    return texts


def _bank_text(source: ItemLabels, text: str, answer: list) -> str:
    """A bank question's text, or its answer where the game names questions of that category by it."""
    if answer and answer[1] in source.answer_categories:
        answers = answer[0]
        found = answers[0] if isinstance(answers, list) and answers else answers
        return str(found) if found else text
    return text


def _detail_texts(
    sources: dict[str, ItemLabels], wanted: dict[str, set[str]], classroom_ids: list[int]
) -> dict[tuple[str, int, str], str]:
    """``(game, classroom, item)``: a text of the games' facts' detail (a concept's, say)."""
    texts: dict[tuple[str, int, str], str] = {}
    for game, source in sources.items():
        if source.detail_key:
            for classroom_id, item_id, text in (
                LearningFact.objects.filter(
                    classroom_id__in=classroom_ids, game=game, item_id__in=wanted[game]
                )
                .annotate(text=KT(f"detail__{source.detail_key}"))
                .values_list("classroom_id", "item_id", "text")
                .order_by()
                .distinct()
            ):
                if text:
                    texts[(game, classroom_id, item_id)] = text
    return texts
