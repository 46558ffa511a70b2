"""Scribble boards: seeded patterns of dotted line segments on a lattice, and stroke validation.

Geometry. A board side is drawn on a ``GRID`` x ``GRID`` lattice of points ``(x, y)`` with
``0 <= x, y < GRID``; ``y`` grows downwards (screen coordinates), so with rotation 0 the bottom edge
is ``y = GRID - 1``. A dotted line is a chain of *unit segments* between neighbouring lattice points
(horizontal, vertical or 45-degree diagonal), written ``[x1, y1, x2, y2]`` with the smaller point first.

Strokes snap to the dotted lines. A stroke is a list of *pieces*:

* ``[x1, y1, x2, y2]``: a straight run along a row, column or diagonal (one or more unit segments);
* ``[x1, y1, x2, y2, h]``: half of the unit segment ``(x1, y1)-(x2, y2)``; ``h = 0`` is the half that
  touches ``(x1, y1)``, ``h = 1`` the half that touches ``(x2, y2)``. So a pen may stop mid-segment.

Internally a stroke is a set of *halves* ``(x1, y1, x2, y2, h)`` of canonical unit segments; it is
stored back as whole unit segments (both halves drawn) plus single halves, sorted, so every screen
renders the same picture from a small payload.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from ..core import IllegalAction, Rng, _

GRID = 12
# The eight lattice directions, in clockwise order so that "turn by 45 degrees" is index +/- 1.
DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
MIN_SEGMENTS, MAX_SEGMENTS = 45, 150  # how sparse / dense a side may be
TURN_CHANCE = 0.3

Segment = tuple[int, int, int, int]
Half = tuple[int, int, int, int, int]


def canonical(x1: int, y1: int, x2: int, y2: int) -> Segment:
    """The unit segment with its smaller end point first."""
    return (x1, y1, x2, y2) if (x1, y1) <= (x2, y2) else (x2, y2, x1, y1)


def on_grid(x: int, y: int) -> bool:
    return 0 <= x < GRID and 0 <= y < GRID


# --------------------------------------------------------------------------------------------------
# Board generation
# --------------------------------------------------------------------------------------------------


def _dotted_line(rng: Rng) -> list[Segment]:
    """One dotted line: a short walk that mostly goes straight and sometimes bends by 45 degrees."""
    x, y = rng.below(GRID), rng.below(GRID)
    direction = rng.below(len(DIRECTIONS))
    segments = []
    for _step in range(rng.randint(2, 8)):
        if rng.random() < TURN_CHANCE:
            direction = (direction + rng.choice((-1, 1))) % len(DIRECTIONS)
        dx, dy = DIRECTIONS[direction]
        if not on_grid(x + dx, y + dy):
            break
        segments.append(canonical(x, y, x + dx, y + dy))
        x, y = x + dx, y + dy
    return segments


def generate_side(rng: Rng) -> list[list[int]]:
    """One side: dotted lines added until its own (random) density is reached, so sides differ in
    how many lines they offer as well as where."""
    target = rng.randint(MIN_SEGMENTS, MAX_SEGMENTS)
    segments: set[Segment] = set()
    for _attempt in range(10 * MAX_SEGMENTS):
        if len(segments) >= target:
            break
        segments.update(_dotted_line(rng))
    return [list(segment) for segment in sorted(segments)]


def generate_boards(rng: Rng, count: int) -> list[list[list[list[int]]]]:
    """``count`` boards of two sides each; every side differs from every other one."""
    seen: set[tuple[tuple[int, ...], ...]] = set()
    boards = []
    for _board in range(count):
        sides = []
        for _side in range(2):
            while True:
                side = generate_side(rng)
                key = tuple(tuple(segment) for segment in side)
                if key not in seen:
                    seen.add(key)
                    break
            sides.append(side)
        boards.append(sides)
    return boards


@functools.lru_cache(maxsize=256)
def board_sides(board_seed: str, count: int) -> tuple[tuple[tuple[Segment, ...], ...], ...]:
    """The group's boards rebuilt from their public seed. Cached (games ask on every move) and made
    of tuples, so no caller can change the cached copy."""
    return tuple(
        tuple(tuple(tuple(segment) for segment in side) for side in board)  # type: ignore[misc]
        for board in generate_boards(Rng(f"boards:{board_seed}"), count)
    )


def side_lines(board_seed: str, count: int, board: int, side: int) -> list[list[int]]:
    """One side's dotted lines as fresh JSON-ready lists."""
    return [list(segment) for segment in board_sides(board_seed, count)[board][side]]


def side_segments(board_seed: str, count: int, board: int, side: int) -> tuple[Segment, ...]:
    """One side's dotted lines as the cached tuples: for views, which are encoded and dropped (a view
    built for every device at every update made fresh lists of every line, then copied them again)."""
    return board_sides(board_seed, count)[board][side]


@functools.lru_cache(maxsize=1024)
def side_set(board_seed: str, count: int, board: int, side: int) -> frozenset[Segment]:
    """One side's unit segments as a set, for quick "is this on the lines?" checks."""
    return frozenset(board_sides(board_seed, count)[board][side])


