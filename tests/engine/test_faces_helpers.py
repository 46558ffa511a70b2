"""Shared helpers for the Line-Up (faces) tests: configs, reading secrets from a state, scripted moves,
and a bot match that records each log entry's events (as the runtime stores them)."""

from __future__ import annotations

from games.engine import core
from games.engine.faces import Faces

GAME = Faces()
SEED = "faces-test-seed-6c1f0e2b9d"
P1, P2 = "p1", "p2"


def config(bot1=None, bot2=None, **settings):
    players = [{"id": P1, "name": "Ava"}, {"id": P2, "name": "Ben"}]
    for player, bot in zip(players, (bot1, bot2), strict=True):
        if bot:
            player["bot"] = bot
    return {"players": players, **settings}


def new_game(seed=SEED, now=0.0, **kwargs):
    return GAME.setup(config(**kwargs), seed, now=now)


def other(player):
    return P2 if player == P1 else P1


def given_face(state, player):
    """The face ``player`` was given (the one the other player is looking for)."""
    return state["rounds"][state["round"]]["secret"][player]


def target(state, player):
    """The face ``player`` is looking for."""
    return given_face(state, other(player))


def face(state, face_id):
    return next(f for f in state["rounds"][state["round"]]["board"] if f["id"] == face_id)


def ask(state, player, question, now=1.0):
    return GAME.apply(state, player, {"type": "ask", "question": question}, now)


def name(state, player, face_id, now=1.0):
    return GAME.apply(state, player, {"type": "name", "face": face_id}, now)


def wrong_face(state, player):
    return next(f for f in state["left"][player] if f != target(state, player))


def win_round(state, winner, now=1.0):
    """Finish the current round with ``winner`` winning (by naming right, or the other naming wrong)."""
    if state["turn"] == winner:
        return name(state, winner, target(state, winner), now)
    loser = other(winner)
    return name(state, loser, wrong_face(state, loser), now)


def skip_review(state, now=2.0):
    state, _ = GAME.on_deadline(state, now)
    return state


def viewers(state):
    out = {p: {"role": "player", "player": p} for p in state["players"]}
    out.update(teacher={"role": "teacher"}, projector={"role": "projector"}, spectator={"role": "spectator"})
    return out


def play_logged(cfg, seed, bot_seed="bots", step=1.0, max_steps=5000):
    """A bot match whose log entries carry the events they produced; returns (state, log)."""
    log = []
    steps = core.bot_moves(GAME, cfg, seed, bot_seed=bot_seed, step_seconds=step)
    for moves, (state, entry, events) in enumerate(steps):
        if moves >= max_steps:
            break
        log.append({**entry, "events": events} if moves else entry)
        if GAME.is_over(state):
            return state, log
    raise AssertionError("match did not end")
