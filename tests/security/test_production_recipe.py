"""The production recipe runs every process of the Procfile as its own systemd unit that restarts on
its own (under honcho one crash stopped every process), each started as the Procfile starts it."""

import configparser
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "deploy" / "systemd"


def _procfile() -> dict[str, str]:
    lines = (ROOT / "Procfile").read_text().splitlines()
    return dict(line.split(": ", 1) for line in lines if re.match(r"^[a-z]+: ", line))


def _service(name: str) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str
    parser.read(UNITS / f"classplay-{name}.service")
    return parser["Service"]


@pytest.mark.parametrize("process", sorted(set(_procfile()) - {"release"}))
def test_each_process_is_a_unit_that_restarts_on_its_own(process):
    service = _service(process)
    assert service["Restart"] == "always"
    program = _procfile()[process].split()[:2]  # e.g. "uvicorn config.asgi:application", "celery -A"
    assert " ".join(program).split("/")[-1] in service["ExecStart"].replace("/opt/classplay/.venv/bin/", "")


def test_the_units_start_and_stop_together_from_one_target():
    target = (UNITS / "classplay.target").read_text()
    for process in set(_procfile()) - {"release"}:
        assert f"classplay-{process}.service" in target
        assert "PartOf=classplay.target" in (UNITS / f"classplay-{process}.service").read_text()


def test_the_web_unit_serves_with_the_websocket_frame_limit():
    """As both Procfiles do (tests/browser/test_frame_limit.py); ``make run`` serves Procfile.dev."""
    assert "--ws-max-size 65536" in _service("web")["ExecStart"]
    assert "-f Procfile.dev" in (ROOT / "Makefile").read_text()
