"""Charts drawn on the server: one geometry, two renderers (inline SVG for the pages, reportlab drawings
for the PDF report cards). No JavaScript, no CDN. Every chart carries a title and a text description
(``summary``) that the SVG exposes to screen readers and the pages repeat as a table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape

from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from reportlab.graphics.shapes import Circle, Drawing, Line, PolyLine, Rect, String
from reportlab.lib.colors import HexColor

INK = "#1d2433"
MUTED = "#55607a"
GRID = "#d9d4c7"
ACCENT = "#2456a6"
OK = "#1f7a4d"
BAD = "#b3261e"


@dataclass
class Chart:
    width: float
    height: float
    title: str
    summary: str
    #: Primitives in top-left coordinates: ("line", x1, y1, x2, y2, colour, width, dashed),
    #: ("poly", [(x, y)...], colour, width), ("dot", x, y, r, colour), ("rect", x, y, w, h, colour),
    #: ("text", x, y, text, anchor, size, colour)
    items: list[tuple] = field(default_factory=list)
    #: Whether a page shows the title above the chart (a sparkline in a table cell: screen readers only).
    show_title: bool = True


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{round(100 * value)}%"


def line_chart(
    points: list[tuple[str, float | None]],
    *,
    title: str,
    summary: str,
    width: float = 640,
    height: float = 220,
    reference: float | None = None,
) -> Chart:
    """Accuracy (0-1) over a sequence of labelled points (sessions); ``reference`` draws a dashed line."""
    chart = Chart(width, height, title, summary)
    left, right, top, bottom = 44, 12, 12, 34
    plot_w, plot_h = width - left - right, height - top - bottom

    def y_of(value: float) -> float:
        return top + plot_h * (1 - value)

    for tick in (0, 0.5, 1):
        y = y_of(tick)
        chart.items.append(("line", left, y, width - right, y, GRID, 1, False))
        chart.items.append(("text", left - 6, y + 4, _pct(tick), "end", 11, MUTED))
    chart.items.append(("line", left, top, left, top + plot_h, MUTED, 1, False))
    if reference is not None:
        y = y_of(reference)
        chart.items.append(("line", left, y, width - right, y, MUTED, 1, True))
    count = len(points)
    if not count:
        return chart
    step = plot_w / max(count - 1, 1)
    xs = [left + (step * index if count > 1 else plot_w / 2) for index in range(count)]
    run: list[tuple[float, float]] = []
    for x, (_label, value) in zip(xs, points, strict=True):
        if value is None:
            if len(run) > 1:
                chart.items.append(("poly", run, ACCENT, 2.5))
            run = []
            continue
        run.append((x, y_of(value)))
    if len(run) > 1:
        chart.items.append(("poly", run, ACCENT, 2.5))
    for x, (_label, value) in zip(xs, points, strict=True):
        if value is not None:
            chart.items.append(("dot", x, y_of(value), 3.5, ACCENT))
    for index in _labelled(count):
        # The first and last labels are anchored at their ends, so neither runs off the chart.
        anchor = "middle" if 0 < index < count - 1 or count == 1 else ("start" if index == 0 else "end")
        chart.items.append(("text", xs[index], height - 12, points[index][0], anchor, 10, MUTED))
    return chart


def _labelled(count: int, most: int = 7) -> list[int]:
    """Which points get an x-axis label: evenly spread, the first and the last always, at most ``most``
    (so labels never overlap)."""
    if count <= most:
        return list(range(count))
    step = (count - 1) / (most - 1)
    return sorted({round(index * step) for index in range(most)})


def bar_chart(
    rows: list[tuple[str, float | None, str]],
    *,
    title: str,
    summary: str,
    width: float = 640,
    bar: float = 22,
    good_high: bool = True,
    rtl: bool | None = None,
) -> Chart:
    """Horizontal bars of shares (0-1), each labelled where a line of the page starts (the left, or the
    right in a right-to-left language) and with its figure at the other end, the bars growing away from
    the labels. ``good_high=False``: a high share is the bad news (students needing attention), drawn in
    one colour. ``rtl``: the page's direction (default: the active language's)."""
    label_w, figure_w, gap = 190, 90, 8
    height = max(1, len(rows)) * (bar + gap) + gap
    chart = Chart(width, height, title, summary)
    plot_w = width - label_w - figure_w
    mirrored = translation.get_language_bidi() if rtl is None else rtl

    def x_of(x: float, span: float = 0) -> float:
        """A left-to-right x (of a thing ``span`` wide) where the chart puts it."""
        return width - x - span if mirrored else x

    start, end = ("end", "start") if mirrored else ("start", "end")
    for index, (label, value, figure) in enumerate(rows):
        y = gap + index * (bar + gap)
        chart.items.append(("text", x_of(label_w - 8), y + bar * 0.68, label, end, 12, INK))
        chart.items.append(("rect", x_of(label_w, plot_w), y, plot_w, bar, "#f0eee8"))
        if value is not None:
            colour = OK if value >= 0.75 else (BAD if value < 0.5 else ACCENT)
            if not good_high:
                colour = BAD
            length = max(1.0, plot_w * value)
            chart.items.append(("rect", x_of(label_w, length), y, length, bar, colour))
        chart.items.append(("text", x_of(label_w + plot_w + 8), y + bar * 0.68, figure, start, 12, INK))
    return chart


def sparkline(values: list[float | None], *, title: str, width: float = 110, height: float = 26) -> Chart:
    known = [value for value in values if value is not None]
    summary = title
    chart = Chart(width, height, title, summary, show_title=False)
    if not known:
        return chart
    pad = 3
    step = (width - 2 * pad) / max(len(values) - 1, 1)
    points = [
        (pad + index * step, pad + (height - 2 * pad) * (1 - value))
        for index, value in enumerate(values)
        if value is not None
    ]
    chart.items.append(("line", pad, height / 2, width - pad, height / 2, GRID, 1, True))
    if len(points) > 1:
        chart.items.append(("poly", points, ACCENT, 1.8))
    chart.items.append(("dot", *points[-1], 2.5, ACCENT))
    return chart


# --- renderers -----------------------------------------------------------------------------------------


def _n(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def to_svg(chart: Chart, *, dom_id: str = "", decorative: bool = False) -> SafeString:
    """Inline SVG: ``role="img"`` with a title and description (or hidden when a table says it all).
    The title is shown above the chart too (a ``figure`` whose caption labels the SVG), unless the chart
    is a sparkline. The SVG's text is laid out left to right whatever the page's direction: its
    anchors are the geometry's (a right-to-left page would otherwise turn "end" into the left edge, and
    a bar's label would run over its bar); a right-to-left chart mirrors its geometry instead."""
    parts = []
    for item in chart.items:
        kind = item[0]
        if kind == "line":
            _k, x1, y1, x2, y2, colour, stroke, dashed = item
            dash = ' stroke-dasharray="4 3"' if dashed else ""
            parts.append(
                f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" '
                f'stroke="{colour}" stroke-width="{stroke}"{dash}/>'
            )
        elif kind == "poly":
            _k, points, colour, stroke = item
            path = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
            parts.append(
                f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="{stroke}" '
                'stroke-linejoin="round" stroke-linecap="round"/>'
            )
        elif kind == "dot":
            _k, x, y, radius, colour = item
            parts.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{radius}" fill="{colour}"/>')
        elif kind == "rect":
            _k, x, y, w, h, colour = item
            parts.append(
                f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="3" fill="{colour}"/>'
            )
        elif kind == "text":
            _k, x, y, text, anchor, size, colour = item
            parts.append(
                f'<text x="{_n(x)}" y="{_n(y)}" text-anchor="{anchor}" font-size="{size}" '
                f'fill="{colour}">{escape(str(text))}</text>'
            )
    w, h = _n(chart.width), _n(chart.height)
    size = f'viewBox="0 0 {w} {h}" width="{w}" height="{h}" direction="ltr"'
    if decorative:
        head = f'<svg class="chart" {size} aria-hidden="true" focusable="false">'
        return mark_safe(head + "".join(parts) + "</svg>")  # every text above is escaped
    ident = dom_id or f"chart{id(chart)}"
    if not chart.show_title:
        head = (
            f'<svg class="chart" {size} role="img" aria-labelledby="{ident}-t {ident}-d" focusable="false">'
            f'<title id="{ident}-t">{escape(chart.title)}</title>'
            f'<desc id="{ident}-d">{escape(chart.summary)}</desc>'
        )
        return mark_safe(head + "".join(parts) + "</svg>")  # every text above is escaped
    head = (
        f'<figure class="chart-figure"><figcaption class="chart-title" id="{ident}-t">'
        f"{escape(chart.title)}</figcaption>"
        f'<svg class="chart" {size} role="img" aria-labelledby="{ident}-t {ident}-d" focusable="false">'
        f'<desc id="{ident}-d">{escape(chart.summary)}</desc>'
    )
    return mark_safe(head + "".join(parts) + "</svg></figure>")  # every text above is escaped


