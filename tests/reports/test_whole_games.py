"""Whole games of each of the five, played through the live runtime (the students' moves chosen by the
engines' computer players and submitted as actions), and what reaches the reports: facts for accepted
moves, each figure under its own game's measure, never one game's figure under another's name."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.definitions import all_measures, get_engine
from games.engine import core
from games.models import GameTable
from reports import catalog, present
from reports.build import classrooms_build
from reports.models import LearningFact, StudentReport
from tests.factories import play_through_runtime, recorded_facts, started_session

pytestmark = pytest.mark.django_db
T0 = 2_000_000.0
GAMES = ("lineup", "wordup", "faces", "lineit", "mindlines")


def play_whole_game(classroom, teacher, students, game) -> GameTable:
    session = started_session(classroom, teacher, students, game, now=T0)
    for table in session.tables.all():
        play_through_runtime(table, get_engine(game), core.Rng(f"{game}-students"), T0, 4000)
        table.refresh_from_db()
        assert table.status == GameTable.Status.FINISHED, f"{game} did not finish"
        recorded_facts(table)
    return session


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_reaches_the_report_under_its_own_measures(game, class_7b, ms_rivera, ava, ben):
    play_whole_game(class_7b, ms_rivera, [ava, ben], game)
    facts = LearningFact.objects.filter(game=game)
    measures = all_measures()[game]
    assert set(facts.values_list("skill", flat=True)) == {measures.skill}
    for student in (ava, ben):
        assert facts.filter(student=student).exists(), f"{game}: {student} has no facts"
    # A quality category has a score and no mark; an answer category has a mark.
    for category in measures.quality_categories:
        quality = facts.filter(category=category)
        assert quality.exists() and not quality.filter(correct__isnull=False).exists()
        assert all(0 <= score <= 1 for score in quality.values_list("score", flat=True))
    classrooms_build([class_7b.pk])
    for student in (ava, ben):
        data = StudentReport.objects.get(student=student, classroom=class_7b).data
        # Every point of a skill's chart is a session of a game of that skill.
        for point in data["trend"]:
            assert point["skill"] == measures.skill == catalog.game_skill(point["game"])
        for row in data["categories"]:
            assert catalog.is_answer(row["game"], row["category"])
            assert not catalog.is_quality(row["game"], row["category"])
        for row in data["results"]:
            if catalog.is_quality(row["game"], row["category"]):
                assert row["wins"] is None and row["measure"] == "quality"
            if row["category"] in measures.share_categories:
                assert row["measure"] == "share" and row["marked"] >= row["wins"]
        # The game's own figures, worded by the game, under its own name only.
        blocks = present.insight_lines(data["insights"])
        assert [block["game"] for block in blocks] in ([], [catalog.game_label(game)])


def test_line_it_records_every_accepted_comparison_not_only_refusals(class_7b, ms_rivera, ava, ben):
    session = play_whole_game(class_7b, ms_rivera, [ava, ben], "lineit")
    table = session.tables.get()
    comparisons = LearningFact.objects.filter(table=table, category="comparison")
    for student in (ava, ben):
        assert comparisons.filter(student=student, correct=True).exists()
    # Each accepted comparison is a placement the student made after the line's direction was set.
    placed = sum(
        1
        for entry in table.log.exclude(kind="deadline")
        for event in entry.events or []
        if event.get("type") == "place"
        and event.get("end")
        and not event.get("sets_direction")
        and not event.get("bot")
    )
    assert comparisons.filter(correct=True).count() == placed
    # Items are named by the faces on the cards, never by the exact values behind them.
    for item_id, detail in comparisons.values_list("item_id", "detail"):
        assert item_id == _item_of(detail)


def _item_of(detail: dict) -> str:
    from fractions import Fraction

    pairs = sorted(
        (
            (Fraction(detail["card_value"]), detail["card_face"]),
            (Fraction(detail["end_value"]), detail["end_face"]),
        )
    )
    return f"compare:{pairs[0][1]}|{pairs[1][1]}"


def test_line_ups_questions_never_show_as_a_share_right(class_7b, ms_rivera, ava, ben, client_of):
    play_whole_game(class_7b, ms_rivera, [ava, ben], "faces")
    classrooms_build([class_7b.pk])
    report = StudentReport.objects.get(student=ava, classroom=class_7b)
    questions = LearningFact.objects.filter(student=ava, category="question")
    assert questions.exists()
    # Only naming the face is right or wrong: the accuracy counts those, not the questions.
    names = LearningFact.objects.filter(student=ava, category="name")
    assert report.answered == names.count()
    insight = report.data["insights"]["faces"]
    assert insight["questions"] == questions.count()
    page = client_of(ms_rivera).get(reverse("reports:student", args=[class_7b.pk, ava.pk])).content.decode()
    assert "Question quality" in page
    view = present.student_view(report, [], name="Ava")
    quality_rows = [row for row in view["results"] if row["category"] == "question"]
    assert quality_rows and quality_rows[0]["figure"].startswith("quality ")


def test_a_clock_move_in_line_it_is_not_the_students_comparison():
    engine = get_engine("lineit")
    state = engine.setup(
        {"players": [{"id": "s1", "name": "A"}, {"id": "s2", "name": "B"}], "level": 3}, "seed"
    )
    for _turn in range(40):
        if state["phase"] == "over":
            break
        state, events = engine.on_deadline(state, (state.get("turn") or {}).get("started", 0) + 100)
        placed = [e for e in events if e["type"] == "place"]
        assert all(e.get("by_clock") for e in placed)
        assert not [f for f in engine.facts(events) if f["category"] == "comparison"]
