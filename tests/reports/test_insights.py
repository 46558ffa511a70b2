"""Each game's own insight, from facts shaped as the engines write them (see games/engine/*: facts)."""

import pytest
from django.urls import reverse

from reports.build import classrooms_build
from reports.models import StudentReport

from .conftest import fact, finished_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def games_played(class_7b, ms_rivera, ava):
    lineup = finished_session(class_7b, "lineup", day=1, by=ms_rivera, students=[ava])
    # Line Up!: score = cards of her own ordering in place, detail.team_right = the team's.
    for own, team in ((5, 3), (3, 3), (2, 5)):
        fact(
            ava,
            lineup,
            category="Science",
            correct=own == 5,
            score=own,
            item="lu1",
            detail={"team_right": team},
        )
    lineit = finished_session(class_7b, "lineit", day=2, by=ms_rivera, students=[ava])
    wrong = {"card_face": "3/4", "end_face": "0.7", "relation": "greater", "direction": "up"}
    fact(ava, lineit, category="comparison", correct=True, item="compare:1/2|3/5", detail={})
    fact(ava, lineit, category="comparison", correct=False, item="compare:7/10|3/4", detail=wrong)
    fact(ava, lineit, category="comparison", correct=False, item="compare:7/10|3/4", detail=wrong)
    fact(ava, lineit, category="final_score", correct=True, score=12, item="")
    faces = finished_session(class_7b, "faces", day=3, by=ms_rivera, students=[ava])
    # Line-Up's questions have a quality score, not a mark (the engine writes correct=None).
    fact(ava, faces, category="question", correct=None, score=1.0, item="glasses", level=None)
    fact(ava, faces, category="question", correct=None, score=0.5, item="hat", level=None)
    fact(ava, faces, category="name", correct=True, item="face-7", level=None, response={"face": "face-7"})
    mind = finished_session(class_7b, "mindlines", day=4, by=ms_rivera, students=[ava])
    fact(ava, mind, category="drawing", correct=True, item="c1", level=2, detail={"text": "a cat"})
    fact(ava, mind, category="exclusion", correct=False, item="c2", level=2, detail={"text": "a dog"})
    classrooms_build([class_7b.pk])
    return StudentReport.objects.get(student=ava, classroom=class_7b)


def test_the_insights_of_each_game(games_played):
    insights = games_played.data["insights"]
    assert insights["lineup"] == {
        "questions": 3,
        "own_mean": 3.33,
        "team_mean": 3.67,
        "better": 1,
        "worse": 1,
    }
    assert insights["lineit"] == {"comparisons": 3, "right": 1, "wrong": [["3/4", "0.7", "greater", 2]]}
    assert insights["faces"] == {"questions": 2, "ideal": 1, "quality": 0.75, "named": 1, "names": 1}
    assert insights["mindlines"] == {"drawings": 1, "recognised": 1, "exclusions": 1, "exclusions_right": 0}
    # Game results are not answers: the Line-it win is listed apart and not in the accuracy.
    # Line-Up's questions are not answers either: only naming the face counts in the accuracy; Mind the
    # Lines' drawings and exclusions are its own shares, not added into English vocabulary's.
    assert games_played.answered == 3 + 3 + 1
    results = [(r["category"], r["wins"], r["measure"]) for r in games_played.data["results"]]
    assert results == [
        ("question", None, "quality"),
        ("final_score", 1, "wins"),
        ("drawing", 1, "share"),
        ("exclusion", 0, "share"),
    ]


def test_the_page_says_it_in_words(games_played, client_of, ms_rivera, class_7b, ava):
    page = client_of(ms_rivera).get(reverse("reports:student", args=[class_7b.pk, ava.pk])).content.decode()
    assert "Missed that 3/4 is bigger than 0.7 (2 times)." in page
    assert "Their own order beat the team&#x27;s in 1 of 3 questions." in page
    assert "The team&#x27;s order was better in 1 of 3 questions." in page
    assert "1 of their 2 questions were the best split possible." in page
    assert "Question quality 75%" in page and "quality 75%" in page
    assert "0% right" not in page
    assert "1 of 1 drawings were recognised by the group." in page
