"""docs/adding-a-game.md is true: its made-up game, Odd One Out, is built from the page's own code blocks
(each names its file) in a temporary folder, registered with its question bank kind, played through
``manage.py simulate``, its bank loaded, listed, exported and read by its definition, and then removed
again without a trace."""

from __future__ import annotations

import importlib
import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from io import StringIO
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.conf import settings as django_settings
from django.core.management import call_command
from django.db import connection
from django.test import override_settings
from django.urls import reverse

import games.definitions
import games.engine
import questions.kinds
import questions.kinds.base
import questions.models
from games.definitions import DEFINITIONS, game_menu, names
from games.engine.core import Rng

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "adding-a-game.md"
#: A fenced block whose info string names its file: ```python games/engine/oddone/rules.py
BLOCK = re.compile(r"^```(\w+) (\S+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
#: The block that is added to questions/models.py rather than written as a file of its own.
MODELS = "questions/models.py"
#: The packages the game's modules go into, and where under the temporary folder.
PACKAGES = {
    games.engine: "games/engine",
    games.definitions: "games/definitions",
    questions.kinds: "questions/kinds",
}
MODULES = ("games.engine.oddone", "games.definitions.oddone", "questions.kinds.oddone")


def doc_files() -> dict[str, str]:
    """Each code block of the page that names a file: path -> text."""
    files = {path: text for _language, path, text in BLOCK.findall(DOC.read_text(encoding="utf-8"))}
    assert files, "the page names no file in its code blocks"
    return files


def _add_the_model(code: str, monkeypatch: pytest.MonkeyPatch) -> type:
    """The page's model, defined as if added to questions/models.py (its names, its app)."""
    namespace = dict(vars(questions.models))
    exec(compile(code, f"{DOC}:{MODELS}", "exec"), namespace)
    [name] = [name for name in namespace if name not in vars(questions.models)]
    monkeypatch.setattr(questions.models, name, namespace[name], raising=False)
    return namespace[name]


def _forget(model: type) -> None:
    apps.all_models[model._meta.app_label].pop(model._meta.model_name, None)
    apps.clear_cache()
    for module in list(sys.modules):
        if module.startswith(MODULES):
            del sys.modules[module]


@contextmanager
def odd_one_out(folder: Path) -> Iterator[SimpleNamespace]:
    """Odd One Out built from the page under ``folder`` and registered, as its steps 2 to 4 say; all of
    it undone on leaving."""
    files = doc_files()
    for path, text in files.items():
        if path != MODELS:
            (folder / path).parent.mkdir(parents=True, exist_ok=True)
            (folder / path).write_text(text, encoding="utf-8")
    with pytest.MonkeyPatch.context() as monkeypatch:
        model = _add_the_model(files[MODELS], monkeypatch)
        try:
            for package, place in PACKAGES.items():
                monkeypatch.setattr(package, "__path__", [*package.__path__, str(folder / place)])
            importlib.invalidate_caches()
            definition = importlib.import_module("games.definitions.oddone").DEFINITION
            kind = importlib.import_module("questions.kinds.oddone").ODDONE
            # Step 2's and step 4's one line in each registry.
            monkeypatch.setitem(questions.kinds.KINDS, kind.name, kind)
            monkeypatch.setitem(DEFINITIONS, definition.name, definition)
            monkeypatch.setattr(questions.kinds.base, "DATA_DIR", folder / "questions" / "data")
            # The kind's parts of the bank pages, beside the project's templates.
            templates = [{**django_settings.TEMPLATES[0]}]
            templates[0]["DIRS"] = [*templates[0]["DIRS"], folder / "templates"]
            with override_settings(TEMPLATES=templates):
                yield SimpleNamespace(definition=definition, kind=kind, model=model, folder=folder)
        finally:
            _forget(model)


@contextmanager
def its_table(model: type) -> Iterator[None]:
    """The model's table, as its migration would make it."""
    with connection.schema_editor() as editor:
        editor.create_model(model)
    try:
        yield
    finally:
        with connection.schema_editor() as editor:
            editor.delete_model(model)


def simulate(*arguments: str) -> dict:
    out = StringIO()
    call_command("simulate", *arguments, stdout=out)
    return json.loads(out.getvalue())


def test_the_page_names_every_file_of_the_game_and_the_registry_lines():
    files = doc_files()
    assert {
        "games/engine/oddone/__init__.py",
        "games/engine/oddone/rules.py",
        "games/engine/oddone/view.py",
        "games/engine/oddone/bot.py",
        "games/engine/oddone/facts.py",
        "games/definitions/oddone/__init__.py",
        "questions/kinds/oddone.py",
        MODELS,
        "questions/data/oddone/sets.json",
    } <= set(files)
    # The registry steps, which the tests below take (their lines cannot run from the page).
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    assert "add `oddone.DEFINITION` to `DEFINITIONS`" in text
    assert "import `ODDONE` from `.oddone` and add it to `KINDS`" in text


def test_the_game_from_the_page_is_in_the_menu_and_simulate_plays_it_whole(tmp_path):
    with odd_one_out(tmp_path) as game:
        assert "oddone" in names()
        assert ("oddone", "Odd One Out — word sorting") in game_menu()
        played = simulate("oddone", "--seed", "1", "--players", "4")
        assert played["game"] == "oddone"
        assert played["actions"] >= 4 * 3  # four players pick in each of three rounds (or time runs out)
        assert set(played["outcome"]["scores"]) == {"p1", "p2", "p3", "p4"}
        assert played["outcome"]["winners"]
        assert simulate("oddone", "--seed", "1", "--players", "4") == played  # the same seed, the same game
        assert game.definition.bank.kind == game.kind.name == "oddone"


@pytest.mark.django_db(transaction=True)
def test_its_bank_from_the_page_is_loaded_listed_exported_and_read_by_the_game(
    tmp_path, client_of, ms_rivera, riverside
):
    with odd_one_out(tmp_path) as game, its_table(game.model):
        out = StringIO()
        call_command("load_question_banks", data_dir=tmp_path / "questions" / "data", stdout=out)
        shipped = json.loads((tmp_path / "questions/data/oddone/sets.json").read_text(encoding="utf-8"))
        assert f"oddone: {len(shipped)} created" in out.getvalue()
        assert [item.to_engine_dict() for item in game.kind.shipped_items()] == shipped

        client = client_of(ms_rivera)
        index = client.get(reverse("questions:index"))
        assert "Odd One Out sets" in index.text
        bank = client.get(reverse("questions:bank", args=["oddone"]), {"level": "1"})
        assert bank.status_code == 200
        assert [row["item"].key for row in bank.context["rows"]] == [
            s["id"] for s in shipped if s["level"] == 1
        ]
        assert "carrot" in bank.text
        exported = client.get(reverse("questions:export", args=["oddone", "csv"]))
        assert exported.text.splitlines()[0] == "id,words,odd,level"

        created = client.post(
            reverse("questions:item_create", args=["oddone"]),
            {"id": "", "words": "owl, eagle, robin, bat", "odd": "bat", "level": "2"},
        )
        assert created.status_code == 302
        own = game.model.objects.get(school=riverside)
        assert own.to_engine_dict() == {
            "id": own.key,
            "words": ["owl", "eagle", "robin", "bat"],
            "odd": "bat",
            "level": 2,
        }

        session = SimpleNamespace(
            settings={"rounds": 3, "turn_seconds": 30}, classroom=SimpleNamespace(school_id=riverside.pk)
        )
        players = [{"id": "s1", "name": "Ava"}]
        config = game.definition.table_config(session, players, Rng("table"))
        assert own.to_engine_dict() in config["sets"] and len(config["players"]) == 2  # topped up with a bot
        game.definition.new_engine().setup(config, "seed")


def test_everything_the_page_added_is_gone_afterwards(tmp_path):
    with odd_one_out(tmp_path) as game:
        model_name = game.model._meta.model_name
    assert "oddone" not in names() and "oddone" not in questions.kinds.KINDS
    assert not any(module.startswith(MODULES) for module in sys.modules)
    assert model_name not in apps.all_models["questions"]
    assert not hasattr(questions.models, game.model.__name__)
    assert questions.kinds.base.DATA_DIR == ROOT / "questions" / "data"
    assert all(str(tmp_path) not in path for package in PACKAGES for path in package.__path__)
    assert all(tmp_path / "templates" not in engine["DIRS"] for engine in django_settings.TEMPLATES)
