"""The twenty questions on the pad, the names, and how a board of 24 faces is drawn from the seed.

A face is a plain dict::

    {"id": "K", "name": "Kofi", "features": ["red_hair", "glasses", ...], "look": {...},
     "description": "Kofi: red hair, glasses, ..."}

``id`` is the first letter of the name (the 24 names of a board start with 24 different letters, so a
student can name a face by pressing its letter). ``features`` lists the yes-answers in pad order;
``look`` holds drawing-only choices (skin tone, hat style ...) that no question asks about.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..core import Rng, _

BOARD_SIZE = 24


@dataclass(frozen=True)
class Feature:
    key: str
    label: str  # the button on the pad
    question: str  # the question as a sentence
    phrase: str  # the words in a face's description


# The pad, in the order it is shown. Hair colours are one category (a face has at most one of them;
# brown hair is "none of the four"); every other feature is a free yes/no. Skin tone and gender are
# deliberately not questions: describing people in class should not be about either.
FEATURES: tuple[Feature, ...] = (
    Feature("red_hair", _("red hair"), _("Does your person have red hair?"), _("red hair")),
    Feature("blond_hair", _("blond hair"), _("Does your person have blond hair?"), _("blond hair")),
    Feature("black_hair", _("black hair"), _("Does your person have black hair?"), _("black hair")),
    Feature("grey_hair", _("grey hair"), _("Does your person have grey hair?"), _("grey hair")),
    Feature("long_hair", _("long hair"), _("Does your person have long hair?"), _("long hair")),
    Feature("curly_hair", _("curly hair"), _("Does your person have curly hair?"), _("curly hair")),
    Feature("fringe", _("a fringe"), _("Does your person have a fringe?"), _("a fringe")),
    Feature(
        "thick_eyebrows", _("thick eyebrows"), _("Does your person have thick eyebrows?"), _("thick eyebrows")
    ),
    Feature("blue_eyes", _("blue eyes"), _("Does your person have blue eyes?"), _("blue eyes")),
    Feature("glasses", _("glasses"), _("Does your person wear glasses?"), _("glasses")),
    Feature("hat", _("a hat"), _("Is your person wearing a hat?"), _("a hat")),
    Feature("beard", _("a beard"), _("Does your person have a beard?"), _("a beard")),
    Feature("moustache", _("a moustache"), _("Does your person have a moustache?"), _("a moustache")),
    Feature("freckles", _("freckles"), _("Does your person have freckles?"), _("freckles")),
    Feature("rosy_cheeks", _("rosy cheeks"), _("Does your person have rosy cheeks?"), _("rosy cheeks")),
    Feature("big_smile", _("a big smile"), _("Does your person have a big smile?"), _("a big smile")),
    Feature("earrings", _("earrings"), _("Is your person wearing earrings?"), _("earrings")),
    Feature("necklace", _("a necklace"), _("Is your person wearing a necklace?"), _("a necklace")),
    Feature("scarf", _("a scarf"), _("Is your person wearing a scarf?"), _("a scarf")),
    Feature(
        "striped_top", _("a striped top"), _("Is your person wearing a striped top?"), _("a striped top")
    ),
)
FEATURE_KEYS: tuple[str, ...] = tuple(feature.key for feature in FEATURES)
FEATURE_BY_KEY: dict[str, Feature] = {feature.key: feature for feature in FEATURES}
HAIR_COLOURS: tuple[str, ...] = ("red_hair", "blond_hair", "black_hair", "grey_hair")
FREE_FEATURES: tuple[str, ...] = tuple(key for key in FEATURE_KEYS if key not in HAIR_COLOURS)
FACIAL_HAIR = ("beard", "moustache")
BROWN_HAIR_PHRASE = _("brown hair")

# How many of the 24 faces have a feature on a fresh board: never fewer than 5 nor more than 19, so
# every question rules somebody out. The ranges give each board some near-halving questions and some
# bold ones, and keep a face to about six features (a busier face is hard to read on a tablet).
HAIR_COLOUR_COUNT = (5, 7)
FREE_FEATURE_COUNT: dict[str, tuple[int, int]] = {
    "long_hair": (7, 14),
    "curly_hair": (7, 14),
    "fringe": (6, 12),
    "thick_eyebrows": (6, 12),
    "blue_eyes": (6, 12),
    "glasses": (6, 11),
    "hat": (6, 11),
    "beard": (5, 8),
    "moustache": (5, 8),
    "freckles": (6, 12),
    "rosy_cheeks": (6, 12),
    "big_smile": (8, 16),
    "earrings": (6, 12),
    "necklace": (5, 10),
    "scarf": (5, 10),
    "striped_top": (6, 12),
}
MIN_ON_BOARD, MAX_ON_BOARD = 5, BOARD_SIZE - 5

# Names by first letter: (names for faces with a beard or moustache, other names).
NAMES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "A": (("Amir", "Arjun"), ("Ava", "Aiko")),
    "B": (("Ben", "Bruno"), ("Bea", "Bisi")),
    "C": (("Carlos", "Chen"), ("Chloe", "Carmen")),
    "D": (("Dev", "Diego"), ("Dana", "Dara")),
    "E": (("Emeka", "Elias"), ("Ella", "Esme")),
    "F": (("Finn", "Farid"), ("Fatima", "Freya")),
    "G": (("Gabriel", "Gus"), ("Grace", "Gia")),
    "H": (("Hugo", "Hamid"), ("Hana", "Hope")),
    "I": (("Ivan", "Idris"), ("Iris", "Ines")),
    "J": (("Jonas", "Jamal"), ("Jada", "June")),
    "K": (("Kofi", "Kenji"), ("Kira", "Kemi")),
    "L": (("Leo", "Luca"), ("Lina", "Lola")),
    "M": (("Mateo", "Malik"), ("Mia", "Maya")),
    "N": (("Noah", "Nikhil"), ("Nia", "Nora")),
    "O": (("Omar", "Oscar"), ("Olga", "Olivia")),
    "P": (("Pablo", "Piotr"), ("Priya", "Pia")),
    "Q": (("Quentin", "Qasim"), ("Quinn", "Qi")),
    "R": (("Ravi", "Rafael"), ("Rosa", "Ruby")),
    "S": (("Sami", "Sven"), ("Sofia", "Suki")),
    "T": (("Tom", "Tariq"), ("Tara", "Tess")),
    "U": (("Umar", "Ugo"), ("Uma", "Una")),
    "V": (("Viktor", "Vijay"), ("Vera", "Valentina")),
    "W": (("Will", "Wei"), ("Wen", "Wanda")),
    "X": (("Xavi", "Xander"), ("Xena", "Ximena")),
    "Y": (("Yusuf", "Yuri"), ("Yuki", "Yara")),
    "Z": (("Zane", "Zaid"), ("Zara", "Zoe")),
}

# Drawing-only choices: how many of each the art module knows.
LOOK_CHOICES: dict[str, int] = {
    "skin": 6,
    "background": 6,
    "shirt": 8,
    "hair_variant": 2,
    "hat_style": 2,
    "hat_colour": 5,
    "glasses_style": 2,
    "scarf_colour": 5,
}


def describe(face: dict[str, Any], translate: Callable[[str], str] = lambda text: text) -> str:
    """The screen-reader text, e.g. "Ava: red hair, long hair, glasses, a hat".

    ``translate`` lets the runtime build it in the student's language from the same phrases."""
    features = set(face["features"])
    phrases = [translate(FEATURE_BY_KEY[key].phrase) for key in FEATURE_KEYS if key in features]
    if not features.intersection(HAIR_COLOURS):
        phrases.insert(0, translate(BROWN_HAIR_PHRASE))
    return f"{face['name']}: {', '.join(phrases)}"