# --------------------------------------------------------------------------------------------------
# Stroke pieces
# --------------------------------------------------------------------------------------------------


def _bad_shape() -> IllegalAction:
    return IllegalAction(
        _("A line must go from one dot to a neighbouring dot along the grid."), code="bad_stroke"
    )


def _coordinates(piece: Any) -> list[int]:
    if not isinstance(piece, list) or len(piece) not in (4, 5):
        raise _bad_shape()
    if not all(isinstance(value, int) and not isinstance(value, bool) for value in piece):
        raise _bad_shape()
    return piece


def halves_of_piece(piece: Any) -> set[Half]:
    """The halves a raw client piece covers (shape checked, board not checked)."""
    values = _coordinates(piece)
    x1, y1, x2, y2 = values[:4]
    if not (on_grid(x1, y1) and on_grid(x2, y2)):
        raise _bad_shape()
    dx, dy = x2 - x1, y2 - y1
    steps = max(abs(dx), abs(dy))
    if steps == 0 or not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
        raise _bad_shape()
    if len(values) == 5:
        half = values[4]
        if steps != 1 or half not in (0, 1):
            raise _bad_shape()
        segment = canonical(x1, y1, x2, y2)
        if segment != (x1, y1, x2, y2):
            half = 1 - half  # the client named the ends the other way round
        return {(*segment, half)}
    sx, sy = dx // steps, dy // steps
    halves: set[Half] = set()
    for step in range(steps):
        segment = canonical(x1 + step * sx, y1 + step * sy, x1 + (step + 1) * sx, y1 + (step + 1) * sy)
        halves.update({(*segment, 0), (*segment, 1)})
    return halves


def parse_pieces(raw: Any, max_pieces: int) -> set[Half]:
    """All halves covered by a client's list of pieces; IllegalAction for anything malformed."""
    if not isinstance(raw, list) or not raw:
        raise IllegalAction(_("Draw at least one line."), code="empty_stroke")
    if len(raw) > max_pieces:
        raise IllegalAction(
            _(
                "That stroke is too long: lift the pen and draw the rest as another stroke (at most "
                "%(limit)s pieces)."
            ),
            code="stroke_too_long",
            limit=max_pieces,
        )
    halves: set[Half] = set()
    for piece in raw:
        halves |= halves_of_piece(piece)
    return halves


def check_on_lines(halves: Iterable[Half], lines: frozenset[Segment] | set[Segment]) -> None:
    """Refuse any half that is not on one of the side's dotted lines."""
    for half in halves:
        if half[:4] not in lines:
            raise IllegalAction(_("You can only draw on the dotted lines of your board."), code="off_lines")


def pieces_of(halves: Iterable[Half]) -> list[list[int]]:
    """The stored form: whole unit segments where both halves are drawn, single halves otherwise."""
    by_segment: dict[Segment, set[int]] = {}
    for half in halves:
        by_segment.setdefault(half[:4], set()).add(half[4])
    pieces = []
    for segment, sides in sorted(by_segment.items()):
        if sides == {0, 1}:
            pieces.append(list(segment))
        else:
            pieces.extend([*segment, side] for side in sorted(sides))
    return pieces


def halves_of_stored(pieces: Iterable[list[int]]) -> set[Half]:
    """The halves of a stored (already canonical and valid) stroke."""
    halves: set[Half] = set()
    for piece in pieces:
        if len(piece) == 5:
            halves.add(tuple(piece))  # type: ignore[arg-type]
        else:
            halves.update({(*piece, 0), (*piece, 1)})  # type: ignore[arg-type]
    return halves


# --------------------------------------------------------------------------------------------------
# Simple drawings for bots and for the sample of legal actions
# --------------------------------------------------------------------------------------------------


def walk_stroke(lines: list[list[int]], rng: Rng, length: int) -> list[list[int]]:
    """A connected stroke of up to ``length`` unit segments along the side's dotted lines, sometimes
    ending half-way along a segment (as a pen lifted mid-line would)."""
    by_point: dict[tuple[int, int], list[Segment]] = {}
    for segment in lines:
        x1, y1, x2, y2 = segment
        by_point.setdefault((x1, y1), []).append(tuple(segment))  # type: ignore[arg-type]
        by_point.setdefault((x2, y2), []).append(tuple(segment))  # type: ignore[arg-type]
    first = tuple(rng.choice(lines))
    used = [first]
    end = (first[2], first[3])
    for _step in range(length - 1):
        options = [segment for segment in by_point.get(end, []) if segment not in used]
        if not options:
            break
        segment = rng.choice(options)
        used.append(segment)
        end = (segment[2], segment[3]) if (segment[0], segment[1]) == end else (segment[0], segment[1])
    pieces = [list(segment) for segment in used]
    if len(used) > 1 and rng.random() < 0.3:
        last = used[-1]
        # keep only the half of the last segment that joins the rest of the stroke
        joined_at_start = (last[0], last[1]) in {(s[0], s[1]) for s in used[:-1]} | {
            (s[2], s[3]) for s in used[:-1]
        }
        pieces[-1] = [*last, 0 if joined_at_start else 1]
    return pieces
