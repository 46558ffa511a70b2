"""Teachers' vocabulary lists for Word Up: a Quizlet export (or any word/definition sheet) in, Word Up
questions of every kind each word allows out, refused whole when a line is bad, exported back as it came."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from games import selectors as game_selectors
from games import services as game_services
from games.definitions import get_engine
from games.models import GameTable
from questions import services
from questions.formats import BankFileError, parse_upload
from questions.models import VocabularyList
from questions.vocabulary import build_questions, export_vocabulary, parse_vocabulary
from tests.factories import started_session

# As Quizlet's Export writes it: term, tab, definition (our third column: an example sentence).
QUIZLET = (
    "volcano\tA mountain that can throw out hot melted rock\tThe volcano erupted last year.\n"
    "glacier\tA huge river of ice that moves very slowly\n"
    "desert\tA very dry place with little rain\tCamels live in the desert.\n"
    "ice cream\tA sweet frozen food\n"
    "canyon\tA deep valley with steep sides\n"
)
ENTRIES = [row.entry() for row in parse_vocabulary(QUIZLET.encode())]


def url(name, *args):
    return reverse(f"questions:{name}", args=args)


# --- reading -------------------------------------------------------------------------------------------


def test_a_quizlet_export_reads_as_words_definitions_and_examples():
    rows = parse_vocabulary(QUIZLET.encode())
    assert [row.term for row in rows] == ["volcano", "glacier", "desert", "ice cream", "canyon"]
    assert rows[0].definition == "A mountain that can throw out hot melted rock"
    assert rows[0].example == "The volcano erupted last year."
    assert not any(row.problems for row in rows)


def test_a_spreadsheet_csv_with_a_header_and_quotes_reads_the_same():
    text = (
        'Term,Definition\nvolcano,"A mountain that can throw out hot, melted rock"\nglacier,A river of ice\n'
    )
    rows = parse_vocabulary(text.encode("utf-8-sig"))
    assert [(row.term, row.definition) for row in rows] == [
        ("volcano", "A mountain that can throw out hot, melted rock"),
        ("glacier", "A river of ice"),
    ]


def test_bad_lines_carry_their_reason():
    text = "volcano\t\nglacier\tA river of ice\nglacier\tIce again\n\tno word here\na\tb\tc\td\n"
    problems = {row.line: row.problems for row in parse_vocabulary(text.encode(), separator="tab")}
    assert problems[1] == ["the definition is missing"]
    assert problems[2] == []
    assert problems[3] == ["the word is already on line 2"]
    assert problems[4] == ["the word is missing"]
    assert problems[5] == ["more than three columns (word, definition, example sentence)"]


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ("volcano\tUn volcán en español: ¡caliente!\n".encode("latin-1"), "not UTF-8"),
        (b"", "empty"),
        ("".join(f"word{n}\tdefinition {n}\n" for n in range(10_000)).encode(), "too large"),
        ("".join(f"w{n}\td\n" for n in range(301)).encode(), "at most 300 words"),
    ],
    ids=["wrong encoding", "empty", "10,000 rows", "301 words"],
)
def test_an_unusable_file_is_refused_whole_with_the_reason(data, reason):
    with pytest.raises(BankFileError, match=reason):
        parse_vocabulary(data)


@pytest.mark.parametrize("separator", ["auto", "tab"])
def test_a_quote_never_closed_is_refused_with_its_line(separator):
    """The csv reader would read every line after the quote as one definition: five words would be two."""
    lines = QUIZLET.splitlines(keepends=True)
    text = "".join([lines[0], 'glacier\t"A huge river of ice\n', *lines[2:]])
    with pytest.raises(BankFileError, match=r"^Line 2 opens a quote \(\"\) that is never closed"):
        parse_vocabulary(text.encode(), separator=separator)


def test_a_quoted_definition_with_quotes_inside_is_still_read():
    rows = parse_vocabulary(b'echo\t"A sound that comes back: ""hello"", ""hello"""\n')
    assert rows[0].definition == 'A sound that comes back: "hello", "hello"'


def test_export_gives_back_the_quizlet_text_and_defuses_formulas():
    assert parse_vocabulary(export_vocabulary(ENTRIES).encode()) == parse_vocabulary(QUIZLET.encode())
    risky = [{"term": "plus", "definition": '=HYPERLINK("http://x")', "example": ""}]
    exported = export_vocabulary(risky, separator="comma")
    assert exported.startswith("plus,\"'=HYPERLINK")
    assert parse_vocabulary(exported.encode())[0].definition == '=HYPERLINK("http://x")'


