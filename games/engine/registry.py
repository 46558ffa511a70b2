"""Engines by game name. The runtime and ``manage.py simulate`` look games up here."""

from __future__ import annotations

import importlib

from .core import Game

# game name -> "module:ClassName"; imported lazily so one broken engine cannot break the others.
ENGINE_PATHS: dict[str, str] = {
    "lineup": "games.engine.lineup:LineUp",
    "wordup": "games.engine.wordup:WordUp",
    "faces": "games.engine.faces:Faces",
    "lineit": "games.engine.lineit:LineIt",
    "mindlines": "games.engine.mindlines:MindTheLines",
}


def get_engine(name: str) -> Game:
    try:
        path = ENGINE_PATHS[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(ENGINE_PATHS))}") from None
    module_name, class_name = path.split(":")
    return getattr(importlib.import_module(module_name), class_name)()


def engine_names() -> list[str]:
    return list(ENGINE_PATHS)