def split(faces: Iterable[dict[str, Any]], question: str) -> tuple[list[str], list[str]]:
    """The ids of the faces that answer yes and no to ``question``."""
    yes, no = [], []
    for face in faces:
        (yes if question in face["features"] else no).append(face["id"])
    return yes, no


def _hair_colours(rng: Rng) -> list[str | None]:
    """One hair colour (None = brown) per face, each of the four colours on 5-7 faces."""
    while True:
        counts = [rng.randint(*HAIR_COLOUR_COUNT) for _colour in HAIR_COLOURS]
        if sum(counts) <= BOARD_SIZE:
            break
    colours: list[str | None] = []
    for colour, count in zip(HAIR_COLOURS, counts, strict=True):
        colours += [colour] * count
    colours += [None] * (BOARD_SIZE - len(colours))
    return rng.shuffled(colours)


def _feature_sets(rng: Rng) -> list[set[str]]:
    """24 distinct feature combinations (redrawn in the rare case two faces coincide)."""
    while True:
        sets: list[set[str]] = [set() if colour is None else {colour} for colour in _hair_colours(rng)]
        for key in FREE_FEATURES:
            for index in rng.sample(range(BOARD_SIZE), rng.randint(*FREE_FEATURE_COUNT[key])):
                sets[index].add(key)
        if len({frozenset(features) for features in sets}) == BOARD_SIZE:
            return sets


def _look(rng: Rng) -> dict[str, int]:
    return {name: rng.below(count) for name, count in LOOK_CHOICES.items()}


def generate_board(rng: Rng) -> list[dict[str, Any]]:
    """A fresh board of 24 faces drawn from ``rng``, sorted by name (= by id)."""
    feature_sets = _feature_sets(rng)
    letters = rng.sample(sorted(NAMES), BOARD_SIZE)
    faces = []
    for features, letter in zip(feature_sets, letters, strict=True):
        bearded_names, other_names = NAMES[letter]
        pool = bearded_names if features.intersection(FACIAL_HAIR) else bearded_names + other_names
        face = {
            "id": letter,
            "name": rng.choice(pool),
            "features": [key for key in FEATURE_KEYS if key in features],
            "look": _look(rng),
        }
        face["description"] = describe(face)
        faces.append(face)
    return sorted(faces, key=lambda face: face["id"])


def board_problems(faces: list[dict[str, Any]]) -> list[str]:
    """Why a board breaks the generation rules (empty when it is a good board)."""
    problems = []
    if len(faces) != BOARD_SIZE:
        problems.append(f"{len(faces)} faces, not {BOARD_SIZE}")
    if len({frozenset(face["features"]) for face in faces}) != len(faces):
        problems.append("two faces have the same features")
    if len({face["name"][0] for face in faces}) != len(faces):
        problems.append("two names start with the same letter")
    if any(face["id"] != face["name"][0] for face in faces):
        problems.append("a face id is not its name's first letter")
    for key in FEATURE_KEYS:
        yes, _no = split(faces, key)
        if not MIN_ON_BOARD <= len(yes) <= MAX_ON_BOARD:
            problems.append(f"{key} is on {len(yes)} faces")
    for face in faces:
        if len(set(face["features"]).intersection(HAIR_COLOURS)) > 1:
            problems.append(f"{face['name']} has two hair colours")
    return problems
