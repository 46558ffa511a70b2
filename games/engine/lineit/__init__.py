"""Line-it (game name ``lineit``): the card-drafting game of ascending and descending lines, with bets and
jackpots, and number levels for maths classes. Pure rules: no Django.

The rules and where this engine had to decide (details in :mod:`.rules` and docs/games/lineit.md):

* Deck per level: :mod:`.cards` (100 number cards with distinct exact values, 25 per colour, plus Bet cards
  3, 3, 4, 4, 5, 5). Values are compared exactly with :class:`fractions.Fraction` and stored as strings
  (``"3/4"``); faces are what the card shows (``"2³"``, ``"0.7"``, ``"7½"``).
* Card ids are random per table (``k001`` ...), so an id never tells a card's rank; ``card_ids="plain"``
  keeps the deck's fixed ids ``c001`` ... ``c106``, which follow the sorted values (rule tests).
* Scoring a line discards the Bet card (it becomes the +bet / -bet token) and the *first three number
  cards* of the line; the rest go face down to the scoring pile.
* A jackpot is claimed when a placement makes the *third* number card of that colour in the current line.
* The first-player token passes to the next seat every round.

Actions (dicts):

* ``{"type": "take", "card": id, "to": "line" | "hand" | "new_line"}``: the compulsory draft.
  ``new_line`` scores the line first and is allowed only when the card fits neither the line nor the hand.
* ``{"type": "play", "card": id}``: after the draft (or in the final phase), one card from the hand.
* ``{"type": "score"}``: score the line and end the turn (in the final phase: required to finish).
* ``{"type": "end"}``: end the turn without scoring.

A refused placement raises ``IllegalAction`` (code ``breaks_line``) worded with the faces
("0.7 is less than 3/4: this line goes up"). ``apply`` leaves no trace of it, so the runtime calls
:func:`refusal_fact` (or :func:`refusal_event` to keep the event in its log) with the same arguments to
record the learning fact. ``legal_actions`` tells which cards fit: it must not be sent to students.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.engine import core
from games.engine.core import Action, Event, Game, Rng, State, Viewer

from . import bot, facts, rules, view
from .facts import refusal_event, refusal_fact

__all__ = ["LineIt", "refusal_event", "refusal_fact"]


class LineIt(Game):
    name = rules.GAME
    title = "Line-it"
    min_players = 2
    max_players = 5
    default_config: dict[str, Any] = {
        "level": 3,
        "turn_seconds": rules.DEFAULT_TURN_SECONDS,
        "card_ids": "shuffled",
    }

    def setup(self, config: dict[str, Any], seed: str, now: float = 0.0) -> State:
        return rules.new_state(config, seed, now)

    def current_players(self, state: State) -> list[str]:
        if state["phase"] == "over" or state["turn"] is None:
            return []
        return [state["turn"]["player"]]

    def legal_actions(self, state: State, player: str) -> list[Action]:
        return rules.legal_moves(state, player)

    def apply(self, state: State, player: str, action: Action, now: float) -> tuple[State, list[Event]]:
        core.refuse_after_deadline(state, player, now)
        new_state = core.clone(state)
        events = rules.apply_action(new_state, player, action, now)
        return new_state, events

    def on_deadline(self, state: State, now: float) -> tuple[State, list[Event]]:
        new_state = core.clone(state)
        if new_state["phase"] == "over":
            core.clock_stop(new_state)
            return new_state, []
        return new_state, rules.deadline_move(new_state, now)

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return view.build_view(state, viewer)

    def view_parts(
        self, state: State, viewers: list[Viewer]
    ) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
        return view.parts_of(state, viewers)

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def outcome(self, state: State) -> dict[str, Any] | None:
        return rules.outcome_of(state) if state["phase"] == "over" else None

    def outcome_when_ended(self, state: State) -> dict[str, Any]:
        """The result of a game the teacher ended early: everyone's score at that moment (banked cards and
        bet tokens; cards still in a line or a hand count for nothing), and no winner."""
        if state["phase"] == "over":
            return rules.outcome_of(state)
        return {**rules.outcome_of(state), "winners": [], "ended": True}

    def facts(self, events: list[Event]) -> list[dict[str, Any]]:
        return facts.facts_from(events)

    def bot_action(self, state: State, player: str, rng: Rng) -> Action:
        return bot.choose(state, player, rng)

    # Line-it extras for the runtime ------------------------------------------------------------

    def refusal_fact(
        self, state: State, player: Any, action: Any, error: Any, now: float | None = None
    ) -> dict[str, Any] | None:
        return refusal_fact(state, player, action, error, now)

    def refusal_event(
        self, state: State, player: Any, action: Any, error: Any, now: float | None = None
    ) -> Event | None:
        return refusal_event(state, player, action, error, now)
