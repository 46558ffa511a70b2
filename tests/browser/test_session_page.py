"""static/js/session.js, the live page every game screen sits in, driven in chromium with a stand-in
connection and a stand-in game: an update never takes a button away from under a finger."""

from __future__ import annotations

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SESSION_JS = ROOT / "static" / "js" / "session.js"
pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><html lang="en"><body>
<div data-live-session data-session="1" data-role="player" data-game="stand-in"><div data-tables></div></div>
<script>
  window.Classplay = {
    LiveConnection: class {
      constructor() {} act() {} serverNow() { return Date.now() / 1000; }
      resendNow() { window.resent = true; }
    },
    countdown() {},
  };
</script>
<script>%(session_js)s</script>
<script>
  window.clicked = [];
  Classplay.registerGame("stand-in", {
    render(container, table) {
      // Like every game: the whole table drawn afresh on each update.
      const button = document.createElement("button");
      button.textContent = "Next round (view " + table.seq + ")";
      button.style.cssText = "display:block;margin:40px;width:300px;height:80px";
      button.onclick = () => window.clicked.push(table.seq);
      const note = document.createElement("p");
      note.textContent = "Plain text " + table.seq;
      container.replaceChildren(button, note);
    },
  });
</script>
</body></html>"""


@pytest.fixture
def page(new_page):
    page = new_page()
    page.set_content(PAGE % {"session_js": SESSION_JS.read_text()})
    page.wait_for_function("() => window.Classplay.page !== undefined")
    _update(page, 1)
    return page


def _update(page, seq: int) -> None:
    message = "{type: 'table', table: 1, number: 1, seq, status: 'playing', view: {}}"
    page.evaluate(f"seq => Classplay.page.receive({message})", seq)


def _press(page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()


def test_an_update_during_a_tap_is_drawn_after_the_taps_click(page):
    _press(page, "button")
    _update(page, 2)
    _update(page, 3)
    assert page.locator("button").inner_text() == "Next round (view 1)", "the button stays under the finger"
    page.mouse.up()
    page.wait_for_function("() => document.querySelector('button').textContent.endsWith('(view 3)')")
    assert page.evaluate("window.clicked") == [1]  # the tap became its click, then the newest view came


def test_without_a_press_or_on_plain_text_updates_are_drawn_at_once(page):
    _update(page, 2)
    assert page.locator("button").inner_text() == "Next round (view 2)"
    _press(page, "p")
    _update(page, 3)
    assert page.locator("p").inner_text() == "Plain text 3"
    page.mouse.up()


def test_a_finger_that_slides_off_the_button_releases_the_updates(page):
    _press(page, "button")
    _update(page, 2)
    page.mouse.move(5, 600)
    page.mouse.up()
    page.wait_for_function("() => document.querySelector('button').textContent.endsWith('(view 2)')")
    assert page.evaluate("window.clicked") == []


def test_a_long_press_holds_the_updates_back_a_moment_only(page):
    _press(page, "button")
    _update(page, 2)
    page.wait_for_function(
        "() => document.querySelector('button').textContent.endsWith('(view 2)')", timeout=3000
    )
    page.mouse.up()


def test_a_move_the_server_could_not_save_yet_is_said_to_be_kept(page):
    page.evaluate(
        """() => {
          const banner = document.createElement("div");
          banner.innerHTML = "<span data-banner-text></span><button data-banner-retry>Try now</button>";
          banner.hidden = true;
          document.body.append(banner);
          Classplay.page.banner = banner;
          Classplay.page.showConnection("saving", {});
        }"""
    )
    assert page.get_by_text("Your move is kept and will be sent again.").is_visible()
    page.get_by_role("button", name="Try now").click()
    assert page.evaluate("window.resent") is True
    page.evaluate("() => Classplay.page.showConnection('open', {})")
    assert not page.get_by_text("Your move is kept").is_visible()