# --- building the questions ----------------------------------------------------------------------------


def test_each_word_makes_the_kinds_it_can_and_says_why_not_the_others():
    built = {word.term: word for word in build_questions(ENTRIES, id_prefix="v1")}
    assert built["volcano"].categories == ["missing_word", "crossword", "multiple_choice", "spelling"]
    assert built["glacier"].categories == ["crossword", "multiple_choice", "spelling"]
    assert "example sentence" in built["glacier"].not_built["missing_word"]
    assert not built["ice cream"].used
    assert set(built["ice cream"].not_built) == {"missing_word", "crossword", "multiple_choice", "spelling"}

    volcano = {q["category"]: q for q in built["volcano"].questions}
    assert volcano["missing_word"]["prompt"] == "The ____ erupted last year."
    assert volcano["crossword"] | {} == {
        "id": "v1-1-crossword",
        "level": 3,
        "category": "crossword",
        "prompt": "A mountain that can throw out hot melted rock",
        "answers": ["volcano"],
        "alternatives": [],
        "letters": 7,
        "first_letter": "v",
    }
    assert volcano["spelling"]["sentence"] == "The volcano erupted last year."
    choices = volcano["multiple_choice"]["choices"]
    assert "volcano" in choices and len(set(choices)) == 3 and "ice cream" not in choices
    assert {q["id"] for q in built["glacier"].questions} == {
        "v1-2-crossword",
        "v1-2-multiple_choice",
        "v1-2-spelling",
    }
    assert built["glacier"].questions[-1]["sentence"] == "The word is glacier."


def test_a_definition_that_gives_the_word_away_makes_no_clue():
    entries = [
        {"term": "rainbow", "definition": "A rainbow is an arc of colours", "example": ""},
        *ENTRIES[:2],
    ]
    rainbow = build_questions(entries, id_prefix="v")[0]
    assert "crossword" not in rainbow.categories and rainbow.not_built["crossword"]


def test_a_list_of_two_words_has_no_multiple_choice():
    words = build_questions(ENTRIES[:2], id_prefix="v")
    assert all("multiple_choice" in word.not_built for word in words)
    assert "three words" in words[0].not_built["multiple_choice"]


# --- the pages -----------------------------------------------------------------------------------------


def import_list(client, text=QUIZLET, name="Landforms", replace=None):
    target = url("vocabulary_import") + (f"?replace={replace}" if replace else "")
    preview = client.post(target, {"name": name, "text": text, "separator": "auto"})
    return preview, client.post(target, {"confirm": "1"})


@pytest.mark.django_db
def test_a_teacher_previews_then_saves_a_list(client_of, ms_rivera):
    client = client_of(ms_rivera)
    preview, saved = import_list(client)
    assert preview.status_code == 200
    page = preview.content.decode()
    assert "Words: 5. Word Up questions made from them: 14." in page
    assert (
        "Not used (no question can be made from them):" in page
        and "<strong><bdi>ice cream</bdi></strong>" in page
    )
    vocabulary = VocabularyList.objects.get()
    assert saved.url == url("vocabulary_detail", vocabulary.pk)
    assert vocabulary.name == "Landforms" and vocabulary.entries == ENTRIES
    assert vocabulary.author == ms_rivera
    assert "Landforms" in client.get(url("word_lists")).content.decode()


@pytest.mark.django_db
def test_an_uploaded_file_imports_like_a_paste(client_of, ms_rivera):
    client = client_of(ms_rivera)
    upload = SimpleUploadedFile("landforms.txt", QUIZLET.encode(), content_type="text/plain")
    client.post(url("vocabulary_import"), {"name": "Landforms", "file": upload, "separator": "tab"})
    client.post(url("vocabulary_import"), {"confirm": "1"})
    assert VocabularyList.objects.get().entries == ENTRIES


@pytest.mark.django_db
def test_a_bad_line_refuses_the_whole_list(client_of, ms_rivera):
    client = client_of(ms_rivera)
    preview, _confirm = import_list(client, text=QUIZLET + "canyon\tAgain\n")
    assert preview.status_code == 400
    assert "the word is already on line 5" in preview.content.decode()
    assert 'name="confirm"' not in preview.content.decode()
    assert not VocabularyList.objects.exists()


