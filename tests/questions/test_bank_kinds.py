"""One bank kind, one place: every kind of question bank is one definition in questions.kinds, and the
generic modules of the questions app (pages, URLs, forms, import and export, the loader, the admin) ask
there instead of naming one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.template.loader import get_template
from django.urls import reverse

from games.definitions import DEFINITIONS
from questions.kinds import KINDS, is_kind, kind, kind_of, names, word_list_kind
from questions.kinds.base import BankKind
from questions.models import Concept, LineupQuestion, WordUpQuestion

ROOT = Path(__file__).resolve().parents[2]
KIND_NAME = re.compile(r"""["'](lineup|wordup|concepts|mindlines)["']""")
#: Where a kind's name may stand as a name: the models (their constraints' names), and the word lists'
#: relation to their words (``related_name="concepts"``), which is not the kind.
OWN = {"models.py"}
RELATION = re.compile(r"""Count\("concepts"\)""")


def test_the_registry_lists_the_three_banks_in_page_order():
    assert names() == ("lineup", "wordup", "concepts")
    assert [str(KINDS[name].title) for name in names()] == [
        "Line Up! questions",
        "Word Up questions",
        "Mind the Lines concepts",
    ]
    assert word_list_kind() is kind("concepts")


def test_an_unknown_kind_names_the_known_ones():
    with pytest.raises(KeyError, match="known: lineup, wordup, concepts"):
        kind("chess")


@pytest.mark.parametrize("name", list(KINDS))
def test_each_kind_holds_its_model_form_columns_and_page_parts(name):
    bank = kind(name)
    assert isinstance(bank, BankKind) and bank.name == name
    assert bank.csv_columns[0] == "id" and set(bank.required_columns()) <= set(bank.csv_columns)
    assert hasattr(bank.form, "to_data") and hasattr(bank.form, "initial_from")
    for template in bank.templates.values():
        get_template(template)
    assert bank.shipped_entries(), "every kind ships items"


def test_an_item_knows_its_kind():
    assert kind_of(LineupQuestion()) is kind("lineup")
    assert kind_of(WordUpQuestion()) is kind("wordup")
    assert kind_of(Concept()) is kind("concepts")
    with pytest.raises(TypeError):
        kind_of(object())


@pytest.mark.parametrize("game", [game for game in DEFINITIONS.values() if game.bank])
def test_each_game_draws_from_a_registered_kind_that_agrees_on_reviews(game):
    assert is_kind(game.bank.kind)
    # The item analysis offers to retire a game's questions only where the bank takes the review.
    assert not game.bank.reviewable or kind(game.bank.kind).reviewable


def test_a_name_that_is_no_kind_is_no_page(client_of, ms_rivera):
    assert client_of(ms_rivera).get("/questions/chess/").status_code == 404
    assert reverse("questions:bank", args=["lineup"]) == "/questions/lineup/"


def _generic_modules() -> list[Path]:
    questions = ROOT / "questions"
    modules = [*questions.glob("*.py"), *(questions / "management" / "commands").glob("*.py")]
    return [path for path in modules if path.name not in OWN]


def test_no_generic_module_names_a_kind():
    named = {
        str(path.relative_to(ROOT)): KIND_NAME.findall(RELATION.sub("", path.read_text(encoding="utf-8")))
        for path in _generic_modules()
    }
    assert {path: found for path, found in named.items() if found} == {}


def test_no_generic_bank_page_names_a_kind():
    pages = (ROOT / "templates" / "questions").glob("*.html")
    named = {page.name: KIND_NAME.findall(page.read_text(encoding="utf-8")) for page in pages}
    assert {page: found for page, found in named.items() if found} == {}
