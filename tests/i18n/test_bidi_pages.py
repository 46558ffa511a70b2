"""On an Arabic page a name, a game's or session's title and an address keep their own order: each is
isolated (`<bdi>`, or FSI … PDI where no markup can go), so "Ava I." and "Line Up!" never show as
".Ava I" and "!Line Up"; direction arrows are marked to mirror (docs/i18n.md, "Right to left")."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from classrooms.models import Student
from classrooms.templatetags.languages import isolated
from tests.factories import started_session

pytestmark = pytest.mark.django_db
FSI, PDI = "\u2068", "\u2069"


def test_a_students_pages_isolate_their_name_and_the_games_title(
    student_client, class_7b, ms_rivera, ava, ben
):
    Student.objects.filter(pk=ava.pk).update(language="ar")
    session = started_session(class_7b, ms_rivera, [ava, ben], "lineup")
    client = student_client(ava)
    home = client.get(reverse("student_home")).content.decode()
    assert "<bdi>Ava M.</bdi>" in home  # "Welcome, Ava M.!" and "Signed in as Ava M."
    play = client.get(reverse("games:play", args=[session.pk])).content.decode()
    assert '<h1 class="play-bar-title"><bdi>Line Up!</bdi></h1>' in play
    assert f"<title>{FSI}Line Up!{PDI}" in play
    assert '<p class="play-bar-who"><bdi>Ava M.</bdi></p>' in play


def test_the_teachers_screens_isolate_titles_names_and_mark_arrows(client_of, class_7b, ms_rivera, ava, ben):
    ms_rivera.language = "ar"
    ms_rivera.save()
    session = started_session(class_7b, ms_rivera, [ava, ben], "lineup")
    client = client_of(ms_rivera)
    projector = client.get(reverse("games:projector", args=[session.pk])).content.decode()
    assert f"<h1><bdi>{session}</bdi></h1>" in projector
    assert f"<title>{FSI}{session}{PDI}" in projector  # no markup in a <title>
    console = client.get(reverse("games:console", args=[session.pk])).content.decode()
    assert f"<bdi>{session.game_full_name}</bdi> · <bdi>{class_7b}</bdi>" in console
    roster = client.get(reverse("classroom_detail", args=[class_7b.pk])).content.decode()
    assert '<th scope="row"><bdi>Ava M.</bdi><br>' in roster
    student = client.get(reverse("student_detail", args=[ava.pk]) + f"?class={class_7b.pk}").content.decode()
    assert "<h1><bdi>Ava M.</bdi></h1>" in student
    assert '<span class="flip-rtl" aria-hidden="true">←</span>' in student


def test_the_join_page_arrow_mirrors_and_the_projector_address_reads_left_to_right(client):
    page = client.get(reverse("join"), headers={"accept-language": "ar"}).content.decode()
    assert '<span class="flip-rtl" aria-hidden="true">→</span>' in page
    from pathlib import Path

    css = Path(__file__).resolve().parents[2] / "static" / "css"
    assert ".flip-rtl:dir(rtl) { display: inline-block; transform: scaleX(-1); }" in (
        css / "classplay.css"
    ).read_text("utf-8")
    assert ".projector-join-text strong { direction: ltr; unicode-bidi: isolate; }" in (
        css / "live.css"
    ).read_text("utf-8")


def test_an_attribute_isolates_a_name_on_a_right_to_left_page_or_around_arabic_only():
    """Attributes have no <bdi>: the isolates go where the direction can change (an Arabic page, an
    Arabic name), and a Latin name on an English page stays as written, so its accessible name
    ("Login card for Ben K.") is found as a person or a tool reads it."""
    with translation.override("en"):
        assert isolated("Ben K.") == "Ben K."
        assert isolated("ليلى ح.") == "\u2068ليلى ح.\u2069"
    with translation.override("ar"):
        assert isolated("Ben K.") == "\u2068Ben K.\u2069"
