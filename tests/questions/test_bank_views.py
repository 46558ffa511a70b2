"""The teachers' bank pages, read like sentences about who may do what."""

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from questions import services
from questions.models import Concept, LineupQuestion, WordList, WordUpQuestion
from tests.factories import imported_word_list

pytestmark = pytest.mark.django_db

LEGS = {
    "heading": "How many legs?",
    "order_label": "Fewest first",
    "direction": "asc",
    "items": [
        {"text": "Spider", "value": 8, "display": "8 legs"},
        {"text": "Snake", "value": 0, "display": "0 legs"},
        {"text": "Ant", "value": 6, "display": "6 legs"},
        {"text": "Dog", "value": 4, "display": "4 legs"},
        {"text": "Chicken", "value": 2, "display": "2 legs"},
    ],
    "answer": [2, 5, 4, 3, 1],
    "explanation": "Insects have six legs.",
    "source": "Britannica",
    "level": 1,
    "subject": "science",
    "tags": ["animals"],
}


def url(name, *args):
    return reverse(f"questions:{name}", args=args)


def lineup_form(**changes):
    data = {
        "id": "",
        "heading": "How many legs?",
        "order_label": "Fewest first",
        "direction": "asc",
        "explanation": "Insects have six legs.",
        "source": "Britannica",
        "level": "1",
        "subject": "Science",
        "tags": "animals, legs",
    }
    for n, (text, value) in enumerate(
        [("Spider", "8"), ("Snake", "0"), ("Ant", "6"), ("Dog", "4"), ("Hen", "2")], 1
    ):
        data |= {f"item{n}_text": text, f"item{n}_value": value, f"item{n}_display": f"{value} legs"}
    return data | changes


@pytest.fixture
def shipped(db):
    services.shipped_banks_load()


@pytest.fixture
def rivera_question(riverside, ms_rivera):
    return services.item_create(
        kind="lineup", school=riverside, author=ms_rivera, data={**LEGS, "id": "legs"}
    )


@pytest.fixture
def okafor_question(hillside, mr_okafor):
    return services.item_create(
        kind="lineup", school=hillside, author=mr_okafor, data={**LEGS, "id": "hill-legs"}
    )


# --- who gets in ------------------------------------------------------------------------------------------


def test_signed_out_visitors_are_sent_to_sign_in(client, db):
    response = client.get(url("bank", "lineup"))
    assert response.status_code == 302 and "login" in response["Location"]


def test_staff_without_a_school_are_sent_to_set_one_up(client_of, db):
    from tests.factories import UserFactory

    response = client_of(UserFactory()).get(url("index"))
    assert response.status_code == 302 and response["Location"] == reverse("school_setup")


def test_students_devices_do_not_get_in(student_client, ava):
    response = student_client(ava).get(url("bank", "wordup"))
    assert response.status_code == 302 and "login" in response["Location"]


# --- reading ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["lineup", "wordup", "concepts"])
def test_every_bank_page_lists_the_shipped_items_read_only(kind, shipped, client_of, ms_rivera):
    response = client_of(ms_rivera).get(url("bank", kind))
    assert response.status_code == 200
    assert "Shipped" in response.text
    assert ">Edit<" not in response.text
    assert response.context["page"].paginator.count > 100


def test_the_index_counts_each_bank(shipped, client_of, ms_rivera, rivera_question):
    response = client_of(ms_rivera).get(url("index"))
    assert response.context["counts"]["lineup"]["own"] == 1
    assert response.context["counts"]["wordup"]["shipped"] == 1000


def test_filters_narrow_the_list(shipped, client_of, ms_rivera, rivera_question):
    client = client_of(ms_rivera)
    own = client.get(url("bank", "lineup"), {"scope": "own"})
    assert [row["item"].key for row in own.context["rows"]] == ["legs"]
    assert own.context["rows"][0]["editable"]
    level_2 = client.get(url("bank", "wordup"), {"level": "2", "category": "spelling"})
    assert {(r["item"].level, r["item"].category) for r in level_2.context["rows"]} == {(2, "spelling")}
    themed = client.get(url("bank", "concepts"), {"difficulty": "hard", "theme": "animals"})
    assert {(r["item"].difficulty, r["item"].theme) for r in themed.context["rows"]} == {("hard", "animals")}
    # Nonsense in the query string filters nothing rather than breaking the page.
    assert client.get(url("bank", "lineup"), {"level": "x", "page": "zz"}).status_code == 200


