"""Word Up's rules as state transitions: setup, who acts, the moves, deadlines and the flow of a turn.

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
    IllegalAction,
    State,
    _,
    allowances_store,
    clock_start_for,
    clock_stop,
    game_clock_expired,
    game_clock_start,
    new_rng_state,
    rng_of,
    rng_store,
)
from . import board as B
from .checking import check_typed, choice_for_text, right_choices
from .questions import LEVELS, build_bank, new_sheet, spelling_prompt, take_question

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

GAME = "wordup"
MIN_PLAYERS = 2
MAX_PLAYERS = 6
TIMERS = ("roll_seconds", "choose_seconds", "answer_seconds", "reveal_seconds")


def illegal(message: str, code: str, **params: Any) -> IllegalAction:
    return IllegalAction(message, code=code, **params)


def copy_data(data: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars), several times faster than copy.deepcopy."""
    if isinstance(data, dict):
        return {key: copy_data(value) for key, value in data.items()}
    if isinstance(data, list):
        return [copy_data(value) for value in data]
    return data


#: Parts of a state a copy shares with the original: the bank is never written after setup, and the
#: log's entries are never changed once appended (the log itself is copied, one level).
_SHARED_IN_COPY = {"bank": lambda bank: bank, "log": list}


def copy_state(state: State) -> State:
    """A copy that shares what never changes: deep-copying hundreds of questions on every move made
    whole games several times slower, and the recent log was two thirds of what was left."""
    return {key: _SHARED_IN_COPY.get(key, copy_data)(value) for key, value in state.items()}


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


DEFAULT_CONFIG: dict[str, Any] = {
    "target": 2,
    "time_limit": None,
    "roll_seconds": 20,
    "choose_seconds": 20,
    "answer_seconds": 45,
    "reveal_seconds": 20,  # the teacher's window to Accept a refused answer (games/catalog.py)
}


# ------------------------------------------------------------------------------------------
# Setup
# ------------------------------------------------------------------------------------------


def new_state(config: dict[str, Any], seed: str, now: float = 0.0) -> State:
    settings = _settings(config)
    players = _players(config)
    levels = {player["level"] for player in players}
    bank, sources = build_bank(config.get("questions"), levels)
    seating = [player["id"] for player in players]
    state: State = {
        "game": GAME,
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
    allowances_store(state, config)
    fewer = _fewer_options(config, seating)
    if fewer:
        state["fewer_options"] = fewer
    for pid in seating:
        new_sheet(state, pid)
    rng = rng_of(state)
    state["deck"] = rng.shuffled(B.CARD_IDS)
    rng_store(state, rng)
    first = _roll_for_first_player(state, now)
    if settings["time_limit"]:
        game_clock_start(state, now, settings["time_limit"])
    _start_turn(state, first, now, [])
    return state


def _fewer_options(config: dict[str, Any], seating: list[str]) -> list[str]:
    """The seats offered one choice fewer in multiple choice (an accommodation the runtime sets)."""
    fewer = config.get("fewer_options") or []
    if not isinstance(fewer, list) or not all(isinstance(player, str) for player in fewer):
        raise ValueError("fewer_options must list player ids")
    return [player for player in seating if player in fewer]


def _settings(config: dict[str, Any]) -> dict[str, Any]:
    settings = {key: config.get(key, default) for key, default in DEFAULT_CONFIG.items()}
    for key, default in DEFAULT_CONFIG.items():
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


def _players(config: dict[str, Any]) -> list[dict[str, Any]]:
    raw_players = config.get("players")
    if not isinstance(raw_players, list) or not MIN_PLAYERS <= len(raw_players) <= MAX_PLAYERS:
        raise ValueError(f"Word Up needs {MIN_PLAYERS}-{MAX_PLAYERS} players per board")
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
                "bot": _bot_accuracy(raw.get("bot"), pid),
            }
        )
    if len({player["id"] for player in players}) != len(players):
        raise ValueError("player ids must be different")
    return players


