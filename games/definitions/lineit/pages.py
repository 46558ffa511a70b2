"""Line-it's own pages (mounted at /games/lineit/), beyond the shared live screens.

* ``cards/?level=N``: every card of a level's deck, in order, with its face and exact value, so a teacher can
  see what a level practises before choosing it (linked from the teacher guide). The deck's *contents* are
  public (the rulebook lists them); only a table's deal order is secret, and this page knows nothing of any
  table.
"""

from __future__ import annotations

from fractions import Fraction

from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from games.engine.lineit.cards import COLOURS, LEVELS, cards_for

DEFAULT_LEVEL = 3
SUIT_NAMES = {
    "red": gettext_lazy("red heart"),
    "green": gettext_lazy("green leaf"),
    "blue": gettext_lazy("blue diamond"),
    "yellow": gettext_lazy("yellow star"),
}
#: What each level is for (the teacher guide's table, in one line).
LEVEL_NOTES = {
    1: gettext_lazy("1 to 30: whole numbers, halves and quarters"),
    2: gettext_lazy("1 to 60: whole numbers and halves"),
    3: gettext_lazy("1 to 100: whole numbers (the original game)"),
    4: gettext_lazy("−25 to 25: negative numbers and decimals"),
    5: gettext_lazy("fractions, decimals and powers mixed"),
}


def exact_decimal(value: Fraction) -> str | None:
    """``Fraction(15, 2)`` -> ``"7.5"``; None when the decimal does not terminate (``1/3``)."""
    rest = value.denominator
    for prime in (2, 5):
        while rest % prime == 0:
            rest //= prime
    if rest != 1:
        return None
    sign = "-" if value < 0 else ""
    whole, remainder = divmod(abs(value), 1)
    digits = ""
    while remainder:
        remainder *= 10
        digit, remainder = divmod(remainder, 1)
        digits += str(int(digit))
    return f"{sign}{int(whole)}" + (f".{digits}" if digits else "")


def pretty(text: str) -> str:
    """Real minus signs, as on the cards on screen."""
    return text.replace("-", "\u2212")


def value_note(face: str, value: str) -> str | None:
    """What to print under a face: its exact value as a decimal (or a fraction), unless the face says it."""
    exact = Fraction(value)
    shown = exact_decimal(exact) or str(exact)
    return None if shown == face else pretty(shown)


def deck_cards(level: int) -> list[dict]:
    """The level's cards for display: number cards in increasing order, then the Bet cards."""
    cards = cards_for(level)
    numbers = [card for card in cards.values() if card["kind"] == "number"]
    numbers.sort(key=lambda card: Fraction(str(card["value"])))
    shown = []
    for card in numbers:
        colour = str(card["colour"])
        symbol = COLOURS[colour]
        face = str(card["face"])
        shown.append(
            {
                "colour": colour,
                "symbol": symbol,
                "face": pretty(face),
                "value": value_note(face, str(card["value"])),
                "label": _("%(face)s, %(suit)s, value %(value)s")
                % {"face": pretty(face), "suit": SUIT_NAMES[colour], "value": pretty(str(card["value"]))},
            }
        )
    for card in cards.values():
        if card["kind"] == "bet":
            shown.append(
                {
                    "colour": "bet",
                    "symbol": None,
                    "face": f"+{card['value']}",
                    "value": None,
                    "label": _("Bet card +%(bet)s") % {"bet": card["value"]},
                }
            )
    return shown


@require_GET
def cards(request):
    try:
        level = int(request.GET.get("level", DEFAULT_LEVEL))
    except (TypeError, ValueError):
        level = DEFAULT_LEVEL
    if level not in LEVELS:
        level = DEFAULT_LEVEL
    deck = cards_for(level).values()
    numbers = sorted(Fraction(card["value"]) for card in deck if card["kind"] == "number")
    context = {
        "level": level,
        "levels": [{"number": n, "note": LEVEL_NOTES[n]} for n in LEVELS],
        "note": LEVEL_NOTES[level],
        "cards": deck_cards(level),
        "lowest": pretty(exact_decimal(numbers[0]) or str(numbers[0])),
        "highest": pretty(exact_decimal(numbers[-1]) or str(numbers[-1])),
    }
    return render(request, "games/lineit/cards.html", context)


urlpatterns: list = [path("cards/", cards, name="lineit-cards")]
