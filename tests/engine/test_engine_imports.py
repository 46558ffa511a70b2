"""The engines are pure Python: no module under games/engine imports Django (core.py promises it), and
their modules import one another one way only (no import circle, not even inside a function)."""

import ast
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
ENGINE = ROOT / "games" / "engine"


def module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = sorted(module_name(path) for path in ENGINE.rglob("*.py"))


def test_every_engine_module_imports_without_django():
    script = (
        "import importlib, json, sys\n"
        f"for name in {MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True, env={}
    )
    assert json.loads(result.stdout) == []


def imported_modules(path: pathlib.Path) -> set[str]:
    """The games.engine modules ``path`` imports anywhere in it (at the top or inside a function)."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from package import module`` needs the module, not the package's own code.
            names = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names
            ]
        else:
            continue
        found.update(name for name in names if name in MODULES)
    return found


def test_no_import_circle_under_games_engine():
    graph = {module_name(path): imported_modules(path) for path in ENGINE.rglob("*.py")}
    done: set[str] = set()

    def visit(module: str, trail: list[str]) -> None:
        assert module not in trail, " -> ".join([*trail[trail.index(module) :], module])
        if module in done:
            return
        for imported in sorted(graph[module]):
            if imported != module:
                visit(imported, [*trail, module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])