@pytest.mark.django_db
def test_a_quote_never_closed_is_named_on_the_page_in_the_teachers_language(client_of, ms_rivera):
    client = client_of(ms_rivera)
    text = 'volcano\t"A mountain that can throw out hot melted rock\n' + QUIZLET
    with translation.override("en"):  # the request's Spanish stays with the request
        response = client.post(
            url("vocabulary_import"),
            {"name": "Landforms", "text": text, "separator": "auto"},
            HTTP_ACCEPT_LANGUAGE="es",
        )
    assert "La línea 1 abre unas comillas" in response.text and 'name="confirm"' not in response.text
    assert not VocabularyList.objects.exists()


def test_importing_again_replaces_the_words_and_exporting_gives_them_back(client_of, ms_rivera):
    client = client_of(ms_rivera)
    import_list(client)
    vocabulary = VocabularyList.objects.get()
    import_list(client, text="river\tWater flowing to the sea\n" + QUIZLET, replace=vocabulary.pk)
    vocabulary.refresh_from_db()
    assert [entry["term"] for entry in vocabulary.entries][:2] == ["river", "volcano"]
    exported = client.get(url("vocabulary_export", vocabulary.pk, "txt"))
    assert exported["Content-Disposition"].endswith('.txt"')
    assert exported.content.decode() == export_vocabulary(vocabulary.entries)
    assert "river\tWater flowing to the sea\r\n" in exported.content.decode()


@pytest.mark.django_db
def test_colleagues_may_read_only_and_other_schools_see_nothing(client_of, ms_rivera, mr_moss, mr_okafor):
    import_list(client_of(ms_rivera))
    vocabulary = VocabularyList.objects.get()
    colleague = client_of(mr_moss)
    assert colleague.get(url("vocabulary_detail", vocabulary.pk)).status_code == 200
    assert colleague.post(url("vocabulary_delete", vocabulary.pk)).status_code == 403
    assert colleague.get(url("vocabulary_import") + f"?replace={vocabulary.pk}").status_code == 403
    stranger = client_of(mr_okafor)
    assert stranger.get(url("vocabulary_detail", vocabulary.pk)).status_code == 404
    assert stranger.get(url("vocabulary_export", vocabulary.pk, "csv")).status_code == 404


@pytest.mark.django_db
def test_the_line_up_template_is_a_filled_in_row_that_imports_back(client_of, ms_rivera):
    services.shipped_banks_load()
    response = client_of(ms_rivera).get(url("import_template", "lineup"))
    assert response["Content-Disposition"].endswith('classplay-lineup-template.csv"')
    _fmt, rows = parse_upload("lineup", response.content, filename="t.csv", max_bytes=10**6, max_rows=10)
    assert len(rows) == 1 and rows[0].problems == []
    assert rows[0].raw["heading"]


# --- in a game -----------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_word_up_game_with_a_list_asks_every_student_the_lists_questions(
    client_of, class_7b, ms_rivera, ava, ben
):
    import_list(client_of(ms_rivera))
    vocabulary = VocabularyList.objects.get()
    session = started_session(
        class_7b, ms_rivera, [ava, ben], "wordup", now=1_000_000.0, vocabulary=vocabulary.pk
    )
    table = GameTable.objects.get(session=session)
    bank = table.config["questions"]
    prefix = vocabulary.id_prefix
    for level in ("1", "3", "5"):
        assert {q["id"] for q in bank[level]["crossword"]} == {
            f"{prefix}-{n}-crossword" for n in (1, 2, 3, 5)
        }
        assert {q["id"] for q in bank[level]["missing_word"]} == {
            f"{prefix}-1-missing_word",
            f"{prefix}-3-missing_word",
        }
    assert ("Vocabulary list", "Landforms") in game_selectors.settings_display(session)
    get_engine("wordup").view(table.state, {"role": "teacher"})  # the game runs on it


@pytest.mark.django_db
def test_a_session_may_not_play_another_schools_list(client_of, class_7b, class_9a, ms_rivera, mr_okafor):
    import_list(client_of(mr_okafor), name="Hillside words")
    theirs = VocabularyList.objects.get()
    from django.core.exceptions import ValidationError
    from django.utils import timezone

    with pytest.raises(ValidationError, match="vocabulary lists"):
        game_services.session_schedule(
            classroom=class_7b,
            by=ms_rivera,
            game="wordup",
            scheduled_for=timezone.now(),
            settings={"vocabulary": theirs.pk},
        )
