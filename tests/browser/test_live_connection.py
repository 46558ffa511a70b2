"""static/js/live.js with a stand-in websocket and the page's clock in the test's hands: a move the server
could not save yet (its database restarting: error "unavailable") is kept and sent again with the same
key, the banner says so, and the move's promise settles only with the server's final answer."""

from __future__ import annotations

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
LIVE_JS = ROOT / "static" / "js" / "live.js"
pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><html lang="en"><body>
<script>
  // A websocket that opens at once and keeps what the page sends; the test answers for the server.
  window.sent = [];
  class StandInSocket extends EventTarget {
    constructor(url) { super(); this.url = url; this.readyState = 0; window.socket = this;
      setTimeout(() => { this.readyState = 1; this.dispatchEvent(new Event("open")); }, 0); }
    send(data) { window.sent.push(JSON.parse(data)); }
    close() { this.readyState = 3; }
    closedByServer(code) {
      this.readyState = 3; this.dispatchEvent(Object.assign(new Event("close"), { code })); }
    answer(message) { this.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(message) })); }
  }
  StandInSocket.OPEN = 1; StandInSocket.CLOSED = 3;
  window.WebSocket = StandInSocket;
</script>
<script>%(live_js)s</script>
<script>
  window.statuses = []; window.messages = []; window.settled = null;
  window.connection = new Classplay.LiveConnection({
    url: "/ws/session/1/",
    onMessage: (message) => window.messages.push(message),
    onStatus: (status) => window.statuses.push(status),
  });
</script>
</body></html>"""


@pytest.fixture
def page(new_page):
    page = new_page()
    page.clock.install()
    page.set_content(PAGE % {"live_js": LIVE_JS.read_text()})
    page.clock.run_for(10)
    page.wait_for_function("() => window.statuses.includes('open')")
    return page


def _act(page) -> str:
    page.evaluate(
        "() => { connection.act(1, {type: 'pick', card: 3}).then("
        "(ack) => (window.settled = ['ack', ack.seq]),"
        " (error) => (window.settled = ['error', error.code])); }"
    )
    actions = page.evaluate("() => sent.filter((m) => m.type === 'action')")
    assert len(actions) == 1
    return actions[0]["key"]


def _answer(page, message: dict) -> None:
    page.evaluate("message => socket.answer(message)", message)


def _actions_sent(page) -> list[dict]:
    return page.evaluate("() => sent.filter((m) => m.type === 'action')")


def test_an_unavailable_move_is_sent_again_with_the_same_key_until_the_server_saves_it(page):
    key = _act(page)
    _answer(page, {"type": "error", "code": "unavailable", "key": key, "message": "not saved yet"})
    assert page.evaluate("() => statuses.at(-1)") == "saving"
    assert page.evaluate("() => settled") is None  # not a refusal: the move is still on its way
    assert page.evaluate("() => messages.length") == 0  # the game screen is not told of it
    page.clock.run_for(1000)  # the first resend comes within a second
    assert [action["key"] for action in _actions_sent(page)] == [key, key]

    _answer(page, {"type": "error", "code": "unavailable", "key": key, "message": "not saved yet"})
    page.clock.run_for(900)
    assert len(_actions_sent(page)) == 2  # the second wait is longer (1 to 2 s)
    page.clock.run_for(1200)
    assert len(_actions_sent(page)) == 3

    _answer(page, {"type": "ack", "key": key, "seq": 7, "duplicate": False})
    assert page.evaluate("() => settled") == ["ack", 7]
    assert page.evaluate("() => statuses.at(-1)") == "open"
    page.clock.run_for(10_000)
    assert len(_actions_sent(page)) == 3  # nothing more once it is saved


def test_a_real_refusal_after_an_unavailable_one_reaches_the_game(page):
    key = _act(page)
    _answer(page, {"type": "error", "code": "unavailable", "key": key, "message": "not saved yet"})
    page.clock.run_for(1000)
    _answer(page, {"type": "error", "code": "not_your_turn", "key": key, "message": "Wait for your turn."})
    assert page.evaluate("() => settled") == ["error", "not_your_turn"]
    assert page.evaluate("() => statuses.at(-1)") == "open"


def test_try_now_sends_a_waiting_move_at_once(page):
    key = _act(page)
    _answer(page, {"type": "error", "code": "unavailable", "key": key, "message": "not saved yet"})
    page.evaluate("() => connection.resendNow()")
    assert [action["key"] for action in _actions_sent(page)] == [key, key]
    page.clock.run_for(10_000)
    assert len(_actions_sent(page)) == 2  # its timer was cancelled: not sent a third time


def test_a_device_the_server_moves_to_another_process_reconnects_at_once_and_resends_its_move(page):
    key = _act(page)
    # The status is read in the same step as the close: the installed clock also runs on its own, and on
    # a busy machine the reconnect's short timer fired between two steps (the status already "open").
    status = page.evaluate(
        "() => { window.before = socket; socket.closedByServer(4010); return statuses.at(-1); }"
    )
    assert status == "reconnecting"  # not "offline": nothing is wrong
    page.clock.run_for(600)  # within half a second, not after a backoff
    assert page.evaluate("() => socket !== before")
    page.clock.run_for(10)
    assert page.evaluate("() => statuses.at(-1)") == "open"
    hello = page.evaluate("() => sent.filter((m) => m.type === 'hello')")
    assert len(hello) == 2  # it resyncs from what it holds
    assert [action["key"] for action in _actions_sent(page)] == [key, key]  # the same move, the same key
