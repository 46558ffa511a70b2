"""Every message Mind the Lines shows, rendered with the values it is given, read for slips.

The game's screen (static/js/games/mindlines/*.js: every gettext and ngettext template) and its rules
(games/engine/mindlines: every refusal) are rendered with realistic values (the viewer's own name is
"You"/"you", counts of 0, 1 and more) and checked for what a proof-reader catches: doubled words, "..",
a singular number with a plural noun, "a" before a vowel, "you is", a sentence that starts in lower case.
"""

from __future__ import annotations

import itertools
import pathlib
import re

import pytest

from games.definitions import definition

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPTS = definition("mindlines").screen_scripts
MODULE = "".join((ROOT / "static" / script).read_text(encoding="utf-8") for script in SCRIPTS)
ENGINE = "".join(
    module.read_text(encoding="utf-8") for module in sorted((ROOT / "games/engine/mindlines").glob("*.py"))
)

STRING = r'"((?:[^"\\]|\\.)*)"'
SINGLE = re.compile(r"(?<![n\w])gettext\(\s*" + STRING + r"\s*\)")
PLURAL = re.compile(r"ngettext\(\s*" + STRING + r"\s*,\s*" + STRING + r"\s*,")
ENGINE_STRING = re.compile(r"(?<!\w)_\(\s*" + STRING + r"\s*\)")

# the values each placeholder is really given (a count is 0, 1 or more; the draw timer is at least 60 s)
VALUES = {
    "name": ["Ava M.", "Ben K."],
    "text": ["light bulb"],
    "side": ["side A", "side B"],
    "count": [0, 1, 3],
    "errors": [0, 1, 5],
    "limit": [2, 5],
    "round": [1, 4],
    "rounds": [4],
    "number": [1, 3],
    "total": [4, 16],
    "open": [1, 8],
    "strokes": [0, 1, 7],
    "max_strokes": [40],
    "ink": [0, 1, 120],
    "max_ink": [600],
    "seconds": [60, 120],
    "degrees": [0, 90, 270],
}
# words shown on their own (lists, badges) or inside a longer sentence: lower case on purpose
FRAGMENTS = {
    "computer",
    "decoy: nobody drew it",
    "done",
    "drawing",
    "drawing board",
    "drawing…",
    "drawn by %(name)s",
    "drawn by you",
    "excluded by %(name)s",
    "excluded by you",
    "excluding now",
    "hidden",
    "looking",
    "reading",
    "ready",
    "side A",
    "side B",
    "you",
    "your concept",
    "✓ decoy excluded",
    "✓ recognised",
    "✗ drawn, but excluded",
    "✗ error point",
}
PLURAL_NOUNS = r"(?:strokes|points|concepts|rounds|seconds|degrees|exclusions|cards|players|errors|lines)"


def templates() -> list[tuple[str, ...]]:
    found = [(text,) for text in SINGLE.findall(MODULE)]
    found += [(one, many) for one, many in PLURAL.findall(MODULE)]
    found += [(text,) for text in ENGINE_STRING.findall(ENGINE)]
    return sorted(set(found))


def renderings(template: str, count_key: str | None = None, count_values=None):
    keys = sorted(set(re.findall(r"%\((\w+)\)s", template)))
    unknown = [key for key in keys if key not in VALUES]
    assert not unknown, f"{template!r}: give the test realistic values for {unknown}"
    choices = [count_values if key == count_key else VALUES[key] for key in keys]
    for combination in itertools.product(*choices):
        values = dict(zip(keys, combination, strict=True))
        yield template % values
        if "name" not in values:
            continue
        if not template.startswith("%(name)s"):
            yield template % {**values, "name": "you"}  # the viewer, inside a sentence
        elif not template.startswith("%(name)s is "):
            yield template % {**values, "name": "You"}  # the viewer, at its start (nameOf(..., true))


def slips(text: str, template: str) -> list[str]:
    found = []
    if re.search(r"\b(\w+)\s+\1\b", text, re.IGNORECASE):
        found.append("a doubled word")
    if ".." in text.replace("…", ""):
        found.append('".."')
    if re.search(r"\s[.,:;!?]", text) or "  " in text:
        found.append("a space before punctuation or a double space")
    if re.search(r"(?<![\d.])\b1 (?:\w+ )?" + PLURAL_NOUNS + r"\b", text):
        found.append("one with a plural noun (use ngettext)")
    if re.search(r"\b(?:0|[2-9]|\d\d+) (?:error )?(?:stroke|point|concept|round|second|degree)\b(?!s)", text):
        found.append("a plural number with a singular noun")
    if re.search(r"\ba [aeiou]", text, re.IGNORECASE) and not re.search(
        r"\ba (?:one|use)", text, re.IGNORECASE
    ):
        found.append('"a" before a vowel')
    if re.search(r"\b[Yy]ou (?:is|has|was)\b|\b[Yy]ou's\b", text):
        found.append('"you" with a verb for somebody else')
    first = text.lstrip("✓✗★■↺↻✎⌫↶ ")
    if template not in FRAGMENTS and first[:1].islower():
        found.append("a lower-case start")
    return found


ALL = templates()


def test_the_templates_were_found():
    assert len(ALL) > 120
    assert ("Waiting for the others…",) in ALL
    assert ("Drawing by %(name)s: %(count)s stroke", "Drawing by %(name)s: %(count)s strokes") in ALL
    assert ("That is your own concept: somebody drew it, so keep it!",) in ALL


@pytest.mark.parametrize("template", ALL, ids=[t[0][:60] for t in ALL])
def test_every_message_reads_right_with_the_values_it_is_given(template):
    problems = set()
    if len(template) == 1:
        for text in renderings(template[0]):
            problems |= {f"{problem}: {text!r}" for problem in slips(text, template[0])}
    else:
        one, many = template
        key = next(k for k in ("count", "errors", "strokes") if f"%({k})s" in one)
        for text in renderings(one, key, [1]):
            problems |= {f"{problem}: {text!r}" for problem in slips(text, one)}
        for text in renderings(many, key, [0, 2, 5]):
            problems |= {f"{problem}: {text!r}" for problem in slips(text, many)}
    assert not problems, sorted(problems)


def test_a_sentence_about_somebody_else_is_never_given_the_viewers_you():
    """ "%(name)s is excluding" with the viewer's own "You" would read "You is excluding": such a sentence
    names the player without the viewer (nameOf(..., null)), and the viewer has a sentence of their own."""
    for match in re.finditer(r'gettext\("%\(name\)s is [^"]*"\)', MODULE):
        call = MODULE[match.end() : match.end() + 160]
        own_sentence_first = 'gettext("You are' in MODULE[match.start() - 160 : match.start()]
        assert own_sentence_first or re.search(r"nameOf\(view, [\w.]+, null\)", call), MODULE[
            match.start() - 160 : match.end() + 160
        ]