def test_the_wordup_bank_shows_the_estimate_and_flags_misplaced_questions(client_of, ms_rivera, riverside):
    services.item_create(
        kind="wordup",
        school=riverside,
        author=ms_rivera,
        data={
            "id": "off",
            "level": 5,
            "category": "missing_word",
            "prompt": "An ____ a day.",
            "answers": ["apple"],
        },
    )
    response = client_of(ms_rivera).get(url("bank", "wordup"), {"misplaced": "on"})
    assert [row["item"].key for row in response.context["rows"]] == ["off"]
    assert "looks misplaced" in response.text


def test_a_colleagues_item_is_readable_but_not_editable(client_of, mr_moss, rivera_question):
    client = client_of(mr_moss)
    assert client.get(url("item_detail", "lineup", rivera_question.pk)).status_code == 200
    assert client.get(url("item_edit", "lineup", rivera_question.pk)).status_code == 403
    assert client.post(url("item_delete", "lineup", rivera_question.pk)).status_code == 403
    assert LineupQuestion.objects.filter(pk=rivera_question.pk).exists()


def test_another_schools_items_do_not_exist_for_her(client_of, ms_rivera, dr_patel, okafor_question):
    for person in (ms_rivera, dr_patel):
        client = client_of(person)
        for name in ("item_detail", "item_edit", "item_delete"):
            assert client.get(url(name, "lineup", okafor_question.pk)).status_code == 404
        assert client.post(url("item_edit", "lineup", okafor_question.pk), lineup_form()).status_code == 404
        listed = client.get(url("bank", "lineup"))
        assert "hill-legs" not in listed.text
        exported = client.get(url("export", "lineup", "json"))
        assert "hill-legs" not in exported.content.decode()
    assert LineupQuestion.objects.get(pk=okafor_question.pk).heading == LEGS["heading"]


def test_shipped_items_cannot_be_edited_or_deleted(shipped, client_of, dr_patel):
    question = LineupQuestion.objects.filter(school=None).first()
    client = client_of(dr_patel)
    assert client.get(url("item_detail", "lineup", question.pk)).status_code == 200
    assert client.get(url("item_edit", "lineup", question.pk)).status_code == 403
    assert client.post(url("item_edit", "lineup", question.pk), lineup_form()).status_code == 403
    assert client.post(url("item_delete", "lineup", question.pk)).status_code == 403
    question.refresh_from_db()
    assert question.school is None and LineupQuestion.objects.filter(pk=question.pk).exists()


def test_what_a_teacher_typed_is_escaped(client_of, ms_rivera, riverside):
    services.item_create(
        kind="lineup",
        school=riverside,
        author=ms_rivera,
        data={**LEGS, "heading": "<script>alert(1)</script>"},
    )
    response = client_of(ms_rivera).get(url("bank", "lineup"), {"scope": "own"})
    assert "<script>alert(1)</script>" not in response.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in response.text


# --- writing ----------------------------------------------------------------------------------------------


def test_a_teacher_writes_a_line_up_question_and_the_answer_follows_from_the_values(client_of, ms_rivera):
    client = client_of(ms_rivera)
    assert client.get(url("item_create", "lineup")).status_code == 200
    response = client.post(url("item_create", "lineup"), lineup_form(item5_display=""))
    assert response.status_code == 302
    question = LineupQuestion.objects.get()
    assert question.answer == [2, 5, 4, 3, 1]
    assert question.items[4] == {"text": "Hen", "value": 2, "display": "2"}
    assert (question.subject, question.tags, question.author) == ("science", ["animals", "legs"], ms_rivera)
    assert response["Location"] == url("item_detail", "lineup", question.pk)
    assert "Insects have six legs." in client.get(response["Location"]).text


def test_the_form_explains_what_is_wrong(client_of, ms_rivera):
    client = client_of(ms_rivera)
    not_a_number = client.post(url("item_create", "lineup"), lineup_form(item2_value="zero"))
    assert not_a_number.status_code == 400 and "Write a number" in not_a_number.text
    tie = client.post(url("item_create", "lineup"), lineup_form(item2_value="8"))
    assert tie.status_code == 400 and "must all differ" in tie.text
    in_order = lineup_form(
        item1_value="1", item2_value="2", item3_value="3", item4_value="4", item5_value="5"
    )
    assert "mix them up" in client.post(url("item_create", "lineup"), in_order).text
    assert not LineupQuestion.objects.exists()


def test_a_teacher_edits_her_own_item(client_of, ms_rivera, rivera_question):
    client = client_of(ms_rivera)
    form = client.get(url("item_edit", "lineup", rivera_question.pk))
    assert form.status_code == 200 and 'value="How many legs?"' in form.text
    response = client.post(
        url("item_edit", "lineup", rivera_question.pk), lineup_form(id="legs", heading="Legs")
    )
    assert response.status_code == 302
    rivera_question.refresh_from_db()
    assert rivera_question.heading == "Legs" and rivera_question.key == "legs"


