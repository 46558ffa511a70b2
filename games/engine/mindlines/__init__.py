"""Mind the Lines (game name ``mindlines``): a cooperative drawing game. See docs/games/mindlines.md.

The parts: :mod:`.boards` (the scribble boards and stroke validation), :mod:`.rules` (setup, moves,
deadlines, the rounds and the result), :mod:`.view` (what each viewer sees), :mod:`.bot` (computer
players) and :mod:`.facts` (learning facts); this module assembles them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.engine import core
from games.engine.core import Action, Event, Rng, State, Viewer

from . import bot, facts, rules, view

__all__ = ["MindTheLines"]


class MindTheLines(core.Game):
    name = rules.GAME
    title = "Mind the Lines"
    min_players = 2
    max_players = 8
    default_config = rules.DEFAULT_CONFIG

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

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return view.build_view(state, viewer)

    def views(self, state: State, viewers: list[Viewer]) -> Iterator[dict[str, Any]]:
        """What every viewer sees (the drawings, the history, the log) is built once per call."""
        public = view.public_part(state)
        return (view.build_view(state, viewer, public) for viewer in viewers)

    def view_parts(
        self, state: State, viewers: list[Viewer]
    ) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
        """Every viewer shares one common part, the public one (the drawings shown, the history, the
        log: most of a view's bytes), so the fan-out serialises it once a table, not once a device."""
        public = view.public_part(state)
        return (("public", public, view.own_part(state, viewer)) for viewer in viewers)

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def outcome(self, state: State) -> dict[str, Any] | None:
        return rules.outcome_of(state)

    def outcome_when_ended(self, state: State) -> dict[str, Any]:
        return rules.outcome_when_ended(state)

    def facts(self, events: list[Event]) -> list[dict[str, Any]]:
        return facts.facts_from(events)

    def bot_action(self, state: State, player: str, rng: Rng) -> Action:
        return bot.choose(state, player, rng)
