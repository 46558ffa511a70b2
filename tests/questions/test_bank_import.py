"""Importing and exporting bank files: a preview with per-row errors, all or nothing, idempotent."""

import json

import pytest
from django.core.exceptions import ValidationError

from questions import services
from questions.formats import BankFileError, to_csv, to_json
from questions.models import Concept, LineupQuestion, WordList, WordUpQuestion
from questions.selectors import KIND_MODELS

pytestmark = pytest.mark.django_db


def legs(key="my-legs", **changes):
    """A good Line Up! question (answer 2 5 4 3 1, like the rulebook's shape)."""
    question = {
        "id": key,
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
        "explanation": "Insects have six legs, spiders eight.",
        "source": "Encyclopaedia Britannica",
        "level": 1,
        "subject": "science",
        "tags": ["animals"],
    }
    return question | changes


def temperatures(key="my-temps"):
    """Negative and fractional values, and a display a spreadsheet would take for a formula."""
    return legs(
        key,
        heading="Freezing points",
        order_label="Coldest first",
        items=[
            {"text": "Water", "value": 0, "display": "0 °C"},
            {"text": "Mercury", "value": -38.83, "display": "-38.83 °C"},
            {"text": "Ethanol", "value": -114.1, "display": "-114.1 °C"},
            {"text": "Olive oil", "value": -6.0, "display": "=about -6 °C"},
            {"text": "Butter", "value": 32.5, "display": "+32.5 °C"},
        ],
        answer=[3, 2, 4, 1, 5],
        tags=["temperature", "states of matter"],
    )


def word(key, **changes):
    question = {
        "id": key,
        "level": 1,
        "category": "missing_word",
        "prompt": "My mother's sister is my ____.",
        "answers": ["aunt"],
        "alternatives": [],
        "letters": 4,
    }
    return question | changes


WORDS = [
    word("w-mw"),
    word(
        "w-cw",
        category="crossword",
        prompt="A long yellow fruit.",
        answers=["banana"],
        letters=6,
        first_letter="b",
    ),
    word(
        "w-mc",
        category="multiple_choice",
        prompt="Which one is a fruit?",
        answers=["apple"],
        letters=5,
        choices=["chair", "apple", "shirt"],
    ),
    word(
        "w-sp",
        category="spelling",
        prompt="Listen and spell the word.",
        sentence="Pizza is my favourite food.",
        answers=["favourite"],
        alternatives=["favorite"],
        letters=9,
    ),
]
CONCEPTS = [
    {"id": "v-1", "text": "volcano", "difficulty": "easy", "theme": "nature"},
    {"id": "v-2", "text": "aeroplane", "difficulty": "easy", "theme": "transport", "alt": "airplane"},
    {"id": "v-3", "text": "photosynthesis", "difficulty": "hard", "theme": "science"},
]
GOOD = {"lineup": [legs(), temperatures()], "wordup": WORDS, "concepts": CONCEPTS}


def preview(kind, data, school, user, filename="bank.json", **extra):
    if kind == "concepts" and "word_list" not in extra:
        extra.setdefault("new_list_name", "Week 12")
    if isinstance(data, str):
        data = data.encode("utf-8")
    return services.import_preview(kind=kind, school=school, user=user, data=data, filename=filename, **extra)


def import_file(kind, data, school, user, filename="bank.json", **extra):
    checked = preview(kind, data, school, user, filename, **extra)
    assert checked.ok, [(row.line, row.errors) for row in checked.rows if row.errors]
    return services.import_apply(preview=checked, school=school, by=user)


def own_dicts(kind, school):
    items = KIND_MODELS[kind].objects.filter(school=school).order_by("key")
    return [item.to_engine_dict() for item in items]


def snapshot(kind):
    return list(KIND_MODELS[kind].objects.order_by("pk").values_list("pk", "updated_at"))


# --- a good file ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["lineup", "wordup", "concepts"])
@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_a_good_file_imports_every_item(kind, fmt, riverside, ms_rivera):
    text = to_json(GOOD[kind]) if fmt == "json" else to_csv(kind, GOOD[kind])
    result = import_file(kind, text, riverside, ms_rivera, filename=f"mine.{fmt}")
    assert result.created == len(GOOD[kind])
    assert own_dicts(kind, riverside) == sorted(GOOD[kind], key=lambda item: item["id"])
    assert all(item.author == ms_rivera for item in KIND_MODELS[kind].objects.filter(school=riverside))


