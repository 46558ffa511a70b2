"""Printable report cards (reportlab): one per student, one per class, with the pages' charts."""

from __future__ import annotations

import io
from pathlib import Path
from xml.sax.saxutils import escape

import reportlab
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Flowable, KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from classrooms.languages import isolated

from . import catalog, charts, present, rtl

_FONTS_DIR = Path(reportlab.__file__).parent / "fonts"
FONT, BOLD = "ReportSans", "ReportSansBold"
#: DejaVu Sans, from the system's font package (Debian: fonts-dejavu-core), covers every character the
#: reports print (arrows, accented names, Greek, Cyrillic, fractions, superscripts); it is found at run time,
#: never copied into the repository.
DEJAVU_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),
    Path("/usr/local/share/fonts/dejavu"),
)
#: Without it: Bitstream Vera, which ships with reportlab, and plain stand-ins for the few characters it
#: lacks (so a PDF never shows an empty box).
STAND_INS = {"→": "->", "←": "<-", "−": "-", "…": "...", "–": "-", "—": "-", "‘": "'", "’": "'"}


def font_files() -> tuple[Path, Path, str]:
    """The regular and bold font files the PDFs embed, and the family's name."""
    for folder in DEJAVU_DIRS:
        regular, bold = folder / "DejaVuSans.ttf", folder / "DejaVuSans-Bold.ttf"
        if regular.is_file() and bold.is_file():
            return regular, bold, "DejaVu Sans"
    return _FONTS_DIR / "Vera.ttf", _FONTS_DIR / "VeraBd.ttf", "Bitstream Vera"


def _register_fonts() -> None:
    if FONT not in pdfmetrics.getRegisteredFontNames():
        regular, bold, _family = font_files()
        pdfmetrics.registerFont(TTFont(FONT, str(regular)))
        pdfmetrics.registerFont(TTFont(BOLD, str(bold)))


def printable(text: str) -> str:
    """``text`` with every character the embedded font lacks replaced by a stand-in (or "?")."""
    _register_fonts()
    covered = pdfmetrics.getFont(FONT).face.charToGlyph
    kept = "\n\t" + rtl.FSI + rtl.PDI  # the isolates' controls are laid out, never drawn
    if all(ord(char) in covered or char in kept for char in text):
        return text
    return "".join(
        char if ord(char) in covered or char in kept else STAND_INS.get(char, "?") for char in text
    )


def _rtl() -> bool:
    """Whether the card is in a right-to-left language (Arabic): its text starts on the right."""
    return translation.get_language_bidi()


def _styles():
    _register_fonts()
    base = getSampleStyleSheet()
    # Right to left, the headings and the text start on the right, as on the report's page.
    start = {"alignment": TA_RIGHT} if _rtl() else {}
    return {
        "title": ParagraphStyle("t", parent=base["Title"], fontName=BOLD, fontSize=18, spaceAfter=4),
        "h2": ParagraphStyle(
            # keepWithNext: a heading never ends a page without what it heads.
            "h2",
            parent=base["Heading2"],
            fontName=BOLD,
            fontSize=13,
            spaceBefore=10,
            keepWithNext=1,
            **start,
        ),
        "body": ParagraphStyle("b", parent=base["BodyText"], fontName=FONT, fontSize=10, leading=13, **start),
        "muted": ParagraphStyle(
            "m", parent=base["BodyText"], fontName=FONT, fontSize=9, textColor="#55607a", **start
        ),
    }


_HEAD_COLOUR = "#55607a"
_MARGIN = 16 * mm
#: A table cell's left and right padding (6 points each), and the frame's (the same).
_PADDING = 12


def _frame_width(pagesize) -> float:
    """How wide a table may be: the page less its margins and the frame's padding."""
    return pagesize[0] - 2 * _MARGIN - _PADDING


#: The tables' type sizes, largest first.
_SIZES = (9, 8, 7)
#: The student card's printable width (portrait A4) and the class card's (landscape A4).
CARD_WIDTH = _frame_width(A4)
CLASS_WIDTH = _frame_width(landscape(A4))


