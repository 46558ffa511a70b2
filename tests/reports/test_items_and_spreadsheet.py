"""Item analysis (the discrimination index against a hand-computed fixture) and the spreadsheet export
(the .xlsx, opened with openpyxl, holds exactly the CSV files' cells; times in the school's zone)."""

import csv
import datetime as dt
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook

from classrooms.models import Student
from reports import items
from reports.build import classrooms_build
from reports.models import LearningFact
from reports.selectors import item_analysis
from tests.factories import ClassroomFactory, enrolled_student

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
    assert items.discrimination([r for r in rows if r.item_id == "x"], totals, min_students=4) == 0.89
    # The same answers the other way round: the weaker students get it right.
    flipped = [
        items.Answers(r.student_id, r.game, r.skill, r.item_id, r.answered, 1 - r.correct)
        if r.item_id == "x"
        else r
        for r in rows
    ]
    flipped_totals = items.skill_totals(flipped)
    assert (
        items.discrimination([r for r in flipped if r.item_id == "x"], flipped_totals, min_students=4)
        == -0.89
    )
    # Fewer students than the minimum (ten on the page), or a question everyone got right, has no index.
    assert items.discrimination([r for r in rows if r.item_id == "x"], totals) is None
    assert items.discrimination([r for r in rows if r.item_id == "x"][:3], totals, min_students=4) is None
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
    more = [
        enrolled_student(class_7b, display_name=f"Student {index}", signin_code=f"57{index:02d}")
        for index in range(6)
    ]
    students = [*four_students, *more]
    session = finished_session(class_7b, day=1, by=ms_rivera, students=students)
    # x: right for the students who do well on the rest of the skill, wrong for the others.
    patterns = ((1, 4), (1, 3), (0, 2), (0, 1), (1, 4), (1, 3), (0, 1), (0, 0), (1, 2), (0, 3))
    for student, (right_on_x, right_on_rest) in zip(students, patterns, strict=True):
        fact(student, session, category="spelling", correct=bool(right_on_x), item="x", response="frend")
        for index in range(4):
            fact(student, session, category="spelling", correct=index < right_on_rest, item=f"r{index}")
    rows = {row["item_id"]: row for row in item_analysis(class_7b)}
    expected = items.pearson([float(x) for x, _rest in patterns], [rest / 4 for _x, rest in patterns])
    assert rows["x"]["discrimination"] == round(expected, 2) == 0.71
    assert (rows["x"]["answered"], rows["x"]["correct"], rows["x"]["students"], rows["x"]["sessions"]) == (
        10,
        5,
        10,
        1,
    )
    page = client_of(ms_rivera).get(reverse("reports:class_items", args=[class_7b.pk])).content.decode()
    assert "0.71" in page and "0.709" not in page and "Tells apart" in page


@pytest.mark.django_db
def test_an_index_from_too_few_students_is_not_shown(class_7b, ms_rivera, four_students, client_of):
    session = finished_session(class_7b, day=1, by=ms_rivera, students=four_students)
    for student, (right_on_x, right_on_rest) in zip(
        four_students, ((1, 4), (1, 3), (0, 2), (0, 1)), strict=True
    ):
        fact(student, session, category="spelling", correct=bool(right_on_x), item="x", response="frend")
        for index in range(4):
            fact(student, session, category="spelling", correct=index < right_on_rest, item=f"r{index}")
    rows = {row["item_id"]: row for row in item_analysis(class_7b)}
    # Four students: a correlation that one answer can swing by half is no finding.
    assert (rows["x"]["discrimination"], rows["x"]["too_few"]) == (None, True)
    page = client_of(ms_rivera).get(reverse("reports:class_items", args=[class_7b.pk])).content.decode()
    assert "too few answers" in page and "0.89" not in page


def _many_questions(classroom, teacher, students, questions: int) -> None:
    session = finished_session(classroom, day=1, by=teacher, students=students)
    LearningFact.objects.bulk_create(
        LearningFact(
            key=f"many:{classroom.pk}:{student.pk}:{index}",
            student=student,
            classroom=classroom,
            session=session,
            game="wordup",
            skill="english_vocabulary",
            category="spelling",
            level=3,
            correct=(index + student.pk) % 3 != 0,
            item_id=f"m{index}",
            response="x",
        )
        for student in students
        for index in range(questions)
    )