def test_a_teacher_deletes_her_own_item_after_confirming(client_of, ms_rivera, rivera_question):
    client = client_of(ms_rivera)
    assert client.get(url("item_delete", "lineup", rivera_question.pk)).status_code == 200
    assert LineupQuestion.objects.exists()
    assert client.post(url("item_delete", "lineup", rivera_question.pk)).status_code == 302
    assert not LineupQuestion.objects.exists()


def test_a_teacher_writes_word_up_questions_of_each_category(client_of, ms_rivera):
    client = client_of(ms_rivera)
    forms = [
        {"category": "missing_word", "prompt": "My mother's sister is my ____.", "answers": "aunt"},
        {
            "category": "crossword",
            "prompt": "A long yellow fruit.",
            "answers": "Banana",
            "choices": "ignored",
        },
        {
            "category": "multiple_choice",
            "prompt": "Which is a fruit?",
            "answers": "apple",
            "choices": "chair, apple, shirt",
        },
        {
            "category": "spelling",
            "sentence": "Pizza is my favourite food.",
            "answers": "favourite",
            "alternatives": "favorite",
        },
    ]
    for form in forms:
        response = client.post(url("item_create", "wordup"), {"level": "1", **form})
        assert response.status_code == 302, response.context["form"].errors
    stored = {q.category: q.to_engine_dict() for q in WordUpQuestion.objects.all()}
    assert stored["crossword"]["first_letter"] == "b" and "choices" not in stored["crossword"]
    assert stored["multiple_choice"]["choices"] == ["chair", "apple", "shirt"]
    assert stored["spelling"]["prompt"] == "Listen and spell the word."
    wrong = client.post(
        url("item_create", "wordup"),
        {"level": "1", "category": "missing_word", "prompt": "No gap.", "answers": "aunt"},
    )
    assert wrong.status_code == 400 and "one gap" in wrong.text


def test_concepts_of_her_own_go_on_a_word_list(client_of, ms_rivera):
    client = client_of(ms_rivera)
    assert client.get(url("item_create", "concepts"))["Location"] == url("word_lists")
    response = client.post(
        url("word_lists"),
        {"name": "Week 12", "words": "volcano\nglacier, 7 seas", "difficulty": "easy", "theme": ""},
    )
    week = WordList.objects.get()
    assert response["Location"] == url("word_list_detail", week.pk)
    assert [c.text for c in week.concepts.all()] == ["volcano", "glacier"]
    page = client.get(response["Location"])
    assert page.status_code == 200 and "glacier" in page.text
    client.post(
        url("word_list_detail", week.pk),
        {"add-words": "iceberg", "add-difficulty": "hard", "add-theme": "nature"},
    )
    assert week.concepts.filter(text="iceberg", difficulty="hard").exists()
    created = client.post(
        url("item_create", "concepts"),
        {"text": "fjord", "difficulty": "hard", "word_list": week.pk, "theme": ""},
    )
    assert created.status_code == 302 and week.concepts.count() == 4
    client.post(url("word_list_detail", week.pk), {"rename-name": "Week 13"})
    week.refresh_from_db()
    assert week.name == "Week 13"
    assert client.post(url("word_list_delete", week.pk)).status_code == 302
    assert not Concept.objects.exists()


def test_another_schools_word_list_is_404_and_a_colleagues_is_read_only(
    client_of, ms_rivera, mr_moss, mr_okafor, riverside
):
    week = services.word_list_create(school=riverside, author=ms_rivera, name="Week 12")
    assert client_of(mr_okafor).get(url("word_list_detail", week.pk)).status_code == 404
    assert client_of(mr_okafor).post(url("word_list_delete", week.pk)).status_code == 404
    moss = client_of(mr_moss)
    assert moss.get(url("word_list_detail", week.pk)).status_code == 200
    assert (
        moss.post(url("word_list_detail", week.pk), {"add-words": "x", "add-difficulty": "easy"}).status_code
        == 403
    )
    assert moss.post(url("word_list_delete", week.pk)).status_code == 403


# --- import and export --------------------------------------------------------------------------------------


def upload(name, text):
    return SimpleUploadedFile(name, text.encode("utf-8") if isinstance(text, str) else text)


def test_import_previews_errors_and_imports_nothing(client_of, ms_rivera):
    client = client_of(ms_rivera)
    bad = json.dumps([{**LEGS, "id": "a"}, {**LEGS, "id": "b", "answer": [1, 2, 3, 5, 4]}])
    response = client.post(url("import", "lineup"), {"file": upload("bank.json", bad)})
    assert response.status_code == 400
    assert "1 row has a problem" in response.text and "not the stated answer" in response.text
    assert 'name="confirm"' not in response.text
    assert client.post(url("import", "lineup"), {"confirm": "1"}).status_code == 302  # nothing to confirm
    assert not LineupQuestion.objects.exists()


