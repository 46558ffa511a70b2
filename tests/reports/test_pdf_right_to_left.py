"""Arabic report cards: each line laid out right to left by the bidirectional algorithm, its letters joined
(HarfBuzz, through reportlab's shaping), its tables starting on the right, as the report's page does.

The PDF holds each line in visual order, as PDFs do, each glyph standing for the form of the letter it
draws (ToUnicode): pypdf, like a reader that copies the text, turns every right-to-left run back into
logical order, and NFKC folds the joining forms back into the letters typed."""

import io
import unicodedata

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from reports import pdf, rtl

pytestmark = pytest.mark.django_db


def _raw_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def _card(client, url: str) -> str:
    response = client.get(url)
    assert response["Content-Type"] == "application/pdf"
    return _raw_text(response.content)


def _read(raw: str) -> str:
    """The text as typed: the joining forms (Arabic Presentation Forms) folded into their letters."""
    return unicodedata.normalize("NFKC", raw)


def _in_arabic(client_of, teacher):
    teacher.language = "ar"
    teacher.save()
    return client_of(teacher)


def _private_use(raw: str) -> set[str]:
    return {char for char in raw if 0xE000 <= ord(char) <= 0xF8FF}


def test_an_arabic_class_card_has_its_letters_joined_and_its_words_in_reading_order(
    built, client_of, ms_rivera
):
    raw = _card(_in_arabic(client_of, ms_rivera), reverse("reports:class_pdf", args=[built.pk]))
    # "تقرير" drawn joined: initial teh, medial qaf, final reh, initial yeh, final reh (unjoined, the PDF
    # held the bare letters, reversed: "ريرقت").
    assert "\ufe97\ufed8\ufeae\ufef3\ufeae" in raw
    assert "ريرقت" not in raw
    assert not _private_use(raw)  # every glyph decodes back to a letter
    text = _read(raw)
    for words in ("تقرير الصف", "الطلاب", "أكثر الإجابات الخاطئة شيوعًا", "المعروض: ألعاب مباشرة وواجب منزلي"):
        assert words in text, words
    # Latin and numbers inside Arabic lines keep their own order.
    for mixed in ("7B English", "Riverside Academy", "Ava M", "Ben K", "(4/6)", "67%", "Word Up"):
        assert mixed in text, mixed


def test_an_arabic_student_card_reads_right(built, client_of, ms_rivera, ava):
    raw = _card(_in_arabic(client_of, ms_rivera), reverse("reports:student_pdf", args=[built.pk, ava.pk]))
    assert not _private_use(raw)
    text = _read(raw)
    for words in ("تقرير التقدم", "المستويات", "الإجابات الصحيحة حسب الفئة", "مفردات اللغة الإنجليزية"):
        assert words in text, words
    assert "Ava M" in text and "7B English" in text


def test_an_arabic_name_on_an_english_card_is_joined_and_in_reading_order(built, client_of, ms_rivera, ava):
    ava.display_name = "ليلى م."
    ava.save()
    raw = _card(client_of(ms_rivera), reverse("reports:student_pdf", args=[built.pk, ava.pk]))
    assert "Progress report:" in raw
    assert "ليلى" in _read(raw)
    assert "ىليل" not in raw


def test_an_arabic_table_starts_on_the_right(settings):
    with translation.override("ar"):
        table = pdf._table([["Student", "Answers"], ["Ava M.", 6]], widths=[50, 20])
    assert [cell.text for cell in table._cellvalues[0]] == ["Answers", "Student"]
    assert table._argW == [20, 50] and table.hAlign == "RIGHT"
    with translation.override("en"):
        table = pdf._table([["Student", "Answers"], ["Ava M.", 6]], widths=[50, 20])
    assert [cell.text for cell in table._cellvalues[0]] == ["Student", "Answers"] and table.hAlign == "LEFT"


