"""No page ships an emoji: a classroom PC or projector with only the DejaVu fonts (Debian's default) shows
one as an empty box. Icons are SVG drawings (templates/includes/icon.html); the symbols DejaVu Sans draws
(arrows, check marks, ★, ⚠) stay text. The browser test tests/browser/test_icons.py looks at the pages."""

from __future__ import annotations

import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]

#: Emoji and other pictographs DejaVu Sans has no glyph for (the blocks, and the emoji-styled characters
#: of blocks it otherwise covers).
NO_GLYPH = [
    (0x1F000, 0x1FAFF, "emoji and pictographs"),
    (0x2B00, 0x2BFF, "arrows and symbols such as ⭐"),
    (0xFF00, 0xFFEF, "full-width forms such as ＋"),
    (0x23E9, 0x23FA, "media and clock symbols such as ⏳ and ⏸"),
    (0x231A, 0x231B, "watch and hourglass"),
]


def _shipped():
    for folder in ("templates", "static/js", "static/css"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in {".html", ".js", ".css", ".txt"}:
                yield path


def test_no_shipped_page_has_a_character_without_a_glyph_in_dejavu():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {char} (U+{ord(char):04X}, {what})"
        for path in _shipped()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for char in line
        for low, high, what in NO_GLYPH
        if low <= ord(char) <= high
    ]
    assert found == []
