"""The Line-it deck at each numeracy level: 100 number cards (25 per colour) with distinct exact values,
plus six Bet cards worth 3, 3, 4, 4, 5, 5.

Every level has exactly 100 *distinct* values, so a card is always either higher or lower than another and
"up or down" is always decidable. How each level gets there:

* Level 1 (1 to 30): the 30 whole numbers, the 29 halves (1½ ... 29½) and 41 quarters (¼ / ¾) spread evenly
  over the range. 100 distinct values between 1 and 30 cannot all be whole numbers; halves and quarters are
  the first fractions children meet, so they are the gentlest way to fill the gaps.
* Level 2 (1 to 60): the 60 whole numbers and 40 halves spread evenly over the range.
* Level 3: the standard deck, the whole numbers 1 to 100.
* Level 4 (negatives and decimals): the whole numbers -24 to 25 and one decimal (tenths) inside each unit
  interval from -25 to 25, so -2.7 sits next to -3 and -2.
* Level 5 (fractions and powers): a fixed mix of powers (2³, 10⁻¹, (-2)³), fractions (3/4, -5/2), decimals
  (0.7, -1.5) and whole numbers; where two faces share a value only the first is kept.

Colours: sort the 100 values; each block of four neighbours holds one card of each colour, in an order that
rotates from block to block. That gives exactly 25 cards per colour spread over the whole range.

Card ids (``c001`` ... ``c106``) are fixed per level and follow the sorted values, so an id identifies a card:
views therefore never show the id of a hidden card (another player's hand, the deck).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

#: colour -> its symbol (the symbol keeps the game readable for colour-blind players).
COLOURS: dict[str, str] = {"red": "heart", "green": "leaf", "blue": "diamond", "yellow": "star"}
COLOUR_ORDER: tuple[str, ...] = tuple(COLOURS)
BET_VALUES: tuple[int, ...] = (3, 3, 4, 4, 5, 5)
LEVELS: tuple[int, ...] = (1, 2, 3, 4, 5)
NUMBER_CARDS = 100

_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_QUARTER_GLYPHS = {Fraction(1, 4): "¼", Fraction(1, 2): "½", Fraction(3, 4): "¾"}


def decimal_face(value: Fraction) -> str:
    """``Fraction(-47, 2)`` -> ``"-23.5"``; only for values with a terminating decimal expansion."""
    sign = "-" if value < 0 else ""
    whole, rest = divmod(abs(value), 1)
    digits = ""
    while rest:
        rest *= 10
        digit, rest = divmod(rest, 1)
        digits += str(int(digit))
    return f"{sign}{int(whole)}" + (f".{digits}" if digits else "")


def glyph_face(value: Fraction) -> str:
    """``Fraction(29, 4)`` -> ``"7¼"`` (levels 1 and 2 write halves and quarters the way children do)."""
    whole, rest = divmod(value, 1)
    return str(int(whole)) + _QUARTER_GLYPHS.get(rest, "")


def power_face(base: int | str, exponent: int) -> str:
    return f"{base}{str(exponent).translate(_SUPERSCRIPT)}"


def _spread(candidates: list[Fraction], count: int) -> list[Fraction]:
    """``count`` items of ``candidates`` spread evenly over the list (deterministic)."""
    step = len(candidates) / count
    return [candidates[int(i * step)] for i in range(count)]


def _level_1() -> list[tuple[str, Fraction]]:
    wholes = [Fraction(n) for n in range(1, 31)]
    halves = [Fraction(2 * n + 1, 2) for n in range(1, 30)]
    quarters = [Fraction(4 * n + q, 4) for n in range(1, 30) for q in (1, 3)]
    values = wholes + halves + _spread(quarters, 41)
    return [(glyph_face(v), v) for v in values]


def _level_2() -> list[tuple[str, Fraction]]:
    wholes = [Fraction(n) for n in range(1, 61)]
    halves = [Fraction(2 * n + 1, 2) for n in range(1, 60)]
    return [(glyph_face(v), v) for v in wholes + _spread(halves, 40)]


def _level_3() -> list[tuple[str, Fraction]]:
    return [(str(n), Fraction(n)) for n in range(1, 101)]


_LEVEL_4_TENTHS = (3, 7, 5, 1, 9, 2, 8, 4, 6)


def _level_4() -> list[tuple[str, Fraction]]:
    wholes = [Fraction(n) for n in range(-24, 26)]
    decimals = [Fraction(10 * n + _LEVEL_4_TENTHS[k % 9], 10) for k, n in enumerate(range(-25, 25))]
    return [(decimal_face(v), v) for v in wholes + decimals]


# Level 5: (face, value) candidates by kind, in priority order; a value already taken keeps its first face.
_POWERS = [
    (power_face(2, 3), Fraction(8)),
    (power_face(2, 4), Fraction(16)),
    (power_face(2, 5), Fraction(32)),
    (power_face(2, 6), Fraction(64)),
    (power_face(3, 2), Fraction(9)),
    (power_face(3, 3), Fraction(27)),
    (power_face(3, 4), Fraction(81)),
    (power_face(5, 2), Fraction(25)),
    (power_face(6, 2), Fraction(36)),
    (power_face(7, 2), Fraction(49)),
    (power_face(10, 2), Fraction(100)),
    (power_face(2, 0), Fraction(1)),
    (power_face(2, -1), Fraction(1, 2)),
    (power_face(2, -2), Fraction(1, 4)),
    (power_face(10, -1), Fraction(1, 10)),
    (power_face("(-2)", 3), Fraction(-8)),
    (power_face("(-2)", 2), Fraction(4)),
    (power_face("(-1)", 5), Fraction(-1)),
    (power_face("1.5", 2), Fraction(9, 4)),
    (power_face("(-3)", 3), Fraction(-27)),
    # Spares, used only if an earlier kind runs short.
    (power_face(2, 7), Fraction(128)),
    (power_face(5, 3), Fraction(125)),
    (power_face(11, 2), Fraction(121)),
    (power_face(3, -1), Fraction(1, 3)),
    (power_face(12, 2), Fraction(144)),
]
_FRACTIONS = [
    (f"{n}/{d}", Fraction(n, d))
    for n, d in [
        (3, 4),
        (2, 3),
        (1, 5),
        (2, 5),
        (3, 5),
        (4, 5),
        (1, 6),
        (5, 6),
        (1, 8),
        (3, 8),
        (5, 8),
        (7, 8),
        (3, 2),
        (5, 2),
        (7, 2),
        (4, 3),
        (5, 3),
        (7, 4),
        (11, 4),
        (6, 5),
        (9, 5),
        (13, 8),
        (7, 3),
        (10, 3),
        (-1, 2),
        (-3, 4),
        (-2, 3),
        (-5, 2),
        (-7, 4),
        (-1, 8),
        (17, 4),
        (22, 7),
        (100, 3),
        (9, 10),
    ]
]
_DECIMALS = [
    (decimal_face(v), v)
    for v in (
        Fraction(s)
        for s in (
            "0.7",
            "0.3",
            "0.05",
            "0.45",
            "1.2",
            "2.4",
            "3.3",
            "3.14",
            "4.5",
            "5.5",
            "6.25",
            "7.5",
            "8.8",
            "0.01",
            "-0.2",
            "-1.5",
            "-2.25",
            "-3.6",
            "-0.05",
            "12.5",
            "0.66",
            "0.33",
            "1.05",
            "10.1",
            "15.5",
            "20.2",
            "40.4",
            "99.9",
            "0.9",
            "1.75",
        )
    )
]
_WHOLES = [
    (str(n), Fraction(n))
    for n in (
        -10,
        -5,
        -3,
        -2,
        0,
        2,
        3,
        5,
        6,
        7,
        10,
        11,
        12,
        13,
        15,
        17,
        20,
        24,
        30,
        33,
        40,
        45,
        50,
        60,
        70,
        75,
        90,
        99,
        14,
        18,
        19,
        21,
        22,
        23,
        26,
        28,
        29,
        31,
        35,
        42,
        55,
        65,
        80,
        85,
        95,
        -4,
        -6,
        -7,
        -9,
        -12,
    )
]
_LEVEL_5_QUOTAS = ((_POWERS, 20), (_FRACTIONS, 30), (_DECIMALS, 25), (_WHOLES, NUMBER_CARDS))


def _level_5() -> list[tuple[str, Fraction]]:
    chosen: list[tuple[str, Fraction]] = []
    taken: set[Fraction] = set()
    for candidates, quota in _LEVEL_5_QUOTAS:
        added = 0
        for face, value in candidates:
            if len(chosen) == NUMBER_CARDS or added == quota:
                break
            if value not in taken:
                chosen.append((face, value))
                taken.add(value)
                added += 1
    return chosen


_BUILDERS = {1: _level_1, 2: _level_2, 3: _level_3, 4: _level_4, 5: _level_5}


def value_text(value: Fraction) -> str:
    """How an exact value is stored in the state: ``"3/4"``, ``"-7/10"``, ``"8"``."""
    return str(value)


def parse_value(text: str) -> Fraction:
    return Fraction(text)


@cache
def cards_for(level: int) -> dict[str, dict[str, object]]:
    """All 106 cards of a level: id -> ``{"kind", "colour", "face", "value"[, "rank"]}``.

    Shared and cached (the catalogue is the same for every game at a level, so it is not copied into each
    state): treat it as read-only; :func:`catalogue` gives a private copy. ``rank`` (0-99, number cards
    only) is the card's place in the sorted deck: bots reason in ranks so one strategy fits every level.
    """
    if level not in _BUILDERS:
        raise ValueError(f"level must be one of {LEVELS}, not {level!r}")
    numbers = sorted(_BUILDERS[level](), key=lambda item: item[1])
    if len(numbers) != NUMBER_CARDS or len({v for _f, v in numbers}) != NUMBER_CARDS:
        raise AssertionError(f"level {level} deck must hold {NUMBER_CARDS} distinct values")
    cards: dict[str, dict[str, object]] = {}
    for index, (face, value) in enumerate(numbers):
        colour = COLOUR_ORDER[(index + index // 4) % 4]
        cards[f"c{index + 1:03d}"] = {
            "kind": "number",
            "colour": colour,
            "face": face,
            "value": value_text(value),
            "rank": index,
        }
    for offset, bet in enumerate(BET_VALUES):
        cards[f"c{NUMBER_CARDS + offset + 1:03d}"] = {
            "kind": "bet",
            "colour": None,
            "face": f"Bet +{bet}",
            "value": str(bet),
        }
    return cards


def catalogue(level: int) -> dict[str, dict[str, object]]:
    """A private copy of :func:`cards_for`."""
    return {card_id: dict(card) for card_id, card in cards_for(level).items()}


@cache
def exact_values(level: int) -> dict[str, Fraction]:
    """id -> exact value (Fraction) of every card of a level (Bet cards: their bet)."""
    return {card_id: parse_value(str(card["value"])) for card_id, card in cards_for(level).items()}
