"""The report cards' layout: headings stay with what they head, tables fit the page, words stay whole."""

import io

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader
from reportlab.platypus import Paragraph, Spacer, Table

from reports import catalog, pdf, present, rtl
from reports.build import classrooms_build

from .conftest import fact, finished_session

#: A4's height less the card's margins and the frame's padding: what one page holds.
_PAGE_HOLDS = 297 * pdf.mm - 28 * pdf.mm - 12


def _pages(content: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_heading_at_the_foot_of_a_page_moves_to_the_next_with_what_it_heads(language):
    with translation.override(language):
        styles = pdf._styles()
        rows = [["Skill", "Answers"], *[[f"Skill {n}", n] for n in range(12)]]
        story = [
            Spacer(1, _PAGE_HOLDS - 40),  # room for the heading, not for its table
            pdf._p("Levels", styles["h2"]),
            pdf._table(rows),
        ]
        pages = _pages(pdf._document(story, title="t"))
    assert len(pages) == 2
    assert "Skill 0" in pages[1]
    assert "Levels" in pages[1] and "Levels" not in pages[0]


#: The student card's totals with every skill: the table that ran off the page.
_SKILLS = ["English vocabulary", "Numeracy", "General knowledge", "Reasoning"]
_TOTALS = [
    ["Answers", *[f"Right in {skill}" for skill in _SKILLS], "Average time", "Live games played"],
    [48, *["67% (4/6)"] * len(_SKILLS), "12.5 s", "12 / 14 + 3 homework"],
]
#: The class card's students, with every skill.
_STUDENTS = [
    [
        "Student",
        "Answers",
        *[f"Right in {skill}" for skill in _SKILLS],
        "Live games played",
        *[f"{skill} level → recommended" for skill in _SKILLS[:2]],
    ],
    ["Ava M.", 12, *["67% (4/6)"] * len(_SKILLS), "12 / 14 + 3 homework", "3 → 4", "3 → 4"],
]


def _cells_fit_their_columns(table: Table) -> None:
    """No cell's word is wider than its column: a paragraph breaks lines at spaces only."""
    for row in table._cellvalues:
        for cell, width in zip(row, table._colWidths, strict=True):
            for flowable in (
                cell if isinstance(cell, (list, tuple)) else [cell]
            ):  # a table wraps a cell's flowables in a tuple
                if isinstance(flowable, (Paragraph, rtl.BidiParagraph)):
                    assert flowable.minWidth() <= width - 12 + 1e-6, (flowable.text, width)


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_wide_table_fits_the_page(language):
    with translation.override(language):
        table = pdf._table(_TOTALS)
    width, _height = table.wrap(pdf.CARD_WIDTH, 10_000)
    assert width <= pdf.CARD_WIDTH + 1e-6
    _cells_fit_their_columns(table)


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_table_head_breaks_between_words_never_inside_one(language):
    with translation.override(language):
        table = pdf._table(_STUDENTS, width=pdf.CLASS_WIDTH)
    width, _height = table.wrap(pdf.CLASS_WIDTH, 10_000)
    assert width <= pdf.CLASS_WIDTH + 1e-6
    _cells_fit_their_columns(table)
    (head,) = table._cellvalues[0][-1 if language == "en" else 0]
    assert head.height > head.style.leading  # it wraps, on two lines or more
    if language == "en":
        lines = [" ".join(words) for _space, words in head.blPara.lines]
        assert all(word in _STUDENTS[0][-1].split() for line in lines for word in line.split()), lines


def _tables(monkeypatch) -> list[Table]:
    """The tables of the cards built while this runs, as laid out on their page."""
    found = []
    build = pdf._document

    def document(story, **kwargs):
        found.extend(flowable for flowable in story if isinstance(flowable, Table))
        return build(story, **kwargs)

    monkeypatch.setattr(pdf, "_document", document)
    return found


@pytest.mark.parametrize("language", ["en", "ar"])
def test_every_table_of_the_cards_fits_its_page(
    language, monkeypatch, word_up_week, class_7b, client_of, ms_rivera, ava
):
    classrooms_build([class_7b.pk])
    ms_rivera.language = language
    ms_rivera.save()
    tables = _tables(monkeypatch)
    client = client_of(ms_rivera)
    assert client.get(reverse("reports:student_pdf", args=[class_7b.pk, ava.pk])).status_code == 200
    student_tables = len(tables)
    assert client.get(reverse("reports:class_pdf", args=[class_7b.pk])).status_code == 200
    assert student_tables >= 2 and len(tables) > student_tables + 2
    for index, table in enumerate(tables):
        frame = pdf.CARD_WIDTH if index < student_tables else pdf.CLASS_WIDTH
        assert table.wrap(frame, 10_000)[0] <= frame + 1e-6
        _cells_fit_their_columns(table)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("Fractions", "Fractions"),
        ("Irregular verbs in the past tense · Word Up", "Irregular verbs in the past…"),
        ("Antidisestablishmentarianism-and-more-of-it", "Antidisestablishmentarianism-a…"),
        ("Mon 3 Mar, 09:40 · Line-Up — Guess Who", "Mon 3 Mar, 09:40 · Line-Up…"),
    ],
)
def test_a_shortened_text_ends_at_a_whole_word_with_an_ellipsis(text, shown):
    assert catalog.shorten(text, 31) == shown
    assert len(catalog.shorten(text, 31)) <= 31


