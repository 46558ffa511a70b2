"""The second board: 24 friendly monsters and their own pad of twenty questions.

Every question is something a child sees at a glance on a tablet: the body colour, how many eyes, the
pattern, and parts and props drawn big (horns, antennae, wings, a tail, a flower ...). Body colour, eyes
and pattern are categories (a monster has at most one of each; a yellow, two-eyed, plain monster has none).
Drawn by :func:`.art.monster_svg` and identically by static/js/games/faces/art.js.
"""

from __future__ import annotations

from ..core import Rng, _
from .pad import Category, Feature, Pad


def _feature(key: str, label: str, question: str) -> Feature:
    return Feature(key, label, question, label)


FEATURES: tuple[Feature, ...] = (
    _feature("green_body", _("green body"), _("Is your monster green?")),
    _feature("blue_body", _("blue body"), _("Is your monster blue?")),
    _feature("purple_body", _("purple body"), _("Is your monster purple?")),
    _feature("orange_body", _("orange body"), _("Is your monster orange?")),
    _feature("one_eye", _("one eye"), _("Does your monster have one eye?")),
    _feature("three_eyes", _("three eyes"), _("Does your monster have three eyes?")),
    _feature("spots", _("spots"), _("Does your monster have spots?")),
    _feature("stripes", _("stripes"), _("Does your monster have stripes?")),
    _feature("horns", _("horns"), _("Does your monster have horns?")),
    _feature("antennae", _("antennae"), _("Does your monster have antennae?")),
    _feature("tuft", _("a tuft of hair"), _("Does your monster have a tuft of hair?")),
    _feature("pointy_ears", _("pointy ears"), _("Does your monster have pointy ears?")),
    _feature("wings", _("wings"), _("Does your monster have wings?")),
    _feature("tail", _("a tail"), _("Does your monster have a tail?")),
    _feature("fangs", _("pointy teeth"), _("Does your monster have pointy teeth?")),
    _feature("tongue", _("tongue out"), _("Is your monster sticking its tongue out?")),
    _feature("big_nose", _("a big nose"), _("Does your monster have a big round nose?")),
    _feature("bow_tie", _("a bow tie"), _("Is your monster wearing a bow tie?")),
    _feature("waving", _("waving"), _("Is your monster waving?")),
    _feature("flower", _("a flower"), _("Is your monster holding a flower?")),
)
BODY_COLOURS = ("green_body", "blue_body", "purple_body", "orange_body")
EYES = ("one_eye", "three_eyes")
PATTERNS = ("spots", "stripes")
CATEGORIES = (
    Category(BODY_COLOURS, (5, 6), _("yellow body")),
    Category(EYES, (5, 8), _("two eyes")),
    Category(PATTERNS, (5, 9)),
)
# On how many of the 24 monsters each other question is: 5-19 always, a few near-halving ones, and about
# four of these on a monster, so a tile stays easy to read.
FREE_COUNTS: dict[str, tuple[int, int]] = {
    "horns": (7, 13),
    "antennae": (6, 11),
    "tuft": (6, 11),
    "pointy_ears": (6, 12),
    "wings": (6, 11),
    "tail": (7, 13),
    "fangs": (6, 12),
    "tongue": (5, 9),
    "big_nose": (6, 12),
    "bow_tie": (5, 10),
    "waving": (6, 11),
    "flower": (5, 9),
}

# Made-up monster names, two for each letter.
NAMES: dict[str, tuple[str, str]] = {
    "A": ("Abbo", "Azzy"),
    "B": ("Blip", "Bonk"),
    "C": ("Crumble", "Cosmo"),
    "D": ("Dibble", "Dozy"),
    "E": ("Echo", "Eggbert"),
    "F": ("Fizz", "Flump"),
    "G": ("Gloop", "Gizmo"),
    "H": ("Hobble", "Humbug"),
    "I": ("Inky", "Izzle"),
    "J": ("Jiggle", "Jumbo"),
    "K": ("Kazoo", "Kip"),
    "L": ("Lumpy", "Loop"),
    "M": ("Mungo", "Mossy"),
    "N": ("Noodle", "Nibs"),
    "O": ("Oggy", "Ozzle"),
    "P": ("Pogo", "Puddle"),
    "Q": ("Quibble", "Quark"),
    "R": ("Rumble", "Ripple"),
    "S": ("Squidge", "Sprout"),
    "T": ("Tumble", "Twiggy"),
    "U": ("Umble", "Ula"),
    "V": ("Vroom", "Velvet"),
    "W": ("Wobble", "Wiggle"),
    "X": ("Xylo", "Xippy"),
    "Y": ("Yodel", "Yumyum"),
    "Z": ("Zoink", "Zuzu"),
}

# Drawing-only choices: how many of each the art module knows.
LOOK_CHOICES: dict[str, int] = {"background": 6, "shape": 2, "accent": 4, "mouth": 2}


def _name(rng: Rng, letter: str, features: set[str]) -> str:
    return rng.choice(NAMES[letter])


MONSTERS = Pad(
    kind="monsters",
    features=FEATURES,
    categories=CATEGORIES,
    free_counts=FREE_COUNTS,
    choose_name=_name,
    letters=tuple(NAMES),
    look_choices=LOOK_CHOICES,
    face_kind="monster",
)
