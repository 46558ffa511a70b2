"""The twenty questions on the pad, the names, and how a board of 24 faces is drawn from the seed.

A face is a plain dict::

    {"id": "K", "name": "Kofi", "features": ["red_hair", "glasses", ...], "look": {...},
     "description": "Kofi: red hair, glasses, ..."}

``id`` is the first letter of the name (the 24 names of a board start with 24 different letters, so a
student can name a face by pressing its letter). ``features`` lists the yes-answers in pad order;
``look`` holds drawing-only choices (skin tone, hat style ...) that no question asks about.

This is the people board (the default) and the registry of boards (:data:`PADS`: people here, monsters in
:mod:`.monsters`); the machinery they share is in :mod:`.pad`. The functions at the bottom answer for a
board in play, whichever kind it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core import IllegalAction, Rng, State, _
from .monsters import MONSTERS
from .pad import (
    BOARD_SIZE,
    MAX_ON_BOARD,
    MIN_ON_BOARD,
    Category,
    Feature,
    Pad,
    describe_with,
    generate_with,
    problems_with,
    split,
)

__all__ = ["BOARD_SIZE", "MAX_ON_BOARD", "MIN_ON_BOARD", "Feature", "Pad", "split"]

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


def _person_name(rng: Rng, letter: str, features: set[str]) -> str:
    bearded_names, other_names = NAMES[letter]
    return rng.choice(bearded_names if features.intersection(FACIAL_HAIR) else bearded_names + other_names)


PEOPLE = Pad(
    kind="people",
    features=FEATURES,
    categories=(Category(HAIR_COLOURS, HAIR_COLOUR_COUNT, BROWN_HAIR_PHRASE),),
    free_counts=FREE_FEATURE_COUNT,
    choose_name=_person_name,
    letters=tuple(NAMES),
    look_choices=LOOK_CHOICES,
)

# The boards a teacher can choose between (the ``board`` setting), the default first.
PADS: dict[str, Pad] = {PEOPLE.kind: PEOPLE, MONSTERS.kind: MONSTERS}
DEFAULT_BOARD = PEOPLE.kind
FACE_KINDS: dict[str | None, Pad] = {pad.face_kind: pad for pad in PADS.values()}
# Every question of every board, for checking a question key before the board is known.
ANY_FEATURE_BY_KEY: dict[str, Feature] = {key: f for pad in PADS.values() for key, f in pad.by_key.items()}


def pad_of_face(face: dict[str, Any]) -> Pad:
    return FACE_KINDS.get(face.get("kind"), PEOPLE)


def describe(face: dict[str, Any], translate: Callable[[str], str] = lambda text: text) -> str:
    """The screen-reader text, e.g. "Ava: red hair, long hair, glasses, a hat".

    ``translate`` lets the runtime build it in the student's language from the same phrases."""
    return describe_with(pad_of_face(face), face, translate)


def generate_board(rng: Rng, kind: str = DEFAULT_BOARD) -> list[dict[str, Any]]:
    """A fresh board of 24 faces of ``kind`` drawn from ``rng``, sorted by name (= by id)."""
    return generate_with(PADS[kind], rng)


def board_problems(faces: list[dict[str, Any]], kind: str | None = None) -> list[str]:
    """Why a board breaks the generation rules (empty when it is a good board); ``kind`` defaults to
    the kind of its first face."""
    pad = PADS[kind] if kind is not None else (pad_of_face(faces[0]) if faces else PEOPLE)
    return problems_with(pad, faces)


# ----------------------------------------------------------------------------------------------
# A board in play: the faces still up and the questions that would split them (the rules and the
# bots both ask; they live here, below both, so each imports them without importing the other)
# ----------------------------------------------------------------------------------------------


def pad_of(state: State) -> Pad:
    """The pad of the board in play (a match set up before there was a choice is a people match)."""
    return PADS[state["settings"].get("board", DEFAULT_BOARD)]


def current_round(state: State) -> dict[str, Any]:
    return state["rounds"][state["round"]]


def faces_left(state: State, player: str) -> list[dict[str, Any]]:
    left = set(state["left"][player])
    return [face for face in current_round(state)["board"] if face["id"] in left]


def refusal_of(state: State, player: str, question: str) -> IllegalAction | None:
    """Why ``player`` may not ask ``question`` now (None when it is allowed)."""
    if any(entry["question"] == question for entry in state["asked"][player]):
        return IllegalAction(
            _("You already asked this question in this round."), code="already_asked", question=question
        )
    yes, no = split(faces_left(state, player), question)
    if not yes or not no:
        return IllegalAction(
            _(
                "Every face left on your board gives the same answer to this question, so it would not "
                "rule anyone out. Try another one."
            ),
            code="no_split",
            question=question,
            answer="yes" if yes else "no",
        )
    return None


def allowed_questions(state: State, player: str) -> list[str]:
    return [key for key in pad_of(state).keys if refusal_of(state, player, key) is None]


def question_splits(state: State, player: str) -> dict[str, int]:
    """Allowed questions (pad order) and how many of the faces left answer yes."""
    left = faces_left(state, player)
    return {key: len(split(left, key)[0]) for key in allowed_questions(state, player)}


def best_min_split(state: State, player: str) -> int:
    """The largest "smaller side" any allowed question offers (1 when only lopsided ones are left)."""
    left_count = len(state["left"][player])
    return max((min(yes, left_count - yes) for yes in question_splits(state, player).values()), default=1)