def _shown(text: str, *, rtl_paragraph: bool = True) -> str:
    """The line as it shows, left to right (each right-to-left run reversed, its brackets mirrored)."""
    shown = ""
    for run, level in rtl.visual_runs(text, rtl.levels(text, rtl=rtl_paragraph), rtl=rtl_paragraph):
        shown += "".join(rtl._MIRROR.get(char, char) for char in reversed(run)) if level % 2 else run
    return shown.replace(rtl.FSI, "").replace(rtl.PDI, "")  # the isolates' controls are not drawn


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        # Arabic words from the right; a Latin name, a game's name and numbers left to right inside.
        ("تقرير Line Up! 85% عربي", "يبرع Line Up! 85% ريرقت"),
        # Not isolated, a Latin name's closing full stop belongs to the Arabic line; isolated, to the name.
        ("تقرير التقدم: Ava M.", ".Ava M :مدقتلا ريرقت"),
        (f"تقرير التقدم: {rtl.FSI}Ava M.{rtl.PDI}", "Ava M. :مدقتلا ريرقت"),
        (f"{rtl.FSI}Line Up!{rtl.PDI}", "Line Up!"),
        (
            f"{rtl.FSI}7B English{rtl.PDI} · {rtl.FSI}Riverside Academy.{rtl.PDI} · ٣",
            "٣ · Riverside Academy. · 7B English",
        ),
        # Nested, and one left open at the end of the line.
        (f"عربي {rtl.FSI}Ava ({rtl.FSI}ليلى{rtl.PDI}).{rtl.PDI}", "Ava (ىليل). يبرع"),
        (f"عربي {rtl.FSI}Ava M.", "Ava M. يبرع"),
        # Brackets follow what they enclose (rule N0): "(85%)" stays whole after a Latin name.
        ("Line Up! (85%) لا بأس", "سأب ال Line Up! (85%)"),
        ("67% (4/6)", "(4/6) 67%"),
        ("الثقة 80 (عالية)", "(ةيلاع) 80 ةقثلا"),
        ("مستوى (Word Up) ٣", "٣ (Word Up) ىوتسم"),
    ],
)
def test_a_mixed_line_shows_each_run_in_its_own_direction(text, shown):
    assert _shown(text) == shown


def test_the_isolates_controls_take_no_room_and_are_never_drawn():
    pdf._register_fonts()
    plain = rtl.visual("تقرير Ava M.", rtl.levels("تقرير Ava M.", rtl=True), rtl=True, font=pdf.FONT, size=10)
    text = f"تقرير {rtl.FSI}Ava M.{rtl.PDI}"
    drawn, width = rtl.visual(text, rtl.levels(text, rtl=True), rtl=True, font=pdf.FONT, size=10)
    assert width == plain[1] and rtl.FSI not in str(drawn) and rtl.PDI not in str(drawn)
    assert pdf.printable(text) == text  # kept for the layout, not replaced by "?"


def test_an_arabic_card_keeps_a_latin_names_full_stop_with_the_name(built, client_of, ms_rivera, ava):
    ava.display_name = "Ava M."
    ava.save()
    raw = _card(_in_arabic(client_of, ms_rivera), reverse("reports:student_pdf", args=[built.pk, ava.pk]))
    assert "Ava M." in raw and ".Ava M" not in raw


def test_a_left_to_right_line_with_an_arabic_name_keeps_its_order():
    assert _shown("Progress report: ليلى (7B)", rtl_paragraph=False) == "Progress report: ىليل (7B)"
    # An isolate takes its direction from its first letter: the Arabic name's full stop stays with it.
    isolated = f"Progress report: {rtl.FSI}ليلى م.{rtl.PDI}"
    assert _shown(isolated, rtl_paragraph=False) == "Progress report: .م ىليل"


def test_a_long_arabic_paragraph_breaks_into_lines_in_reading_order():
    from reportlab.lib.styles import ParagraphStyle

    pdf._register_fonts()
    style = ParagraphStyle("b", fontName=pdf.FONT, fontSize=10, leading=13, alignment=2)
    text = "الإجابات الصحيحة في كل جلسة من آخر جلستين لـ Ava M. من 50% إلى 100%"
    paragraph = rtl.BidiParagraph(text, style, rtl=True)
    _width, height = paragraph.wrap(120, 1000)
    lines = [paragraph.text[start:end] for start, end in paragraph._lines]
    assert len(lines) > 1 and height == 13 * len(lines)
    assert " ".join(lines) == text  # broken in logical order: the first line holds the first words
    assert lines[0].startswith("الإجابات")


def test_a_long_arabic_paragraph_splits_across_pages_by_whole_lines():
    from reportlab.lib.styles import ParagraphStyle

    pdf._register_fonts()
    style = ParagraphStyle("b", fontName=pdf.FONT, fontSize=10, leading=13, alignment=2)
    text = " ".join(["الإجابات الصحيحة في كل جلسة"] * 6)
    paragraph = rtl.BidiParagraph(text, style, rtl=True)
    _width, height = paragraph.wrap(100, 1000)
    first, rest = paragraph.split(100, 30)  # room for two lines
    assert first.wrap(100, 30)[1] == 26
    assert f"{first.text} {rest.text}" == text
    assert rest.wrap(100, 1000)[1] == height - 26
    assert paragraph.split(100, 5) == []  # not one line fits: the paragraph goes to the next page
