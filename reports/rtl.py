"""Right-to-left text in the PDFs: each line laid out by the Unicode bidirectional algorithm (UAX #9) and its
Arabic runs joined by HarfBuzz, through reportlab's own shaping (``shapeStr``).

reportlab draws a string left to right as given: Arabic comes out with its letters unjoined and its words
reversed. Here a paragraph is broken into lines in logical order (the order it is read and typed), each
line's characters get their bidi levels, the line's runs are put in visual order (rule L2), and each
right-to-left run is shaped by HarfBuzz, which returns its glyphs left to right with the joining forms.
The PDF then holds every line in visual order, as PDFs do; each glyph's ToUnicode entry is the character
it stands for (an initial, medial or final form of the letter), so a reader that copies the text (or
pypdf) turns each right-to-left run back into logical order.

The algorithm is the part of UAX #9 the reports need: one paragraph level, isolates (X5a-X5c, X6a: a
name or a title put between FSI and PDI keeps its own order, so "Ava M." never shows as ".Ava M" on an
Arabic card), no explicit embeddings (their controls count as neutrals), weak types (W1-W7), paired
brackets (N0), neutrals (N1-N2), implicit levels (I1-I2) and reordering (L1-L2). The isolates' controls
take no room and are not drawn."""

from __future__ import annotations

import re
import unicodedata

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import ShapedStr, shapeStr
from reportlab.platypus import Flowable

from classrooms.languages import FSI, PDI
from classrooms.languages import has_right_to_left as has_rtl

_NEUTRAL = frozenset({"B", "S", "WS", "ON", "BN"})
#: Explicit embeddings and overrides: the reports never need them, so they count as neutrals.
_EXPLICIT = frozenset({"LRE", "RLE", "LRO", "RLO", "PDF"})
#: The isolates' controls: an isolate's text is laid out apart, and its controls count as neutrals outside.
LRI, RLI = "\u2066", "\u2067"
_INITIATORS = frozenset({FSI, LRI, RLI})
_CONTROLS = _INITIATORS | {PDI}
#: The paired brackets of rule N0 (Bidi_Paired_Bracket) among the characters the reports print.
_CLOSING_OF = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = frozenset(_CLOSING_OF.values())
#: Rule L4: in a right-to-left run these show their mirror image (HarfBuzz does it for the runs it shapes).
_MIRROR = {"(": ")", ")": "(", "[": "]", "]": "[", "{": "}", "}": "{", "<": ">", ">": "<"} | {
    "«": "»",
    "»": "«",
    "‹": "›",
    "›": "‹",
}
_WORD = re.compile(r"\S+")


def _isolates(text: str) -> list[tuple[int, int]]:
    """The outermost isolates: (initiator's index, its PDI's index, or the text's end if it has none)."""
    spans, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char in _INITIATORS:
            if depth == 0:
                start = index
            depth += 1
        elif char == PDI and depth:
            depth -= 1
            if depth == 0:
                spans.append((start, index))
    if depth:
        spans.append((start, len(text)))
    return spans


def _first_strong(text: str) -> str:
    """Rules P2-P3 for an FSI: the direction of the first strong letter outside nested isolates."""
    depth = 0
    for char in text:
        if char in _INITIATORS:
            depth += 1
        elif char == PDI:
            depth = max(depth - 1, 0)
        elif not depth and unicodedata.bidirectional(char) in ("L", "R", "AL"):
            return "L" if unicodedata.bidirectional(char) == "L" else "R"
    return "L"


def _types(text: str) -> list[str]:
    types = []
    for char in text:
        kind = unicodedata.bidirectional(char) or "L"
        types.append("ON" if kind in _EXPLICIT or char in _CONTROLS else kind)
    return types


def _strong(kind: str) -> str | None:
    """The direction a resolved type stands for beside neutrals (numbers count as right-to-left)."""
    if kind == "L":
        return "L"
    return "R" if kind in ("R", "EN", "AN") else None


def _weak(types: list[str], sos: str) -> None:
    """Rules W1-W7, in place."""
    _marks_and_letters(types, sos)
    _separators(types)
    last_strong = sos
    for index, kind in enumerate(types):  # W7
        if kind in ("L", "R"):
            last_strong = kind
        elif kind == "EN" and last_strong == "L":
            types[index] = "L"


def _marks_and_letters(types: list[str], sos: str) -> None:
    """Rules W1-W3: marks take their letter's type, numbers after Arabic letters are Arabic ones."""
    previous, last_strong = sos, sos
    for index, kind in enumerate(types):
        if kind == "NSM":  # W1
            types[index] = kind = previous
        if kind in ("L", "R", "AL"):
            last_strong = kind
        elif kind == "EN" and last_strong == "AL":  # W2
            types[index] = "AN"
        previous = types[index]
    types[:] = ["R" if kind == "AL" else kind for kind in types]  # W3


