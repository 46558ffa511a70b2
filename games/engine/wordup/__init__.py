"""Word Up, the ESL vocabulary board game (game name ``wordup``). See docs/games/wordup.md.

The parts: :mod:`.board` (squares and cards), :mod:`.questions` and :mod:`.checking` (the question bank and
marking), :mod:`.rules` (setup, moves, deadlines, the flow of a turn), :mod:`.view` (what each viewer
sees), :mod:`.bot` (computer players) and :mod:`.facts` (learning facts); this module assembles them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.engine import core
from games.engine.core import Action, Event, Game, Rng, State, Viewer

from . import bot, facts, rules, view

__all__ = ["WordUp"]


class WordUp(Game):
    name = rules.GAME
    title = "Word Up"
    min_players = rules.MIN_PLAYERS
    max_players = rules.MAX_PLAYERS
    default_config = rules.DEFAULT_CONFIG
    shared_keys = ("bank",)  # never written after setup (see rules.copy_state)

    def setup(self, config: dict[str, Any], seed: str, now: float = 0.0) -> State:
        return rules.new_state(config, seed, now)

    def current_players(self, state: State) -> list[str]:
        return rules.current_players(state)

    def legal_actions(self, state: State, player: str) -> list[Action]:
        return rules.legal_moves(state, player)

    def apply(self, state: State, player: str, action: Action, now: float) -> tuple[State, list[Event]]:
        core.refuse_after_deadline(state, player, now)
        return rules.apply_move(state, player, action, now)

    def apply_in_place(self, state: State, player: str, action: Action, now: float) -> list[Event]:
        core.refuse_after_deadline(state, player, now)
        return rules.apply_move_in_place(state, player, action, now)

    def on_deadline(self, state: State, now: float) -> tuple[State, list[Event]]:
        return rules.deadline_move(state, now)

    def on_deadline_in_place(self, state: State, now: float) -> list[Event]:
        return rules.deadline_move_in_place(state, now)

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return view.build_view(state, viewer)

    def views(self, state: State, viewers: list[Viewer]) -> Iterator[dict[str, Any]]:
        public = view.public_view(state, shared=True)
        return (view.build_view(state, viewer, public) for viewer in viewers)

    def view_parts(
        self, state: State, viewers: list[Viewer]
    ) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
        """Every viewer shares the public view (the board, the tokens, the question, the log), serialised
        once a table by the fan-out; each device's own part is who it is and its moves."""
        public = view.public_view(state, shared=True)
        return (("public", public, view.own_part(state, viewer)) for viewer in viewers)

    def is_over(self, state: State) -> bool:
        return state["phase"] == rules.OVER

    def outcome(self, state: State) -> dict[str, Any] | None:
        return rules.outcome_of(state)

    def outcome_when_ended(self, state: State) -> dict[str, Any] | None:
        return rules.outcome_when_ended(state)

    def facts(self, events: list[Event]) -> list[dict[str, Any]]:
        return facts.facts_from(events)

    def redact_action(self, state: State, player: str, action: Action) -> Action:
        return rules.redacted_answer(state, action)

    def bot_action(self, state: State, player: str, rng: Rng) -> Action:
        return bot.choose(state, player, rng)
