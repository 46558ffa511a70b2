"""The report cards' layout: headings stay with what they head, tables fit the page, words stay whole."""

import io

import pytest
from django.utils import translation
from pypdf import PdfReader
from reportlab.platypus import Spacer

from reports import pdf

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
