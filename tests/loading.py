"""The engine tests' helper modules, for any test file: tests/engine is not a package, so a helper module
(test_lineup_helpers.py, test_lineit_support.py ...) is loaded by its path, once per process, under its
file's name (the name pytest gives it when it collects it, so the two are one module)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ENGINE_TESTS = Path(__file__).with_name("engine")


def engine_module(stem: str) -> ModuleType:
    """``tests/engine/<stem>.py`` as a module."""
    if stem not in sys.modules:
        spec = importlib.util.spec_from_file_location(stem, ENGINE_TESTS / f"{stem}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[stem] = module
        spec.loader.exec_module(module)
    return sys.modules[stem]
