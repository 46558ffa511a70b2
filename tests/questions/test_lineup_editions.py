"""Line Up!'s questions in Spanish, Brazilian Portuguese and Arabic.

Each edition (``questions/data/lineup/<language>/``) translates whole subject files of the English bank:
every question keeps its English question's id, values, answer, level, subject, tags and source (the
facts), and only its words change. The loader stores each edition; a session asks the questions of its
language (the one chosen when scheduling, else its teacher's, else the school's), and English ones where
that edition runs short.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from games import services as game_services
from games import shipped
from games.definitions import lineup
from questions import services
from questions.formats import to_json
from questions.models import LineupQuestion
from questions.selectors import lineup_questions_for
from reports.build.classes import item_labels

BANK_DIR = Path(__file__).resolve().parents[2] / "questions" / "data" / "lineup"
EDITIONS = [language for language in shipped.LINEUP_LANGUAGES if language != "en"]
MIN_PER_EDITION = 200
#: The fields a translation changes; every other field is the English question's.
TEXT_FIELDS = {"heading", "order_label", "explanation", "items"}
ITEM_TEXT_FIELDS = {"text", "display"}
#: A separator inside a number (thousands, decimals: "5,500", "5 500", "5.500", "4,2").
INSIDE_A_NUMBER = re.compile(r"(?<=[0-9])[.,\u00a0\u202f ](?=[0-9])")


def load(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))


def english_file(name: str) -> list[dict]:
    return load(BANK_DIR / name)


def edition_files(language: str) -> list[Path]:
    return sorted((BANK_DIR / language).glob("*.json"))


def edition_pairs(language: str) -> list[tuple[dict, dict]]:
    """``(English question, its translation)`` for every question of the edition, by id."""
    pairs = []
    for path in edition_files(language):
        english = {question["id"]: question for question in english_file(path.name)}
        pairs += [(english.get(question["id"]), question) for question in load(path)]
    return pairs


def numbers(text: str) -> list[str]:
    """The numbers written with digits, separators taken out ("about 5,500 °C" and "unos 5500 °C" both
    give ["5500"]; "4.2" and "4,2" give ["42"])."""
    return re.findall(r"[0-9]+", INSIDE_A_NUMBER.sub("", text))


def pair_id(pair) -> str:
    return pair[1].get("id", "?")


# --------------------------------------------------------------------------------------------------
# The edition files (no database)
# --------------------------------------------------------------------------------------------------


def test_the_languages_are_the_sites():
    assert shipped.LINEUP_LANGUAGES == ("en", "es", "pt-br", "ar")
    assert services.lineup_editions() == ["en", "ar", "es", "pt-br"]


@pytest.mark.parametrize("language", EDITIONS)
def test_each_edition_translates_whole_subject_files_and_at_least_200_questions(language):
    files = edition_files(language)
    assert files, f"no files in lineup/{language}/"
    for path in files:
        assert (BANK_DIR / path.name).is_file(), f"{language}/{path.name} translates no English file"
        # A whole file, in the English order: a question added to the English file must be translated.
        assert [q["id"] for q in load(path)] == [q["id"] for q in english_file(path.name)], path.name
    assert len(edition_pairs(language)) >= MIN_PER_EDITION


@pytest.mark.parametrize("language", EDITIONS)
def test_each_translation_keeps_its_english_questions_facts(language):
    """Pairs every translated question with the English one of its id and compares every field but the
    words: the values, the answer order, the level, subject, tags and source are the English bank's."""
    for english, translated in edition_pairs(language):
        assert english is not None, f"{translated['id']} is not an English question"
        assert set(translated) == set(english), translated["id"]
        for field in set(english) - TEXT_FIELDS:
            assert translated[field] == english[field], f"{translated['id']}: {field} differs"
        assert len(translated["items"]) == len(english["items"]), translated["id"]
        for theirs, ours in zip(english["items"], translated["items"], strict=True):
            assert set(ours) == set(theirs), translated["id"]
            assert ours["value"] == theirs["value"], f"{translated['id']}: a value differs"
            for field in ITEM_TEXT_FIELDS:
                assert isinstance(ours[field], str) and ours[field].strip(), translated["id"]
        assert len({item["text"] for item in translated["items"]}) == 5, f"{translated['id']}: texts repeat"
        for field in ("heading", "order_label", "explanation"):
            assert isinstance(translated[field], str) and translated[field].strip(), translated["id"]