def _separators(types: list[str]) -> None:
    """Rules W4-W6: separators and terminators join the numbers they touch, else are neutrals."""
    for index in range(1, len(types) - 1):  # W4
        before, kind, after = types[index - 1 : index + 2]
        if before == after and (
            (kind == "ES" and before == "EN") or (kind == "CS" and before in ("EN", "AN"))
        ):
            types[index] = before
    for index, kind in enumerate(types):  # W5
        if kind == "EN":
            for step in (-1, 1):
                other = index + step
                while 0 <= other < len(types) and types[other] == "ET":
                    types[other] = "EN"
                    other += step
    types[:] = ["ON" if kind in ("ES", "ET", "CS") else kind for kind in types]  # W6


def _bracket_pairs(text: str, types: list[str]) -> list[tuple[int, int]]:
    """Rule BD16: the matching brackets, by their opening's position."""
    pairs, stack = [], []
    for index, char in enumerate(text):
        if types[index] != "ON":
            continue
        if char in _CLOSING_OF:
            if len(stack) == 63:
                break
            stack.append((_CLOSING_OF[char], index))
        elif char in _CLOSERS:
            for depth in range(len(stack) - 1, -1, -1):
                if stack[depth][0] == char:
                    pairs.append((stack[depth][1], index))
                    del stack[depth:]
                    break
    return sorted(pairs)


def _brackets(text: str, types: list[str], embedding: str) -> None:
    """Rule N0: a pair of brackets takes the direction of what it encloses ("Line Up! (85%)" stays whole)."""
    for opening, closing in _bracket_pairs(text, types):
        inside = {_strong(kind) for kind in types[opening + 1 : closing]} - {None}
        if not inside:
            continue
        if embedding in inside:
            direction = embedding
        else:  # only the other direction inside: the brackets follow the text before them
            before = (_strong(kind) for kind in reversed(types[:opening]))
            direction = next((kind for kind in before if kind), embedding)
        types[opening] = types[closing] = direction


def _neutrals(types: list[str], embedding: str) -> None:
    """Rules N1-N2: a run of neutrals between two sides of one direction takes it, else the paragraph's."""
    index = 0
    while index < len(types):
        if types[index] not in _NEUTRAL:
            index += 1
            continue
        end = index
        while end < len(types) and types[end] in _NEUTRAL:
            end += 1
        before = _strong(types[index - 1]) if index else embedding
        after = _strong(types[end]) if end < len(types) else embedding
        types[index:end] = [before if before == after else embedding] * (end - index)
        index = end


def levels(text: str, *, rtl: bool) -> list[int]:
    """Each character's bidi level in a paragraph of ``text`` (right-to-left if ``rtl``)."""
    return _levels(text, 1 if rtl else 0)


def _levels(text: str, base: int) -> list[int]:
    """The levels of ``text`` laid out at ``base``: its isolates' text apart (rule X6a: outside it, an
    isolate is its two controls side by side, neutrals), each at the next level of its own direction."""
    spans = _isolates(text)
    inside = {index for start, end in spans for index in range(start + 1, end)}
    outside = [index for index in range(len(text)) if index not in inside]
    found = [0] * len(text)
    for index, level in zip(outside, _sequence_levels("".join(text[i] for i in outside), base), strict=True):
        found[index] = level
    for start, end in spans:
        content = text[start + 1 : end]
        direction = {LRI: "L", RLI: "R"}.get(text[start]) or _first_strong(content)
        level = base + 1 + ((base % 2 == 0) == (direction == "L"))  # X5a-X5c: the next odd or even level
        found[start + 1 : end] = _levels(content, level)
    return found


def _sequence_levels(text: str, base: int) -> list[int]:
    """Rules W1-I2 over one isolating run sequence at ``base`` (its isolates' controls count as neutrals)."""
    embedding = "R" if base % 2 else "L"
    types = _types(text)
    _weak(types, embedding)
    _brackets(text, types, embedding)
    _neutrals(types, embedding)
    if base % 2:  # I2
        return [base + (kind != "R") for kind in types]
    return [base + {"R": 1, "EN": 2, "AN": 2}.get(kind, 0) for kind in types]  # I1


def visual_runs(text: str, line_levels: list[int], *, rtl: bool) -> list[tuple[str, int]]:
    """One line's runs (each in logical order, with its level) in the order they show, left to right."""
    line_levels = list(line_levels)
    end = len(text)
    while end and (
        unicodedata.bidirectional(text[end - 1]) in ("WS", "BN") or text[end - 1] in _CONTROLS
    ):  # L1
        end -= 1
        line_levels[end] = int(rtl)
    runs: list[list] = []
    for char, level in zip(text, line_levels, strict=True):
        if runs and runs[-1][1] == level:
            runs[-1][0] += char
        else:
            runs.append([char, level])
    odd = [level for _run, level in runs if level % 2]
    for level in range(max(line_levels, default=0), min(odd, default=1) - 1, -1):  # L2
        start = 0
        while start < len(runs):
            if runs[start][1] < level:
                start += 1
                continue
            stop = start
            while stop < len(runs) and runs[stop][1] >= level:
                stop += 1
            runs[start:stop] = runs[start:stop][::-1]
            start = stop
    return [(run, level) for run, level in runs]


