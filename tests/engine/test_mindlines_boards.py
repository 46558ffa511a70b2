"""Mind the Lines scribble boards: seeded dotted-line patterns, and strokes that snap to them.

The hypothesis tests compare the engine's stroke check with a small independent oracle: a stroke is
accepted exactly when every bit of it lies on the board side's dotted lines.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import core
from games.engine.core import IllegalAction
from games.engine.mindlines import MindTheLines, rules
from games.engine.mindlines import boards as mtl_boards

GAME = MindTheLines()
GRID = mtl_boards.GRID


def all_sides(seed: str) -> list[list[list[int]]]:
    return [side for board in mtl_boards.generate_boards(core.Rng(seed), rules.BOARD_COUNT) for side in board]


@pytest.mark.parametrize("seed", ["a", "b", "classroom-7", "x" * 40])
def test_every_side_of_every_board_has_its_own_pattern(seed):
    sides = all_sides(seed)
    assert len(sides) == 16
    patterns = {tuple(map(tuple, side)) for side in sides}
    assert len(patterns) == 16


def test_a_side_generated_twice_is_replaced_so_no_two_are_alike(monkeypatch):
    first, second, third, fourth = [[0, 0, 1, 0]], [[0, 0, 0, 1]], [[1, 1, 2, 2]], [[3, 3, 4, 4]]
    copies = iter([first, first, second, third, first, fourth])
    monkeypatch.setattr(mtl_boards, "generate_side", lambda rng: next(copies))
    boards = mtl_boards.generate_boards(core.Rng("dup"), 2)
    assert boards == [[[[0, 0, 1, 0]], [[0, 0, 0, 1]]], [[[1, 1, 2, 2]], [[3, 3, 4, 4]]]]


@pytest.mark.parametrize("seed", ["a", "b", "classroom-7"])
def test_sides_are_irregular_and_some_are_denser_than_others(seed):
    sides = all_sides(seed)
    counts = [len(side) for side in sides]
    assert min(counts) >= mtl_boards.MIN_SEGMENTS
    assert max(counts) - min(counts) >= 30  # sparse and dense sides in the same box
    for side in sides:
        kinds = {(x2 - x1, y2 - y1) for x1, y1, x2, y2 in side}
        assert len(kinds) >= 3  # not a regular grid of one kind of line


@pytest.mark.parametrize("seed", ["a", "b"])
def test_sides_are_made_of_canonical_unit_segments_on_the_grid(seed):
    for side in all_sides(seed):
        assert side == sorted(side) and len(side) == len({tuple(s) for s in side})
        for x1, y1, x2, y2 in side:
            assert min(x1, y1, x2, y2) >= 0 and max(x1, y1, x2, y2) < GRID
            assert (x1, y1) < (x2, y2) and max(abs(x2 - x1), abs(y2 - y1)) == 1


def test_boards_come_from_the_game_seed():
    one, same, other = (GAME.setup(_config(), seed, 0.0) for seed in ("s1", "s1", "s2"))
    assert one["board_seed"] == same["board_seed"] != other["board_seed"]
    assert mtl_boards.board_sides(one["board_seed"], 8) != mtl_boards.board_sides(other["board_seed"], 8)


def _config(players: int = 4) -> dict:
    concepts = [
        {"id": f"b-{i:03d}", "text": f"thing {i:03d}", "difficulty": "easy", "theme": "t"} for i in range(80)
    ]
    return {"players": [{"id": f"kid{i}"} for i in range(players)], "concepts": concepts}


# --------------------------------------------------------------------------------------------------
# Strokes against an independent oracle
# --------------------------------------------------------------------------------------------------


def oracle_accepts(pieces, lines: set) -> bool:
    """Written separately from the engine: every covered unit segment must be a dotted segment."""
    if not isinstance(pieces, list) or not 1 <= len(pieces) <= rules.MAX_PIECES_PER_STROKE:
        return False
    for piece in pieces:
        if not isinstance(piece, list) or len(piece) not in (4, 5):
            return False
        if any(type(value) is not int for value in piece):
            return False
        x1, y1, x2, y2 = piece[:4]
        if not all(0 <= value < GRID for value in (x1, y1, x2, y2)):
            return False
        dx, dy = x2 - x1, y2 - y1
        length = max(abs(dx), abs(dy))
        if length == 0 or (dx and dy and abs(dx) != abs(dy)):
            return False
        if len(piece) == 5 and (length != 1 or piece[4] not in (0, 1)):
            return False
        step_x, step_y = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
        for i in range(length):
            a = (x1 + i * step_x, y1 + i * step_y)
            b = (a[0] + step_x, a[1] + step_y)
            if (*min(a, b), *max(a, b)) not in lines:
                return False
    return True


def on_line_strategy(lines: list[list[int]]):
    """A dotted segment, or half of one, its ends named either way round."""

    def spellings(s):
        backwards = [s[2], s[3], s[0], s[1]]
        return st.sampled_from([s, backwards, [*s, 0], [*s, 1], [*backwards, 0]])

    return st.sampled_from(lines).flatmap(spellings)


def piece_strategy(lines: list[list[int]]):
    on_line = on_line_strategy(lines)
    coordinate = st.integers(-1, GRID)
    direction = st.sampled_from(mtl_boards.DIRECTIONS)
    straight = st.tuples(coordinate, coordinate, direction, st.integers(1, 4)).map(
        lambda t: [t[0], t[1], t[0] + t[2][0] * t[3], t[1] + t[2][1] * t[3]]
    )
    anything = st.lists(
        st.one_of(st.integers(-3, 15), st.booleans(), st.floats(0, 3), st.text(max_size=3)),
        min_size=0,
        max_size=6,
    )
    return st.one_of(on_line, on_line, straight, anything)


SAMPLE_STATE = GAME.setup(_config(), "stroke-checks", 0.0)
for _kid in SAMPLE_STATE["players"]:
    SAMPLE_STATE, _ = GAME.apply(SAMPLE_STATE, _kid, {"type": "ready"}, 1.0)
_DRAWING = SAMPLE_STATE["drawings"]["kid0"]
SAMPLE_LINES = mtl_boards.side_lines(SAMPLE_STATE["board_seed"], 8, _DRAWING["board"], _DRAWING["side"])


@settings(max_examples=400, deadline=None)
@given(
    pieces=st.one_of(
        st.lists(on_line_strategy(SAMPLE_LINES), min_size=1, max_size=8),
        st.lists(piece_strategy(SAMPLE_LINES), min_size=0, max_size=8),
    )
)
def test_a_stroke_is_accepted_exactly_when_it_lies_on_the_dotted_lines(pieces):
    lines = {tuple(segment) for segment in SAMPLE_LINES}
    action = {"type": "stroke", "segments": pieces}
    try:
        after, _events = GAME.apply(SAMPLE_STATE, "kid0", action, 2.0)
    except IllegalAction:
        assert not oracle_accepts(pieces, lines)
        return
    assert oracle_accepts(pieces, lines)
    stored = after["drawings"]["kid0"]["strokes"][-1]
    assert stored and all(tuple(piece[:4]) in lines for piece in stored)


@settings(max_examples=200, deadline=None)
@given(pieces=st.lists(piece_strategy(SAMPLE_LINES), min_size=1, max_size=8))
def test_stored_strokes_cover_exactly_what_was_drawn(pieces):
    try:
        halves = mtl_boards.parse_pieces(pieces, rules.MAX_PIECES_PER_STROKE)
    except IllegalAction:
        return
    stored = mtl_boards.pieces_of(halves)
    assert mtl_boards.halves_of_stored(stored) == halves
    assert mtl_boards.parse_pieces(stored, 10 * rules.MAX_PIECES_PER_STROKE) == halves
    assert mtl_boards.pieces_of(mtl_boards.halves_of_stored(stored)) == stored


@settings(max_examples=100, deadline=None)
@given(seed=st.text(min_size=1, max_size=12), length=st.integers(1, 8))
def test_bot_walks_stay_on_the_lines_and_are_connected(seed, length):
    lines = SAMPLE_LINES
    stroke = mtl_boards.walk_stroke(lines, core.Rng(seed), length)
    assert oracle_accepts(stroke, {tuple(s) for s in lines})
    points = [{(p[0], p[1]), (p[2], p[3])} for p in stroke]
    for i, j in itertools.pairwise(range(len(points))):
        assert points[j] & set().union(*points[: i + 1])
