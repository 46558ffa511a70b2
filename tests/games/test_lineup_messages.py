"""Every message Line Up! can show, filled in as it is shown, reads as English: "an orange space" (not
"a orange"), no doubled words or punctuation ("Line Up!."), no sentence in lowercase, no "space the
5-space". The templates are read from the screen's scripts (static/js/games/lineup/) and the rules
(games/engine/lineup/); the browser tests check the same on every live screen (test_lineup_fit.py)."""

from __future__ import annotations

import itertools
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCREEN = ROOT / "static" / "js" / "games" / "lineup"
ENGINE = ROOT / "games" / "engine" / "lineup"

STRING = r'"((?:[^"\\]|\\.)*)"'
JS_GETTEXT = re.compile(r"\bgettext\(\s*" + STRING)
JS_NGETTEXT = re.compile(r"\bngettext\(\s*" + STRING + r",\s*" + STRING)
PY_GETTEXT = re.compile(r"\b_\(\s*" + STRING)
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def templates() -> list[str]:
    js = "\n".join(script.read_text() for script in sorted(SCREEN.glob("*.js")))
    found = JS_GETTEXT.findall(js)
    for one, other in JS_NGETTEXT.findall(js):
        found += [one, other]
    for module in sorted(ENGINE.glob("*.py")):
        found += PY_GETTEXT.findall(module.read_text())
    return sorted({text.encode().decode("unicode_escape") for text in found})


def test_the_templates_are_found():
    found = templates()
    assert len(found) > 150
    assert "%(team)s moves %(spaces)s to space %(to)s (%(why)s)." in found
    assert "an orange space" in found


# What each placeholder stands for on the screens (the zone names and reasons are the module's own words).
VALUES = {
    "team": ["Blue team", "Yellow team"],
    "name": ["Ava M.", "Ben"],
    "zone": ["the start", "a purple space", "an orange space", "a pink space"],
    "mini": ["Purple", "Orange", "Pink", "Star space", "The 5-space", "Tie-break"],
    "why": [
        "cards right",
        "prediction made",
        "bid made",
        "the other team missed its bid",
        "star cards",
        "the other team's star mistake",
        "the other team missed the 5-space",
        "time is up: straight to the 5-space",
    ],
    "spaces": ["1 space", "3 spaces"],
    "made": ["made it", "missed"],
    "order": ["2, 5, 3, 1, 4"],
    "text": ["The Titanic sinks"],
    "source": ["Encyclopaedia Britannica"],
    "heading": ["Journeys that made history"],
    "time": ["0:25"],
}
NUMBER = ["3"]
#: Templates where a placeholder stands for something narrower (the bare team name before "team").
OVERRIDES = {"%(team)s team": {"team": ["Blue", "Yellow"]}}

SLIPS = [
    (re.compile(r"\b[aA] (?:[aeiouAEIOU]\w)"), "'a' before a vowel"),
    (re.compile(r"\b[aA]n (?:[b-df-hj-np-tv-zB-DF-HJ-NP-TV-Z]\w)"), "'an' before a consonant"),
    (re.compile(r"\b(\w+) \1\b", re.IGNORECASE), "a doubled word"),
    (re.compile(r"\.\.(?!\.)|!\.|\?\.|\.!|,\.|\s[.,!?]"), "doubled or loose punctuation"),
    (re.compile(r"space the\b|the the\b"), "a doubled article"),
    (re.compile(r"\s{2,}"), "doubled space"),
]


def filled(template: str) -> list[str]:
    keys = sorted(set(PLACEHOLDER.findall(template)))
    values_of = {**VALUES, **OVERRIDES.get(template, {})}
    out = []
    for combo in itertools.product(*(values_of.get(key, NUMBER) for key in keys)):
        values = dict(zip(keys, combo, strict=True))
        out.append(PLACEHOLDER.sub(lambda m, values=values: values[m.group(1)], template))
    return out


@pytest.mark.parametrize("template", templates())
def test_every_message_reads_as_english(template):
    for text in filled(template):
        for pattern, what in SLIPS:
            assert not pattern.search(text), f"{what}: {text!r} (from {template!r})"
        # A sentence (it ends with . ! or ?, three words or more) starts with a capital, a number or a mark.
        if re.search(r"[.!?…]$", template) and len(template.split()) >= 3:
            assert not re.match(r"[a-z]", text), f"a sentence in lowercase: {text!r}"


def test_zone_names_carry_their_article_and_the_5_space_is_not_a_numbered_space():
    js = "\n".join(script.read_text() for script in sorted(SCREEN.glob("*.js")))
    for zone in ("a purple space", "an orange space", "a pink space"):
        assert f'gettext("{zone}")' in js
    assert "%(team)s moves %(spaces)s to the 5-space (%(why)s)." in templates()
    assert "That is not a move in Line Up!." not in templates()