def _a_class_of_3_and_one_of_400_questions(class_7b, riverside, ms_rivera, four_students):
    """7B answered 3 questions; the class returned (the same four students) answered 400."""
    _many_questions(class_7b, ms_rivera, four_students, 3)
    bigger = ClassroomFactory(school=riverside, name="7B Spelling", teachers=[ms_rivera])
    for student in four_students:
        student.enrolments.create(classroom=bigger)
    _many_questions(bigger, ms_rivera, four_students, 400)
    return bigger


@pytest.mark.django_db
def test_the_questions_page_runs_a_fixed_number_of_queries(
    class_7b, riverside, ms_rivera, four_students, client_of, django_assert_max_num_queries
):
    """However many questions a class answered: one grouped query of its answers (not one per question,
    session or student), and the questions' names in one query per bank."""
    bigger = _a_class_of_3_and_one_of_400_questions(class_7b, riverside, ms_rivera, four_students)
    client = client_of(ms_rivera)
    client.get(reverse("reports:class_items", args=[class_7b.pk]))  # the session's first request
    with CaptureQueriesContext(connection) as few:
        client.get(reverse("reports:class_items", args=[class_7b.pk]))
    with django_assert_max_num_queries(len(few)):
        page = client.get(reverse("reports:class_items", args=[bigger.pk]))
    assert page.content.decode().count('name="item_id"') == 400


@pytest.mark.django_db
def test_the_questions_page_renders_no_template_node_per_question(
    class_7b, riverside, ms_rivera, four_students, client_of, monkeypatch
):
    """The page took seconds for a class with thousands of questions: its template resolved about
    fifteen variables, tags and translations per question. The rows are written in Python
    (``reports_tags.item_rows``): the template's work is the same for 3 questions or 400."""
    from django.template.base import VariableNode

    rendered = {"nodes": 0}
    original = VariableNode.render

    def counted(self, context):
        rendered["nodes"] += 1
        return original(self, context)

    monkeypatch.setattr(VariableNode, "render", counted)
    bigger = _a_class_of_3_and_one_of_400_questions(class_7b, riverside, ms_rivera, four_students)
    client = client_of(ms_rivera)
    counts = []
    for classroom in (class_7b, bigger):
        rendered["nodes"] = 0
        client.get(reverse("reports:class_items", args=[classroom.pk]))
        counts.append(rendered["nodes"])
    assert counts[0] == counts[1]


def _csv(response) -> list[list[str]]:
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text)))


@pytest.fixture
def spreadsheet_class(class_7b, ms_rivera, four_students, riverside):
    riverside.time_zone = "America/New_York"
    riverside.save()
    first = finished_session(class_7b, day=1, by=ms_rivera, students=four_students)
    faces = finished_session(class_7b, "faces", day=2, by=ms_rivera, students=four_students[:2])
    for student in four_students:
        fact(student, first, category="spelling", correct=True, item="q1", response="river", time=4.123456789)
        fact(student, first, category="spelling", correct=False, item="q2", response="=SUM(A1)", time=7.25)
    fact(four_students[0], faces, category="question", correct=None, score=0.75, item="hat", level=None)
    classrooms_build([class_7b.pk])
    return class_7b


def _book(client, classroom, **headers):
    response = client.get(reverse("reports:class_xlsx", args=[classroom.pk]), **headers)
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    return load_workbook(io.BytesIO(response.content))


def _rows(sheet) -> list[dict]:
    header = [cell.value for cell in sheet[1]]
    return [dict(zip(header, row, strict=True)) for row in sheet.iter_rows(min_row=2)]