@pytest.mark.parametrize("language", EDITIONS)
def test_each_translation_is_translated(language):
    """Not an English copy: every explanation is in other words."""
    untranslated = [
        q["id"] for english, q in edition_pairs(language) if q["explanation"] == english["explanation"]
    ]
    assert not untranslated


@pytest.mark.parametrize("language", EDITIONS)
def test_the_cards_show_the_same_numbers_in_the_languages_way_of_writing_them(language):
    """A card's display has the English display's numbers, in order ("about 5,500 °C": "unos 5500 °C",
    "cerca de 5.500 °C", "نحو 5,500 °C"); an explanation names no number its English one does not."""
    for english, translated in edition_pairs(language):
        for theirs, ours in zip(english["items"], translated["items"], strict=True):
            assert numbers(ours["display"]) == numbers(theirs["display"]), (
                f"{translated['id']}: {ours['display']!r} for {theirs['display']!r}"
            )
        invented = Counter(numbers(translated["explanation"])) - Counter(numbers(english["explanation"]))
        assert not invented, f"{translated['id']}: the explanation adds {sorted(invented)}"


def test_spanish_and_portuguese_write_decimals_with_a_comma_and_arabic_with_western_digits():
    spanish = {q["id"]: q for _english, q in edition_pairs("es")}
    portuguese = {q["id"]: q for _english, q in edition_pairs("pt-br")}
    arabic = {q["id"]: q for _english, q in edition_pairs("ar")}
    for edition in (spanish, portuguese):
        displays = [item["display"] for q in edition.values() for item in q["items"]]
        assert not [d for d in displays if re.search(r"[0-9]\.[0-9]{1,2}(?![0-9])", d)]
    arabic_text = json.dumps(list(arabic.values()), ensure_ascii=False)
    assert not re.search("[\u0660-\u0669\u06f0-\u06f9]", arabic_text), "Arabic keeps the digits 0-9"


# --------------------------------------------------------------------------------------------------
# Loading and choosing (database)
# --------------------------------------------------------------------------------------------------


@pytest.fixture
def banks(db):
    services.shipped_banks_load()


def schedule(classroom, teacher, **settings):
    return game_services.session_schedule(
        classroom=classroom,
        by=teacher,
        game="lineup",
        scheduled_for=timezone.now() + timedelta(hours=1),
        settings={"min_level": 1, "max_level": 5, **settings},
    )


def edition_of(language: str) -> dict[str, dict]:
    return {q["id"]: q for _english, q in edition_pairs(language)}


@pytest.mark.django_db
def test_the_loader_stores_every_edition_once_and_a_second_load_changes_nothing():
    first = services.shipped_banks_load()
    english = shipped.lineup_questions()
    assert LineupQuestion.objects.filter(school=None, language="en").count() == len(english)
    for language in EDITIONS:
        stored = LineupQuestion.objects.filter(school=None, language=language)
        assert stored.count() == len(edition_pairs(language))
        question = stored.order_by("position").first()
        assert question.to_engine_dict() == shipped.lineup_questions(language=language)[0]
    assert first["lineup"].created == LineupQuestion.objects.count()
    again = services.shipped_banks_load()
    assert (again["lineup"].created, again["lineup"].updated, again["lineup"].deleted) == (0, 0, 0)