def test_a_chart_label_too_long_is_cut_at_a_word_with_an_ellipsis():
    chart = present.category_chart(
        [
            {
                "category": "irregular_verbs_in_the_past_tense",
                "game": "word_up",
                "accuracy": 0.5,
                "correct": 1,
                "answered": 2,
            }
        ]
    )
    labels = [item[3] for item in chart.items if item[0] == "text" and "Irregular" in item[3]]
    assert labels == ["Irregular verbs in the past…"]


def test_a_long_wrong_answer_is_cut_at_a_word_with_an_ellipsis():
    answer = catalog.answer_text("word_up", "the " * 40 + "end")
    assert answer.endswith("the…") and len(answer) <= catalog.ANSWER_SHOWN


@pytest.fixture
def long_labels(class_7b, ms_rivera, ava, ben):
    """7B's weak spots with names longer than a chart's labels have room for: a Word Up category the
    game does not name (read as written), one long word, a Line Up! subject."""
    categories = ["irregular_verbs_in_past_tense_and_more", "W" * 32, "missing_word"]
    for day in (1, 2):
        word_up = finished_session(class_7b, "wordup", day=day, by=ms_rivera, students=[ava, ben])
        line_up = finished_session(class_7b, "lineup", day=day, by=ms_rivera, students=[ava, ben])
        for student in (ava, ben):
            for index in range(4):
                for category in categories:
                    fact(student, word_up, category=category, correct=index < 1, item=f"{category}-{index}")
                fact(student, line_up, category="arts", correct=index < 1, item=f"arts-{index}")
    classrooms_build([class_7b.pk])
    return class_7b


def _text_spans(content: bytes) -> list[tuple[str, float, float, float]]:
    """Every text the PDF draws: (text, its left and right edges, the page's width), in points. A text's
    glyphs are the characters pypdf reads back (an Arabic letter as its joined form), so the font's
    widths of them add up to the drawn width."""
    spans = []
    for page in PdfReader(io.BytesIO(content)).pages:
        page_width = float(page.mediabox.width)

        def visit(text, cm, tm, _font, size, page_width=page_width):
            text = text.rstrip("\n")
            if text.strip():
                left = cm[4] + tm[4] * cm[0]
                width = pdf.pdfmetrics.stringWidth(text, pdf.FONT, size * tm[0] * cm[0])
                spans.append((text, left, left + width, page_width))

        page.extract_text(visitor_text=visit)
    return spans


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_charts_long_labels_stay_inside_the_pages_margins(language, long_labels, client_of, ms_rivera, ava):
    """The class card's bar charts drew their labels as long as the text was, from the bar outwards:
    into the left margin (the right one in Arabic) and off the page."""
    ms_rivera.language = language
    ms_rivera.save()
    client = client_of(ms_rivera)
    for name, args in (("class_pdf", [long_labels.pk]), ("student_pdf", [long_labels.pk, ava.pk])):
        spans = _text_spans(client.get(reverse(f"reports:{name}", args=args)).content)
        assert any("…" in text for text, *_edges in spans)  # a label was shortened to fit
        outside = [
            (text, round(left), round(right))
            for text, left, right, page_width in spans
            if left < 16 * pdf.mm - 0.5 or right > page_width - 16 * pdf.mm + 0.5
        ]
        assert not outside, (name, outside)