def _bot_accuracy(value: Any, pid: str) -> float | None:
    if value is None or value is False:
        return None
    if value is True:
        return DEFAULT_BOT_ACCURACY
    if not _number(value) or not 0 <= value <= 1:
        raise ValueError(f"player {pid}: bot accuracy must be between 0 and 1")
    return float(value)


def _roll_for_first_player(state: State, now: float) -> str:
    """Everyone rolls both dice; the highest plays first; a tie at the top rolls again."""
    contenders = list(state["seating"])
    attempt = 1
    while True:
        totals = {}
        for pid in contenders:
            dice = _dice(state)
            totals[pid] = sum(dice)
            _emit(
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
            _emit(state, [], {"type": "first_player", "player": contenders[0], "at": now})
            return contenders[0]
        attempt += 1


# ------------------------------------------------------------------------------------------
# Who acts, and what they may do
# ------------------------------------------------------------------------------------------


def current_players(state: State) -> list[str]:
    phase = state["phase"]
    if phase in (OVER, REVEAL):
        return []
    if phase == ANSWER:
        return [state["question"]["player"]]
    return [state["turn"]]


def legal_moves(state: State, player: str) -> list[Action]:
    phase = state["phase"]
    if player == TEACHER:
        if phase == REVEAL:
            return [{"type": "accept", "question": state["question"]["serial"]}]
        return []
    if player not in current_players(state):
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
        return _card_actions(state, player)
    if phase == DISCARD:
        return [{"type": "discard", "categories": list(pair)} for pair in _discard_pairs(state, player)]
    return [{"type": "take", "categories": list(pair)} for pair in combinations(CATEGORIES, 2)]


def _card_actions(state: State, player: str) -> list[Action]:
    actions: list[Action] = []
    for choice in state["pending"]["choices"]:
        if choice == "lose":
            actions += [{"type": "card", "choice": "lose", "category": c} for c in _owned(state, player)]
        elif choice == "exchange":
            actions += [
                {"type": "card", "choice": "exchange", "with": other, "give": give, "take": take}
                for other, give, take in exchanges(state, player)
            ]
        else:
            actions.append({"type": "card", "choice": choice})
    return actions


# ------------------------------------------------------------------------------------------
# Actions
# ------------------------------------------------------------------------------------------


def apply_move(state: State, player: str, action: Action, now: float) -> tuple[State, list[Event]]:
    new_state = copy_state(state)
    return new_state, apply_move_in_place(new_state, player, action, now)


def apply_move_in_place(state: State, player: str, action: Action, now: float) -> list[Event]:
    """The move made on ``state`` itself. Every handler checks everything (the ``illegal`` raises are
    all in the checks it calls first) before it changes anything, so a refusal leaves ``state`` as it
    was; a property test holds this to :func:`apply_move` on a copy."""
    handler = _handler_for(state, player, action)
    events: list[Event] = []
    if game_clock_expired(state, now):
        # The action was legal but time had already run out: the game ends instead. It is judged on a
        # copy (a refusal still refuses), then dropped.
        handler(copy_state(state), player, action, now, [])
        _end_by_time(state, now, events)
        return events
    handler(state, player, action, now, events)
    return events


def _handler_for(state: State, player: Any, action: Any):
    if not isinstance(action, dict):
        raise illegal(_("That is not a move in this game."), "bad_action")
    kind = action.get("type")
    handlers = {
        "roll": _act_roll,
        "choose": _act_choose,
        "answer": _act_answer,
        "accept": _act_accept,
        "card": _act_card,
        "discard": _act_discard,
        "take": _act_take,
    }
    if not isinstance(kind, str) or kind not in handlers:
        raise illegal(_("That is not a move in this game."), "bad_action")
    if state["phase"] == OVER:
        raise illegal(_("The game is over."), "game_over")
    if player == TEACHER:
        if kind != "accept":
            raise illegal(_("The teacher can only accept an answer here."), "teacher_only_accepts")
    elif not isinstance(player, str) or player not in state["players"]:
        raise illegal(_("You are not playing at this board."), "not_a_player")
    elif kind == "accept":
        raise illegal(_("Only the teacher can accept an answer."), "teacher_only")
    return handlers[kind]


def _keys(action: Action, allowed: set[str]) -> None:
    unknown = [key for key in action if key not in allowed]
    if unknown:
        raise illegal(
            _("This move has something extra that is not allowed: %(key)s."),
            "unknown_field",
            key=str(unknown[0])[:40],
        )


def _need_phase(state: State, *phases: str) -> None:
    if state["phase"] not in phases:
        raise illegal(_("You cannot do that now."), "wrong_phase")


def _need_actor(state: State, player: str) -> None:
    if player not in current_players(state):
        raise illegal(_("It is not your turn."), "not_your_turn")


def _category_field(action: Action, key: str, allowed: list[str] | tuple[str, ...]) -> str:
    value = action.get(key)
    if not isinstance(value, str) or value not in allowed:
        raise illegal(_("Please choose one of the colours on offer."), "bad_category")
    return value


def _act_roll(state: State, player: str, action: Action, now: float, events: list[Event]) -> None:
    _keys(action, {"type"})
    _need_phase(state, ROLL)
    _need_actor(state, player)
    _roll(state, now, events)


def _act_choose(state: State, player: str, action: Action, now: float, events: list[Event]) -> None:
    _keys(action, {"type", "category"})
    _need_phase(state, CHOOSE)
    _need_actor(state, player)
    category = _category_field(action, "category", state["pending"]["options"])
    _chosen(state, category, now, events)


def _act_answer(state: State, player: str, action: Action, now: float, events: list[Event]) -> None:
    _need_phase(state, ANSWER)
    _need_actor(state, player)
    question = state["question"]
    if question["category"] == B.MULTIPLE_CHOICE:
        index = _choice_index(question, action)
        _answered(state, question["choices"][index], index in question["right"], now, events, index)
        return
    _keys(action, {"type", "answer"})
    text = _answer_text(action)
    _answered(state, text, check_typed(question["data"], text), now, events)


def redacted_answer(state: State, action: Action) -> Action:
    """A typed answer without the student's own words, judged as before: a right one becomes the
    question's first accepted answer, a wrong one an empty answer (wrong too). Multiple choice (an
    option's text) and every other action hold no words of the student's and stay as they are."""
    question = state.get("question")
    if (
        action.get("type") != "answer"
        or not isinstance(action.get("answer"), str)
        or not question
        or question["category"] == B.MULTIPLE_CHOICE
    ):
        return action
    right = check_typed(question["data"], action["answer"])
    return {**action, "answer": question["data"]["answers"][0] if right else ""}


def _answer_text(action: Action) -> str:
    text = action.get("answer")
    if not isinstance(text, str):
        raise illegal(_("Please type your answer."), "bad_answer")
    if len(text) > MAX_ANSWER_CHARS:
        raise illegal(
            _("That answer is too long (at most %(max)s letters)."),
            "answer_too_long",
            max=MAX_ANSWER_CHARS,
        )
    return text


def _choice_index(question: dict[str, Any], action: Action) -> int:
    """Multiple choice: ``{"choice": 0|1|2}`` (as shown), or ``{"answer": "<the option's text>"}``."""
    _keys(action, {"type", "choice", "answer"})
    if ("choice" in action) == ("answer" in action):
        raise illegal(_("Please pick one of the three answers."), "bad_choice")
    if "choice" in action:
        index = action["choice"]
        if type(index) is not int or not 0 <= index < len(question["choices"]):
            raise illegal(_("Please pick one of the three answers."), "bad_choice")
        return index
    index = choice_for_text(question["choices"], _answer_text(action))
    if index is None:
        raise illegal(_("Please pick one of the three answers."), "not_a_choice")
    return index


def _act_accept(state: State, player: str, action: Action, now: float, events: list[Event]) -> None:
    _keys(action, {"type", "question"})
    _need_phase(state, REVEAL)
    question = state["question"]
    # The question on show is named by its serial (what the screens know) or its bank id.
    named = action.get("question", question["serial"])
    if not ((type(named) is int and named == question["serial"]) or named == question["data"]["id"]):
        raise illegal(_("That answer is no longer on show."), "stale_accept")
    _emit(
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
    _close_reveal(state, True, now, events)


def _act_card(state: State, player: str, action: Action, now: float, events: list[Event]) -> None:
    _need_phase(state, CARD)
    _need_actor(state, player)
    choice = action.get("choice")
    if not isinstance(choice, str) or choice not in state["pending"]["choices"]:
        raise illegal(_("Please choose one of the card's options."), "bad_card_choice")
    card = B.CARDS[state["pending"]["card"]]
    if choice == "lose":
        _keys(action, {"type", "choice", "category"})
        category = _category_field(action, "category", _owned(state, player))
        _change_tokens(state, player, category, -1, "card", events)
        _proceed(state, now, events, "continue")
    elif choice == "exchange":
        _keys(action, {"type", "choice", "with", "give", "take"})
        other, give, take = action.get("with"), action.get("give"), action.get("take")
        if not (isinstance(other, str) and isinstance(give, str) and isinstance(take, str)) or (
            other,
            give,
            take,
        ) not in exchanges(state, player):
            raise illegal(
                _(
                    "That swap is not possible: give a token you have for a different colour "
                    "that the other player has."
                ),
                "bad_exchange",
            )
        _exchange(state, player, other, give, take, now=now, events=events)
    else:
        _keys(action, {"type", "choice"})
        _card_simple_choice(state, card, choice, now, events)


def _card_simple_choice(state: State, card: dict, choice: str, now: float, events: list[Event]) -> None:
    player = state["turn"]
    _emit(
        state,
        events,
        {"type": "card_choice", "player": player, "card": card["id"], "choice": choice, "at": now},
    )
    if choice == "take":
        _change_tokens(state, player, card["category"], 1, "card", events)
        _proceed(state, now, events, "end")
    elif choice == "answer":
        _ask(state, player, card["category"], 1, NORMAL, now, events)
    elif choice == "roll":
        _proceed(state, now, events, "continue")
    else:  # stop
        _proceed(state, now, events, "end")


def _act_discard(state: State, player: str, action: Action, now: float, events: list[Event]) -> None:
    _keys(action, {"type", "categories"})
    _need_phase(state, DISCARD)
    _need_actor(state, player)
    pair = _category_pair(action)
    if tuple(sorted(pair, key=CATEGORIES.index)) not in _discard_pairs(state, player):
        raise illegal(_("You can only give back tokens you have."), "bad_discard")
    _lose_tokens(state, player, pair, now, events)


def _act_take(state: State, player: str, action: Action, now: float, events: list[Event]) -> None:
    _keys(action, {"type", "categories"})
    _need_phase(state, FREE)
    _need_actor(state, player)
    pair = _category_pair(action)
    if pair[0] == pair[1]:
        raise illegal(_("The two free tokens must be different colours."), "same_colour")
    _take_free(state, player, pair, now, events)


def _category_pair(action: Action) -> list[str]:
    pair = action.get("categories")
    if (
        not isinstance(pair, list)
        or len(pair) != 2
        or not all(isinstance(item, str) and item in CATEGORIES for item in pair)
    ):
        raise illegal(_("Please choose two colours."), "bad_categories")
    return list(pair)


# ------------------------------------------------------------------------------------------
# Deadlines: every phase has a default, so a board never stalls
# ------------------------------------------------------------------------------------------


def deadline_move(state: State, now: float) -> tuple[State, list[Event]]:
    new_state = copy_state(state)
    return new_state, deadline_move_in_place(new_state, now)


def deadline_move_in_place(state: State, now: float) -> list[Event]:
    events: list[Event] = []
    phase = state["phase"]
    if phase == OVER:
        return events
    if game_clock_expired(state, now):
        _end_by_time(state, now, events)
        return events
    actor = current_players(state)
    _emit(
        state,
        events,
        {"type": "timeout", "phase": phase, "player": actor[0] if actor else None, "at": now},
    )
    if phase == ROLL:
        _roll(state, now, events)
    elif phase == CHOOSE:
        chooser = state["turn"]
        _chosen(state, neediest(state, chooser, state["pending"]["options"])[0], now, events)
    elif phase == ANSWER:
        _answered(state, None, False, now, events)
    elif phase == REVEAL:
        _close_reveal(state, False, now, events)
    elif phase == CARD:
        default = {"take", "roll", "stop"} & set(state["pending"]["choices"])
        _card_simple_choice(state, B.CARDS[state["pending"]["card"]], default.pop(), now, events)
    elif phase == DISCARD:
        _lose_tokens(state, state["turn"], least_needed_tokens(state, state["turn"], 2), now, events)
    else:
        _take_free(state, state["turn"], neediest(state, state["turn"], CATEGORIES)[:2], now, events)
    return events


# ------------------------------------------------------------------------------------------
# The flow of a turn
# ------------------------------------------------------------------------------------------


def _dice(state: State) -> list[int]:
    rng = rng_of(state)
    dice = [rng.randint(1, 6), rng.randint(1, 6)]
    rng_store(state, rng)
    return dice


def _roll(state: State, now: float, events: list[Event]) -> None:
    player = state["turn"]
    dice = _dice(state)
    start = state["positions"][player]
    square = (start + sum(dice)) % B.BOARD_SIZE
    state["positions"][player] = square
    state["last_roll"] = {"player": player, "dice": dice, "total": sum(dice), "from": start, "to": square}
    _emit(
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
    _land(state, player, square, now, events)


def _land(state: State, player: str, index: int, now: float, events: list[Event]) -> None:
    square = B.BOARD[index]
    kind = square["kind"]
    if kind == B.QUESTION:
        _ask(state, player, square["category"], 1, NORMAL, now, events)
    elif kind == B.OPTION:
        _offer_categories(state, square["categories"], 1, NORMAL, "option", now)
    elif kind == B.BONUS:
        _offer_categories(state, CATEGORIES, 2, NORMAL, "bonus", now)
    elif kind == B.LOSE_TWO:
        _lose_two_square(state, player, now, events)
    elif kind == B.FREE_TWO:
        _set_phase(state, FREE, {}, now, "choose_seconds")
    elif kind == B.STOP:
        _proceed(state, now, events, "end")
    else:
        _draw_card(state, player, now, events)


def _set_phase(state: State, phase: str, pending: dict[str, Any], now: float, timer: str) -> None:
    state["phase"] = phase
    state["pending"] = pending
    # Who acts in the phase; the reveal is read by whoever answered. Word Up's timers are never off, so
    # an untimed student gets the longest allowance.
    question = state.get("question")
    players = current_players(state) or ([question["player"]] if question else [])
    clock_start_for(state, now, state["settings"][timer], players, may_be_untimed=False)


def _offer_categories(state: State, options, reward: int, mode: str, source: str, now: float) -> None:
    turn = state["turn"]
    answerer = _left_of(state, turn) if mode == ASK_LEFT else turn
    _set_phase(
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


def _chosen(state: State, category: str, now: float, events: list[Event]) -> None:
    pending = state["pending"]
    _emit(
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
    _ask(state, pending["answerer"], category, pending["reward"], pending["mode"], now, events)


def _ask(
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
        wrong = [
            i for i in range(len(question["choices"])) if i not in right_choices(data, question["choices"])
        ]
        if answerer in state.get("fewer_options", ()) and len(wrong) > 1:
            # Fewer options: one wrong choice, drawn from the game's generator, is simply not offered.
            del question["choices"][rng.choice(wrong)]
        rng_store(state, rng)
        question["right"] = right_choices(data, question["choices"])
    state["question"] = question
    _set_phase(state, ANSWER, {}, now, "answer_seconds")
    _emit(
        state,
        events,
        {
            "type": "question",
            "player": answerer,
            "asker": state["turn"],
            "category": category,
            "reward": reward,
            "mode": mode,
            "question": public_question(question),
            "at": now,
        },
    )


def _answered(
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
    state["last_result"] = _result(question, correct, teacher_marked=False, open_=not correct)
    _emit(
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
        _mark(state, True, False, now, events)
        _resolve(state, True, now, events)
    else:
        _set_phase(state, REVEAL, {}, now, "reveal_seconds")


def _close_reveal(state: State, accepted: bool, now: float, events: list[Event]) -> None:
    state["last_result"] = dict(state["last_result"], correct=accepted, teacher_marked=accepted, open=False)
    _mark(state, accepted, accepted, now, events)
    _resolve(state, accepted, now, events)


def _mark(state: State, correct: bool, teacher_marked: bool, now: float, events: list[Event]) -> None:
    """The final mark of an answer: the event ``facts`` turns into a learning fact (one per answer)."""
    question = state["question"]
    data = question["data"]
    taken = question["answered_at"] - question["asked_at"]
    _emit(
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


def _resolve(state: State, correct: bool, now: float, events: list[Event]) -> None:
    question = state["question"]
    state["question"] = None
    category = question["category"]
    if correct:
        _change_tokens(state, question["player"], category, question["reward"], "answer", events)
        if question["mode"] == ASK_LEFT:  # they take the token and roll: their turn starts
            _proceed(state, now, events, "turn_to", question["player"])
        else:
            _proceed(state, now, events, "continue")
    elif question["mode"] == ASK_LEFT:  # the asker takes the token and rolls again
        _change_tokens(state, question["asker"], category, 1, "card", events)
        _proceed(state, now, events, "continue")
    else:
        _proceed(state, now, events, "end")


def _proceed(state: State, now: float, events: list[Event], step: str, player: str | None = None) -> None:
    """After a move: the game may be won; else roll again ("continue"), pass left ("end"), or
    hand the turn to ``player``."""
    winners = [pid for pid in state["seating"] if _has_target(state, pid)]
    if winners:
        _finish(state, winners, "target", now, events)
    elif step == "continue":
        _set_phase(state, ROLL, {}, now, "roll_seconds")
        _emit(state, events, {"type": "roll_again", "player": state["turn"], "at": now})
    elif step == "end":
        _start_turn(state, _left_of(state, state["turn"]), now, events)
    elif player is not None:
        _start_turn(state, player, now, events)
    else:
        raise ValueError(f"no player to hand the turn to after {step!r}")


def _start_turn(state: State, player: str, now: float, events: list[Event]) -> None:
    state["turn"] = player
    _set_phase(state, ROLL, {}, now, "roll_seconds")
    _emit(state, events, {"type": "turn", "player": player, "at": now})


def _left_of(state: State, player: str) -> str:
    """Play passes clockwise, to the left: the next player in seating order."""
    seating = state["seating"]
    return seating[(seating.index(player) + 1) % len(seating)]


# ------------------------------------------------------------------------------------------
# Squares and cards
# ------------------------------------------------------------------------------------------


def _lose_two_square(state: State, player: str, now: float, events: list[Event]) -> None:
    owned = [c for c in CATEGORIES for _n in range(state["tokens"][player][c])]
    if len(owned) <= 2:  # nothing, one or two tokens: lose what there is, no choice to make
        _lose_tokens(state, player, owned, now, events)
    else:
        _set_phase(state, DISCARD, {"lose": 2}, now, "choose_seconds")


def _lose_tokens(state: State, player: str, categories: list[str], now: float, events: list[Event]) -> None:
    for category in categories:
        _change_tokens(state, player, category, -1, "square", events)
    _proceed(state, now, events, "end")


def _take_free(state: State, player: str, categories: list[str], now: float, events: list[Event]) -> None:
    for category in categories:
        _change_tokens(state, player, category, 1, "square", events)
    _proceed(state, now, events, "continue")


def _draw_card(state: State, player: str, now: float, events: list[Event]) -> None:
    card_id = state["deck"].pop(0)  # from the top ...
    state["deck"].append(card_id)  # ... and back underneath at once, so the deck always holds 20
    card = B.CARDS[card_id]
    state["last_card"] = B.public_card(card_id)
    _emit(state, events, {"type": "card", "player": player, "card": B.public_card(card_id), "at": now})
    kind = card["kind"]
    if kind == B.ANY_CATEGORY:
        _offer_categories(state, CATEGORIES, 1, NORMAL, "card", now)
    elif kind == B.ASK_LEFT:
        _offer_categories(state, CATEGORIES, 1, ASK_LEFT, "card", now)
    elif kind == B.FREE_OR_ANSWER:
        _set_phase(state, CARD, {"card": card_id, "choices": ["take", "answer"]}, now, "choose_seconds")
    elif kind == B.LOSE_COLOUR:
        category = card["category"]
        if state["tokens"][player][category]:
            _change_tokens(state, player, category, -1, "card", events)
        _proceed(state, now, events, "end")
    elif kind == B.MOVE_TO_COLOUR:
        _move_to_colour(state, player, card["category"], now, events)
    elif kind == B.EXCHANGE:
        _offer_card_choice(
            state,
            card_id,
            ["exchange", "roll"],
            bool(exchanges(state, player)),
            "continue",
            now,
            events,
        )
    else:  # stop, or lose a token and continue
        _offer_card_choice(state, card_id, ["stop", "lose"], bool(_owned(state, player)), "end", now, events)


def _offer_card_choice(
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
        _set_phase(state, CARD, {"card": card_id, "choices": choices}, now, "choose_seconds")
    else:
        _emit(state, events, {"type": "card_no_choice", "player": state["turn"], "card": card_id, "at": now})
        _proceed(state, now, events, otherwise)


def _move_to_colour(state: State, player: str, category: str, now: float, events: list[Event]) -> None:
    start = state["positions"][player]
    square = B.next_square_of(start, category)
    state["positions"][player] = square
    _emit(state, events, {"type": "move", "player": player, "from": start, "to": square, "at": now})
    _ask(state, player, category, 2, NORMAL, now, events)


def _exchange(
    state: State, player: str, other: str, give: str, take: str, *, now: float, events: list[Event]
) -> None:
    _emit(
        state,
        events,
        {"type": "exchange", "player": player, "with": other, "give": give, "take": take, "at": now},
    )
    _change_tokens(state, player, give, -1, "exchange", events)
    _change_tokens(state, other, give, 1, "exchange", events)
    _change_tokens(state, other, take, -1, "exchange", events)
    _change_tokens(state, player, take, 1, "exchange", events)
    _proceed(state, now, events, "continue")


# ------------------------------------------------------------------------------------------
# Tokens and winning
# ------------------------------------------------------------------------------------------


def _change_tokens(
    state: State, player: str, category: str, change: int, reason: str, events: list[Event]
) -> None:
    tokens = state["tokens"][player]
    if tokens[category] + change < 0:
        raise AssertionError("token count would go negative")  # validated before; a bug if reached
    tokens[category] += change
    _emit(
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


def _has_target(state: State, player: str) -> bool:
    target = state["settings"]["target"]
    return all(state["tokens"][player][c] >= target for c in CATEGORIES)


def _owned(state: State, player: str) -> list[str]:
    return [c for c in CATEGORIES if state["tokens"][player][c] > 0]


def exchanges(state: State, player: str) -> list[tuple[str, str, str]]:
    return [
        (other, give, take)
        for other in state["seating"]
        if other != player
        for give in _owned(state, player)
        for take in _owned(state, other)
        if take != give
    ]


def _discard_pairs(state: State, player: str) -> list[tuple[str, str]]:
    tokens = state["tokens"][player]
    return [
        pair
        for pair in combinations_with_replacement(CATEGORIES, 2)
        if all(tokens[c] >= n for c, n in Counter(pair).items())
    ]


def deficit(state: State, player: str, category: str) -> int:
    return max(0, state["settings"]["target"] - state["tokens"][player][category])


def neediest(state: State, player: str, options) -> list[str]:
    """Categories most needed first (furthest below the target, then fewest tokens, then board order)."""
    return sorted(
        options,
        key=lambda c: (-deficit(state, player, c), state["tokens"][player][c], CATEGORIES.index(c)),
    )


def least_needed_tokens(state: State, player: str, count: int) -> list[str]:
    """The tokens a player misses least: spares above the target first, then from the biggest pile."""
    tokens = dict(state["tokens"][player])
    chosen = []
    for _n in range(count):
        category = max(CATEGORIES, key=lambda c: (tokens[c] > 0, tokens[c], -CATEGORIES.index(c)))
        chosen.append(category)
        tokens[category] -= 1
    return chosen


def _finish(state: State, winners: list[str], reason: str, now: float, events: list[Event]) -> None:
    state["phase"] = OVER
    state["pending"] = {}
    state["winners"] = winners
    state["end_reason"] = reason
    clock_stop(state)
    if state.get("game_clock"):
        game_clock_start(state, now, None)
    _emit(
        state,
        events,
        {
            "type": "game_over",
            "winners": winners,
            "reason": reason,
            "scores": _scores(state),
            "at": now,
        },
    )


def _end_by_time(state: State, now: float, events: list[Event]) -> None:
    _emit(state, events, {"type": "time_up", "at": now})
    if state["phase"] == REVEAL:  # the refused answer stays refused; its fact is still written
        state["last_result"] = dict(state["last_result"], open=False)
        _mark(state, False, False, now, events)
    state["question"] = None
    scores = _scores(state)
    best = max(scores.values())
    _finish(state, [pid for pid in state["seating"] if scores[pid] == best], "time", now, events)


def _scores(state: State) -> dict[str, int]:
    return {pid: sum(state["tokens"][pid].values()) for pid in state["seating"]}


def outcome_of(state: State) -> dict[str, Any] | None:
    if state["phase"] != OVER:
        return None
    return {
        "winners": list(state["winners"]),
        "reason": state["end_reason"],
        "scores": _scores(state),
        "tokens": copy_data(state["tokens"]),
    }


def outcome_when_ended(state: State) -> dict[str, Any] | None:
    """A game the teacher ended early: nobody won, and the scores (tokens) are as they stood."""
    if state["phase"] == OVER:
        return outcome_of(state)
    return {
        "winners": [],
        "reason": "ended",
        "scores": _scores(state),
        "tokens": copy_data(state["tokens"]),
    }


# ------------------------------------------------------------------------------------------
# Events and the reveal
# ------------------------------------------------------------------------------------------


def _emit(state: State, events: list[Event], event: Event) -> None:
    events.append(event)
    state["log"].append(copy_data(event))
    del state["log"][:-LOG_LENGTH]


def public_question(question: dict[str, Any]) -> dict[str, Any]:
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


def _result(question: dict[str, Any], correct: bool, *, teacher_marked: bool, open_: bool) -> dict:
    """The reveal: the question with its answers, the answer given and the mark."""
    data = question["data"]
    result = {
        "question": public_question(question),
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
