"""The production recipe runs every process of the Procfile as its own systemd unit that restarts on
its own (under honcho one crash stopped every process), each started as the Procfile starts it. The web
process is a template, one unit per port (``classplay-web@8001.service``)."""

import configparser
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "deploy" / "systemd"


def _procfile() -> dict[str, str]:
    lines = (ROOT / "Procfile").read_text().splitlines()
    return dict(line.split(": ", 1) for line in lines if re.match(r"^[a-z]+: ", line))


#: The processes that run as a template unit, one instance each.
TEMPLATES = {"web"}


def _unit_file(name: str) -> Path:
    return UNITS / (f"classplay-{name}@.service" if name in TEMPLATES else f"classplay-{name}.service")


def _service(name: str) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str
    parser.read(_unit_file(name))
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
        instance = r"@\d+" if process in TEMPLATES else ""
        assert re.search(rf"classplay-{process}{instance}\.service", target), process
        assert "PartOf=classplay.target" in _unit_file(process).read_text()


def test_the_web_unit_serves_with_the_websocket_frame_limit():
    """As both Procfiles do (tests/browser/test_frame_limit.py); ``make run`` serves Procfile.dev."""
    assert "--ws-max-size 65536" in _service("web")["ExecStart"]
    assert "-f Procfile.dev" in (ROOT / "Makefile").read_text()
