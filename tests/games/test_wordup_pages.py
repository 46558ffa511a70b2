"""Word Up's How to play, teacher guide and one-screen rules: they render, in plain translatable HTML, and
say what the game does (the colours with their names, the keys, the teacher's Accept, headphones)."""

import re
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]

PAGES = {
    "how_to_play": [
        "Missing Word",
        "Crossword Clues",
        "Multiple Choice",
        "Spelling",
        "Say it again",
        "one try",
    ],
    "guide": ["Accept", "Headphones", "own level", "teacher-marked", "Question level"],
    "rules": ["Bonus", "Word Up", "roll again", "one try"],
}


def render(name: str) -> str:
    request = RequestFactory().get("/")
    from django.contrib.auth.models import AnonymousUser

    request.user = AnonymousUser()
    request.student = None
    request.session = {}
    return render_to_string(f"games/wordup/{name}.html", request=request)


@pytest.mark.parametrize("name", list(PAGES))
def test_each_page_renders_with_its_content(name):
    html = render(name)
    assert "<h1>" in html and "wordup.css" in html
    for phrase in PAGES[name]:
        assert phrase.lower() in html.lower(), (name, phrase)


def test_colours_always_come_with_a_name_and_a_symbol():
    html = render("how_to_play")
    chips = re.findall(
        r'<span class="wu-chip wu-c-(\w+)"><svg[^>]*><use href="#wu-(\w+)"/></svg><span>([^<]+)</span>', html
    )
    assert {(colour, icon) for colour, icon, _label in chips} == {
        ("orange", "gap"),
        ("green", "grid"),
        ("blue", "list"),
        ("yellow", "ear"),
    }
    for symbol in ("gap", "grid", "list", "ear"):
        assert f'id="wu-{symbol}"' in html


def test_the_keys_are_documented_as_the_screen_uses_them():
    html = render("how_to_play")
    for key in ("R", "1", "9", "L", "Enter", "Tab"):
        assert f"<kbd>{key}</kbd>" in html
    screen = ROOT / "static" / "js" / "games" / "wordup"
    module = "\n".join(path.read_text(encoding="utf-8") for path in sorted(screen.glob("*.js")))
    assert '"data-key": "r"' in module and '"data-key": "l"' in module


@pytest.mark.parametrize("path", ["how-to-play", "guide", "rules"])
def test_the_shared_pages_serve_them(client, ms_rivera, path):
    client.force_login(ms_rivera)
    response = client.get(f"/games/wordup/{path}/")
    assert response.status_code == 200
    assert b"Word Up" in response.content and b"wordup.css" in response.content


def test_a_student_reads_how_to_play(client, ava):
    from classrooms.middleware import STUDENT_SESSION_KEY

    session = client.session
    session[STUDENT_SESSION_KEY] = ava.pk
    session.save()
    response = client.get("/games/wordup/how-to-play/")
    assert response.status_code == 200 and b"Say it again" in response.content
