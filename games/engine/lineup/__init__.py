"""Line Up!: two teams (blue and yellow) race their pawns along a track by putting five items in order.

A question shows a heading, the order asked for and five numbered cards; a team answers by arranging its
cards 1-5. A correct answer is a card in the right place, so a team scores 0, 1, 2, 3 or 5 (never 4).
The track has three colour zones (purple, orange, pink), then the final 5-space; star spaces are scattered
over it. The colour of the zone of the team in front decides the mini-game both teams play:

* purple: both answer, hidden from each other; each moves as many spaces as it has right;
* orange: both predict how many they will get right (1, 2, 3 or 5), the predictions are shown together,
  then both answer; a team with at least its prediction moves the prediction, otherwise nothing;
* pink: both bid (1, 2, 3 or 5) in secret; equal bids bid again; the higher bidder answers face up and
  moves its bid if it gets at least that many right, otherwise the other team moves the bid.

Landing on a star space earns an extra question alone (lay cards one at a time, stop or go on; the first
mistake moves the other team). A team on the 5-space answers a last question with one rearrangement
allowed; all five right wins, otherwise the other team moves 5. Both on the 5-space: a pink-bid tie-break.

Team play: every member moves cards on the team's shared rack and proposes predictions, bids and star
moves; the question's captain (rotating through the members) locks the team's choice, or the deadline
does. Each member's last ordering before the lock is kept for their learning facts.

The parts: :mod:`.rules` (setup, latecomers, moves, deadlines, the result), :mod:`.view` (what each viewer
sees), :mod:`.bot` (computer players) and :mod:`.facts` (learning facts); this module assembles them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.engine import core
from games.engine.core import Event, State

from . import bot, facts, rules, view
from .rules import BOARDS, CARDS, TEAMS, right_count

__all__ = ["BOARDS", "CARDS", "TEAMS", "LineUp", "right_count"]


class LineUp(core.Game):
    name = rules.GAME
    title = rules.TITLE
    min_players = 2
    max_players = 60
    seats_latecomers = True
    default_config: dict[str, Any] = rules.DEFAULT_CONFIG
    #: The session's questions (most of a state's bytes) are never written after setup (rules.copy_state):
    #: stored once for every table that has them, not again with every move.
    shared_keys = ("questions",)

    def setup(self, config: dict[str, Any], seed: str, now: float = 0.0) -> State:
        return rules.new_state(config, seed, now)

    def join(self, state: State, info: dict[str, Any], now: float) -> tuple[State, list[Event]]:
        return rules.join_player(state, info, now)

    def current_players(self, state: State) -> list[str]:
        return rules.current_players(state)

    def legal_actions(self, state: State, player: str) -> list[dict[str, Any]]:
        return rules.legal_moves(state, player)

    def apply(
        self, state: State, player: str, action: dict[str, Any], now: float
    ) -> tuple[State, list[Event]]:
        new = rules.copy_state(state)
        return new, self.apply_in_place(new, player, action, now)

    def apply_in_place(self, state: State, player: str, action: dict[str, Any], now: float) -> list[Event]:
        """Without a copy: the rules check everything before they change anything."""
        core.refuse_after_deadline(state, player, now)
        return rules.apply_in_place(state, player, action, now)

    def on_deadline(self, state: State, now: float) -> tuple[State, list[Event]]:
        return rules.deadline_move(state, now)

    def view(self, state: State, viewer: dict[str, Any]) -> dict[str, Any]:
        return view.build_view(state, viewer, {})

    def views(self, state: State, viewers: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        """The part every student's device shares, and each team's part, are built once per call."""
        shared: dict[Any, Any] = {}
        return (view.build_view(state, viewer, shared) for viewer in viewers)

    def view_parts(
        self, state: State, viewers: list[dict[str, Any]]
    ) -> Iterator[tuple[str | None, dict[str, Any], dict[str, Any]]]:
        """Every student shares one common part: a team of 1000 sees one board, each with its own name."""
        shared: dict[Any, Any] = {}
        return (view.build_parts(state, viewer, shared) for viewer in viewers)

    def is_over(self, state: State) -> bool:
        return state["phase"] == rules.OVER

    def outcome(self, state: State) -> dict[str, Any] | None:
        return rules.outcome_of(state)

    def facts(self, events: list[Event]) -> list[dict[str, Any]]:
        return facts.facts_from(events)

    def records_facts(self, events: list[Event]) -> bool:
        return facts.records_facts(events)

    def fact_players(self, events: list[Event]) -> set[str]:
        return facts.fact_players(events)

    def questions_shown(self, events: list[Event]) -> list[str]:
        return facts.questions_shown(events)

    def bot_action(self, state: State, player: str, rng: core.Rng) -> dict[str, Any]:
        return bot.choose(state, player, rng)
