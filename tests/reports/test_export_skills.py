"""Every skill a report page shows is in the exports: the skills CSV (class and school) and the
spreadsheet's students × skills sheet have a row per student for General knowledge and Reasoning too,
with the same figures the pages show."""

import csv
import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from reports.build import classrooms_build

from .conftest import fact, finished_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def four_skills(class_7b, ms_rivera, ava, ben):
    words = finished_session(class_7b, day=1, by=ms_rivera, students=[ava, ben])
    order = finished_session(class_7b, "lineup", day=2, by=ms_rivera, students=[ava, ben])
    faces = finished_session(class_7b, "faces", day=3, by=ms_rivera, students=[ava])
    fact(ava, words, category="spelling", correct=True, item="q1")
    fact(ava, order, category="Rivers", correct=True, item="l1", score=5, level=None)
    fact(ava, order, category="Rivers", correct=False, item="l2", score=2, level=None)
    fact(ben, order, category="Rivers", correct=False, item="l1", score=3, level=None)
    fact(ava, faces, category="name", correct=True, item="f1", level=None)
    fact(ava, faces, category="question", correct=None, score=0.5, item="f1", level=None)
    classrooms_build([class_7b.pk])
    return class_7b


def _csv(response) -> list[dict]:
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(text)))


def test_the_skills_csv_has_every_skill_the_pages_show(four_skills, client_of, ms_rivera, dr_patel):
    rows = _csv(client_of(ms_rivera).get(reverse("reports:class_skills_csv", args=[four_skills.pk])))
    ava = {row["skill"]: row for row in rows if row["student"] == "Ava M."}
    assert list(ava) == ["english_vocabulary", "numeracy", "general_knowledge", "reasoning"]
    assert (ava["general_knowledge"]["answered"], ava["general_knowledge"]["correct"]) == ("2", "1")
    assert ava["general_knowledge"]["sessions"] == "1"
    # Reasoning's share right is naming the face (a question's quality score is not an answer).
    assert (ava["reasoning"]["answered"], ava["reasoning"]["correct"]) == ("1", "1")
    assert ava["reasoning"]["recommended_level"] == ""  # no levels in these skills
    ben = {row["skill"]: row for row in rows if row["student"] == "Ben K."}
    assert (ben["general_knowledge"]["answered"], ben["reasoning"]["answered"]) == ("1", "0")
    school = _csv(client_of(dr_patel).get(reverse("reports:school_skills_csv")))
    assert {row["skill"] for row in school} >= {"general_knowledge", "reasoning"}


def test_the_spreadsheet_has_every_skill_the_pages_show(four_skills, client_of, ms_rivera):
    response = client_of(ms_rivera).get(reverse("reports:class_xlsx", args=[four_skills.pk]))
    sheet = load_workbook(io.BytesIO(response.content))["Students × skills"]
    skills = {row[4] for row in sheet.iter_rows(min_row=2, values_only=True)}
    assert {"General knowledge", "Reasoning"} <= skills


def test_the_class_page_shows_those_skills(four_skills, client_of, ms_rivera):
    page = client_of(ms_rivera).get(reverse("reports:class", args=[four_skills.pk])).content.decode()
    assert "General knowledge" in page and "Reasoning" in page
