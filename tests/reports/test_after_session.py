"""Right after a session, its results page says who needs help (and in what), and how the class's
answers spread over each multiple-choice question's options (the item analysis too)."""

import pytest
from django.urls import reverse

from questions.models import WordUpQuestion
from reports import selectors
from reports.build import classrooms_build
from tests.factories import enrolled_student

from .conftest import fact, finished_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def after_a_session(class_7b, ms_rivera, ava, ben):
    cleo = enrolled_student(class_7b, display_name="Cleo Z.", signin_code="5611")
    dev = enrolled_student(class_7b, display_name="Dev Z.", signin_code="5612")
    earlier = finished_session(class_7b, day=1, by=ms_rivera, students=[ben])
    for index in range(12):  # Ben usually gets every word right
        fact(ben, earlier, category="spelling", correct=True, item=f"e{index}", response="word")
    classrooms_build([class_7b.pk])
    session = finished_session(class_7b, day=2, by=ms_rivera, students=[ava, ben, cleo, dev])
    for student, right in ((ava, 1), (ben, 3), (cleo, 4), (dev, 1)):
        for index in range(4):
            category = "spelling" if index < 2 else "crossword"
            fact(student, session, category=category, correct=index < right, item=f"q{index}", response="w")
    fact(dev, session, category="missing_word", correct=False, item="q9", response=None)  # timed out
    return session


def test_who_needs_help_after_a_session(after_a_session, ava, ben, client_of, ms_rivera):
    found = selectors.session_help(after_a_session)
    rows = {row["name"]: row for row in found["students"]}
    # Under half right; or a quarter or more below their usual share (Ben: 75%, usually 100%).
    assert list(rows) == ["Ava M.", "Dev Z.", "Ben K."]
    assert (rows["Ava M."]["right"], rows["Ava M."]["answered"], rows["Ava M."]["categories"]) == (
        1,
        4,
        ["Crossword Clues"],
    )
    assert (rows["Ben K."]["usual"], rows["Ben K."]["below_usual"]) == (1.0, True)
    assert rows["Dev Z."]["answered"] == 4  # a question left to run out of time is no answer
    page = client_of(ms_rivera).get(reverse("games:results", args=[after_a_session.pk])).content.decode()
    assert "Who needs help after this session" in page
    assert reverse("reports:student", args=[after_a_session.classroom_id, ava.pk]) in page
    assert "1/4 (25%)" in page and "well below" in page and "Cleo Z." not in page


def test_no_help_list_for_a_game_without_answers(class_7b, ms_rivera, ava, client_of):
    drawing = finished_session(class_7b, "mindlines", day=1, by=ms_rivera, students=[ava])
    fact(ava, drawing, category="drawing", correct=False, item="c1", response={"strokes": []})
    assert selectors.session_help(drawing) is None
    page = client_of(ms_rivera).get(reverse("games:results", args=[drawing.pk])).content.decode()
    assert "Who needs help" not in page


@pytest.fixture
def multiple_choice(class_7b, ms_rivera, ava, ben):
    WordUpQuestion.objects.create(
        key="mc1",
        level=3,
        category="multiple_choice",
        prompt="Water that flows to the sea",
        answers=["river"],
        choices=["lake", "river", "sea", "pond"],
        letters=5,
    )
    cleo = enrolled_student(class_7b, display_name="Cleo Z.", signin_code="5611")
    session = finished_session(class_7b, day=1, by=ms_rivera, students=[ava, ben, cleo])
    fact(ava, session, category="multiple_choice", correct=True, item="mc1", response="river")
    fact(ben, session, category="multiple_choice", correct=True, item="mc1", response="river")
    fact(cleo, session, category="multiple_choice", correct=False, item="mc1", response="lake")
    return session


def test_the_answers_per_option_after_a_session(multiple_choice, client_of, ms_rivera):
    (question,) = selectors.session_options(multiple_choice)["questions"]
    assert question["label"] == "Water that flows to the sea"
    assert [(o["text"], o["count"], o["right"]) for o in question["options"]] == [
        ("lake", 1, False),
        ("river", 2, True),
        ("sea", 0, False),
        ("pond", 0, False),
    ]
    page = client_of(ms_rivera).get(reverse("games:results", args=[multiple_choice.pk])).content.decode()
    assert "How the class answered each multiple-choice question" in page
    assert "<strong><bdi>river</bdi></strong>" in page and "<bdi>sea</bdi>: 0 answers" in page


def test_the_answers_per_option_in_the_item_analysis(multiple_choice, class_7b, client_of, ms_rivera):
    (row,) = selectors.item_analysis(class_7b)
    assert [(o["text"], o["count"]) for o in row["options"]] == [
        ("lake", 1),
        ("river", 2),
        ("sea", 0),
        ("pond", 0),
    ]
    page = client_of(ms_rivera).get(reverse("reports:class_items", args=[class_7b.pk])).content.decode()
    assert "Answers per option:" in page and "<bdi>lake</bdi> 1" in page and "<bdi>sea</bdi> 0" in page
