"""Line-Up (game name ``faces``): the seeded Guess Who game. See docs/games/faces.md.

The parts, each importing only those below it: :mod:`.features` (the pad, the boards and the questions a
board in play allows), :mod:`.rules` (setup, moves, deadlines, results), :mod:`.view` (what each viewer
sees), :mod:`.bot` with :mod:`.strategy` (computer players), :mod:`.facts` (learning facts) and
:mod:`.verify` (checking a finished match from its seed). This module assembles them into the engine.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.engine import core
from games.engine.core import Action, Event, Rng, State, Viewer

from . import bot, facts, rules, view
from .rules import commitment_of
from .verify import verify_with

__all__ = ["Faces", "commitment_of", "verify"]


class Faces(core.Game):
    name = rules.GAME
    title = "Line-Up"
    min_players = 2
    max_players = 2
    default_config: dict[str, Any] = rules.DEFAULT_CONFIG
    #: The rounds' boards and the faces given (27 of a state's 30 KB) are drawn at set-up and never written
    #: again (``rules.clone`` shares them): stored once per match, not again with every move.
    shared_keys = ("rounds",)

    def setup(self, config: dict[str, Any], seed: str, now: float = 0.0) -> State:
        return rules.new_state(config, seed, now)

    def current_players(self, state: State) -> list[str]:
        return rules.current_players(state)

    def legal_actions(self, state: State, player: str) -> list[Action]:
        return rules.legal_moves(state, player)

    def apply(self, state: State, player: str, action: Action, now: float) -> tuple[State, list[Event]]:
        core.refuse_after_deadline(state, player, now)
        return rules.apply_move(state, player, action, now)

    def on_deadline(self, state: State, now: float) -> tuple[State, list[Event]]:
        return rules.deadline_move(state, now)

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def outcome(self, state: State) -> dict[str, Any] | None:
        return rules.outcome_of(state)

    def outcome_when_ended(self, state: State) -> dict[str, Any] | None:
        return rules.outcome_when_ended(state)

    def facts(self, events: list[Event]) -> list[dict[str, Any]]:
        return facts.facts_of(events)

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return view.view_of(state, viewer)

    def view_parts(
        self, state: State, viewers: list[Viewer]
    ) -> Iterator[tuple[str | None, dict[str, Any], dict[str, Any]]]:
        return view.parts_of(state, viewers)

    def bot_action(self, state: State, player: str, rng: Rng) -> Action:
        return bot.choose_action(state, player, rng)


def verify(config: dict[str, Any], seed: str, salt: str, commitment: str, log: list[dict[str, Any]]) -> dict:
    """Check a finished match from its seed (see :mod:`.verify`)."""
    return verify_with(Faces(), config, seed, salt, commitment, log)
