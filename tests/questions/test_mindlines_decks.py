"""Content checks for the Mind the Lines concept decks (pure Python, no Django)."""

import json
import re
from collections import Counter
from pathlib import Path

import pytest

DATA_DIR = Path(__file__).resolve().parents[2] / "questions" / "data" / "mindlines"
DECKS = {"easy": "e", "hard": "h"}
# Enough for a school year of games (485 concepts in all), split as the decks always were.
MIN_CONCEPTS = {"easy": 235, "hard": 250}
MIN_PER_THEME = 6
THEMES = {
    "animals",
    "food",
    "home",
    "transport",
    "nature",
    "weather",
    "sport",
    "school",
    "body",
    "clothes",
    "places",
    "jobs",
    "music",
    "science",
    "actions",
}
REQUIRED_KEYS = {"id", "text", "difficulty", "theme"}
OPTIONAL_KEYS = {"alt"}
# Lower-case words, single spaces, inner hyphens and apostrophes ("hot-air balloon", "bird's nest").
TEXT_RE = re.compile(r"^[a-z]+(?:['-][a-z]+)*(?: [a-z]+(?:['-][a-z]+)*)*$")
IRREGULAR_PLURALS = {
    "teeth": "tooth",
    "feet": "foot",
    "mice": "mouse",
    "geese": "goose",
    "children": "child",
    "men": "man",
    "women": "woman",
    "people": "person",
    "knives": "knife",
    "leaves": "leaf",
    "wolves": "wolf",
    "sheep": "sheep",
}


def load(name):
    with open(DATA_DIR / f"{name}.json", encoding="utf-8") as fh:
        return json.load(fh)


def singular(word):
    """Crude English singular, only used to catch "cat"/"cats"-style duplicates."""
    if word in IRREGULAR_PLURALS:
        return IRREGULAR_PLURALS[word]
    if word.endswith(("ss", "us", "is")) or len(word) <= 3:
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "zes", "sses")):
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


def normalise(text):
    words = text.lower().replace("-", " ").split()
    return " ".join(singular(w) for w in words)


@pytest.fixture(scope="module", params=sorted(DECKS))
def deck(request):
    return request.param, load(request.param)


def test_singular_helper():
    assert normalise("cats") == normalise("cat")
    assert normalise("Flip-Flops") == normalise("flip flop")
    assert normalise("teeth") == normalise("tooth")
    assert normalise("berries") == normalise("berry")
    assert normalise("bus") == "bus"
    assert normalise("glasses") == normalise("glass")


def test_deck_size(deck):
    name, items = deck
    assert isinstance(items, list)
    assert len(items) >= MIN_CONCEPTS[name], f"{name}: only {len(items)} concepts"


def test_schema(deck):
    name, items = deck
    id_re = re.compile(rf"^{DECKS[name]}-\d{{3}}$")
    for item in items:
        assert isinstance(item, dict), item
        keys = set(item)
        assert keys >= REQUIRED_KEYS, f"missing keys in {item}"
        assert keys <= REQUIRED_KEYS | OPTIONAL_KEYS, f"unknown keys in {item}"
        assert all(isinstance(v, str) for v in item.values()), item
        assert id_re.match(item["id"]), item
        assert item["difficulty"] == name, item
        assert TEXT_RE.match(item["text"]), f"bad text {item['text']!r}"
        if "alt" in item:
            assert TEXT_RE.match(item["alt"]), f"bad alt {item['alt']!r}"
            assert item["alt"] != item["text"], item


def test_ids_unique_within_deck(deck):
    name, items = deck
    dupes = [k for k, n in Counter(i["id"] for i in items).items() if n > 1]
    assert not dupes, f"{name}: duplicate ids {dupes}"


def test_no_digits(deck):
    _, items = deck
    for item in items:
        for field in ("text", "alt"):
            assert not any(ch.isdigit() for ch in item.get(field, "")), item


def test_themes_known_and_filled(deck):
    name, items = deck
    counts = Counter(i["theme"] for i in items)
    unknown = set(counts) - THEMES
    assert not unknown, f"{name}: unknown themes {unknown}"
    thin = {t: counts.get(t, 0) for t in THEMES if counts.get(t, 0) < MIN_PER_THEME}
    assert not thin, f"{name}: themes with fewer than {MIN_PER_THEME} concepts: {thin}"


def test_texts_unique_across_decks():
    seen = {}
    clashes = []
    for name in sorted(DECKS):
        for item in load(name):
            variants = {normalise(item["text"])}
            if "alt" in item:
                variants.add(normalise(item["alt"]))
            for key in variants:
                if key in seen and seen[key] != item["id"]:
                    clashes.append((seen[key], item["id"], item["text"]))
                seen[key] = item["id"]
    assert not clashes, f"duplicate or variant concepts: {clashes}"
