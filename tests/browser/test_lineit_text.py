"""Every message Line-it's screens produce, checked for slips: a whole game at a table of three played by the
computer players' choices, drawn after every move on each player's device, the console (compact and full)
and the projector, with names that end in an initial's dot ("Aisha K."), then the game ended by the
teacher; and every kind of log entry, the viewer's own and another player's, spoken and shown."""

from __future__ import annotations

import json

import pytest

from games.engine import core
from games.engine.lineit import LineIt
from tests.browser.harness import in_time
from tests.browser.text_slips import COLLECT, module_pages, repeated_lines, slips_in

pytestmark = [pytest.mark.browser]
GAME = LineIt()
SEATS = [{"id": "a", "name": "Aisha K."}, {"id": "b", "name": "Ben O."}, {"id": "c", "name": "Chloe L."}]
VIEWERS = {
    "a": ("player", "a", False),
    "b": ("player", "b", False),
    "console": ("teacher", None, True),
    "board": ("teacher", None, False),
    "projector": ("projector", None, False),
}


def pages_for(new_page):
    return module_pages(new_page, VIEWERS, "lineit")


def problems_on(pages, state, seq, status, where):
    problems = []
    for name, page in pages.items():
        role, player, _compact = VIEWERS[name]
        viewer = {"role": "player", "player": player} if role == "player" else {"role": role}
        view = json.loads(json.dumps(GAME.view(state, viewer)))
        page.evaluate(
            "t => window.draw(t)", {"table": 7, "number": 1, "seq": seq, "status": status, "view": view}
        )
        items = page.evaluate(COLLECT)
        problems += [f"{where}, {name}: {problem}" for problem in slips_in(items)]
        if name != "board":
            shown = "\n".join(
                i["text"] for i in items if i["sentence"] and not i.get("item") and i["kind"] != "announced"
            )
            problems += [f"{where}, {name}: said twice: {line!r}" for line in repeated_lines(shown)]
        page.evaluate("() => { window.announced.length = 0; }")
    return problems


def test_a_whole_game_says_everything_right(new_page):
    state = GAME.setup({**GAME.default_config, "players": SEATS, "level": 5, "turn_seconds": 30}, "text-seed")
    pages = pages_for(new_page)
    rng = core.Rng("text")
    problems = problems_on(pages, state, 1, "playing", "the start")
    now, seq = 100.0, 1
    kinds = set()
    while not GAME.is_over(state) and seq < 400:
        seq += 1
        now += 5
        if seq % 17 == 0:  # now and then the clock runs out and the game plays the default move
            state, events = GAME.on_deadline(state, now)
        else:
            player = GAME.current_players(state)[0]
            state, events = GAME.apply(
                state, player, GAME.bot_action(state, player, rng), in_time(state, now)
            )
        kinds |= {entry["type"] for entry in state["log"]}
        if seq % 3 == 0 or GAME.is_over(state) or any(e["type"] in ("jackpot", "score") for e in events):
            problems += problems_on(
                pages, state, seq, "finished" if GAME.is_over(state) else "playing", f"move {seq}"
            )
    assert GAME.is_over(state)
    assert {"take", "place", "score", "timeout", "end_turn", "final", "game_over"} <= kinds
    assert problems == []


def test_a_game_the_teacher_ended_says_so(new_page):
    state = GAME.setup(
        {**GAME.default_config, "players": SEATS, "level": 3, "turn_seconds": 30}, "text-seed-2"
    )
    pages = pages_for(new_page)
    rng = core.Rng("text")
    for step in range(40):
        player = GAME.current_players(state)[0]
        state, _events = GAME.apply(
            state, player, GAME.bot_action(state, player, rng), in_time(state, 100.0 + step)
        )
    problems = problems_on(pages, state, 2, "playing", "playing")
    problems += problems_on(pages, state, 3, "ended", "ended by the teacher")
    assert problems == []
    text = pages["a"].locator("#root").inner_text()
    assert "The teacher ended this game." in text and "Scores when the game was ended" in text


def test_every_kind_of_log_entry_reads_right_for_its_player_and_the_others(new_page):
    page = pages_for(new_page)["a"]
    card = {"id": "k001", "kind": "number", "face": "2³", "colour": "red", "symbol": "heart"}
    bet = {"id": "k099", "kind": "bet", "value": 4}
    entries = [
        {"type": "round", "round": 3, "first": "a"},
        {"type": "round", "round": 3, "first": "b"},
        {"type": "take", "to": "hand", "card": card},
        {"type": "take", "to": "hand"},
        {"type": "take", "to": "new_line", "card": card},
        {"type": "take", "to": "new_line", "card": bet},
        {"type": "place", "source": "market", "card": card, "sets_direction": True, "direction": "up"},
        {"type": "place", "source": "hand", "card": card, "sets_direction": True, "direction": "down"},
        {"type": "place", "source": "market", "card": bet},
        {"type": "score", "banked": 1, "bet": {"bet": 4, "after": 5, "won": True}},
        {"type": "score", "banked": 0, "bet": {"bet": 3, "after": 1, "won": False}},
        {"type": "score", "banked": 7},
        {"type": "jackpot", "colour": "red", "count": 1},
        {"type": "jackpot", "colour": "yellow", "count": 6},
        {"type": "leftovers", "moved": {"red": ["k1"], "blue": []}},
        {"type": "leftovers", "moved": {"red": ["k1"], "blue": ["k2", "k3"]}},
        {"type": "final"},
        {"type": "hand_discarded", "count": 1},
        {"type": "hand_discarded", "count": 2},
        {"type": "end_turn"},
        {"type": "timeout"},
        {"type": "game_over"},
    ]
    view = {"players": [{"id": pid["id"], "name": pid["name"]} for pid in SEATS]}
    texts = page.evaluate(
        """([entries, view]) => {
          const out = [];
          for (const entry of entries) for (const player of ["a", "b"]) {
            const text = window.gameModule.helpers.logText({ ...entry, player }, view, "a");
            if (text) out.push({ kind: "log", sentence: true, text });
          }
          return out;
        }""",
        [entries, view],
    )
    assert len(texts) >= 30
    assert slips_in(texts) == []