@pytest.mark.django_db
def test_the_loader_updates_a_translation_and_removes_one_no_longer_shipped(tmp_path):
    data = tmp_path / "data"
    (data / "lineup" / "es").mkdir(parents=True)
    science = english_file("science.json")[:2]
    spanish = load(BANK_DIR / "es" / "science.json")[:2]
    (data / "lineup" / "science.json").write_text(json.dumps(science), encoding="utf-8")
    (data / "lineup" / "es" / "science.json").write_text(json.dumps(spanish), encoding="utf-8")
    services.shipped_banks_load(data_dir=data)
    assert LineupQuestion.objects.filter(language="es").count() == 2
    corrected = [{**spanish[0], "explanation": "Corregida."}]
    (data / "lineup" / "es" / "science.json").write_text(json.dumps(corrected), encoding="utf-8")
    result = services.shipped_banks_load(data_dir=data)["lineup"]
    assert (result.updated, result.deleted, result.unchanged) == (1, 1, 2)
    assert LineupQuestion.objects.get(key=spanish[0]["id"], language="es").explanation == "Corregida."
    assert (
        LineupQuestion.objects.get(key=spanish[0]["id"], language="en").explanation
        == science[0]["explanation"]
    )


def test_load_question_banks_reports_each_language(banks, capsys):
    call_command("load_question_banks")
    out = capsys.readouterr().out
    for language in EDITIONS:
        assert f"{language}: {len(edition_pairs(language))}" in out


def test_a_spanish_session_asks_spanish_questions(banks, class_7b, ms_rivera):
    session = schedule(class_7b, ms_rivera, language="es", subject="science")
    questions = lineup.class_questions(session)
    spanish = edition_of("es")
    assert len(questions) == lineup.QUESTIONS_PER_TABLE
    assert questions == [spanish[q["id"]] for q in questions]


def test_every_language_has_its_session(banks, class_7b, ms_rivera):
    for language in EDITIONS:
        edition = edition_of(language)
        subject = next(iter(edition.values()))["subject"]
        questions = lineup.class_questions(schedule(class_7b, ms_rivera, language=language, subject=subject))
        assert questions and all(q == edition[q["id"]] for q in questions)


def test_a_session_without_a_language_follows_its_teacher_then_the_school(banks, class_7b, ms_rivera):
    session = schedule(class_7b, ms_rivera, subject="science")
    assert session.settings["language"] == ""
    assert lineup.session_language(session) == "en"
    ms_rivera.language = "pt-br"
    ms_rivera.save()
    session.refresh_from_db()
    assert lineup.session_language(session) == "pt-br"
    assert all(q == edition_of("pt-br")[q["id"]] for q in lineup.class_questions(session))
    ms_rivera.language = ""
    ms_rivera.save()
    class_7b.school.default_language = "ar"
    class_7b.school.save()
    session.refresh_from_db()
    assert lineup.session_language(session) == "ar"
    # A session scheduled before the setting existed, by a teacher since removed, follows the school.
    session.settings.pop("language")
    session.created_by = None
    assert lineup.session_language(session) == "ar"


def test_a_subject_the_edition_lacks_is_asked_in_english(banks, class_7b, ms_rivera):
    translated = {q["subject"] for q in edition_of("es").values()}
    missing = sorted({q["subject"] for q in shipped.lineup_questions()} - translated)
    assert missing, "every subject is translated: choose another test"
    questions = lineup.class_questions(schedule(class_7b, ms_rivera, language="es", subject=missing[0]))
    english = {q["id"]: q for q in shipped.lineup_questions()}
    assert questions and questions == [english[q["id"]] for q in questions]


def test_an_edition_that_runs_short_is_topped_up_with_english_questions_it_lacks(banks, class_7b):
    spanish = edition_of("es")
    english = {q["id"]: q for q in shipped.lineup_questions()}
    questions = lineup_questions_for(class_7b, levels=[5], limit=1000, language="es")
    keys = [q.key for q in questions]
    assert len(keys) == len(set(keys)), "a question is asked once, in one language"
    translated = [q for q in questions if q.key in spanish]
    assert translated and all(q.language == "es" for q in translated)
    assert questions[: len(translated)] == translated, "the edition's questions come first"
    rest = questions[len(translated) :]
    assert rest and all(q.language == "en" and q.key not in spanish for q in rest)
    assert {q.key for q in questions} == {key for key, q in english.items() if q["level"] == 5}
    # Where the edition has enough, no English question is added.
    enough = lineup_questions_for(class_7b, levels=[5], limit=len(translated), language="es")
    assert enough == translated