@pytest.mark.django_db
def test_the_spreadsheet_is_a_workbook_a_teacher_reads(spreadsheet_class, ms_rivera, client_of):
    book = _book(client_of(ms_rivera), spreadsheet_class)
    assert book.sheetnames == ["Students × skills", "Every answer", "Sessions", "Questions", "About"]
    about = [[cell.value for cell in row] for row in book["About"].iter_rows()]
    assert about[:2] == [["Class", "7B English"], ["Shows", "Live games and homework"]]
    assert isinstance(about[2][1], dt.datetime)
    for name in book.sheetnames[:4]:
        sheet = book[name]
        # The header row stays in view and every column can be filtered; the columns are not the default
        # width, and the headers are words, not code names.
        assert sheet.freeze_panes == "A2", name
        assert sheet.auto_filter.ref == f"A1:{sheet.cell(1, sheet.max_column).column_letter}{sheet.max_row}"
        assert all(sheet.column_dimensions[cell.column_letter].width >= 8 for cell in sheet[1])
        assert all(cell.font.bold and "_" not in cell.value for cell in sheet[1]), name
    answers = _rows(book["Every answer"])
    first = answers[0]
    # A real date and time, in the school's zone (New York in March 2026, before the clocks change).
    created = LearningFact.objects.filter(item_id="q1").first().created_at
    local = created.astimezone(dt.timezone(dt.timedelta(hours=-5))).replace(tzinfo=None, microsecond=0)
    assert first["When"].value == local and "yy" in first["When"].number_format
    assert (first["Skill"].value, first["Game"].value, first["Category"].value) == (
        "English vocabulary",
        "Word Up — English board game",
        "Spelling",
    )
    assert (first["Right"].value, first["Homework"].value) == ("Yes", "No")
    assert first["Time (seconds)"].value == 4.1 and first["Time (seconds)"].number_format == "0.0"
    assert isinstance(first["Student ID"].value, int)
    # A typed answer that starts like a formula stays the text typed: no formula, no "'" shown.
    formula = next(row["Answer"] for row in answers if row["Answer"].value and "SUM" in row["Answer"].value)
    assert (formula.value, formula.data_type) == ("=SUM(A1)", "s")
    question = next(row for row in answers if row["Category"].value == "Question quality")
    assert (question["Right"].value, question["Score"].value) == (None, 0.75)
    skills = _rows(book["Students × skills"])
    wanted = ("Ava M.", "English vocabulary")
    ava = next(row for row in skills if (row["Student"].value, row["Skill"].value) == wanted)
    assert (ava["Answers"].value, ava["Right answers"].value) == (2, 1)
    assert ava["Share right"].value == 0.5 and ava["Share right"].number_format == "0%"
    sessions = _rows(book["Sessions"])
    assert isinstance(sessions[0]["Started"].value, dt.datetime)
    assert sessions[0]["Share right"].value == 0.5


@pytest.mark.django_db
def test_the_spreadsheet_has_the_csv_files_figures(spreadsheet_class, ms_rivera, client_of):
    client = client_of(ms_rivera)
    book = _book(client, spreadsheet_class)
    for sheet, url in zip(
        book.sheetnames[:4],
        ("class_skills_csv", "class_answers_csv", "class_sessions_csv", "class_items_csv"),
        strict=True,
    ):
        from_csv = _csv(client.get(reverse(f"reports:{url}", args=[spreadsheet_class.pk])))
        rows = list(book[sheet].iter_rows(values_only=True))
        assert len(rows) == len(from_csv), sheet
        for written, typed in zip(from_csv[1:], rows[1:], strict=True):
            for text, value in zip(written, typed, strict=True):
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    assert float(text) == pytest.approx(value, abs=0.06), (sheet, written)
    answers = _csv(client.get(reverse("reports:class_answers_csv", args=[spreadsheet_class.pk])))
    header, rows = answers[0], answers[1:]
    by = {name: index for index, name in enumerate(header)}
    created = LearningFact.objects.filter(item_id="q1").first().created_at
    local = created.astimezone(dt.timezone(dt.timedelta(hours=-5))).strftime("%Y-%m-%d %H:%M:%S")
    assert rows[0][by["when"]] == local  # a CSV file: plain text, to the second
    assert {row[by["seconds"]] for row in rows} == {"4.1", "7.2", "5"}
    # A CSV file has no types: a typed answer that would start a formula is quoted with "'".
    assert "'=SUM(A1)" in {row[by["answer"]] for row in rows}
    question = next(row for row in rows if row[by["category"]] == "question")
    assert (question[by["correct"]], question[by["score"]]) == ("", "0.75")
    assert Student.objects.count() == 4


@pytest.mark.django_db
def test_a_name_that_starts_like_a_formula_stays_text(class_7b, ms_rivera, client_of):
    enrolled_student(class_7b, given_name="=1+1", family_name="X", display_name="=1+1", signin_code="5599")
    book = _book(client_of(ms_rivera), class_7b)
    names = [row["Student"] for row in _rows(book["Students × skills"])]
    assert {(cell.value, cell.data_type) for cell in names} == {("=1+1", "s")}


@pytest.mark.django_db
def test_the_spreadsheet_is_in_the_readers_language(spreadsheet_class, ms_rivera, client_of):
    book = _book(client_of(ms_rivera), spreadsheet_class, HTTP_ACCEPT_LANGUAGE="es")
    header = [cell.value for cell in book.worksheets[0][1]]
    assert "Estudiante" in header and "Porcentaje de aciertos" in header
    skills = {row["Habilidad"].value for row in _rows(book.worksheets[0])}
    assert "Vocabulario en inglés" in skills
