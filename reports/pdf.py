"""Printable report cards (reportlab): one per student, one per class, with the pages' charts."""

from __future__ import annotations

import io
from pathlib import Path
from xml.sax.saxutils import escape

import reportlab
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from . import catalog, charts, present

_FONTS_DIR = Path(reportlab.__file__).parent / "fonts"
FONT, BOLD = "Vera", "VeraBd"


def _register_fonts() -> None:
    """Bitstream Vera ships with reportlab: a Unicode TrueType font, so names like "Zoë" print."""
    if FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(FONT, str(_FONTS_DIR / "Vera.ttf")))
        pdfmetrics.registerFont(TTFont(BOLD, str(_FONTS_DIR / "VeraBd.ttf")))


def _styles():
    _register_fonts()
    base = getSampleStyleSheet()
    return {
        "title": ParagraphStyle("t", parent=base["Title"], fontName=BOLD, fontSize=18, spaceAfter=4),
        "h2": ParagraphStyle("h2", parent=base["Heading2"], fontName=BOLD, fontSize=13, spaceBefore=10),
        "body": ParagraphStyle("b", parent=base["BodyText"], fontName=FONT, fontSize=10, leading=13),
        "muted": ParagraphStyle("m", parent=base["BodyText"], fontName=FONT, fontSize=9, textColor="#55607a"),
    }


def _table(rows: list[list], widths=None) -> Table:
    table = Table(rows, colWidths=widths, repeatRows=1, hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), FONT),
                ("FONTNAME", (0, 0), (-1, 0), BOLD),
                ("FONTSIZE", (0, 0), (-1, -1), 9),
                ("TEXTCOLOR", (0, 0), (-1, 0), colors.HexColor("#55607a")),
                ("LINEBELOW", (0, 0), (-1, -1), 0.4, colors.HexColor("#d9d4c7")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    return table


def _p(text, style) -> Paragraph:
    return Paragraph(escape(str(text)), style)


def _document(story: list, *, title: str) -> bytes:
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=16 * mm,
        rightMargin=16 * mm,
        topMargin=14 * mm,
        bottomMargin=14 * mm,
        title=title,
        author="Classplay",
    )
    doc.build(story)
    return buffer.getvalue()


def student_card(*, student, classroom, report, summaries) -> bytes:
    styles = _styles()
    view = present.student_view(report, summaries, name=student.display_name)
    totals = view["totals"]
    story = [
        _p(_("Progress report: %(name)s") % {"name": student.display_name}, styles["title"]),
        _p(
            _("%(class)s · %(school)s · built %(date)s")
            % {
                "class": classroom.name,
                "school": classroom.school.name,
                "date": date_format(timezone.localtime(report.built_at), "j F Y"),
            },
            styles["muted"],
        ),
        Spacer(1, 6),
        _table(
            [
                [_("Answers"), _("Right"), _("Accuracy"), _("Average time"), _("Sessions")],
                [
                    totals["answered"],
                    totals["correct"],
                    present.pct(totals["accuracy"]),
                    present.seconds(totals["mean_time"]),
                    f"{totals['sessions_played']} / {totals['sessions_held']}",
                ],
            ]
        ),
        _p(_("Right answers per session"), styles["h2"]),
        charts.to_drawing(view["trend_chart"]),
        _p(view["trend_chart"].summary, styles["muted"]),
    ]
    if view["categories"]:
        story += [
            _p(_("Right answers by category"), styles["h2"]),
            charts.to_drawing(view["category_chart"]),
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
            lines = [_p(block["game"], styles["body"])] + [
                _p("– " + line, styles["body"]) for line in block["lines"]
            ]
            story.append(KeepTogether(lines))
    return _document(story, title=_("Progress report: %(name)s") % {"name": student.display_name})


def class_card(*, classroom, context) -> bytes:
    styles = _styles()
    report = context["report"]
    data = report.data if report else {"totals": {}, "sessions": [], "hardest": [], "wrong": []}
    totals = data.get("totals", {})
    story = [
        _p(_("Class report: %(class)s") % {"class": classroom.name}, styles["title"]),
        _p(
            _("%(school)s · %(n)d students · built %(date)s")
            % {
                "school": classroom.school.name,
                "n": len(context["rows"]),
                "date": date_format(timezone.localtime(report.built_at), "j F Y") if report else "—",
            },
            styles["muted"],
        ),
        Spacer(1, 6),
        _table(
            [
                [_("Sessions"), _("Answers"), _("Right"), _("Accuracy")],
                [
                    totals.get("sessions", 0),
                    totals.get("answered", 0),
                    totals.get("correct", 0),
                    present.pct(totals.get("accuracy")),
                ],
            ]
        ),
    ]
    sessions = data.get("sessions", [])
    if sessions:
        chart = class_trend_chart(sessions, classroom.name)
        story += [_p(_("Right answers per session"), styles["h2"]), charts.to_drawing(chart)]
    student_rows = [[_("Student"), _("Answers"), _("Accuracy"), _("Recent"), _("Sessions"), *_skill_heads()]]
    for row in context["rows"]:
        rep = row.report
        student_rows.append(
            [
                row.student.display_name,
                rep.answered if rep else 0,
                present.pct(rep.accuracy) if rep else "—",
                present.pct(rep.recent_accuracy) if rep else "—",
                f"{rep.sessions_played}/{rep.sessions_held}" if rep else "—",
                *[
                    f"{row.levels.get(skill) or '—'} → {row.recommended.get(skill) or '—'}"
                    for skill in catalog.LEVELLED_SKILLS
                ],
            ]
        )
    story += [_p(_("Students"), styles["h2"]), _table(student_rows)]
    if data.get("hardest"):
        rows = [[_("Question"), _("Game"), _("Right")]]
        for item in data["hardest"]:
            rows.append(
                [
                    Paragraph(escape(item["label"]), styles["body"]),
                    catalog.game_label(item["game"]),
                    f"{item['correct']}/{item['answered']} ({present.pct(item['share'])})",
                ]
            )
        story += [_p(_("Hardest questions"), styles["h2"]), _table(rows, widths=[95 * mm, 35 * mm, 40 * mm])]
    if data.get("wrong"):
        rows = [[_("Question"), _("Wrong answer"), _("Times")]]
        for item in data["wrong"]:
            rows.append(
                [
                    Paragraph(escape(item["label"]), styles["body"]),
                    Paragraph(escape(item["answer"]), styles["body"]),
                    item["times"],
                ]
            )
        story += [
            _p(_("Most common wrong answers"), styles["h2"]),
            _table(rows, widths=[90 * mm, 60 * mm, 20 * mm]),
        ]
    return _document(story, title=_("Class report: %(class)s") % {"class": classroom.name})


def _skill_heads() -> list[str]:
    return [
        _("%(skill)s level → recommended") % {"skill": catalog.skill_label(skill)}
        for skill in catalog.LEVELLED_SKILLS
    ]


def class_trend_chart(sessions: list[dict], name: str) -> charts.Chart:
    trend = [{"day": row["day"], "accuracy": row["accuracy"]} for row in sessions]
    return present.trend_chart(trend, name=name)