def _fit_as_given(text: str, room: float, size: float) -> str:
    return text


def room_for(chart: Chart, x: float, anchor: str) -> float:
    """How wide a text anchored at ``x`` may be and stay inside the chart (a bar's label to the left of
    its bar, or to the right in a right-to-left chart, has the room up to the chart's edge)."""
    if anchor == "end":
        return x
    if anchor == "start":
        return chart.width - x
    return 2 * min(x, chart.width - x)


def to_drawing(
    chart: Chart,
    *,
    scale: float = 0.75,
    font: str = "Helvetica",
    fit: Callable[[str, float, float], str] = _fit_as_given,
    h_align: str = "LEFT",
):
    """The same chart as a reportlab Drawing (origin bottom-left, so y is flipped), its text in ``font``,
    each passed through ``fit(text, room, size)``: the text as drawn within ``room`` points at ``size``
    (the PDF's stand-ins for characters the font lacks, right-to-left text in visual order, a label too
    long for the chart shortened), so no label runs past the chart into the page's margin. ``h_align``:
    where the chart sits on its line (``RIGHT`` on a right-to-left page)."""
    height = chart.height
    drawing = Drawing(chart.width * scale, chart.height * scale, initialFontName=font)
    drawing.hAlign = h_align  # Drawing() sets its own

    def y(value: float) -> float:
        return (height - value) * scale

    for item in chart.items:
        kind = item[0]
        if kind == "line":
            _k, x1, y1, x2, y2, colour, stroke, dashed = item
            line = Line(
                x1 * scale, y(y1), x2 * scale, y(y2), strokeColor=HexColor(colour), strokeWidth=stroke
            )
            if dashed:
                line.strokeDashArray = [3, 2]
            drawing.add(line)
        elif kind == "poly":
            _k, points, colour, stroke = item
            flat = [coordinate for x, yy in points for coordinate in (x * scale, y(yy))]
            drawing.add(PolyLine(flat, strokeColor=HexColor(colour), strokeWidth=stroke * scale))
        elif kind == "dot":
            _k, x, yy, radius, colour = item
            drawing.add(
                Circle(x * scale, y(yy), radius * scale, fillColor=HexColor(colour), strokeColor=None)
            )
        elif kind == "rect":
            _k, x, yy, w, h, colour = item
            drawing.add(
                Rect(x * scale, y(yy + h), w * scale, h * scale, fillColor=HexColor(colour), strokeColor=None)
            )
        elif kind == "text":
            _k, x, yy, text, anchor, size, colour = item
            drawing.add(
                String(
                    x * scale,
                    y(yy),
                    fit(str(text), room_for(chart, x, anchor) * scale, size * scale),
                    textAnchor=anchor,
                    fontSize=size * scale,
                    fillColor=HexColor(colour),
                    fontName=font,
                )
            )
    return drawing
