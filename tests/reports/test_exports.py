"""CSV exports (checked row by row) and the PDF report cards (their text extracted with pypdf)."""

import csv
import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from reports.build import classrooms_build
from reports.exports import safe_cell

pytestmark = pytest.mark.django_db


@pytest.fixture
def built(word_up_week, class_7b):
    classrooms_build([class_7b.pk])
    return class_7b


def _csv(response):
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(text)))


def test_one_row_per_student_per_skill(built, client_of, ms_rivera):
    rows = _csv(client_of(ms_rivera).get(reverse("reports:class_skills_csv", args=[built.pk])))
    assert [(r["student"], r["skill"]) for r in rows] == [
        ("Ava M.", "english_vocabulary"),
        ("Ava M.", "numeracy"),
        ("Ben K.", "english_vocabulary"),
        ("Ben K.", "numeracy"),
    ]
    ava = rows[0]
    assert (ava["answered"], ava["correct"], ava["accuracy"], ava["class"]) == (
        "6",
        "4",
        "0.6667",
        "7B English",
    )
    assert rows[1]["answered"] == "0"


def test_one_row_per_answer(built, client_of, ms_rivera, ava):
    rows = _csv(client_of(ms_rivera).get(reverse("reports:class_answers_csv", args=[built.pk])))
    assert len(rows) == 9
    mine = _csv(client_of(ms_rivera).get(reverse("reports:student_answers_csv", args=[built.pk, ava.pk])))
    assert [(r["category"], r["answer"], r["correct"]) for r in mine[:2]] == [
        ("missing_word", "house", "yes"),
        ("missing_word", "cat", "no"),
    ]


def test_a_typed_answer_cannot_become_a_spreadsheet_formula():
    assert safe_cell("=HYPERLINK(1)") == "'=HYPERLINK(1)"
    assert safe_cell("-2+3") == "'-2+3"
    assert safe_cell("river") == "river"
    assert safe_cell(3) == 3


def _pdf_text(response) -> str:
    assert response["Content-Type"] == "application/pdf"
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)


def test_the_student_report_card(built, client_of, ms_rivera, ava):
    text = _pdf_text(client_of(ms_rivera).get(reverse("reports:student_pdf", args=[built.pk, ava.pk])))
    assert "Progress report: Ava M." in text
    assert "7B English" in text and "Riverside Academy" in text
    assert "67%" in text  # 4 of 6 right
    assert "Right answers per session" in text  # the chart's heading; the chart's axis labels follow
    assert "Strong at Crossword Clues in Word Up: 2 of 2" not in text  # fewer than 5 answers: no claim
    assert "English vocabulary" in text


def test_the_class_report_card(built, client_of, ms_rivera):
    text = _pdf_text(client_of(ms_rivera).get(reverse("reports:class_pdf", args=[built.pk])))
    assert "Class report: 7B English" in text
    assert "Ava M." in text and "Ben K." in text
    assert "Most common wrong answers" in text and "Cat" in text
