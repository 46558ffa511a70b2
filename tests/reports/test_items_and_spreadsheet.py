"""Item analysis (the discrimination index against a hand-computed fixture) and the spreadsheet export
(the .xlsx, opened with openpyxl, holds exactly the CSV files' cells; times in the school's zone)."""

import csv
import datetime as dt
import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from classrooms.models import Student
from reports import items
from reports.build import classrooms_build
from reports.models import LearningFact
from reports.selectors import item_analysis
from tests.factories import enrolled_student

from .conftest import fact, finished_session


def test_the_discrimination_index_by_hand():
    # Four students answered "x" once; their share right on the skill's other questions is 1, 3/4, 1/2
    # and 1/4. x = (1, 1, 0, 0), rest = (1, .75, .5, .25): the deviations are (.5, .5, -.5, -.5) and
    # (.375, .125, -.125, -.375), so Sxy = .5, Sxx = 1, Syy = .3125 and r = .5 / sqrt(.3125) = 0.894.
    rows = []
    for student, (right_on_x, right_on_rest) in enumerate(((1, 4), (1, 3), (0, 2), (0, 1))):
        rows.append(items.Answers(student, "wordup", "english_vocabulary", "x", 1, right_on_x))
        rows.append(items.Answers(student, "wordup", "english_vocabulary", "rest", 4, right_on_rest))
    totals = items.skill_totals(rows)
    assert items.discrimination([r for r in rows if r.item_id == "x"], totals) == 0.894
    # The same answers the other way round: the weaker students get it right.
    flipped = [
        items.Answers(r.student_id, r.game, r.skill, r.item_id, r.answered, 1 - r.correct)
        if r.item_id == "x"
        else r
        for r in rows
    ]
    flipped_totals = items.skill_totals(flipped)
    assert items.discrimination([r for r in flipped if r.item_id == "x"], flipped_totals) == -0.894
    # Fewer than four students, or a question everyone got right, has no index.
    assert items.discrimination([r for r in rows if r.item_id == "x"][:3], totals) is None
    assert items.pearson([1, 1, 1, 1], [0.2, 0.4, 0.6, 0.8]) is None


@pytest.fixture
def four_students(class_7b, ava, ben):
    more = [
        enrolled_student(
            class_7b, given_name=name, family_name="Z", display_name=f"{name} Z.", signin_code=code
        )
        for name, code in (("Cleo", "5511"), ("Dev", "5512"))
    ]
    return [ava, ben, *more]


@pytest.mark.django_db
def test_the_item_analysis_of_a_class(class_7b, ms_rivera, four_students, client_of):
    session = finished_session(class_7b, day=1, by=ms_rivera, students=four_students)
    for student, (right_on_x, right_on_rest) in zip(
        four_students, ((1, 4), (1, 3), (0, 2), (0, 1)), strict=True
    ):
        fact(student, session, category="spelling", correct=bool(right_on_x), item="x", response="frend")
        for index in range(4):
            fact(student, session, category="spelling", correct=index < right_on_rest, item=f"r{index}")
    rows = {row["item_id"]: row for row in item_analysis(class_7b)}
    assert rows["x"]["discrimination"] == 0.894
    assert (rows["x"]["answered"], rows["x"]["correct"], rows["x"]["students"], rows["x"]["sessions"]) == (
        4,
        2,
        4,
        1,
    )
    assert rows["r0"]["discrimination"] is None  # all right: nothing to tell apart
    page = client_of(ms_rivera).get(reverse("reports:class_items", args=[class_7b.pk])).content.decode()
    assert "0.89" in page and "Tells apart" in page


def _csv(response) -> list[list[str]]:
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text)))


def _cell(value) -> str:
    return "" if value is None else str(value)


@pytest.mark.django_db
def test_the_spreadsheet_holds_the_csv_files_cells(class_7b, ms_rivera, four_students, client_of, riverside):
    riverside.time_zone = "America/New_York"
    riverside.save()
    first = finished_session(class_7b, day=1, by=ms_rivera, students=four_students)
    faces = finished_session(class_7b, "faces", day=2, by=ms_rivera, students=four_students[:2])
    for student in four_students:
        fact(student, first, category="spelling", correct=True, item="q1", response="river", time=4.123456789)
        fact(student, first, category="spelling", correct=False, item="q2", response="=SUM(A1)", time=7.25)
    fact(four_students[0], faces, category="question", correct=None, score=0.75, item="hat", level=None)
    classrooms_build([class_7b.pk])
    client = client_of(ms_rivera)
    response = client.get(reverse("reports:class_xlsx", args=[class_7b.pk]))
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    book = load_workbook(io.BytesIO(response.content), read_only=True)
    assert book.sheetnames == ["Students × skills", "Every answer", "Sessions", "Questions", "About"]
    # The last sheet says what the spreadsheet counts.
    about = [list(row) for row in book["About"].iter_rows(values_only=True)]
    assert about[:2] == [["Class", "7B English"], ["Shows", "Live games and homework"]]
    for sheet, url in zip(
        book.sheetnames[:4],
        ("class_skills_csv", "class_answers_csv", "class_sessions_csv", "class_items_csv"),
        strict=True,
    ):
        from_csv = _csv(client.get(reverse(f"reports:{url}", args=[class_7b.pk])))
        from_xlsx = [[_cell(value) for value in row] for row in book[sheet].iter_rows(values_only=True)]
        assert from_xlsx == from_csv, sheet
    answers = _csv(client.get(reverse("reports:class_answers_csv", args=[class_7b.pk])))
    header, rows = answers[0], answers[1:]
    by = {name: index for index, name in enumerate(header)}
    created = LearningFact.objects.filter(item_id="q1").first().created_at
    local = created.astimezone(dt.timezone(dt.timedelta(hours=-5))).strftime("%Y-%m-%d %H:%M:%S")
    assert rows[0][by["when"]] == local  # New York in March 2026, before the clocks change: UTC-5
    assert {row[by["seconds"]] for row in rows} == {"4.1", "7.2", "5"}
    assert "'=SUM(A1)" in {row[by["answer"]] for row in rows}
    # Line-Up's question is in the answers with its quality score and no mark.
    question = next(row for row in rows if row[by["category"]] == "question")
    assert (question[by["correct"]], question[by["score"]]) == ("", "0.75")
    assert Student.objects.count() == 4