def _table(rows: list[list], *, width: float = CARD_WIDTH, widths=None) -> Table:
    """A table of the card, as wide as its text needs and never wider than ``width``: its cells wrap at
    spaces, and each column is at least as wide as its longest word while the page has room. Right to left
    its first column is on the right, as on the report's page."""
    right_to_left = _rtl()
    for size in _SIZES:  # a smaller type where the longest words would not fit side by side
        cells = [
            [_table_cell(value, head=not index, size=size) for value in row] for index, row in enumerate(rows)
        ]
        if widths or _fits(cells, width, size):
            break
    rows = cells
    widths = _fit(widths, width) if widths else _column_widths(rows, width, size)
    if right_to_left:
        rows = [row[::-1] for row in rows]
        widths = widths[::-1]
    table = Table(rows, colWidths=widths, repeatRows=1, hAlign="RIGHT" if right_to_left else "LEFT")
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), FONT),
                ("FONTNAME", (0, 0), (-1, 0), BOLD),
                ("FONTSIZE", (0, 0), (-1, -1), size),
                ("TEXTCOLOR", (0, 0), (-1, 0), colors.HexColor(_HEAD_COLOUR)),
                ("LINEBELOW", (0, 0), (-1, -1), 0.4, colors.HexColor("#d9d4c7")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                *([("ALIGN", (0, 0), (-1, -1), "RIGHT")] if right_to_left else []),
            ]
        )
    )
    return table


def _fit(widths: list[float], width: float) -> list[float]:
    """``widths`` shrunk alike to add up to ``width`` at most."""
    total = sum(widths)
    return list(widths) if total <= width else [each * width / total for each in widths]


def _fits(rows: list[list], width: float, size: float) -> bool:
    """Whether each column can be as wide as its longest word within ``width``."""
    columns = range(len(rows[0]))
    return sum(_PADDING + max(_word_width(row[column], size) for row in rows) for column in columns) <= width


def _column_widths(rows: list[list], width: float, size: float) -> list[float]:
    """Each column as wide as its widest cell on one line if the table fits ``width`` so; if not, each
    column gets its longest word and the room left is shared by how much more each column's text wants."""
    columns = range(len(rows[0]))
    natural = [_PADDING + max(_line_width(row[column], size) for row in rows) for column in columns]
    if sum(natural) <= width:
        return natural
    least = [_PADDING + max(_word_width(row[column], size) for row in rows) for column in columns]
    spare = width - sum(least)
    if spare < 0:  # not even the longest words fit: shrink alike (a word may then break)
        return _fit(least, width)
    wants = [line - word for line, word in zip(natural, least, strict=True)]
    return [word + spare * want / sum(wants) for word, want in zip(least, wants, strict=True)]


def _line_width(value, size: float) -> float:
    """How wide ``value`` is on one line."""
    if isinstance(value, rtl.BidiParagraph):
        return value._width(0, len(value.text))
    if isinstance(value, Paragraph):
        text = " ".join(value.getPlainText().split())
        return pdfmetrics.stringWidth(text, value.style.fontName, value.style.fontSize)
    if isinstance(value, Flowable):
        return value.minWidth()
    return pdfmetrics.stringWidth(str(value), FONT, size)


def _word_width(value, size: float) -> float:
    """How wide ``value``'s longest word is (a number is one word)."""
    if isinstance(value, Flowable):
        return value.minWidth()
    return pdfmetrics.stringWidth(str(value), FONT, size)


def _table_cell(value, *, head: bool, size: float = 9):
    """A string cell as a paragraph that wraps at spaces (right-to-left text laid out by
    ``rtl.BidiParagraph``); numbers and flowables as they are."""
    if not isinstance(value, str):
        return value
    style = ParagraphStyle(
        "head" if head else "cell",
        fontName=BOLD if head else FONT,
        fontSize=size,
        leading=size + 2,
        textColor=_HEAD_COLOUR if head else colors.black,
        alignment=TA_RIGHT if _rtl() else 0,
        splitLongWords=0,
    )
    return _para(printable(value), style)


def _para(text: str, style):
    """A paragraph of plain text. Right-to-left text (an Arabic card, or an Arabic name on any card) is laid
    out by ``rtl.BidiParagraph``: reportlab's own Paragraph would draw it unjoined and reversed."""
    right_to_left = _rtl()
    if right_to_left or rtl.has_rtl(text):
        return rtl.BidiParagraph(text, style, rtl=right_to_left)
    return Paragraph(escape(text), style)


def _p(text, style):
    return _para(printable(str(text)), style)


def _document(story: list, *, title: str, pagesize=A4) -> bytes:
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=pagesize,
        leftMargin=16 * mm,
        rightMargin=16 * mm,
        topMargin=14 * mm,
        bottomMargin=14 * mm,
        title=title,
        author="Classplay",
        # Each page starts in the embedded font too, so no page names a font the PDF does not carry.
        initialFontName=FONT,
    )
    doc.build(story)
    return buffer.getvalue()


