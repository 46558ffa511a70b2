"""The project stands alone: no file names a design document outside it or an issue of its tracker, and
the pure game engines import nothing from Django (they run, and are tested, without it)."""

import ast
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUTSIDE = re.compile(r"\.\./shared/|DESIGN\.md|[Ii]ssue #?[0-9]+")


def _tracked_files() -> list[pathlib.Path]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False)
    if listed.returncode != 0:  # not a checkout: every file but the virtualenv and tools
        return [
            p for p in ROOT.rglob("*") if p.is_file() and not {".venv", "node_modules", ".git"} & set(p.parts)
        ]
    return [ROOT / name for name in listed.stdout.splitlines()]


def test_no_file_cites_a_document_outside_the_project_or_an_issue_number():
    this = pathlib.Path(__file__).resolve()
    cites = []
    for path in _tracked_files():
        if path.resolve() == this or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        cites += [
            f"{path.relative_to(ROOT)}:{n}"
            for n, line in enumerate(text.splitlines(), 1)
            if OUTSIDE.search(line)
        ]
    assert cites == []


def test_no_engine_module_imports_django():
    importers = []
    for path in sorted((ROOT / "games" / "engine").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            importers += [
                f"{path.relative_to(ROOT)}: {name}" for name in names if name.split(".")[0] == "django"
            ]
    assert importers == []
