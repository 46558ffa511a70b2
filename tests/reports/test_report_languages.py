"""Reports and exports in the reader's language: every CSV file's column names and yes/no cells, the
spreadsheet's direction (right to left in Arabic), Line Up!'s subjects and Word Up's spelling
instruction wherever a report names them. Read with the shipped catalogs."""

import csv
import io

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from questions.models import WordUpQuestion
from reports import catalog
from reports.build import classrooms_build

from .conftest import fact, finished_session

pytestmark = pytest.mark.django_db


def _reading(client_of, teacher, language: str):
    teacher.language = language
    teacher.save(update_fields=["language"])
    return client_of(teacher)


def _csv(response) -> list[list[str]]:
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text)))


def test_every_csv_file_names_its_columns_and_says_yes_or_no_in_the_readers_language(
    built, client_of, ms_rivera
):
    client = _reading(client_of, ms_rivera, "es")
    sessions = _csv(client.get(reverse("reports:class_sessions_csv", args=[built.pk])))
    assert sessions[0] == [
        "id_sesión",
        "inicio",
        "juego",
        "habilidad",
        "título",
        "estudiantes",
        "respondidas",
        "correctas",
        "precisión",
        "media_segundos",
        "tarea",
        "sin_respuesta",
        "marcas_del_juego",
        "marcas_del_juego_correctas",
    ]
    assert {row[10] for row in sessions[1:]} == {"no"}  # live games, not homework
    questions = _csv(client.get(reverse("reports:class_items_csv", args=[built.pk])))
    assert questions[0] == [
        "juego",
        "habilidad",
        "id_elemento",
        "pregunta",
        "sesiones",
        "estudiantes",
        "respondidas",
        "correctas",
        "proporción_correctas",
        "discriminación",
    ]
    answers = _csv(client.get(reverse("reports:class_answers_csv", args=[built.pk])))
    by = {name: index for index, name in enumerate(answers[0])}
    assert {row[by["correctas"]] for row in answers[1:]} == {"sí", "no"}
    assert {row[by["tarea"]] for row in answers[1:]} == {"no"}


def test_the_spreadsheet_reads_right_to_left_in_arabic_only(built, client_of, ms_rivera):
    client = _reading(client_of, ms_rivera, "ar")
    book = load_workbook(io.BytesIO(client.get(reverse("reports:class_xlsx", args=[built.pk])).content))
    assert all(sheet.sheet_view.rightToLeft for sheet in book.worksheets)
    assert [cell.value for cell in book.worksheets[0][1]][:3] == ["رقم الطالب", "الرقم في القائمة", "الطالب"]
    assert "نعم" in [cell.value for row in book.worksheets[1].iter_rows() for cell in row]
    client = _reading(client_of, ms_rivera, "es")
    book = load_workbook(io.BytesIO(client.get(reverse("reports:class_xlsx", args=[built.pk])).content))
    assert not any(sheet.sheet_view.rightToLeft for sheet in book.worksheets)


def test_line_up_subjects_are_named_in_the_readers_language(class_7b, ms_rivera, ava, ben, client_of):
    session = finished_session(class_7b, "lineup", by=ms_rivera, students=[ava, ben])
    for student in (ava, ben):
        for subject in ("arts", "body") * 3:
            fact(student, session, category=subject, correct=False, item=f"{subject}-1", score=2)
    classrooms_build([class_7b.pk])
    client = _reading(client_of, ms_rivera, "es")
    student_page = client.get(reverse("reports:student", args=[class_7b.pk, ava.pk])).content.decode()
    class_page = client.get(reverse("reports:class", args=[class_7b.pk])).content.decode()
    for page in (student_page, class_page):
        assert "Arte y música" in page and "El cuerpo humano" in page
        assert ">Arts<" not in page and ">Body<" not in page and "Arts ·" not in page
    with translation.override("ar"):
        assert catalog.category_label("body") == "جسم الإنسان"
    # A school's own subject, which no catalog holds, is shown as written.
    assert catalog.category_label("volcanoes") == "Volcanoes"


def test_word_up_spellings_are_named_by_their_word_never_by_the_english_instruction(
    class_7b, ms_rivera, ava, ben, client_of
):
    """Every spelling's prompt is the same instruction: the reports name a spelling by its word (the
    word is English, the language being learnt), so no English instruction is left on a Spanish page."""
    WordUpQuestion.objects.create(
        key="s1",
        level=3,
        category="spelling",
        prompt="Listen and spell the word.",
        answers=["friend"],
        letters=6,
    )
    session = finished_session(class_7b, by=ms_rivera, students=[ava, ben])
    for student in (ava, ben):
        for _ in range(2):
            fact(student, session, category="spelling", correct=False, item="s1", response="frend")
    classrooms_build([class_7b.pk])
    client = _reading(client_of, ms_rivera, "es")
    items_page = client.get(reverse("reports:class_items", args=[class_7b.pk])).content.decode()
    class_page = client.get(reverse("reports:class", args=[class_7b.pk])).content.decode()
    for page in (items_page, class_page):
        assert "friend" in page and "Listen and spell the word." not in page
    questions = _csv(client.get(reverse("reports:class_items_csv", args=[class_7b.pk])))
    assert questions[1][3] == "friend"
    # A label stored as the instruction (a report built before spellings were named by their word) is
    # still read in the reader's language.
    with translation.override("es"):
        assert catalog.item_text("wordup", "Listen and spell the word.") == "Escucha y deletrea la palabra."
