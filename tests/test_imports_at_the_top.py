"""Imports sit at the top of a module. An import inside a function usually hides a cycle between apps
(which import-linter in ``make lint`` forbids by direction); the few that stay say why below."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("classrooms", "questions", "games", "reports", "config")
#: (module, imported): the only imports allowed inside a function.
ALLOWED = {
    ("classrooms/apps.py", ""),  # AppConfig.ready connects the app's receivers, as Django asks
    ("reports/apps.py", ""),
    ("games/apps.py", ""),
    # cefrpy reads its word data when imported (a few tenths of a second): only when a level is estimated
    ("questions/estimate.py", "cefrpy"),
    # sentry_sdk (and its Django and Celery hooks) is loaded only where SENTRY_DSN turns error reports on
    ("config/sentry.py", "sentry_sdk"),
}


def _imports_inside_functions():
    for root in PRODUCT:
        for path in sorted((ROOT / root).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for function in ast.walk(tree):
                if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                for node in ast.walk(function):
                    if isinstance(node, ast.Import | ast.ImportFrom):
                        name = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
                        yield str(path.relative_to(ROOT)), name or "", node.lineno


def test_no_import_hides_inside_a_function():
    found = [
        (path, name, line) for path, name, line in _imports_inside_functions() if (path, name) not in ALLOWED
    ]
    assert found == []
