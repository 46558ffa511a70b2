"""A sentence about the viewer has its own wording in every language: "You rolled 7", which Spanish says
"Sacaste 7", never the third person's "%(name)s rolled %(total)s" given the viewer's "You" ("Tú sacó 7",
"رمى أنت 7"). The game modules' sentence makers run in Node (no browser) with Django's JavaScript catalog
of each language, and with a catalog that marks the word "You", so a "You" put into somebody else's
sentence shows wherever it happens (docs/i18n.md, "Sentences about the viewer")."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from django.test import RequestFactory

from config import i18n

GAMES_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "games"
VIEWER = "Ava M."

HARNESS = Path(__file__).with_name("viewer_sentences.js")


def sentences(node, tmp_path, language: str | None, direction: str = "ltr") -> dict[str, list[str]]:
    """What the viewer reads about themselves (and a few sentences about somebody else), in ``language``
    (None: English with "You" marked) on a page of ``direction``."""
    catalog = tmp_path / f"catalog-{language}.js"
    if language is None:
        catalog.write_text("", encoding="utf-8")
    else:
        response = i18n.javascript_catalog(RequestFactory().get(f"/jsi18n/{language}/"), language)
        catalog.write_bytes(response.content)
    result = subprocess.run(
        [node, str(HARNESS), str(catalog), str(GAMES_JS), direction],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    found: dict[str, list[str]] = {}
    for where, text in json.loads(result.stdout):
        found.setdefault(where, []).append(text)
    return found


def test_no_sentence_about_the_viewer_is_somebody_elses_sentence_given_you(node, tmp_path):
    said = sentences(node, tmp_path, None)
    assert len(said) >= 15
    problems = [
        f"{where}: {text!r}"
        for where, texts in said.items()
        for text in texts
        if "«You»" in text or VIEWER in text or "undefined" in text
    ]
    assert not problems, "\n".join(problems)
    assert said["wordup roll line"] == ["You rolled 7"]
    assert said["mindlines exclusion"] == ["You excluded “gato”."]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "es",
            {
                "wordup roll line": "Sacaste 7",
                "wordup answer label": "Respondiste",
                "mindlines exclusion": "Excluiste “gato”.",
                "mindlines excluded by": "excluido por ti",
                "mindlines theme": "animales",
            },
        ),
        (
            "pt-br",
            {
                "wordup roll line": "Você tirou 7",
                "wordup answer label": "Você respondeu",
                "mindlines exclusion": "Você excluiu “gato”.",
                "mindlines excluded by": "excluído por você",
                "mindlines theme": "animais",
            },
        ),
        (
            "ar",
            {
                "wordup roll line": "رميتَ 7",
                "wordup answer label": "أجبتَ",
                "mindlines exclusion": "استبعدتَ «gato».",
                "mindlines excluded by": "استبعدتَه",
                "mindlines theme": "حيوانات",
            },
        ),
    ],
)
def test_the_viewers_own_sentences_are_conjugated_for_you(node, tmp_path, language, expected):
    said = sentences(node, tmp_path, language)
    for where, text in expected.items():
        assert said[where] == [text], where
    third_person = {"es": ["Tú "], "pt-br": [], "ar": ["أنت"]}[language]
    wrong = [f"{w}: {t!r}" for w, texts in said.items() for t in texts if any(p in t for p in third_person)]
    assert not wrong, "\n".join(wrong)
    assert all(VIEWER not in text for texts in said.values() for text in texts)
    assert said["mindlines own theme"] == ["week 12"]


FSI, PDI = "\u2068", "\u2069"


def test_on_an_arabic_page_every_value_in_a_sentence_is_isolated(node, tmp_path):
    """ "رمى Ben K. 7" must not show as "رمى .Ben K 7": the name and the number are each isolated (FSI …
    PDI), and a name's full stop at the end of a sentence is still not doubled."""
    said = sentences(node, tmp_path, "ar", "rtl")
    assert said["wordup other roll"] == [f"رمى {FSI}Ben K.{PDI} {FSI}7{PDI}: {FSI}مكافأة{PDI}"]
    assert said["wordup roll line"] == [f"رميتَ {FSI}7{PDI}"]
    assert said["mindlines other exclusion"] == [f"استبعد {FSI}Ben K.{PDI} «{FSI}gato{PDI}»."]
    english = sentences(node, tmp_path, None, "rtl")
    assert english["wordup other timeout"] == [f"Time ran out for {FSI}Ben K.{PDI}"]
    assert sentences(node, tmp_path, None)["wordup other timeout"] == ["Time ran out for Ben K."]
