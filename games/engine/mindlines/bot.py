"""Mind the Lines' computer players. They may read the whole state: they are the server's own players."""

from __future__ import annotations

from games.engine.core import Action, Rng, State

from . import boards
from .rules import DEFAULT_BOT_ACCURACY, ROTATIONS, lines_of, open_cards


def _bot_drawing_move(state: State, player: str, rng: Rng) -> Action:
    drawing = state["drawings"][player]
    strokes = len(drawing["strokes"])
    if strokes < 2 or (strokes < 5 and rng.random() < 0.5):
        stroke = boards.walk_stroke(lines_of(state, drawing), rng, rng.randint(2, 6))
        return {"type": "stroke", "segments": stroke}
    if drawing["rotation"] == 0 and rng.random() < 0.2:
        return {"type": "rotate", "rotation": rng.choice(ROTATIONS[1:])}
    return {"type": "done"}


def _bot_exclusion(state: State, player: str, rng: Rng) -> Action:
    accuracy = state["bots"].get(player, DEFAULT_BOT_ACCURACY)
    mine = set(state["hands"][player])
    decoys = set(state["decoys"])
    options = [card for card in open_cards(state) if state["cards"][card] not in mine]
    good = [card for card in options if state["cards"][card] in decoys]
    bad = [card for card in options if state["cards"][card] not in decoys]
    wants_decoy = rng.random() < accuracy
    pick_from = good if (wants_decoy and good) or not bad else bad
    return {"type": "exclude", "card": rng.choice(pick_from)}


def choose(state: State, player: str, rng: Rng) -> Action:
    phase = state["phase"]
    if phase == "looking":
        return {"type": "ready"}
    if phase == "scribbling":
        return _bot_drawing_move(state, player, rng)
    if phase == "prophesying":
        return _bot_exclusion(state, player, rng)
    return {"type": "continue"}
