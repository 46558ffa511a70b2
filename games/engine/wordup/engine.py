"""Word Up: the ESL vocabulary board game. Pure rules, no Django.

Phases (``state["phase"]``), each with its own deadline:

* ``roll``             the player whose turn it is rolls two dice and moves clockwise;
* ``choose_category``  on an Option or the Bonus square, or for a Word Up card, a category is chosen;
* ``answer``           the asked player answers (typed, or one of three choices);
* ``reveal``           a refused answer is shown with the right one; only the teacher may act (accept it);
* ``card_choice``      a Word Up card that offers a choice (free token or answer, exchange, stop or lose);
* ``discard``          the lose-two-tokens square, when the player has more than two tokens to choose from;
* ``free_tokens``      the take-two-free-tokens square: the player picks two different colours;
* ``over``             the game has ended.

The rule decisions the rulebook leaves open are listed in docs/games/wordup.md.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement
from typing import Any

from ..core import (
    TEACHER,
    Action,
    Event,
    Game,
    IllegalAction,
    Rng,
    State,
    Viewer,
    _,
    clock_start,
    clock_stop,
    clock_view,
    game_clock_expired,
    game_clock_start,
    new_rng_state,
    rng_of,
    rng_store,
)
from . import board as B
from .checking import check_typed, choice_for_text, right_choices
from .questions import LEVEL_NAMES, LEVELS, build_bank, new_sheet, spelling_prompt, take_question

CATEGORIES = B.CATEGORIES
SKILL = "english_vocabulary"
MAX_ANSWER_CHARS = 100
LOG_LENGTH = 30
DEFAULT_LEVEL = 3
DEFAULT_BOT_ACCURACY = 0.5

ROLL = "roll"
CHOOSE = "choose_category"
ANSWER = "answer"
REVEAL = "reveal"
CARD = "card_choice"
DISCARD = "discard"
FREE = "free_tokens"
OVER = "over"

# Who a question is for: the player whose turn it is, or (Word Up card) the player on their left.
NORMAL = "normal"
ASK_LEFT = "ask_left"

TIMERS = ("roll_seconds", "choose_seconds", "answer_seconds", "reveal_seconds")


def _illegal(message: str, code: str, **params: Any) -> IllegalAction:
    return IllegalAction(message, code=code, **params)


def _copy(data: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars), several times faster than copy.deepcopy."""
    if isinstance(data, dict):
        return {key: _copy(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_copy(value) for value in data]
    return data


def copy_state(state: State) -> State:
    """A copy that shares the question bank: the bank is never written after setup, and deep-copying
    hundreds of questions on every move made whole games several times slower."""
    return {key: value if key == "bank" else _copy(value) for key, value in state.items()}


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class WordUp(Game):
    name = "wordup"
    title = "Word Up"
    min_players = 2
    max_players = 6
    default_config = {
        "target": 2,
        "time_limit": None,
        "roll_seconds": 20,
        "choose_seconds": 20,
        "answer_seconds": 45,
        "reveal_seconds": 8,
    }

    # ------------------------------------------------------------------------------------------
    # Setup
    # ------------------------------------------------------------------------------------------

    def setup(self, config: dict[str, Any], seed: str, now: float = 0.0) -> State:
        settings = self._settings(config)
        players = self._players(config)
        levels = {player["level"] for player in players}
        bank, sources = build_bank(config.get("questions"), levels)
        seating = [player["id"] for player in players]
        state: State = {
            "game": self.name,
            "settings": settings,
            "seating": seating,
            "players": {p["id"]: {"name": p["name"], "level": p["level"], "bot": p["bot"]} for p in players},
            "positions": {pid: B.START_SQUARE for pid in seating},
            "tokens": {pid: {category: 0 for category in CATEGORIES} for pid in seating},
            "sheets": {p["id"]: {"level": p["level"], "sheet": 0, "used": {}} for p in players},
            "sheet_pile": {str(level): 0 for level in sorted(levels)},
            "bank": bank,
            "sources": sources,
            "deck": [],
            "first_player": None,
            "turn": None,
            "phase": ROLL,
            "pending": {},
            "question": None,
            "last_roll": None,
            "last_card": None,
            "last_result": None,
            "answers_given": 0,
            "asked": 0,
            "winners": None,
            "end_reason": None,
            "log": [],
            "rng": new_rng_state(seed),
        }
        clock_stop(state)
        for pid in seating:
            new_sheet(state, pid)
        rng = rng_of(state)
        state["deck"] = rng.shuffled(B.CARD_IDS)
        rng_store(state, rng)
        first = self._roll_for_first_player(state, now)
        if settings["time_limit"]:
            game_clock_start(state, now, settings["time_limit"])
        self._start_turn(state, first, now, [])
        return state

    def _settings(self, config: dict[str, Any]) -> dict[str, Any]:
        settings = {key: config.get(key, default) for key, default in self.default_config.items()}
        for key, default in self.default_config.items():
            if settings[key] is None:
                settings[key] = default
        if settings["target"] not in (1, 2, 3) or isinstance(settings["target"], bool):
            raise ValueError("target must be 1, 2 or 3 tokens of each colour")
        limit = settings["time_limit"]
        if limit is not None and (not _number(limit) or limit <= 0):
            raise ValueError("time_limit must be a positive number of seconds (or None)")
        for key in TIMERS:
            if not _number(settings[key]) or settings[key] <= 0:
                raise ValueError(f"{key} must be a positive number of seconds")
        return settings

    def _players(self, config: dict[str, Any]) -> list[dict[str, Any]]:
        raw_players = config.get("players")
        if not isinstance(raw_players, list) or not self.min_players <= len(raw_players) <= self.max_players:
            raise ValueError(f"Word Up needs {self.min_players}-{self.max_players} players per board")
        players = []
        for raw in raw_players:
            pid = raw.get("id") if isinstance(raw, dict) else None
            if not isinstance(pid, str) or not pid or pid == TEACHER:
                raise ValueError("every player needs a string id")
            level = raw.get("level")
            level = DEFAULT_LEVEL if level is None else level
            if type(level) is not int or level not in LEVELS:
                raise ValueError(f"player {pid}: level must be 1-5")
            players.append(
                {
                    "id": pid,
                    "name": str(raw.get("name") or pid),
                    "level": level,
                    "bot": self._bot_accuracy(raw.get("bot"), pid),
                }
            )
        if len({player["id"] for player in players}) != len(players):
            raise ValueError("player ids must be different")
        return players

    @staticmethod
    def _bot_accuracy(value: Any, pid: str) -> float | None:
        if value is None or value is False:
            return None
        if value is True:
            return DEFAULT_BOT_ACCURACY
        if not _number(value) or not 0 <= value <= 1:
            raise ValueError(f"player {pid}: bot accuracy must be between 0 and 1")
        return float(value)

    def _roll_for_first_player(self, state: State, now: float) -> str:
        """Everyone rolls both dice; the highest plays first; a tie at the top rolls again."""
        contenders = list(state["seating"])
        attempt = 1
        while True:
            totals = {}
            for pid in contenders:
                dice = self._dice(state)
                totals[pid] = sum(dice)
                self._emit(
                    state,
                    [],
                    {
                        "type": "start_roll",
                        "player": pid,
                        "dice": dice,
                        "total": totals[pid],
                        "attempt": attempt,
                        "at": now,
                    },
                )
            best = max(totals.values())
            contenders = [pid for pid in contenders if totals[pid] == best]
            if len(contenders) == 1:
                state["first_player"] = contenders[0]
                self._emit(state, [], {"type": "first_player", "player": contenders[0], "at": now})
                return contenders[0]
            attempt += 1

    # ------------------------------------------------------------------------------------------
    # Who acts, and what they may do
    # ------------------------------------------------------------------------------------------

    def current_players(self, state: State) -> list[str]:
        phase = state["phase"]
        if phase in (OVER, REVEAL):
            return []
        if phase == ANSWER:
            return [state["question"]["player"]]
        return [state["turn"]]

    def legal_actions(self, state: State, player: str) -> list[Action]:
        phase = state["phase"]
        if player == TEACHER:
            if phase == REVEAL:
                return [{"type": "accept", "question": state["question"]["serial"]}]
            return []
        if player not in self.current_players(state):
            return []
        if phase == ROLL:
            return [{"type": "roll"}]
        if phase == CHOOSE:
            return [{"type": "choose", "category": category} for category in state["pending"]["options"]]
        if phase == ANSWER:
            if state["question"]["category"] == B.MULTIPLE_CHOICE:
                return [{"type": "answer", "choice": index} for index in range(3)]
            return [{"type": "answer", "answer": ""}]  # a sample: free text cannot be listed
        if phase == CARD:
            return self._card_actions(state, player)
        if phase == DISCARD:
            return [
                {"type": "discard", "categories": list(pair)} for pair in self._discard_pairs(state, player)
            ]
        return [{"type": "take", "categories": list(pair)} for pair in combinations(CATEGORIES, 2)]

    def _card_actions(self, state: State, player: str) -> list[Action]:
        actions: list[Action] = []
        for choice in state["pending"]["choices"]:
            if choice == "lose":
                actions += [
                    {"type": "card", "choice": "lose", "category": c} for c in self._owned(state, player)
                ]
            elif choice == "exchange":
                actions += [
                    {"type": "card", "choice": "exchange", "with": other, "give": give, "take": take}
                    for other, give, take in self._exchanges(state, player)
                ]
            else:
                actions.append({"type": "card", "choice": choice})
        return actions

    # ------------------------------------------------------------------------------------------
    # Actions
    # ------------------------------------------------------------------------------------------

    def apply(self, state: State, player: str, action: Action, now: float) -> tuple[State, list[Event]]:
        handler = self._handler_for(state, player, action)
        new_state = copy_state(state)
        events: list[Event] = []
        handler(new_state, player, action, now, events)
        if game_clock_expired(state, now):
            # The action was legal but time had already run out: the game ends instead.
            new_state, events = copy_state(state), []
            self._end_by_time(new_state, now, events)
        return new_state, events

    def _handler_for(self, state: State, player: Any, action: Any):
        if not isinstance(action, dict):
            raise _illegal(_("That is not a move in this game."), "bad_action")
        kind = action.get("type")
        handlers = {
            "roll": self._act_roll,
            "choose": self._act_choose,
            "answer": self._act_answer,
            "accept": self._act_accept,
            "card": self._act_card,
            "discard": self._act_discard,
            "take": self._act_take,
        }
        if not isinstance(kind, str) or kind not in handlers:
            raise _illegal(_("That is not a move in this game."), "bad_action")
        if state["phase"] == OVER:
            raise _illegal(_("The game is over."), "game_over")
        if player == TEACHER:
            if kind != "accept":
                raise _illegal(_("The teacher can only accept an answer here."), "teacher_only_accepts")
        elif not isinstance(player, str) or player not in state["players"]:
            raise _illegal(_("You are not playing at this board."), "not_a_player")
        elif kind == "accept":
            raise _illegal(_("Only the teacher can accept an answer."), "teacher_only")
        return handlers[kind]

    @staticmethod
    def _keys(action: Action, allowed: set[str]) -> None:
        unknown = [key for key in action if key not in allowed]
        if unknown:
            raise _illegal(
                _("This move has something extra that is not allowed: %(key)s."),
                "unknown_field",
                key=str(unknown[0])[:40],
            )

    @staticmethod
    def _need_phase(state: State, *phases: str) -> None:
        if state["phase"] not in phases:
            raise _illegal(_("You cannot do that now."), "wrong_phase")

    def _need_actor(self, state: State, player: str) -> None:
        if player not in self.current_players(state):
            raise _illegal(_("It is not your turn."), "not_your_turn")

    @staticmethod
    def _category_field(action: Action, key: str, allowed: list[str] | tuple[str, ...]) -> str:
        value = action.get(key)
        if not isinstance(value, str) or value not in allowed:
            raise _illegal(_("Please choose one of the colours on offer."), "bad_category")
        return value

    def _act_roll(self, state: State, player: str, action: Action, now: float, events: list[Event]) -> None:
        self._keys(action, {"type"})
        self._need_phase(state, ROLL)
        self._need_actor(state, player)
        self._roll(state, now, events)

    def _act_choose(self, state: State, player: str, action: Action, now: float, events: list[Event]) -> None:
        self._keys(action, {"type", "category"})
        self._need_phase(state, CHOOSE)
        self._need_actor(state, player)
        category = self._category_field(action, "category", state["pending"]["options"])
        self._chosen(state, category, now, events)

    def _act_answer(self, state: State, player: str, action: Action, now: float, events: list[Event]) -> None:
        self._need_phase(state, ANSWER)
        self._need_actor(state, player)
        question = state["question"]
        if question["category"] == B.MULTIPLE_CHOICE:
            index = self._choice_index(question, action)
            self._answered(state, question["choices"][index], index in question["right"], now, events, index)
            return
        self._keys(action, {"type", "answer"})
        text = self._answer_text(action)
        self._answered(state, text, check_typed(question["data"], text), now, events)

    @staticmethod
    def _answer_text(action: Action) -> str:
        text = action.get("answer")
        if not isinstance(text, str):
            raise _illegal(_("Please type your answer."), "bad_answer")
        if len(text) > MAX_ANSWER_CHARS:
            raise _illegal(
                _("That answer is too long (at most %(max)s letters)."),
                "answer_too_long",
                max=MAX_ANSWER_CHARS,
            )
        return text

    def _choice_index(self, question: dict[str, Any], action: Action) -> int:
        """Multiple choice: ``{"choice": 0|1|2}`` (as shown), or ``{"answer": "<the option's text>"}``."""
        self._keys(action, {"type", "choice", "answer"})
        if ("choice" in action) == ("answer" in action):
            raise _illegal(_("Please pick one of the three answers."), "bad_choice")
        if "choice" in action:
            index = action["choice"]
            if type(index) is not int or not 0 <= index < len(question["choices"]):
                raise _illegal(_("Please pick one of the three answers."), "bad_choice")
            return index
        index = choice_for_text(question["choices"], self._answer_text(action))
        if index is None:
            raise _illegal(_("Please pick one of the three answers."), "not_a_choice")
        return index

    def _act_accept(self, state: State, player: str, action: Action, now: float, events: list[Event]) -> None:
        self._keys(action, {"type", "question"})
        self._need_phase(state, REVEAL)
        question = state["question"]
        # The question on show is named by its serial (what the screens know) or its bank id.
        named = action.get("question", question["serial"])
        if not ((type(named) is int and named == question["serial"]) or named == question["data"]["id"]):
            raise _illegal(_("That answer is no longer on show."), "stale_accept")
        self._emit(
            state,
            events,
            {
                "type": "teacher_accept",
                "player": question["player"],
                "question": question["data"]["id"],
                "response": question["response"],
                "at": now,
            },
        )
        self._close_reveal(state, True, now, events)

    def _act_card(self, state: State, player: str, action: Action, now: float, events: list[Event]) -> None:
        self._need_phase(state, CARD)
        self._need_actor(state, player)
        choice = action.get("choice")
        if not isinstance(choice, str) or choice not in state["pending"]["choices"]:
            raise _illegal(_("Please choose one of the card's options."), "bad_card_choice")
        card = B.CARDS[state["pending"]["card"]]
        if choice == "lose":
            self._keys(action, {"type", "choice", "category"})
            category = self._category_field(action, "category", self._owned(state, player))
            self._change_tokens(state, player, category, -1, "card", events)
            self._proceed(state, now, events, "continue")
        elif choice == "exchange":
            self._keys(action, {"type", "choice", "with", "give", "take"})
            deal = (action.get("with"), action.get("give"), action.get("take"))
            if not all(isinstance(part, str) for part in deal) or deal not in self._exchanges(state, player):
                raise _illegal(
                    _(
                        "That swap is not possible: give a token you have for a different colour "
                        "that the other player has."
                    ),
                    "bad_exchange",
                )
            self._exchange(state, player, *deal, now=now, events=events)
        else:
            self._keys(action, {"type", "choice"})
            self._card_simple_choice(state, card, choice, now, events)

    def _card_simple_choice(
        self, state: State, card: dict, choice: str, now: float, events: list[Event]
    ) -> None:
        player = state["turn"]
        self._emit(
            state,
            events,
            {"type": "card_choice", "player": player, "card": card["id"], "choice": choice, "at": now},
        )
        if choice == "take":
            self._change_tokens(state, player, card["category"], 1, "card", events)
            self._proceed(state, now, events, "end")
        elif choice == "answer":
            self._ask(state, player, card["category"], 1, NORMAL, now, events)
        elif choice == "roll":
            self._proceed(state, now, events, "continue")
        else:  # stop
            self._proceed(state, now, events, "end")

    def _act_discard(
        self, state: State, player: str, action: Action, now: float, events: list[Event]
    ) -> None:
        self._keys(action, {"type", "categories"})
        self._need_phase(state, DISCARD)
        self._need_actor(state, player)
        pair = self._category_pair(action)
        if tuple(sorted(pair, key=CATEGORIES.index)) not in self._discard_pairs(state, player):
            raise _illegal(_("You can only give back tokens you have."), "bad_discard")
        self._lose_tokens(state, player, pair, now, events)

    def _act_take(self, state: State, player: str, action: Action, now: float, events: list[Event]) -> None:
        self._keys(action, {"type", "categories"})
        self._need_phase(state, FREE)
        self._need_actor(state, player)
        pair = self._category_pair(action)
        if pair[0] == pair[1]:
            raise _illegal(_("The two free tokens must be different colours."), "same_colour")
        self._take_free(state, player, pair, now, events)

    @staticmethod
    def _category_pair(action: Action) -> list[str]:
        pair = action.get("categories")
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(isinstance(item, str) and item in CATEGORIES for item in pair)
        ):
            raise _illegal(_("Please choose two colours."), "bad_categories")
        return list(pair)

    # ------------------------------------------------------------------------------------------
    # Deadlines: every phase has a default, so a board never stalls
    # ------------------------------------------------------------------------------------------

    def on_deadline(self, state: State, now: float) -> tuple[State, list[Event]]:
        state = copy_state(state)
        events: list[Event] = []
        phase = state["phase"]
        if phase == OVER:
            return state, events
        if game_clock_expired(state, now):
            self._end_by_time(state, now, events)
            return state, events
        actor = self.current_players(state)
        self._emit(
            state,
            events,
            {"type": "timeout", "phase": phase, "player": actor[0] if actor else None, "at": now},
        )
        if phase == ROLL:
            self._roll(state, now, events)
        elif phase == CHOOSE:
            chooser = state["turn"]
            self._chosen(state, self._neediest(state, chooser, state["pending"]["options"])[0], now, events)
        elif phase == ANSWER:
            self._answered(state, None, False, now, events)
        elif phase == REVEAL:
            self._close_reveal(state, False, now, events)
        elif phase == CARD:
            default = {"take", "roll", "stop"} & set(state["pending"]["choices"])
            self._card_simple_choice(state, B.CARDS[state["pending"]["card"]], default.pop(), now, events)
        elif phase == DISCARD:
            self._lose_tokens(
                state, state["turn"], self._least_needed_tokens(state, state["turn"], 2), now, events
            )
        else:
            self._take_free(
                state, state["turn"], self._neediest(state, state["turn"], CATEGORIES)[:2], now, events
            )
        return state, events

    # ------------------------------------------------------------------------------------------
    # The flow of a turn
    # ------------------------------------------------------------------------------------------

    def _dice(self, state: State) -> list[int]:
        rng = rng_of(state)
        dice = [rng.randint(1, 6), rng.randint(1, 6)]
        rng_store(state, rng)
        return dice

    def _roll(self, state: State, now: float, events: list[Event]) -> None:
        player = state["turn"]
        dice = self._dice(state)
        start = state["positions"][player]
        square = (start + sum(dice)) % B.BOARD_SIZE
        state["positions"][player] = square
        state["last_roll"] = {"player": player, "dice": dice, "total": sum(dice), "from": start, "to": square}
        self._emit(
            state,
            events,
            {
                "type": "roll",
                "player": player,
                "dice": dice,
                "total": sum(dice),
                "from": start,
                "to": square,
                "square": B.BOARD[square]["kind"],
                "at": now,
            },
        )
        self._land(state, player, square, now, events)

    def _land(self, state: State, player: str, index: int, now: float, events: list[Event]) -> None:
        square = B.BOARD[index]
        kind = square["kind"]
        if kind == B.QUESTION:
            self._ask(state, player, square["category"], 1, NORMAL, now, events)
        elif kind == B.OPTION:
            self._offer_categories(state, square["categories"], 1, NORMAL, "option", now)
        elif kind == B.BONUS:
            self._offer_categories(state, CATEGORIES, 2, NORMAL, "bonus", now)
        elif kind == B.LOSE_TWO:
            self._lose_two_square(state, player, now, events)
        elif kind == B.FREE_TWO:
            self._set_phase(state, FREE, {}, now, "choose_seconds")
        elif kind == B.STOP:
            self._proceed(state, now, events, "end")
        else:
            self._draw_card(state, player, now, events)

    def _set_phase(self, state: State, phase: str, pending: dict[str, Any], now: float, timer: str) -> None:
        state["phase"] = phase
        state["pending"] = pending
        clock_start(state, now, state["settings"][timer])

    def _offer_categories(
        self, state: State, options, reward: int, mode: str, source: str, now: float
    ) -> None:
        turn = state["turn"]
        answerer = self._left_of(state, turn) if mode == ASK_LEFT else turn
        self._set_phase(
            state,
            CHOOSE,
            {
                "options": list(options),
                "reward": reward,
                "mode": mode,
                "source": source,
                "answerer": answerer,
            },
            now,
            "choose_seconds",
        )

    def _chosen(self, state: State, category: str, now: float, events: list[Event]) -> None:
        pending = state["pending"]
        self._emit(
            state,
            events,
            {
                "type": "category_chosen",
                "player": state["turn"],
                "category": category,
                "source": pending["source"],
                "at": now,
            },
        )
        self._ask(state, pending["answerer"], category, pending["reward"], pending["mode"], now, events)

    def _ask(
        self,
        state: State,
        answerer: str,
        category: str,
        reward: int,
        mode: str,
        now: float,
        events: list[Event],
    ) -> None:
        data = take_question(state, answerer, category)
        state["asked"] = state.get("asked", 0) + 1
        question = {
            "serial": state["asked"],
            "player": answerer,
            "asker": state["turn"],
            "mode": mode,
            "reward": reward,
            "category": category,
            "data": data,
            "asked_at": now,
            "response": None,
            "choice": None,
            "checker_correct": None,
            "answered_at": None,
        }
        if category == B.MULTIPLE_CHOICE:
            rng = rng_of(state)
            question["choices"] = rng.shuffled(data["choices"])  # bank order may put the answer first
            rng_store(state, rng)
            question["right"] = right_choices(data, question["choices"])
        state["question"] = question
        self._set_phase(state, ANSWER, {}, now, "answer_seconds")
        self._emit(
            state,
            events,
            {
                "type": "question",
                "player": answerer,
                "asker": state["turn"],
                "category": category,
                "reward": reward,
                "mode": mode,
                "question": self._public_question(question),
                "at": now,
            },
        )

    def _answered(
        self,
        state: State,
        response: str | None,
        correct: bool,
        now: float,
        events: list[Event],
        choice: int | None = None,
    ) -> None:
        question = state["question"]
        question.update(response=response, choice=choice, checker_correct=correct, answered_at=now)
        state["answers_given"] += 1
        state["last_result"] = self._result(question, correct, teacher_marked=False, open_=not correct)
        self._emit(
            state,
            events,
            {
                "type": "answered",
                "player": question["player"],
                "category": question["category"],
                "question": question["data"]["id"],
                "response": response,
                "choice": choice,
                "correct": correct,
                "answers": question["data"]["answers"],
                "at": now,
            },
        )
        if correct:
            self._mark(state, True, False, now, events)
            self._resolve(state, True, now, events)
        else:
            self._set_phase(state, REVEAL, {}, now, "reveal_seconds")

    def _close_reveal(self, state: State, accepted: bool, now: float, events: list[Event]) -> None:
        state["last_result"] = dict(
            state["last_result"], correct=accepted, teacher_marked=accepted, open=False
        )
        self._mark(state, accepted, accepted, now, events)
        self._resolve(state, accepted, now, events)

    def _mark(
        self, state: State, correct: bool, teacher_marked: bool, now: float, events: list[Event]
    ) -> None:
        """The final mark of an answer: the event ``facts`` turns into a learning fact (one per answer)."""
        question = state["question"]
        data = question["data"]
        taken = question["answered_at"] - question["asked_at"]
        self._emit(
            state,
            events,
            {
                "type": "marked",
                "player": question["player"],
                "category": question["category"],
                "level": data["level"],
                "player_level": state["players"][question["player"]]["level"],
                "question": data["id"],
                "response": question["response"],
                "choice": question["choice"],
                "correct": correct,
                "checker_correct": question["checker_correct"],
                "teacher_marked": teacher_marked,
                "time_taken": round(taken, 3),
                "reward": question["reward"],
                "mode": question["mode"],
                "asker": question["asker"],
                "at": now,
            },
        )

    def _resolve(self, state: State, correct: bool, now: float, events: list[Event]) -> None:
        question = state["question"]
        state["question"] = None
        category = question["category"]
        if correct:
            self._change_tokens(state, question["player"], category, question["reward"], "answer", events)
            if question["mode"] == ASK_LEFT:  # they take the token and roll: their turn starts
                self._proceed(state, now, events, "turn_to", question["player"])
            else:
                self._proceed(state, now, events, "continue")
        elif question["mode"] == ASK_LEFT:  # the asker takes the token and rolls again
            self._change_tokens(state, question["asker"], category, 1, "card", events)
            self._proceed(state, now, events, "continue")
        else:
            self._proceed(state, now, events, "end")

    def _proceed(
        self, state: State, now: float, events: list[Event], step: str, player: str | None = None
    ) -> None:
        """After a move: the game may be won; else roll again ("continue"), pass left ("end"), or
        hand the turn to ``player``."""
        winners = [pid for pid in state["seating"] if self._has_target(state, pid)]
        if winners:
            self._finish(state, winners, "target", now, events)
        elif step == "continue":
            self._set_phase(state, ROLL, {}, now, "roll_seconds")
            self._emit(state, events, {"type": "roll_again", "player": state["turn"], "at": now})
        elif step == "end":
            self._start_turn(state, self._left_of(state, state["turn"]), now, events)
        else:
            self._start_turn(state, player, now, events)

    def _start_turn(self, state: State, player: str, now: float, events: list[Event]) -> None:
        state["turn"] = player
        self._set_phase(state, ROLL, {}, now, "roll_seconds")
        self._emit(state, events, {"type": "turn", "player": player, "at": now})

    @staticmethod
    def _left_of(state: State, player: str) -> str:
        """Play passes clockwise, to the left: the next player in seating order."""
        seating = state["seating"]
        return seating[(seating.index(player) + 1) % len(seating)]

    # ------------------------------------------------------------------------------------------
    # Squares and cards
    # ------------------------------------------------------------------------------------------

    def _lose_two_square(self, state: State, player: str, now: float, events: list[Event]) -> None:
        owned = [c for c in CATEGORIES for _n in range(state["tokens"][player][c])]
        if len(owned) <= 2:  # nothing, one or two tokens: lose what there is, no choice to make
            self._lose_tokens(state, player, owned, now, events)
        else:
            self._set_phase(state, DISCARD, {"lose": 2}, now, "choose_seconds")

    def _lose_tokens(
        self, state: State, player: str, categories: list[str], now: float, events: list[Event]
    ) -> None:
        for category in categories:
            self._change_tokens(state, player, category, -1, "square", events)
        self._proceed(state, now, events, "end")

    def _take_free(
        self, state: State, player: str, categories: list[str], now: float, events: list[Event]
    ) -> None:
        for category in categories:
            self._change_tokens(state, player, category, 1, "square", events)
        self._proceed(state, now, events, "continue")

    def _draw_card(self, state: State, player: str, now: float, events: list[Event]) -> None:
        card_id = state["deck"].pop(0)  # from the top ...
        state["deck"].append(card_id)  # ... and back underneath at once, so the deck always holds 20
        card = B.CARDS[card_id]
        state["last_card"] = B.public_card(card_id)
        self._emit(
            state, events, {"type": "card", "player": player, "card": B.public_card(card_id), "at": now}
        )
        kind, category = card["kind"], card.get("category")
        if kind == B.ANY_CATEGORY:
            self._offer_categories(state, CATEGORIES, 1, NORMAL, "card", now)
        elif kind == B.ASK_LEFT:
            self._offer_categories(state, CATEGORIES, 1, ASK_LEFT, "card", now)
        elif kind == B.FREE_OR_ANSWER:
            self._set_phase(
                state, CARD, {"card": card_id, "choices": ["take", "answer"]}, now, "choose_seconds"
            )
        elif kind == B.LOSE_COLOUR:
            if state["tokens"][player][category]:
                self._change_tokens(state, player, category, -1, "card", events)
            self._proceed(state, now, events, "end")
        elif kind == B.MOVE_TO_COLOUR:
            self._move_to_colour(state, player, category, now, events)
        elif kind == B.EXCHANGE:
            self._offer_card_choice(
                state,
                card_id,
                ["exchange", "roll"],
                bool(self._exchanges(state, player)),
                "continue",
                now,
                events,
            )
        else:  # stop, or lose a token and continue
            self._offer_card_choice(
                state, card_id, ["stop", "lose"], bool(self._owned(state, player)), "end", now, events
            )

    def _offer_card_choice(
        self,
        state: State,
        card_id: str,
        choices: list[str],
        possible: bool,
        otherwise: str,
        now: float,
        events: list[Event],
    ) -> None:
        """Offer the card's choice, or (when its active option is impossible) just do the other one."""
        if possible:
            self._set_phase(state, CARD, {"card": card_id, "choices": choices}, now, "choose_seconds")
        else:
            self._emit(
                state, events, {"type": "card_no_choice", "player": state["turn"], "card": card_id, "at": now}
            )
            self._proceed(state, now, events, otherwise)

    def _move_to_colour(
        self, state: State, player: str, category: str, now: float, events: list[Event]
    ) -> None:
        start = state["positions"][player]
        square = B.next_square_of(start, category)
        state["positions"][player] = square
        self._emit(state, events, {"type": "move", "player": player, "from": start, "to": square, "at": now})
        self._ask(state, player, category, 2, NORMAL, now, events)

    def _exchange(
        self, state: State, player: str, other: str, give: str, take: str, *, now: float, events: list[Event]
    ) -> None:
        self._emit(
            state,
            events,
            {"type": "exchange", "player": player, "with": other, "give": give, "take": take, "at": now},
        )
        self._change_tokens(state, player, give, -1, "exchange", events)
        self._change_tokens(state, other, give, 1, "exchange", events)
        self._change_tokens(state, other, take, -1, "exchange", events)
        self._change_tokens(state, player, take, 1, "exchange", events)
        self._proceed(state, now, events, "continue")

    # ------------------------------------------------------------------------------------------
    # Tokens and winning
    # ------------------------------------------------------------------------------------------

    def _change_tokens(
        self, state: State, player: str, category: str, change: int, reason: str, events: list[Event]
    ) -> None:
        tokens = state["tokens"][player]
        if tokens[category] + change < 0:
            raise AssertionError("token count would go negative")  # validated before; a bug if reached
        tokens[category] += change
        self._emit(
            state,
            events,
            {
                "type": "tokens",
                "player": player,
                "category": category,
                "change": change,
                "count": tokens[category],
                "reason": reason,
            },
        )

    def _has_target(self, state: State, player: str) -> bool:
        target = state["settings"]["target"]
        return all(state["tokens"][player][c] >= target for c in CATEGORIES)

    @staticmethod
    def _owned(state: State, player: str) -> list[str]:
        return [c for c in CATEGORIES if state["tokens"][player][c] > 0]

    def _exchanges(self, state: State, player: str) -> list[tuple[str, str, str]]:
        return [
            (other, give, take)
            for other in state["seating"]
            if other != player
            for give in self._owned(state, player)
            for take in self._owned(state, other)
            if take != give
        ]

    def _discard_pairs(self, state: State, player: str) -> list[tuple[str, str]]:
        tokens = state["tokens"][player]
        return [
            pair
            for pair in combinations_with_replacement(CATEGORIES, 2)
            if all(tokens[c] >= n for c, n in Counter(pair).items())
        ]

    def _deficit(self, state: State, player: str, category: str) -> int:
        return max(0, state["settings"]["target"] - state["tokens"][player][category])

    def _neediest(self, state: State, player: str, options) -> list[str]:
        """Categories most needed first (furthest below the target, then fewest tokens, then board order)."""
        return sorted(
            options,
            key=lambda c: (-self._deficit(state, player, c), state["tokens"][player][c], CATEGORIES.index(c)),
        )

    def _least_needed_tokens(self, state: State, player: str, count: int) -> list[str]:
        """The tokens a player misses least: spares above the target first, then from the biggest pile."""
        tokens = dict(state["tokens"][player])
        chosen = []
        for _n in range(count):
            category = max(CATEGORIES, key=lambda c: (tokens[c] > 0, tokens[c], -CATEGORIES.index(c)))
            chosen.append(category)
            tokens[category] -= 1
        return chosen

    def _finish(self, state: State, winners: list[str], reason: str, now: float, events: list[Event]) -> None:
        state["phase"] = OVER
        state["pending"] = {}
        state["winners"] = winners
        state["end_reason"] = reason
        clock_stop(state)
        if state.get("game_clock"):
            game_clock_start(state, now, None)
        self._emit(
            state,
            events,
            {
                "type": "game_over",
                "winners": winners,
                "reason": reason,
                "scores": self._scores(state),
                "at": now,
            },
        )

    def _end_by_time(self, state: State, now: float, events: list[Event]) -> None:
        self._emit(state, events, {"type": "time_up", "at": now})
        if state["phase"] == REVEAL:  # the refused answer stays refused; its fact is still written
            state["last_result"] = dict(state["last_result"], open=False)
            self._mark(state, False, False, now, events)
        state["question"] = None
        scores = self._scores(state)
        best = max(scores.values())
        self._finish(state, [pid for pid in state["seating"] if scores[pid] == best], "time", now, events)

    @staticmethod
    def _scores(state: State) -> dict[str, int]:
        return {pid: sum(state["tokens"][pid].values()) for pid in state["seating"]}

    def is_over(self, state: State) -> bool:
        return state["phase"] == OVER

    def outcome(self, state: State) -> dict[str, Any] | None:
        if state["phase"] != OVER:
            return None
        return {
            "winners": list(state["winners"]),
            "reason": state["end_reason"],
            "scores": self._scores(state),
            "tokens": _copy(state["tokens"]),
        }

    # ------------------------------------------------------------------------------------------
    # Events, facts, views
    # ------------------------------------------------------------------------------------------

    @staticmethod
    def _emit(state: State, events: list[Event], event: Event) -> None:
        events.append(event)
        state["log"].append(_copy(event))
        del state["log"][:-LOG_LENGTH]

    def facts(self, events: list[Event]) -> list[dict[str, Any]]:
        """One fact per answer, written when its mark is final (at once if right; after the reveal,
        where the teacher may accept it, if refused)."""
        facts = []
        for event in events:
            if not isinstance(event, dict) or event.get("type") != "marked":
                continue
            facts.append(
                {
                    "player": event["player"],
                    "game": self.name,
                    "skill": SKILL,
                    "category": event["category"],
                    "level": event["level"],
                    "correct": event["correct"],
                    "teacher_marked": event["teacher_marked"],
                    "score": event["reward"] if event["correct"] else 0,
                    "time_taken": event["time_taken"],
                    "item_id": event["question"],
                    "response": event["response"],
                    "at": event["at"],
                    "detail": {
                        "teacher_marked": event["teacher_marked"],
                        "checker_correct": event["checker_correct"],
                        "choice": event["choice"],
                        "player_level": event["player_level"],
                        "asked_by": event["asker"],
                        "mode": event["mode"],
                        "reward": event["reward"],
                    },
                }
            )
        return facts

    @staticmethod
    def _public_question(question: dict[str, Any]) -> dict[str, Any]:
        """What anyone may see of a question while it is being answered: never an answer, and for Spelling
        neither the word nor the sentence (which contains it), only a reference to the spoken audio.

        The question is named by its ``serial`` (the n-th question of this game), never by its bank id:
        a teacher may have written an id that contains the answer ("sp-because")."""
        data = question["data"]
        category = question["category"]
        public = {
            "serial": question["serial"],
            "category": category,
            "colour": B.CATEGORY_INFO[category]["colour"],
            "player": question["player"],
            "asker": question["asker"],
            "reward": question["reward"],
            "mode": question["mode"],
            "prompt": data["prompt"],
        }
        if category == B.MISSING_WORD:
            public["letters"] = data["letters"]
        elif category == B.CROSSWORD:
            public["first_letter"] = data["first_letter"]
        elif category == B.MULTIPLE_CHOICE:
            public["choices"] = list(question["choices"])
        else:
            public["prompt"] = spelling_prompt(data)
            public["audio"] = {"serial": question["serial"], "parts": ["sentence", "word"]}
        return public

    def _result(self, question: dict[str, Any], correct: bool, *, teacher_marked: bool, open_: bool) -> dict:
        """The reveal: the question with its answers, the answer given and the mark."""
        data = question["data"]
        result = {
            "question": self._public_question(question),
            "id": data["id"],
            "player": question["player"],
            "category": question["category"],
            "answers": list(data["answers"]),
            "alternatives": list(data["alternatives"]),
            "response": question["response"],
            "choice": question["choice"],
            "correct": correct,
            "teacher_marked": teacher_marked,
            "open": open_,
        }
        if question["category"] == B.SPELLING:
            result["word"] = data["answers"][0]
            result["sentence"] = data["sentence"]
        if question["category"] == B.MULTIPLE_CHOICE:
            result["right_choices"] = list(question["right"])
        return result

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        view = self._public_view(state)
        role = viewer.get("role") if isinstance(viewer, dict) else None
        player = viewer.get("player") if isinstance(viewer, dict) else None
        if role == "teacher":
            view["viewer"] = "teacher"
            view["levels"] = {pid: state["players"][pid]["level"] for pid in state["seating"]}
            view["bots"] = {pid: state["players"][pid]["bot"] for pid in state["seating"]}
            view["sheets"] = {
                pid: {"sheet": s["sheet"], "used": dict(s["used"])} for pid, s in state["sheets"].items()
            }
            view["actions"] = self.legal_actions(state, TEACHER)
        elif role == "player" and isinstance(player, str) and player in state["players"]:
            level = state["players"][player]["level"]
            view["viewer"] = "player"
            view["you"] = {"id": player, "level": level, "level_name": LEVEL_NAMES[level]}
            view["actions"] = self.legal_actions(state, player)
        else:
            view["viewer"] = "projector" if role == "projector" else "spectator"
        return view

    def _public_view(self, state: State) -> dict[str, Any]:
        question = state["question"]
        target = state["settings"]["target"]
        return {
            "game": self.name,
            "phase": state["phase"],
            "turn": state["turn"],
            "current_players": self.current_players(state),
            "clock": clock_view(state),
            "board": _copy(B.BOARD),
            "categories": [dict(B.CATEGORY_INFO[c], id=c) for c in CATEGORIES],
            "players": [
                {
                    "id": pid,
                    "name": state["players"][pid]["name"],
                    "position": state["positions"][pid],
                    "tokens": dict(state["tokens"][pid]),
                    "total": sum(state["tokens"][pid].values()),
                    "complete": [c for c in CATEGORIES if state["tokens"][pid][c] >= target],
                    "is_bot": state["players"][pid]["bot"] is not None,
                }
                for pid in state["seating"]
            ],
            "target": target,
            "time_limit": state["settings"]["time_limit"],
            "first_player": state["first_player"],
            "deck_size": len(state["deck"]),
            "pending": self._public_pending(state),
            "question": self._public_question(question) if question else None,
            "last_roll": _copy(state["last_roll"]),
            "last_card": _copy(state["last_card"]),
            "last_result": _copy(state["last_result"]),
            "log": _copy(state["log"]),
            "last_events": _copy(state["log"][-5:]),
            "outcome": self.outcome(state),
        }

    def _public_pending(self, state: State) -> dict[str, Any]:
        phase, pending = state["phase"], state["pending"]
        if phase == CHOOSE:
            return {
                "chooser": state["turn"],
                "answerer": pending["answerer"],
                "options": list(pending["options"]),
                "reward": pending["reward"],
                "mode": pending["mode"],
                "source": pending["source"],
            }
        if phase == CARD:
            return {"card": B.public_card(pending["card"]), "choices": list(pending["choices"])}
        if phase == DISCARD:
            return {"lose": 2}
        if phase == FREE:
            return {"take": 2, "different_colours": True}
        if phase == REVEAL:
            return {"player": state["question"]["player"], "teacher_may_accept": True}
        return {}

    # ------------------------------------------------------------------------------------------
    # Computer players
    # ------------------------------------------------------------------------------------------

    def bot_action(self, state: State, player: str, rng: Rng) -> Action:
        if player not in self.current_players(state):
            raise _illegal(_("It is not your turn."), "not_your_turn")
        accuracy = state["players"][player]["bot"]
        accuracy = DEFAULT_BOT_ACCURACY if accuracy is None else accuracy
        phase = state["phase"]
        if phase == ROLL:
            return {"type": "roll"}
        if phase == CHOOSE:
            return {
                "type": "choose",
                "category": self._bot_pick(state, player, state["pending"]["options"], rng),
            }
        if phase == ANSWER:
            return self._bot_answer(state["question"], rng.random() < accuracy)
        if phase == CARD:
            return self._bot_card(state, player, accuracy)
        if phase == DISCARD:
            return {"type": "discard", "categories": self._least_needed_tokens(state, player, 2)}
        return {"type": "take", "categories": self._neediest(state, player, CATEGORIES)[:2]}

    def _bot_pick(self, state: State, player: str, options: list[str], rng: Rng) -> str:
        ranked = self._neediest(state, player, options)
        best = [
            c for c in ranked if self._deficit(state, player, c) == self._deficit(state, player, ranked[0])
        ]
        return rng.choice(best)

    @staticmethod
    def _bot_answer(question: dict[str, Any], right: bool) -> Action:
        if question["category"] == B.MULTIPLE_CHOICE:
            wrong = [i for i in range(len(question["choices"])) if i not in question["right"]]
            return {"type": "answer", "choice": question["right"][0] if right or not wrong else wrong[0]}
        word = question["data"]["answers"][0].strip()[:MAX_ANSWER_CHARS]
        if right:
            return {"type": "answer", "answer": word}
        for guess in (word[:-1], word + "e", ""):  # a near miss, as a learner would make
            if not check_typed(question["data"], guess):
                return {"type": "answer", "answer": guess}
        return {"type": "answer", "answer": ""}

    def _bot_card(self, state: State, player: str, accuracy: float) -> Action:
        card = B.CARDS[state["pending"]["card"]]
        if card["kind"] == B.FREE_OR_ANSWER:
            needed = self._deficit(state, player, card["category"]) > 0
            return {"type": "card", "choice": "answer" if accuracy >= 0.5 or not needed else "take"}
        if card["kind"] == B.EXCHANGE:
            deals = [
                (other, give, take)
                for other, give, take in self._exchanges(state, player)
                if self._deficit(state, player, take) > 0
                and state["tokens"][player][give] > state["settings"]["target"]
            ]
            if not deals:
                return {"type": "card", "choice": "roll"}
            other, give, take = max(deals, key=lambda deal: sum(state["tokens"][deal[0]].values()))
            return {"type": "card", "choice": "exchange", "with": other, "give": give, "take": take}
        spare = [c for c in CATEGORIES if state["tokens"][player][c] > state["settings"]["target"]]
        if spare:
            return {"type": "card", "choice": "lose", "category": spare[0]}
        return {"type": "card", "choice": "stop"}