@pytest.mark.parametrize("kind", ["lineup", "wordup", "concepts"])
@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_importing_the_same_file_again_changes_nothing(kind, fmt, riverside, ms_rivera):
    text = to_json(GOOD[kind]) if fmt == "json" else to_csv(kind, GOOD[kind])
    import_file(kind, text, riverside, ms_rivera, filename=f"mine.{fmt}")
    before = snapshot(kind)

    checked = preview(kind, text, riverside, ms_rivera, filename=f"mine.{fmt}")
    assert [row.action for row in checked.rows] == ["unchanged"] * len(GOOD[kind])
    result = services.import_apply(preview=checked, school=riverside, by=ms_rivera)

    assert (result.created, result.updated, result.unchanged) == (0, 0, len(GOOD[kind]))
    assert snapshot(kind) == before
    assert WordList.objects.count() == (1 if kind == "concepts" else 0)


def test_a_changed_item_is_updated_in_place(riverside, ms_rivera):
    import_file("lineup", to_json([legs()]), riverside, ms_rivera)
    pk = LineupQuestion.objects.get(key="my-legs").pk
    result = import_file("lineup", to_json([legs(explanation="Better.")]), riverside, ms_rivera)
    assert (result.created, result.updated) == (0, 1)
    assert LineupQuestion.objects.get(pk=pk).explanation == "Better."


def test_a_shipped_file_imports_as_nothing_to_do(riverside, ms_rivera):
    from pathlib import Path

    services.shipped_banks_load()
    path = Path(__file__).resolve().parents[2] / "questions/data/wordup/level1.json"
    checked = preview("wordup", path.read_bytes(), riverside, ms_rivera)
    assert checked.ok and {row.action for row in checked.rows} == {"shipped"}
    assert services.import_apply(preview=checked, school=riverside, by=ms_rivera).shipped == 200
    assert WordUpQuestion.objects.filter(school=riverside).count() == 0


# --- export, then import ----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["lineup", "wordup", "concepts"])
@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_export_then_import_gives_the_same_items(kind, fmt, riverside, hillside, ms_rivera, mr_okafor):
    import_file(kind, to_json(GOOD[kind]), riverside, ms_rivera)
    exported_items = own_dicts(kind, riverside)
    exported = to_json(exported_items) if fmt == "json" else to_csv(kind, exported_items)

    # Into another school: the same items, value for value (floats stay floats, negatives stay numbers).
    import_file(kind, exported, hillside, mr_okafor, filename=f"export.{fmt}")
    assert json.dumps(own_dicts(kind, hillside)) == json.dumps(exported_items)

    # Back into the school it came from: nothing to do.
    checked = preview(
        kind, exported, riverside, ms_rivera, filename=f"export.{fmt}", **_same_list(kind, riverside)
    )
    assert {row.action for row in checked.rows} == {"unchanged"}


def _same_list(kind, school):
    return {"word_list": WordList.objects.get(school=school)} if kind == "concepts" else {}


def test_csv_export_defuses_formulas_and_keeps_numbers(riverside, ms_rivera):
    text = to_csv("lineup", [temperatures()])
    assert ",'=about -6 °C," in text and ",'+32.5 °C," in text
    assert ",-38.83,-38.83 °C," not in text  # the display starts with "-": defused
    assert ",-38.83,'-38.83 °C," in text  # the value is a plain number: left alone
    import_file("lineup", text, riverside, ms_rivera, filename="t.csv")
    assert own_dicts("lineup", riverside) == [temperatures()]


def test_csv_may_use_semicolons_and_name_columns_in_any_case(riverside, ms_rivera):
    text = "ID;Text;Difficulty;Theme\nv-9;hedgehog;easy;animals\n"
    import_file("concepts", text, riverside, ms_rivera, filename="words.csv")
    assert own_dicts("concepts", riverside) == [
        {"id": "v-9", "text": "hedgehog", "difficulty": "easy", "theme": "animals"}
    ]


# --- files refused as a whole -----------------------------------------------------------------------------


def test_bad_json_is_refused_with_where_it_breaks(riverside, ms_rivera):
    with pytest.raises(BankFileError, match=r"not valid JSON.*line 2"):
        preview("lineup", '[\n{"id": "x",,}]', riverside, ms_rivera)


def test_json_that_is_not_a_list_is_refused(riverside, ms_rivera):
    with pytest.raises(BankFileError, match="list"):
        preview("lineup", json.dumps(legs()), riverside, ms_rivera)


def test_a_file_in_another_encoding_is_refused(riverside, ms_rivera):
    latin1 = "id,text,difficulty\nv-1,crème brûlée,easy\n".encode("latin-1")
    with pytest.raises(BankFileError, match="not UTF-8"):
        preview("concepts", latin1, riverside, ms_rivera, filename="words.csv")


