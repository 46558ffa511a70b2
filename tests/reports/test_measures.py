"""Each game's part of the reports lives with the game (games/definitions/<game>/reports.py): the reports
name no game, the games never import the reports, and what the measures declare reaches the reports."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from games.definitions import all_measures, measures_for, names
from questions.models import LineupQuestion, WordUpQuestion
from reports import catalog
from reports.build import classrooms_build
from reports.models import ClassReport

from .conftest import fact, finished_session

ROOT = Path(__file__).resolve().parents[2]


def test_every_game_has_its_measures():
    assert set(all_measures()) == set(names())
    assert measures_for("lineit").skill == "numeracy"


def test_the_reports_name_no_game():
    game_names = re.compile("|".join(names()), re.IGNORECASE)
    for path in (ROOT / "reports").rglob("*.py"):
        if "migrations" not in path.parts:
            assert not game_names.search(path.read_text()), path


def test_the_games_never_import_the_reports():
    for path in (ROOT / "games" / "definitions").rglob("*.py"):
        assert not re.search(r"^\s*(from|import) reports\b", path.read_text(), re.MULTILINE), path


def test_a_game_words_its_own_answers():
    assert catalog.answer_text("lineup", [3, 1, 2]) == "3 1 2"
    # As the student saw it: the cards' texts in their order.
    ordering = {"order": [2, 1], "cards": ["Tokyo", "Delhi"]}
    assert catalog.answer_text("lineup", ordering) == "Tokyo, Delhi"
    # Line-it: the cards' faces as the student saw them, and the line's direction.
    assert catalog.answer_text("lineit", {"card": "3/4", "after": "0.7"}) == "3/4 after 0.7"
    placed = {"card": "-13.5", "after": "-18.2", "direction": "down"}
    assert catalog.answer_text("lineit", placed) == "-13.5 after -18.2, on a line going down"
    assert catalog.answer_text("faces", {"face": "face-7"}) == "face-7"
    assert catalog.answer_text("wordup", {"face": "face-7"}) == '{"face": "face-7"}'
    assert catalog.answer_text("mindlines", "  a cat ") == "a cat"


@pytest.mark.django_db
def test_the_class_report_names_questions_where_each_game_says(
    class_7b, ms_rivera, ava, ben, riverside, client_of
):
    WordUpQuestion.objects.create(
        key="w1", level=3, category="missing_word", prompt="Shipped prompt", answers=["x"], letters=1
    )
    # Every spelling reads the same: it is named by its word.
    WordUpQuestion.objects.create(
        key="w2",
        level=3,
        category="spelling",
        prompt="Listen and spell the word.",
        answers=["friend"],
        letters=6,
    )
    WordUpQuestion.objects.create(
        key="w1",
        level=3,
        category="missing_word",
        prompt="Our own prompt",
        answers=["x"],
        letters=1,
        school=riverside,
    )
    LineupQuestion.objects.create(
        key="l1",
        heading="Tallest towers",
        order_label="height",
        direction="asc",
        items=[],
        answer=[],
        explanation="",
        source="",
        level=3,
        subject="Science",
    )
    played = {game: finished_session(class_7b, game, by=ms_rivera, students=[ava, ben]) for game in names()}
    for student in (ava, ben):
        for _ in range(2):
            fact(student, played["wordup"], category="spelling", correct=False, item="w1", response="frend")
            fact(student, played["wordup"], category="spelling", correct=False, item="w2", response="freind")
            fact(student, played["lineup"], category="Science", correct=False, item="l1", response=[2, 1])
            fact(student, played["lineit"], category="comparison", correct=False, item="compare:7/10|3/4")
            fact(
                student,
                played["mindlines"],
                category="exclusion",
                correct=False,
                item="c1",
                detail={"text": "a lighthouse"},
                response="c2",
            )
            fact(
                student,
                played["faces"],
                category="name",
                correct=False,
                item="K:0123456789ab",
                level=None,
                response={"face": "K"},
                detail={"face_name": "Kofi", "description": "Kofi: red hair, glasses"},
            )
    classrooms_build([class_7b.pk])

    hardest = {
        (row["game"], row["label"]) for row in ClassReport.objects.get(classroom=class_7b).data["hardest"]
    }
    assert hardest == {
        ("wordup", "Our own prompt"),  # the school's own question before the shipped one
        ("wordup", "friend"),  # a spelling: its word, not "Listen and spell the word."
        ("lineup", "Tallest towers"),
        ("lineit", "7/10 vs 3/4"),
        ("faces", "Kofi: red hair, glasses"),  # the face named as the student saw it, not its letter
    }
    # Mind the Lines' marks are its own measure, not the skill's accuracy: no hardest question, but its
    # wrong answers are listed under the concept's text.
    wrong = {row["game"]: row["label"] for row in ClassReport.objects.get(classroom=class_7b).data["wrong"]}
    assert wrong["mindlines"] == "a lighthouse"
    page = client_of(ms_rivera).get(reverse("reports:class", args=[class_7b.pk])).content.decode()
    assert "2 1" in page and "frend" in page
    # A wrong face named is a letter, nothing a teacher can act on: Line-Up lists no wrong answers.
    assert "K:0123456789ab" not in page
