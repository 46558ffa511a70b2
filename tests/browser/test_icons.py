"""Icons on a classroom PC or projector whose only fonts are DejaVu (Debian's fonts-dejavu-core, as on this
test machine): every icon is drawn in SVG, so no page shows an empty box where an emoji was. Each page is
checked for any character its font cannot draw, found by drawing it: a missing glyph draws the same box
as a code point no font has."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.browser import server_side
from tests.browser.fit import screenshot
from tests.browser.test_accessibility import reported_class  # noqa: F401 (a fixture: a class with reports)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
off_loop = server_side.call

#: The characters of the page (its text, hidden or not, and its ::before and ::after) that the page's
#: fonts cannot draw: each is drawn in its element's font and compared with a code point no font has.
MISSING_GLYPHS = r"""() => {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 64;
  const pen = canvas.getContext("2d", { willReadFrequently: true });
  const draw = (text, family) => {
    pen.clearRect(0, 0, 64, 64);
    pen.font = `32px ${family}`;
    pen.fillText(text, 8, 44);
    return pen.getImageData(0, 0, 64, 64).data.join();
  };
  const seen = new Map();
  const note = (text, el) => {
    const family = getComputedStyle(el).fontFamily;
    for (const ch of text) {
      const drawn = ch.codePointAt(0) > 0x2000 && !/[\s\u2066-\u2069\u200e\u200f]/u.test(ch);
      if (drawn) seen.set(ch + "|" + family, [ch, family]);
    }
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (el && !el.closest("script, style, template")) note(node.data, el);
  }
  for (const el of document.body.querySelectorAll("*")) {
    for (const where of ["::before", "::after"]) {
      const content = getComputedStyle(el, where).content;
      if (content && content.startsWith('"')) note(content.slice(1, -1), el);
    }
  }
  const missing = new Set();
  for (const [ch, family] of seen.values()) {
    if (draw(ch, family) === draw("\u{10FFFD}", family)) missing.add(ch);
  }
  return [...missing];
}"""

ICONS = "() => [...document.querySelectorAll('.icon')].map((icon) => icon.tagName.toLowerCase())"


def _assert_drawn(page, label: str, icons: int = 0) -> None:
    """Nothing on the page is an empty box, and its icons (at least ``icons``) are SVG drawings."""
    missing = page.evaluate(MISSING_GLYPHS)
    assert missing == [], f"{label}: no font here draws {missing}"
    shown = page.evaluate(ICONS)
    assert len(shown) >= icons and set(shown) <= {"svg"}, f"{label}: icons {shown}"
    screenshot(page, f"icons {label}")


def test_the_teachers_pages_draw_every_icon(live_site, signed_in, class_7b, ms_rivera, ava, ben):
    from games import services
    from tests.factories import enrolled_student, started_session

    def set_up():
        session = started_session(class_7b, ms_rivera, [ava, ben], "lineit")
        services.session_pause(session=session, by=ms_rivera)
        late = enrolled_student(class_7b, display_name="Zofia W.")
        services.session_join(session=session, student=late)  # waits to be let in: the console's hourglass
        return session

    session = off_loop(set_up)
    page = signed_in(live_site, user=ms_rivera, width=1366, height=650)
    for label, path, icons in [
        ("dashboard", reverse("dashboard"), 3),  # New class, Schedule a game, Set homework; the language
        ("question bank", reverse("questions:bank", args=["lineup"]), 2),
        ("Line-Up's rules", reverse("games:game_rules", args=["faces"]), 2),
    ]:
        page.goto(live_site + path)
        _assert_drawn(page, label, icons)
    page.goto(live_site + reverse("games:console", args=[session.pk]))
    waiting = page.locator(".participant.is-waiting .participant-name")
    waiting.wait_for()
    _assert_drawn(page, "console")
    assert "url(" in waiting.evaluate("(el) => getComputedStyle(el, '::after').maskImage")


@pytest.mark.usefixtures("reported_class")
def test_the_students_pages_draw_every_icon(live_site, signed_in, class_7b, ms_rivera, ava, ben):
    from games import services
    from tests.factories import started_session

    page = signed_in(live_site, student=ava, width=1366, height=650)
    page.goto(live_site + "/me/")
    _assert_drawn(page, "student home, no game open", 2)  # the language and the hourglass
    page.goto(live_site + reverse("reports:me"))
    _assert_drawn(page, "my progress", 1)

    def paused_game():
        session = started_session(class_7b, ms_rivera, [ava, ben], "lineit")
        return services.session_pause(session=session, by=ms_rivera)

    session = off_loop(paused_game)
    page.goto(live_site + reverse("games:play", args=[session.pk]))
    page.get_by_text("Paused. Every clock has stopped; wait for your teacher.").wait_for()
    _assert_drawn(page, "paused game", 2)


def test_the_results_draw_the_trophy(live_site, signed_in, class_7b, ms_rivera, ava):
    from games import services
    from games.models import GameTable
    from tests.factories import started_session

    def a_match_won():
        session = started_session(class_7b, ms_rivera, [ava], "faces")  # against the computer
        table = GameTable.objects.get(session=session)
        services.action_submit(
            table_id=table.pk, player=f"s{ava.pk}", action={"type": "resign"}, key="resign"
        )
        return session

    session = off_loop(a_match_won)
    page = signed_in(live_site, user=ms_rivera, width=1366, height=650)
    page.goto(live_site + reverse("games:results", args=[session.pk]))
    page.locator(".winners").first.wait_for()
    _assert_drawn(page, "results", 2)
