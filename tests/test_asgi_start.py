"""The web server is ready for its first request when it starts."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_url_conf_and_its_views_are_loaded_when_the_server_starts_not_by_the_first_request():
    """After a restart a teacher's first pause waited ~0.4 s for the views to be imported, while a
    class's devices waited for the pause."""
    check = (
        "import sys, config.asgi\n"
        "from django.urls import get_resolver\n"
        "assert 'url_patterns' in get_resolver().__dict__, 'the URLconf is loaded by the first request'\n"
        "assert 'reports.views' in sys.modules and 'games.views' in sys.modules\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", check], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