def student_card(*, student, classroom, report, summaries, mode: str = present.BOTH) -> bytes:
    """A student's card of live games, homework or both (``report`` as that mode shows it)."""
    styles = _styles()
    view = present.student_view(report, summaries, name=isolated(student.display_name), mode=mode)
    totals = view["totals"]
    story = [
        _p(_("Progress report: %(name)s") % {"name": isolated(student.display_name)}, styles["title"]),
        _p(
            _("%(class)s · %(school)s · built %(date)s")
            % {
                "class": isolated(classroom.name),
                "school": isolated(classroom.school.name),
                "date": date_format(timezone.localtime(report.built_at), "j F Y"),
            },
            styles["muted"],
        ),
        _p(present.shows_line(mode), styles["body"]),
        Spacer(1, 6),
        _table(
            [
                [
                    _("Answers"),
                    *[_("Right in %(skill)s") % {"skill": item["label"]} for item in view["skill_shares"]],
                    _("Average time"),
                    _("Homework played") if mode == present.HOMEWORK else _("Live games played"),
                ],
                [
                    totals["answered"],
                    *[
                        f"{present.pct(item['share'])} ({item['right']}/{item['answered']})"
                        for item in view["skill_shares"]
                    ],
                    present.seconds(totals["mean_time"]),
                    present.games_played(
                        totals["sessions_played"], totals["sessions_held"], totals["homework_sessions"], mode
                    ),
                ],
            ]
        ),
    ]
    for item in view["trend_charts"]:
        chart = item["chart"]
        story += [_p(chart.title, styles["h2"]), _drawing(chart), _p(chart.summary, styles["muted"])]
    if view["categories"]:
        story += [
            _p(_("Right answers by category"), styles["h2"]),
            _drawing(view["category_chart"]),
        ]
    notes = view["strengths"] + view["weaknesses"]
    if notes:
        story.append(_p(_("Strengths and things to work on"), styles["h2"]))
        story += [_p("• " + note["text"], styles["body"]) for note in notes]
    skill_rows = [
        [_("Skill"), _("Answers"), _("Accuracy"), _("Level now"), _("Recommended"), _("Confidence")]
    ]
    for skill in view["skills"]:
        skill_rows.append(
            [
                skill["label"],
                skill["answered"],
                skill["accuracy"],
                skill["current"] or "—",
                skill["recommended"] or _("not yet"),
                f"{skill['confidence']} ({skill['confidence_word']})" if skill["recommended"] else "—",
            ]
        )
    story += [_p(_("Levels"), styles["h2"]), _table(skill_rows)]
    for skill in view["skills"]:
        if skill["evidence"]:
            evidence = ", ".join(
                _("level %(level)d: %(right)d of %(n)d right")
                % {"level": row["level"], "right": row["right"], "n": row["answered"]}
                for row in skill["evidence"]
            )
            story.append(_p(f"{skill['label']}: {evidence}", styles["muted"]))
    if view["insights"]:
        story.append(_p(_("In each game"), styles["h2"]))
        for block in view["insights"]:
            lines = [_p(isolated(block["game"]), styles["body"])] + [
                _p("– " + line, styles["body"]) for line in block["lines"]
            ]
            story.append(KeepTogether(lines))
    return _document(story, title=_("Progress report: %(name)s") % {"name": student.display_name})


def class_card(*, classroom, context) -> bytes:
    """A class's card of live games, homework or both (``context``: ``reports.selectors.class_report``
    in ``context["mode"]``)."""
    styles = _styles()
    report = context["report"]
    mode = context.get("mode", present.BOTH)
    data = context.get("data") or {"totals": {}, "sessions": [], "hardest": [], "wrong": []}
    totals = data.get("totals", {})
    story = [
        _p(_("Class report: %(class)s") % {"class": isolated(classroom.name)}, styles["title"]),
        _p(
            _("%(school)s · %(n)d students · built %(date)s")
            % {
                "school": isolated(classroom.school.name),
                "n": len(context["rows"]),
                "date": date_format(timezone.localtime(report.built_at), "j F Y") if report else "—",
            },
            styles["muted"],
        ),
        _p(present.shows_line(mode), styles["body"]),
        *([_p(present.rebuild_needed_text(), styles["body"])] if context.get("rebuild_needed") else []),
        Spacer(1, 6),
        _table(_class_totals(totals), width=CLASS_WIDTH),
    ]
    for item in present.trend_charts(data.get("sessions", []), name=isolated(classroom.name)):
        story += [_p(item["chart"].title, styles["h2"]), _drawing(item["chart"], scale=1.0)]
    story += [_p(_("Students"), styles["h2"]), _student_table(context["rows"], mode)]
    if context.get("participation"):
        chart = present.participation_chart(context["participation"])
        story += [_p(chart.title, styles["h2"]), _drawing(chart, scale=1.0)]
    for chart in present.weak_spot_charts(context.get("weak_spots") or {"categories": [], "levels": []}):
        story += [_p(chart.title, styles["h2"]), _drawing(chart, scale=1.0)]
    if data.get("hardest"):
        rows = [[_("Question"), _("Game"), _("Right")]]
        for item in data["hardest"]:
            rows.append(
                [
                    isolated(item["label"]),
                    isolated(catalog.game_label(item["game"])),
                    f"{item['correct']}/{item['answered']} ({present.pct(item['share'])})",
                ]
            )
        story += [_p(_("Hardest questions"), styles["h2"]), _table(rows, width=CLASS_WIDTH)]
    if data.get("wrong"):
        rows = [[_("Question"), _("Wrong answer"), _("Times")]]
        for item in data["wrong"]:
            rows.append(
                [
                    isolated(item["label"]),
                    isolated(item["answer"]),
                    item["times"],
                ]
            )
        story += [
            _p(_("Most common wrong answers"), styles["h2"]),
            _table(rows, width=CLASS_WIDTH),
        ]
    # Landscape: the students' table has a column per skill and must fit the page (A4 is 297 mm wide).
    return _document(
        story, title=_("Class report: %(class)s") % {"class": classroom.name}, pagesize=landscape(A4)
    )


