"""What every kind of board shares: a pad of twenty yes/no questions, and how 24 faces are drawn for it.

A :class:`Pad` describes one kind of board (the people of :mod:`.features`, the monsters of
:mod:`.monsters`): its questions in pad order, its *categories* (questions of which a face has at most
one, like hair colour; a face with none of them shows the category's default, e.g. brown hair), how many
of the 24 faces each other question may be on, the names by letter and the drawing-only choices.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..core import Rng

BOARD_SIZE = 24
# Every question is on at least 5 and at most 19 faces of a fresh board, so each one rules somebody out.
MIN_ON_BOARD, MAX_ON_BOARD = 5, BOARD_SIZE - 5


@dataclass(frozen=True)
class Feature:
    key: str
    label: str  # the button on the pad
    question: str  # the question as a sentence
    phrase: str  # the words in a face's description


@dataclass(frozen=True)
class Category:
    """Questions a face has at most one of, each on ``count`` faces; ``default`` describes a face with none
    (empty: nothing is said)."""

    keys: tuple[str, ...]
    count: tuple[int, int]
    default: str = ""


@dataclass(frozen=True)
class Pad:
    kind: str  # the board setting's value
    features: tuple[Feature, ...]
    categories: tuple[Category, ...]
    free_counts: dict[str, tuple[int, int]]
    # (rng, letter, features) -> name starting with the letter
    choose_name: Callable[[Rng, str, set[str]], str]
    letters: tuple[str, ...]
    look_choices: dict[str, int]
    # Written into every face of the board (the drawing code picks its artist by it); the people board
    # predates it and writes nothing, so its faces stay as they always were.
    face_kind: str | None = None
    by_key: dict[str, Feature] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_key", {feature.key: feature for feature in self.features})

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(feature.key for feature in self.features)

    @property
    def free_features(self) -> tuple[str, ...]:
        grouped = {key for category in self.categories for key in category.keys}
        return tuple(key for key in self.keys if key not in grouped)


def describe_with(pad: Pad, face: dict[str, Any], translate: Callable[[str], str]) -> str:
    """ "Name: phrase, phrase, ..." in pad order; a category the face has none of says its default
    where the category's questions are (e.g. "Blip: yellow body, two eyes, horns")."""
    features = set(face["features"])
    defaults = {
        category.keys[0]: category.default
        for category in pad.categories
        if category.default and not features.intersection(category.keys)
    }
    phrases = []
    for key in pad.keys:
        if key in defaults:
            phrases.append(translate(defaults[key]))
        if key in features:
            phrases.append(translate(pad.by_key[key].phrase))
    return f"{face['name']}: {', '.join(phrases)}"


def split(faces: Iterable[dict[str, Any]], question: str) -> tuple[list[str], list[str]]:
    """The ids of the faces that answer yes and no to ``question``."""
    yes: list[str] = []
    no: list[str] = []
    for face in faces:
        (yes if question in face["features"] else no).append(face["id"])
    return yes, no


def _category_slots(rng: Rng, category: Category) -> list[str | None]:
    """One key of the category (or None) per face, each key on ``category.count`` faces."""
    while True:
        counts = [rng.randint(*category.count) for _key in category.keys]
        if sum(counts) <= BOARD_SIZE:
            break
    slots: list[str | None] = []
    for key, count in zip(category.keys, counts, strict=True):
        slots += [key] * count
    slots += [None] * (BOARD_SIZE - len(slots))
    return rng.shuffled(slots)


def _feature_sets(pad: Pad, rng: Rng) -> list[set[str]]:
    """24 distinct feature combinations (redrawn in the rare case two faces coincide)."""
    while True:
        sets: list[set[str]] = [set() for _face in range(BOARD_SIZE)]
        for category in pad.categories:
            for features, key in zip(sets, _category_slots(rng, category), strict=True):
                if key is not None:
                    features.add(key)
        for key in pad.free_features:
            for index in rng.sample(range(BOARD_SIZE), rng.randint(*pad.free_counts[key])):
                sets[index].add(key)
        if len({frozenset(features) for features in sets}) == BOARD_SIZE:
            return sets


def generate_with(pad: Pad, rng: Rng) -> list[dict[str, Any]]:
    """A fresh board of 24 faces of ``pad``'s kind drawn from ``rng``, sorted by id (= by name)."""
    feature_sets = _feature_sets(pad, rng)
    letters = rng.sample(sorted(pad.letters), BOARD_SIZE)
    faces = []
    for features, letter in zip(feature_sets, letters, strict=True):
        face: dict[str, Any] = {
            "id": letter,
            "name": pad.choose_name(rng, letter, features),
            "features": [key for key in pad.keys if key in features],
            "look": {name: rng.below(count) for name, count in pad.look_choices.items()},
        }
        if pad.face_kind is not None:
            face["kind"] = pad.face_kind
        face["description"] = describe_with(pad, face, lambda text: text)
        faces.append(face)
    return sorted(faces, key=lambda face: face["id"])


def problems_with(pad: Pad, faces: list[dict[str, Any]]) -> list[str]:
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
    if any(face.get("kind") != pad.face_kind for face in faces):
        problems.append(f"a face is not of the {pad.kind} board")
    if any(key not in pad.by_key for face in faces for key in face["features"]):
        problems.append("a face has a feature that is not on the pad")
    for key in pad.keys:
        yes, _no = split(faces, key)
        if not MIN_ON_BOARD <= len(yes) <= MAX_ON_BOARD:
            problems.append(f"{key} is on {len(yes)} faces")
    for face in faces:
        for category in pad.categories:
            if len(set(face["features"]).intersection(category.keys)) > 1:
                problems.append(f"{face['name']} has two of {', '.join(category.keys)}")
    return problems