def test_import_reports_a_file_it_cannot_read(client_of, ms_rivera):
    response = client_of(ms_rivera).post(url("import", "wordup"), {"file": upload("bank.json", "[{")})
    assert response.status_code == 400 and "not valid JSON" in response.text


def test_import_names_the_line_of_a_quote_never_closed_in_the_teachers_language(client_of, ms_rivera):
    csv_text = 'id,text,difficulty\nv-1,volcano,easy\nv-2,"aeroplane,easy\nv-3,glacier,easy\n'
    with translation.override("en"):  # the request's Spanish stays with the request
        response = client_of(ms_rivera).post(
            url("import", "concepts"),
            {"file": upload("w.csv", csv_text), "new_list_name": "Week 12"},
            HTTP_ACCEPT_LANGUAGE="es",
        )
    assert response.status_code == 400
    assert "La línea 3 abre unas comillas" in response.text and 'name="confirm"' not in response.text


def test_import_preview_then_confirm(client_of, ms_rivera):
    client = client_of(ms_rivera)
    good = json.dumps([{**LEGS, "id": "a"}, {**LEGS, "id": "b", "level": 2}])
    preview = client.post(url("import", "lineup"), {"file": upload("bank.json", good)})
    assert preview.status_code == 200 and 'name="confirm"' in preview.text
    assert not LineupQuestion.objects.exists()
    done = client.post(url("import", "lineup"), {"confirm": "1"})
    assert done.status_code == 302
    assert sorted(LineupQuestion.objects.values_list("key", flat=True)) == ["a", "b"]


def test_import_concepts_into_a_new_list(client_of, ms_rivera):
    client = client_of(ms_rivera)
    csv_text = "id,text,difficulty,theme\nv-1,volcano,easy,nature\n"
    client.post(url("import", "concepts"), {"file": upload("w.csv", csv_text), "new_list_name": "Week 12"})
    done = client.post(url("import", "concepts"), {"confirm": "1"})
    week = WordList.objects.get(name="Week 12")
    assert done["Location"] == url("word_list_detail", week.pk)
    assert week.to_engine_list() == [
        {"id": "v-1", "text": "volcano", "difficulty": "easy", "theme": "nature"}
    ]


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_export_gives_the_filtered_items_as_a_download(fmt, shipped, client_of, ms_rivera, rivera_question):
    response = client_of(ms_rivera).get(url("export", "lineup", fmt), {"scope": "own"})
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="classplay-lineup.{fmt}"'
    text = response.content.decode("utf-8")
    if fmt == "json":
        assert json.loads(text) == [{**LEGS, "id": "legs"}]
    else:
        assert text.splitlines()[0].startswith("id,heading,order_label,direction,item1_text")
        assert len(text.splitlines()) == 2
    everything = client_of(ms_rivera).get(url("export", "wordup", "json"), {"level": "1"})
    assert len(json.loads(everything.content)) == 200


def test_mind_the_lines_themes_read_in_the_teachers_language(client_of, riverside, ms_rivera):
    """A shipped theme is a key in the files ("nature"): the pages name it as the game does, a school's
    own theme as its teacher wrote it."""
    ms_rivera.language = "es"
    ms_rivera.save()
    csv_text = b"id,text,difficulty,theme\nv-1,volcano,easy,nature\nv-2,hedgehog,easy,my pets\n"
    imported_word_list(riverside, ms_rivera, csv_text)
    volcano = Concept.objects.get(key="v-1")
    client = client_of(ms_rivera)
    with translation.override("en"):  # the request's Spanish stays with the request
        pages = [
            client.get(url("bank", "concepts")).text,
            client.get(url("word_list_detail", volcano.word_list_id)).text,
            client.get(url("item_detail", "concepts", volcano.pk)).text,
        ]
    for page in pages:
        # The bank's filter lists the themes by their keys: its choices are the form's (questions/forms.py).
        shown = re.sub(r'<form method="get".*?</form>', "", page, flags=re.S)
        assert "<bdi>naturaleza</bdi>" in shown and ">nature<" not in shown
    assert "<bdi>my pets</bdi>" in pages[0] and "<bdi>my pets</bdi>" in pages[1]


def test_line_up_subjects_read_in_the_teachers_language(client_of, ms_rivera, rivera_question):
    ms_rivera.language = "es"
    ms_rivera.save()
    client = client_of(ms_rivera)
    with translation.override("en"):
        bank = client.get(url("bank", "lineup")).text
        detail = client.get(url("item_detail", "lineup", rivera_question.pk)).text
    assert "<td><bdi>Ciencias</bdi></td>" in bank
    assert "<dd><bdi>Ciencias</bdi></dd>" in detail