@pytest.mark.parametrize(
    "text",
    [
        'id,text,difficulty\nv-1,volcano,easy\nv-2,"aeroplane,easy\nv-3,photosynthesis,hard\nv-4,glacier,easy\n',
        'id;text;difficulty\r\nv-1;volcano;easy\r\nv-2;"aeroplane;easy\r\nv-3;photosynthesis;hard',
    ],
    ids=["commas", "semicolons, Windows line ends, no last line end"],
)
def test_a_quote_never_closed_is_refused_with_its_line(text, riverside, ms_rivera):
    """The csv reader would read every line after the quote as one cell: three concepts would become one."""
    with pytest.raises(BankFileError, match=r"^Line 3 opens a quote \(\"\) that is never closed"):
        preview("concepts", text, riverside, ms_rivera, filename="words.csv")


def test_a_quoted_cell_over_two_lines_is_still_read(riverside, ms_rivera):
    text = 'id,text,difficulty,theme\nv-1,"hot\nspring",easy,nature\nv-2,glacier,easy,nature\n'
    import_file("concepts", text, riverside, ms_rivera, filename="words.csv")
    assert [concept["text"] for concept in own_dicts("concepts", riverside)] == ["hot spring", "glacier"]


def test_missing_columns_are_named(riverside, ms_rivera):
    with pytest.raises(BankFileError, match=r"Missing column.*answer"):
        preview("lineup", "id,heading\nx,y\n", riverside, ms_rivera, filename="q.csv")


def test_an_empty_file_is_refused(riverside, ms_rivera):
    with pytest.raises(BankFileError, match="empty"):
        preview("wordup", b"  \n", riverside, ms_rivera)


def test_too_large_a_file_is_refused(riverside, ms_rivera, settings):
    settings.QUESTION_IMPORT_MAX_BYTES = 100
    with pytest.raises(BankFileError, match="too large"):
        preview("lineup", to_json([legs()]), riverside, ms_rivera)


# --- row errors: previewed, and nothing imported ------------------------------------------------------------


def errors_of(checked):
    return {row.line: row.errors for row in checked.rows if row.errors}


def assert_nothing_imported(checked, school, user):
    before = {kind: snapshot(kind) for kind in KIND_MODELS}
    with pytest.raises(ValidationError):
        services.import_apply(preview=checked, school=school, by=user)
    assert {kind: snapshot(kind) for kind in KIND_MODELS} == before
    assert not WordList.objects.exists()


def test_duplicate_ids_are_row_errors(riverside, ms_rivera):
    checked = preview("lineup", to_json([legs("a"), temperatures("b"), legs("a")]), riverside, ms_rivera)
    assert list(errors_of(checked)) == [3]
    assert "also on line 1" in errors_of(checked)[3][0]
    assert_nothing_imported(checked, riverside, ms_rivera)


def test_data_that_does_not_sort_into_the_answer_is_a_row_error(riverside, ms_rivera):
    wrong = legs("wrong", answer=[1, 5, 4, 3, 2])
    tie = legs(
        "tie", items=[{**item, "value": 4} if item["text"] == "Ant" else item for item in legs()["items"]]
    )
    not_a_permutation = legs("perm", answer=[2, 5, 4, 3, 3])
    in_order = legs(
        "sorted",
        items=sorted(legs()["items"], key=lambda item: item["value"]),
        answer=[1, 2, 3, 4, 5],
    )
    text = to_json([legs(), wrong, tie, not_a_permutation, in_order])
    checked = preview("lineup", text, riverside, ms_rivera)

    errors = errors_of(checked)
    assert list(errors) == [2, 3, 4, 5]
    assert "gives 2 5 4 3 1, not the stated answer 1 5 4 3 2" in errors[2][0]
    assert "must all differ" in " ".join(errors[3])
    assert "1 to 5, each once" in " ".join(errors[4])
    assert "mix them up" in " ".join(errors[5])
    assert_nothing_imported(checked, riverside, ms_rivera)


def test_a_bad_row_in_a_csv_is_reported_by_line(riverside, ms_rivera):
    rows = to_csv("lineup", [legs("a"), legs("b")]).splitlines()
    rows[2] = rows[2].replace(",8,8 legs,", ",eight,8 legs,")
    checked = preview("lineup", "\n".join(rows), riverside, ms_rivera, filename="q.csv")
    assert errors_of(checked) == {3: ["item 1 value must be a number"]}