def _student_table(rows, mode: str = present.BOTH) -> Table:
    """Every student, their share right in each skill they answered in (never one share across skills)
    and each skill's level: its cells wrap at spaces and it fits the page."""
    levelled = catalog.LEVELLED_SKILLS
    shares = {row.student.pk: present.skill_shares(row.report.data if row.report else None) for row in rows}
    answered = present.skills_in_order(skill for found in shares.values() for skill in found)
    head = [
        _("Student"),
        _("Answers"),
        *[_("Right in %(skill)s") % {"skill": catalog.skill_label(skill)} for skill in answered],
        _("Homework played") if mode == present.HOMEWORK else _("Live games played"),
        *_skill_heads(),
    ]
    body = []
    for row in rows:
        rep = row.report
        body.append(
            [
                isolated(row.student.display_name),
                rep.answered if rep else 0,
                *[_share(shares[row.student.pk].get(skill)) for skill in answered],
                present.games_played(
                    rep.sessions_played,
                    rep.sessions_held,
                    rep.data["totals"].get("homework_sessions", 0),
                    mode,
                )
                if rep
                else "—",
                *[_level_cell(row, skill) for skill in levelled],
            ]
        )
    return _table([head, *body], width=CLASS_WIDTH)


def _share(found: tuple[int, int] | None) -> str:
    if not found or not found[1]:
        return "—"
    return f"{present.pct(found[0] / found[1])} ({found[0]}/{found[1]})"


def _level_cell(row, skill: str) -> str:
    return f"{row.levels.get(skill) or '—'} → {row.recommended.get(skill) or '—'}"


def _skill_heads() -> list[str]:
    return [
        _("%(skill)s level → recommended") % {"skill": catalog.skill_label(skill)}
        for skill in catalog.LEVELLED_SKILLS
    ]


def _class_totals(totals: dict) -> list[list]:
    """The class's sessions and answers, then its share right in each skill apart (a share across skills
    would mix games that are not alike)."""
    head = [_("Sessions"), _("Answers")]
    row = [totals.get("sessions", 0), totals.get("answered", 0)]
    for skill, figures in (totals.get("skills") or {}).items():
        head.append(_("Right in %(skill)s") % {"skill": catalog.skill_label(skill)})
        row.append(present.pct(figures.get("accuracy")))
    return [head, row]


def _drawing(chart: charts.Chart, *, scale: float = 0.75):
    # A chart starts where the page's lines start: at the right on a right-to-left card.
    return charts.to_drawing(
        chart, scale=scale, font=FONT, fit=_fitted_label, h_align="RIGHT" if _rtl() else "LEFT"
    )


def _fitted_label(text: str, room: float, size: float) -> str:
    """A chart's label as drawn, no wider than ``room``: a longer one is cut at a word and ends with "…"
    (a label's width depends on its words and the font, not on how many characters it has)."""
    drawn = _label(text, size)
    limit = len(text)
    while limit > 1 and pdfmetrics.stringWidth(drawn, FONT, size) > room:
        limit -= 1
        drawn = _label(catalog.shorten(text, limit), size)
    return drawn


def _label(text: str, size: float) -> str:
    """A chart's label as drawn: right-to-left text in visual order, its Arabic joined."""
    text, right_to_left = printable(text), _rtl()
    if right_to_left or rtl.has_rtl(text):
        return rtl.visual_line(text, rtl=right_to_left, font=FONT, size=size)
    return text
