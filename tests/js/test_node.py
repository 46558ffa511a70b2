"""The game screens' JavaScript unit tests (tests/js/*.test.js, Node.js's own test runner on recorded view
messages; docs/frontend.md) run as one test here, so `make test` and CI run them; a failure shows Node's
report. They load the scripts each game's pages load, from its definition."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from games.definitions import DEFINITIONS

ROOT = Path(__file__).resolve().parents[2]
TESTS = Path(__file__).parent


def test_the_screens_javascript_unit_tests_pass(node):
    assert (ROOT / "node_modules" / "linkedom").is_dir(), "the npm packages are missing: run make install"
    scripts = {name: list(game.screen_scripts) for name, game in DEFINITIONS.items()}
    files = sorted(str(path) for path in TESTS.glob("*.test.js"))
    assert files, "no JavaScript unit test found"
    result = subprocess.run(
        [node, "--test", "--test-reporter=spec", *files],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env={**os.environ, "CLASSPLAY_SCREEN_SCRIPTS": json.dumps(scripts), "NO_COLOR": "1"},
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
