"""CSV exports (checked row by row) and the PDF report cards (their text extracted with pypdf)."""

import csv
import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from reports.exports import safe_cell

pytestmark = pytest.mark.django_db


def _csv(response):
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(text)))


def test_one_row_per_student_per_skill(built, client_of, ms_rivera):
    rows = _csv(client_of(ms_rivera).get(reverse("reports:class_skills_csv", args=[built.pk])))
    skills = ["english_vocabulary", "numeracy", "general_knowledge", "reasoning"]
    assert [(r["student"], r["skill"]) for r in rows] == [
        (student, skill) for student in ("Ava M.", "Ben K.") for skill in skills
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
    # One chart per skill, titled with it; the chart's axis labels follow.
    assert "English vocabulary: right answers per session" in text
    assert "Strong at Crossword Clues in Word Up: 2 of 2" not in text  # fewer than 5 answers: no claim
    assert "English vocabulary" in text


def test_the_class_report_card(built, client_of, ms_rivera):
    text = _pdf_text(client_of(ms_rivera).get(reverse("reports:class_pdf", args=[built.pk])))
    assert "Class report: 7B English" in text
    assert "Ava M." in text and "Ben K." in text
    assert "Most common wrong answers" in text and "Cat" in text


def test_the_class_card_fits_a4_with_every_column_and_an_embedded_font_for_every_character(
    built, client_of, ms_rivera
):
    from reportlab.pdfbase.ttfonts import TTFont

    from reports.pdf import font_files

    response = client_of(ms_rivera).get(reverse("reports:class_pdf", args=[built.pk]))
    reader = PdfReader(io.BytesIO(response.content))
    page = reader.pages[0]
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    assert (round(width), round(height)) == (842, 595)  # A4, landscape
    text = _pdf_text(response)
    for column in ("Student", "Answers", "Right in English vocabulary", "Sessions"):
        assert column in " ".join(text.split())
    words = " ".join(text.split())  # a heading may wrap in its cell
    assert "English vocabulary level → recommended" in words
    assert "Numeracy level → recommended" in words  # the last column is on the page, not cut off
    assert "Ava M. 6 67% (4/6) 2 / 2 — → — — → —" in words  # live games played of the class's
    assert "Students who took part in each session" in words and "Weakest question levels" in words
    # Every font the PDF uses is embedded, and the embedded one has a glyph for every character printed.
    # (reportlab lists Helvetica in every page's resources; no text may be set in it.)
    used = set()
    for pdf_page in reader.pages:
        resources = pdf_page["/Resources"]["/Font"]
        content = pdf_page.get_contents().get_data().decode("latin-1")
        for name, font in resources.items():
            if f"{name} " in content:
                font = font.get_object()
                used.add(str(font["/BaseFont"]))
                where = content[max(0, content.index(f"{name} ") - 80) : content.index(f"{name} ") + 40]
                assert "/FontDescriptor" in font or "/DescendantFonts" in font, f"{font} set at {where!r}"
    regular, _bold, family = font_files()
    assert family == "DejaVu Sans", "the system's DejaVu fonts (fonts-dejavu-core) were not found"
    covered = TTFont("check", str(regular)).face.charToGlyph
    missing = {char for char in text if not char.isspace() and ord(char) not in covered}
    assert not missing
    assert used and all("DejaVuSans" in name for name in used), used


def test_without_the_font_a_character_it_lacks_prints_as_a_stand_in(monkeypatch):
    from reports import pdf

    class Face:
        charToGlyph = {ord(c): 1 for c in "abc ->?"}

    class Font:
        face = Face()

    monkeypatch.setattr(pdf.pdfmetrics, "getFont", lambda name: Font())
    assert pdf.printable("a → b") == "a -> b"
    assert pdf.printable("a ✓ c") == "a ? c"