def test_wrong_letter_count_is_a_row_error(riverside, ms_rivera):
    checked = preview("wordup", to_json([word("w1", letters=5), *WORDS[1:]]), riverside, ms_rivera)
    assert errors_of(checked) == {1: ["aunt does not have 5 letters"]}
    assert_nothing_imported(checked, riverside, ms_rivera)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"prompt": "My mother's sister is my aunt."}, "exactly one gap"),
        ({"prompt": "____ and ____"}, "exactly one gap"),
        ({"answers": ["Aunt Mary"]}, "not a single word"),
        ({"category": "crossword", "first_letter": "x"}, "start with the first letter"),
        (
            {"category": "multiple_choice", "choices": ["uncle", "niece", "cousin"]},
            "must be one of the choices",
        ),
        ({"category": "multiple_choice", "choices": ["aunt", "aunt", "cousin"]}, "must differ"),
        ({"category": "spelling", "sentence": "She is nice."}, "exactly once"),
        ({"category": "spelling", "sentence": "My aunt is 40."}, "plain punctuation"),
        ({"level": 6}, "1 to 5"),
        ({"choices": ["a", "b", "c"]}, "not used by this category"),
        ({"colour": "red"}, "unknown field"),
    ],
)
def test_wordup_category_rules_are_row_errors(riverside, ms_rivera, changes, message):
    checked = preview("wordup", to_json([word("w1", **changes)]), riverside, ms_rivera)
    assert message in " ".join(errors_of(checked)[1])


def test_concept_rules_are_row_errors(riverside, ms_rivera):
    rows = [
        {"id": "c1", "text": "100 cats", "difficulty": "easy"},
        {"id": "c2", "text": "dog", "difficulty": "medium"},
        {"id": "c3", "text": "car", "difficulty": "easy", "alt": "Car"},
        {"id": "c 4", "text": "bus", "difficulty": "easy"},
        {"id": "c5", "text": "x" * 61, "difficulty": "easy"},
    ]
    errors = errors_of(preview("concepts", to_json(rows), riverside, ms_rivera))
    assert "no digits" in errors[1][0]
    assert "easy or hard" in errors[2][0]
    assert "must differ" in errors[3][0]
    assert "no spaces" in errors[4][0]
    assert "longer than 60" in errors[5][0]


def test_a_shipped_id_with_other_content_is_a_row_error(riverside, ms_rivera):
    services.shipped_banks_load()
    shipped = LineupQuestion.objects.filter(school=None).first().to_engine_dict()
    checked = preview("lineup", to_json([{**shipped, "explanation": "Mine."}]), riverside, ms_rivera)
    assert "id of a shipped item" in errors_of(checked)[1][0]


def test_a_colleagues_item_is_not_overwritten_by_an_import(
    riverside, hillside, ms_rivera, mr_moss, dr_patel, mr_okafor
):
    import_file("lineup", to_json([legs()]), riverside, ms_rivera)
    changed = to_json([legs(explanation="Mine now.")])
    assert "belongs to Ms Rivera" in errors_of(preview("lineup", changed, riverside, mr_moss))[1][0]
    # The school's admin may change it.
    assert preview("lineup", changed, riverside, dr_patel).rows[0].action == "update"
    # Another school has ids of its own: the same id is simply new there.
    assert preview("lineup", changed, hillside, mr_okafor).rows[0].action == "new"


def test_a_concept_on_another_list_is_a_row_error(riverside, ms_rivera):
    import_file("concepts", to_json(CONCEPTS[:1]), riverside, ms_rivera, new_list_name="Week 1")
    checked = preview("concepts", to_json(CONCEPTS), riverside, ms_rivera, new_list_name="Week 2")
    assert "already on your school's list “Week 1”" in errors_of(checked)[1][0]


def test_the_import_is_all_or_nothing_when_the_bank_changes_meanwhile(riverside, ms_rivera):
    checked = preview("lineup", to_json([legs("a"), legs("b")]), riverside, ms_rivera)
    assert checked.ok
    services.item_create(kind="lineup", school=riverside, author=ms_rivera, data=legs("b"))
    with pytest.raises(ValidationError, match="changed while"):
        services.import_apply(preview=checked, school=riverside, by=ms_rivera)
    assert list(LineupQuestion.objects.values_list("key", flat=True)) == ["b"]


def test_imported_concepts_go_on_a_new_or_existing_list(riverside, ms_rivera):
    result = import_file("concepts", to_json(CONCEPTS), riverside, ms_rivera, new_list_name="  Week   12 ")
    assert result.word_list.name == "Week 12"
    assert result.word_list.to_engine_list() == CONCEPTS
    # Naming an existing list (any case) adds to it.
    more = [{"id": "v-4", "text": "lighthouse", "difficulty": "easy", "theme": "places"}]
    import_file("concepts", to_json(more), riverside, ms_rivera, new_list_name="week 12")
    assert WordList.objects.get().concepts.count() == 4


def test_wordup_imports_keep_the_files_order_as_sheet_order(riverside, ms_rivera):
    questions = [word(f"w{n}", prompt=f"Word number {'abcdefghij'[n]} is my ____.") for n in range(10)]
    import_file("wordup", to_json(questions), riverside, ms_rivera)
    stored = WordUpQuestion.objects.filter(school=riverside).order_by("position")
    assert [q.key for q in stored] == [f"w{n}" for n in range(10)]
    assert [q.position for q in stored] == list(range(1, 11))
    assert Concept.objects.count() == 0