def _piece(run: str, level: int, font: str, size: float) -> tuple[str, float]:
    """A run as drawn left to right, and its width (an isolate's controls are not drawn)."""
    run = "".join(char for char in run if char not in _CONTROLS)
    if not run:
        return "", 0.0
    if level % 2 and has_rtl(run):
        # HarfBuzz takes the run in logical order and gives its glyphs back left to right, joined (and with
        # brackets mirrored); each glyph is written as the character its ToUnicode entry names.
        shaped = shapeStr(run, font, size)
        if isinstance(shaped, ShapedStr):
            return shaped, sum(data.x_advance for data in shaped.__shapeData__) * size / 1000
        return shaped, pdfmetrics.stringWidth(shaped, font, size)
    if level % 2:  # right-to-left neutrals (a bracket, a dash): reversed and mirrored by hand
        run = "".join(_MIRROR.get(char, char) for char in reversed(run))
    return run, pdfmetrics.stringWidth(run, font, size)


def visual(text: str, line_levels: list[int], *, rtl: bool, font: str, size: float) -> tuple[str, float]:
    """One line as reportlab draws it (left to right, its Arabic joined), and its width."""
    pieces = [_piece(run, level, font, size) for run, level in visual_runs(text, line_levels, rtl=rtl)]
    width = sum(piece_width for _piece_text, piece_width in pieces)
    if not any(isinstance(piece, ShapedStr) for piece, _width in pieces):
        return "".join(piece for piece, _width in pieces), width
    drawn = ShapedStr("", shapeData=[])
    for piece, _width in pieces:
        drawn += piece  # a plain piece keeps its glyphs' own advances
    return drawn, width


def visual_line(text: str, *, rtl: bool, font: str, size: float = 10) -> str:
    """A one-line string (a chart's label) in visual order, its Arabic joined."""
    return visual(text, levels(text, rtl=rtl), rtl=rtl, font=font, size=size)[0]


class BidiParagraph(Flowable):
    """A paragraph of plain text with right-to-left runs: broken into lines at spaces in logical order (or
    kept on ``one_line``, as a table draws a plain string), each line drawn in visual order and aligned as
    ``style.alignment`` says (0 left, 1 centre, 2 right)."""

    def __init__(self, text: str, style, *, rtl: bool, one_line: bool = False):
        super().__init__()
        self.text = " ".join(text.split())
        self.style, self.rtl, self.one_line = style, rtl, one_line
        self.spaceBefore, self.spaceAfter = style.spaceBefore, style.spaceAfter
        self._levels = levels(self.text, rtl=rtl)
        self._lines: list[tuple[int, int]] = []
        self._widths: dict[tuple[int, int], float] = {}  # a table wraps its cells more than once
        if one_line:  # a table sizes its column to the line, and aligns it in the cell
            self._fixedWidth, self.width = 1, self._width(0, len(self.text))

    def _width(self, start: int, end: int) -> float:
        if (start, end) not in self._widths:
            style = self.style
            self._widths[start, end] = visual(
                self.text[start:end],
                self._levels[start:end],
                rtl=self.rtl,
                font=style.fontName,
                size=style.fontSize,
            )[1]
        return self._widths[start, end]

    def _break(self, width: float) -> list[tuple[int, int]]:
        """The lines (start, end in the text) that fit ``width``; a word wider has a line of its own."""
        if self.one_line:
            return [(0, len(self.text))] if self.text else []
        lines: list[tuple[int, int]] = []
        for word in _WORD.finditer(self.text):
            if lines and self._width(lines[-1][0], word.end()) <= width:
                lines[-1] = (lines[-1][0], word.end())
            else:
                lines.append(word.span())
        return lines

    def minWidth(self) -> float:  # a table's column without a set width
        if self.one_line:
            return self._width(0, len(self.text))
        return max((self._width(*word.span()) for word in _WORD.finditer(self.text)), default=0)

    def wrap(self, availWidth, availHeight):
        self._lines = self._break(availWidth)
        self.width = self._width(0, len(self.text)) if self.one_line else availWidth
        self.height = len(self._lines) * self.style.leading
        return self.width, self.height

    def split(self, availWidth, availHeight):
        """The lines that fit on this page, and the rest for the next."""
        lines = self._break(availWidth)
        fit = int(availHeight // self.style.leading)
        if fit < 1 or fit >= len(lines):
            return []
        first = BidiParagraph(self.text[: lines[fit - 1][1]], self.style, rtl=self.rtl)
        rest = BidiParagraph(self.text[lines[fit][0] :], self.style, rtl=self.rtl)
        first.spaceAfter = rest.spaceBefore = 0
        return [first, rest]

    def draw(self) -> None:
        style, canvas = self.style, self.canv
        canvas.setFont(style.fontName, style.fontSize)
        canvas.setFillColor(style.textColor)
        y = self.height - style.fontSize  # the first baseline where reportlab's Paragraph puts it
        for start, end in self._lines:
            drawn, width = visual(
                self.text[start:end],
                self._levels[start:end],
                rtl=self.rtl,
                font=style.fontName,
                size=style.fontSize,
            )
            x = (0, (self.width - width) / 2, self.width - width)[min(style.alignment, 2)]
            canvas.drawString(x, y, drawn)
            y -= style.leading
