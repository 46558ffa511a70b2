"""Every page carries a Content-Security-Policy that lets only this server's own scripts, styles, media
and connections in (no inline script, no style attribute, no framing) and a Permissions-Policy that keeps
unused browser features off; the templates hold nothing that policy would refuse. (The browser tests
fail on anything the policy refuses while they play: tests/browser/conftest.py.)"""

import re
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))

pytestmark = pytest.mark.django_db


def _directives(header: str) -> dict[str, list[str]]:
    parts = [part.split() for part in header.split(";") if part.strip()]
    return {part[0]: part[1:] for part in parts}


@pytest.mark.parametrize("name", ["join", "account_login", "home"])
def test_pages_carry_a_strict_content_security_policy(client, name):
    response = client.get(reverse(name))
    policy = _directives(response.headers["Content-Security-Policy"])
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]  # a nonce joins only where a page uses one
    assert policy["style-src"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"] and policy["object-src"] == ["'none'"]
    assert not any("unsafe" in source for sources in policy.values() for source in sources)
    assert "camera=()" in response.headers["Permissions-Policy"]
    assert "microphone=()" in response.headers["Permissions-Policy"]


def test_the_teachers_and_students_pages_too(client_of, ms_rivera, class_7b):
    response = client_of(ms_rivera).get(reverse("classroom_detail", args=[class_7b.pk]))
    assert "'unsafe-inline'" not in response.headers["Content-Security-Policy"]


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda path: str(path.relative_to(ROOT / "templates")))
def test_no_template_holds_inline_script_handlers_or_styles(path):
    text = path.read_text(encoding="utf-8")
    scripts = re.findall(r"<script(?![^>]*\bsrc=)(?![^>]*application/(?:ld\+)?json)[^>]*>", text)
    assert scripts == [], "an inline script: move it to static/js (or give it the request's nonce)"
    assert re.findall(r"\son[a-z]+\s*=", text) == [], "an inline event handler: bind it in static/js"
    assert re.findall(r"\sstyle\s*=", text) == [], "a style attribute: use a class in static/css"
    assert "<style" not in text, "a <style> element: move it to static/css"