def test_a_question_shown_in_one_language_goes_to_the_back_in_every_language(banks, class_7b):
    first = lineup_questions_for(class_7b, ["science"], [1], language="es")
    services.questions_mark_used(class_7b, [first[0].key])
    for language in shipped.LINEUP_LANGUAGES:
        again = lineup_questions_for(class_7b, ["science"], [1], language=language)
        assert again[-1].key == first[0].key and again[-1].language == language


def test_a_schools_own_questions_are_asked_in_every_language(banks, riverside, ms_rivera, class_7b):
    own = services.item_create(
        kind="lineup",
        school=riverside,
        author=ms_rivera,
        data={**english_file("science.json")[0], "id": "our-legs", "explanation": "Nuestra pregunta."},
    )
    assert own.language == "en"
    keys = [q.key for q in lineup_questions_for(class_7b, ["science"], [1], language="ar")]
    assert "our-legs" in keys


def test_without_a_loaded_bank_the_session_reads_the_edition_files(db, class_7b, ms_rivera):
    questions = lineup.class_questions(schedule(class_7b, ms_rivera, language="ar", subject="science"))
    arabic = edition_of("ar")
    assert questions and all(q == arabic[q["id"]] for q in questions)
    assert lineup.shipped_questions("es", range(1, 6), ["arts"]) == [
        q for q in shipped.lineup_questions() if q["subject"] == "arts"
    ]


def test_the_scheduling_form_offers_the_language_of_the_questions(client_of, ms_rivera, class_7b):
    response = client_of(ms_rivera).get(reverse("games:new"))
    assert response.status_code == 200
    assert 'name="lineup__language"' in response.text
    assert "The teacher&#x27;s language" in response.text and "Português (Brasil)" in response.text


# --------------------------------------------------------------------------------------------------
# The bank pages, imports and reports
# --------------------------------------------------------------------------------------------------


def test_the_bank_page_filters_by_language_and_marks_each_question_with_its_own(banks, client_of, ms_rivera):
    client = client_of(ms_rivera)
    response = client.get(
        reverse("questions:bank", args=["lineup"]), {"language": "ar", "subject": "science"}
    )
    rows = [row["item"] for row in response.context["rows"]]
    assert rows and {question.language for question in rows} == {"ar"}
    assert (
        f'lang="ar" dir="auto"><a href="{reverse("questions:item_detail", args=["lineup", rows[0].pk])}"'
        in (response.text)
    )
    detail = client.get(reverse("questions:item_detail", args=["lineup", rows[0].pk]))
    assert "العربية" in detail.text and rows[0].explanation in detail.text


def test_a_shipped_translation_imports_as_nothing_to_do(banks, riverside, ms_rivera):
    spanish = load(BANK_DIR / "es" / "science.json")[:3]
    checked = services.import_preview(
        kind="lineup", school=riverside, user=ms_rivera, data=to_json(spanish).encode(), filename="b.json"
    )
    assert [row.action for row in checked.rows] == ["shipped"] * 3


def test_reports_name_a_shipped_question_in_english(banks, class_7b):
    question = english_file("science.json")[0]
    labels = item_labels({class_7b.pk: [("lineup", question["id"])]})
    assert labels == {(class_7b.pk, "lineup", question["id"]): question["heading"]}


def test_the_import_template_shows_an_english_question(banks, client_of, ms_rivera):
    response = client_of(ms_rivera).get(reverse("questions:import_template", args=["lineup"]))
    assert english_file("arts.json")[0]["heading"] in response.content.decode()
