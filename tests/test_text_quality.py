"""Every sentence a person reads, checked for the slips a class play-through found ("a orange",
"accepted You's answer", doubled words, "..", a lowercase word after a full stop). The strings are read
where they are written: gettext calls in Python and JavaScript, and translate tags in the templates."""

from __future__ import annotations

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
SOURCES = {
    "python": (["classrooms", "games", "questions", "reports", "config"], "*.py"),
    "javascript": (["static/js"], "*.js"),
    "templates": (["templates"], "*.html"),
}
STRING = r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\''
CALLS = re.compile(r"\b(?:_|gettext|gettext_lazy|pgettext|ngettext|gettext_noop)\(\s*(?:" + STRING + ")")
TAGS = re.compile(r"{%\s*(?:translate|trans)\s+(?:" + STRING + ")")
BLOCKS = re.compile(r"{%\s*blocktrans(?:late)?[^%]*%}(.*?){%\s*(?:plural|endblocktrans(?:late)?)\s*%}", re.S)

# "a" before a word that starts with a vowel sound, "an" before one that starts with a consonant sound.
A_BEFORE_VOWEL = re.compile(r"\b[Aa] (?!(?:one|once|uni|use|usu|euro|u\b|e-|URL))([aeiouAEIOU]\w*)")
CONSONANTS = "b-df-hj-np-tv-zB-DF-HJ-NP-TV-Z"
AN_BEFORE_CONSONANT = re.compile(rf"\b[Aa]n (?!(?:hour|honest|honour|x\b|X\b|%|{{))([{CONSONANTS}]\w*)")
DOUBLED_WORD = re.compile(r"\b([A-Za-z]+) \1\b", re.I)
DOUBLED_STOP = re.compile(r"(?<!\.)\.\.(?!\.)")
LOWERCASE_AFTER_STOP = re.compile(r"[a-z]{2,}[.!?] ([a-z]\w*)")
YOU_POSSESSIVE = re.compile(r"\bYou's\b")
# "(e.g. this)", "i.e. that", "5 p.m. today", units and abbreviations are not sentence ends.
ABBREVIATIONS = re.compile(r"\b(?:e\.g|i\.e|etc|vs|p\.m|a\.m|approx|no|min|max|cf)\. [a-z]", re.I)


def _strings() -> list[tuple[str, str]]:
    found = []
    for kind, (folders, pattern) in SOURCES.items():
        for folder in folders:
            for path in sorted((ROOT / folder).rglob(pattern)):
                if "migrations" in path.parts:
                    continue
                text = path.read_text(encoding="utf-8")
                where = str(path.relative_to(ROOT))
                if kind == "templates":
                    matches = [m.group(1) or m.group(2) for m in TAGS.finditer(text)]
                    matches += [m.group(1) for m in BLOCKS.finditer(text)]
                else:
                    matches = [m.group(1) or m.group(2) for m in CALLS.finditer(text)]
                found += [(where, string) for string in matches if string]
    return found


STRINGS = _strings()


def test_the_scan_reads_the_products_sentences():
    assert len(STRINGS) > 1000
    assert any("Wait for your teacher to start the game" in s for _w, s in STRINGS)


def _slips(string: str) -> list[str]:
    counter = iter(range(1000))
    text = re.sub(r"<[^>]*>", "", string)  # markup: its attributes are not prose
    text = re.sub(r"%\(\w+\)[sd]|{{[^}]*}}|\{\w+\}", lambda _m: f"Placeholder{next(counter)}", text)
    slips = []
    if m := A_BEFORE_VOWEL.search(text):
        slips.append(f"'a {m.group(1)}'")
    if m := AN_BEFORE_CONSONANT.search(text):
        slips.append(f"'an {m.group(1)}'")
    if m := DOUBLED_WORD.search(text):
        slips.append(f"doubled '{m.group(0)}'")
    if DOUBLED_STOP.search(text):
        slips.append("'..'")
    if YOU_POSSESSIVE.search(text):
        slips.append('"You\'s"')
    cleaned = ABBREVIATIONS.sub("X", text)
    if m := LOWERCASE_AFTER_STOP.search(cleaned):
        slips.append(f"lowercase '{m.group(1)}' after a full stop")
    return slips


@pytest.mark.parametrize(
    ("string", "slip"),
    [
        ("Move to a orange space.", "'a orange'"),
        ("Land on an star.", "'an star'"),
        ("Wait for for your turn.", "doubled"),
        ("Rivera removed Bruno G..", "'..'"),
        ("Your teacher accepted You's answer.", "You's"),
        ("Well done. now wait.", "lowercase"),
    ],
)
def test_the_check_catches_each_slip(string, slip):
    assert any(slip in found for found in _slips(string))


@pytest.mark.parametrize(
    "string",
    [
        "A unit of length.",
        "an hour",
        "Wait for it...",
        "e.g. the moon",
        "Take a one-minute break.",
        "An orange zone.",
    ],
)
def test_the_check_passes_good_english(string):
    assert _slips(string) == []


def test_no_sentence_has_a_slip():
    problems = [
        f"{where}: {string!r}: {', '.join(slips)}" for where, string in STRINGS if (slips := _slips(string))
    ]
    assert problems == [], "\n".join(problems)
