"""Line-it scenario tests: one (or more) per rule of the rulebook, named after the rule they prove."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest

from games.definitions import get_engine
from games.engine import core
from games.engine.core import IllegalAction
from games.engine.lineit import LineIt, refusal_event, refusal_fact, rules
from games.engine.lineit.cards import BET_VALUES, COLOUR_ORDER, cards_for
from tests.loading import engine_module

S = engine_module("test_lineit_support")
GAME, n, arrange, act, take, table = S.GAME, S.n, S.arrange, S.act, S.take, S.table
BET3, BET4, BET5 = S.BET3, S.BET4, S.BET5
END = {"type": "end"}
FACT_KEYS = (
    "player",
    "game",
    "skill",
    "category",
    "level",
    "correct",
    "score",
    "time_taken",
    "item_id",
    "response",
    "detail",
)
SCORE = {"type": "score"}


def refused(state, player, action):
    """Apply ``action`` expecting a refusal; check the state is untouched; return the error."""
    before = core.state_hash(state)
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, player, action, 1.0)
    assert core.state_hash(state) == before
    return caught.value


def events_of(events, kind):
    return [e for e in events if e["type"] == kind]


# --------------------------------------------------------------------------------------------------
# The deck at each level
# --------------------------------------------------------------------------------------------------

_SUPER = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
_GLYPH = {"¼": Fraction(1, 4), "½": Fraction(1, 2), "¾": Fraction(3, 4)}


def read_face(face: str) -> Fraction:
    """What a student should read on a card: "7½", "-2.7", "3/4", "2³", "(-2)³", "10⁻¹", "1.5²"."""
    if face[-1] in _GLYPH:
        return Fraction(face[:-1]) + _GLYPH[face[-1]]
    power = re.fullmatch(r"\(?(-?[\d.]+)\)?([⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+)", face)
    if power:
        return Fraction(power.group(1)) ** int(power.group(2).translate(_SUPER))
    return Fraction(face)


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_deck_has_100_distinct_number_cards_25_per_colour_and_six_bets(level):
    cards = cards_for(level)
    numbers = [c for c in cards.values() if c["kind"] == "number"]
    assert len(numbers) == 100 and len(cards) == 106
    assert len({Fraction(c["value"]) for c in numbers}) == 100
    for colour in COLOUR_ORDER:
        assert sum(c["colour"] == colour for c in numbers) == 25
    assert sorted(int(c["value"]) for c in cards.values() if c["kind"] == "bet") == sorted(BET_VALUES)


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_every_face_shows_its_exact_value(level):
    for card in cards_for(level).values():
        if card["kind"] == "number":
            assert read_face(card["face"]) == Fraction(card["value"]), card


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_every_four_neighbouring_values_hold_one_card_of_each_colour(level):
    numbers = sorted(
        (c for c in cards_for(level).values() if c["kind"] == "number"), key=lambda c: Fraction(c["value"])
    )
    for block in range(25):
        assert {c["colour"] for c in numbers[4 * block : 4 * block + 4]} == set(COLOUR_ORDER)


def test_level_ranges_follow_the_issue():
    def values(level):
        return [Fraction(c["value"]) for c in cards_for(level).values() if c["kind"] == "number"]

    assert min(values(1)) == 1 and max(values(1)) == 30
    assert min(values(2)) == 1 and max(values(2)) == 60
    assert sorted(values(3)) == [Fraction(v) for v in range(1, 101)]
    level_4 = values(4)
    assert any(v < 0 for v in level_4) and any(v.denominator == 10 for v in level_4)
    faces_5 = {c["face"] for c in cards_for(5).values()}
    assert {"3/4", "0.7", "2³", "-1.5"} <= faces_5
    assert any("/" in f for f in faces_5) and any("⁻" in f for f in faces_5)


def test_values_are_stored_as_exact_strings():
    assert cards_for(5)[S.by_face(5, "0.7")]["value"] == "7/10"
    assert cards_for(5)[S.by_face(5, "2³")]["value"] == "8"
    assert cards_for(1)[S.by_face(1, "7½")]["value"] == "15/2"


# --------------------------------------------------------------------------------------------------
# Setup, registry, config
# --------------------------------------------------------------------------------------------------


def test_registry_finds_the_engine():
    engine = get_engine("lineit")
    assert isinstance(engine, LineIt)
    assert (engine.name, engine.min_players, engine.max_players) == ("lineit", 2, 5)
    assert engine.default_config["level"] == 3 and engine.default_config["turn_seconds"] == 45


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_market_holds_two_more_cards_than_players(players):
    state = table(players)
    assert len(state["market"]) == players + 2
    assert len(state["deck"]) == 106 - players - 2
    assert state["turn"] == {"player": "p1", "step": "take", "played": False, "started": 0.0}
    assert state["clock"]["deadline"] == 45.0
    assert json.loads(json.dumps(state)) == state


def test_same_seed_same_deal_and_other_seed_other_deal():
    assert table(seed="a-seed-1") == table(seed="a-seed-1")
    assert table(seed="a-seed-1")["deck"] != table(seed="a-seed-2")["deck"]


def live_table(seed: str = "live-seed", players: int = 3, level: int = 3) -> dict:
    """A table as the runtime sets it up: the engine's default config, so random card ids."""
    seats = [{"id": f"p{i + 1}", "name": S.NAMES[i]} for i in range(players)]
    return GAME.setup({**GAME.default_config, "players": seats, "level": level}, seed)


def test_every_table_has_its_own_random_card_ids_so_an_id_never_tells_which_card_is_bigger():
    state = live_table()
    ids = rules.card_ids_of(state)
    assert len(ids) == 106 and all(re.fullmatch(r"k\d{3}", card) for card in ids)
    assert state["ids"] and sorted(state["ids"].values()) == sorted(cards_for(3))
    numbers = [card for card in ids if rules.is_number(state, card)]
    values = [rules.value_of(state, card) for card in numbers]  # in id order
    assert values != sorted(values) and values != sorted(values, reverse=True)
    assert live_table("other-seed")["ids"] != state["ids"], "another table, other ids"
    assert live_table()["ids"] == state["ids"], "the same seed replays the same ids"
    assert GAME.default_config["card_ids"] == "shuffled"


def test_views_and_moves_use_the_tables_ids_and_refuse_the_decks_own_ids():
    state = live_table()
    market = state["market"]
    deck_id = rules.canonical_id(state, market[0])
    assert deck_id != market[0] and re.fullmatch(r"c\d{3}", deck_id)
    for viewer in viewers(("p1", "p2", "p3")):
        text = core.canonical_json(GAME.view(state, viewer))
        assert not re.search(r"\bc\d{3}\b", text) and '"rank"' not in text and '"ids"' not in text
    assert refused(state, "p1", take(deck_id, "hand")).code == "not_in_market"
    state, events = act(state, "p1", take(market[0], "hand"))
    assert state["hands"]["p1"] == [market[0]]
    assert events[-1]["card"]["id"] == market[0]


def test_plain_card_ids_keep_the_decks_ids_for_the_rule_tests():
    state = table()
    assert state["ids"] is None and rules.card_ids_of(state) == sorted(cards_for(3))
    with pytest.raises(ValueError):
        GAME.setup({**S.config(2), "card_ids": "sorted"}, S.SEED)


@pytest.mark.parametrize(
    "bad",
    [
        {"players": [{"id": "p1"}]},
        {"players": [{"id": f"p{i}"} for i in range(6)]},
        {"players": [{"id": "p1"}, {"id": "p1"}]},
        {"players": [{"id": "p1"}, {"id": "p2"}], "level": 6},
        {"players": [{"id": "p1"}, {"id": "p2"}], "level": True},
        {"players": [{"id": "p1"}, {"id": "p2", "bot": "genius"}]},
        {"players": [{"id": "p1"}, {"id": "p2"}], "turn_seconds": -5},
    ],
)
def test_setup_rejects_bad_config(bad):
    with pytest.raises(ValueError):
        GAME.setup(bad, S.SEED)


# --------------------------------------------------------------------------------------------------
# Drafting: take one card, then line, hand, or forced new line
# --------------------------------------------------------------------------------------------------


def test_player_must_take_a_card_before_anything_else():
    state = arrange(table(), lines={"p1": [n(30)]}, hands={"p1": [n(40)]})
    for action in ({"type": "play", "card": n(40)}, SCORE, END):
        assert refused(state, "p1", action).code == "take_first"


def test_any_card_starts_an_empty_line():
    state = arrange(table(), market=[n(50), BET3, n(20), n(70)])
    after, _events = act(state, "p1", take(BET3))
    assert after["lines"]["p1"] == {"cards": [BET3], "direction": None}
    assert after["turn"]["step"] == "after"
    after, _events = act(state, "p1", take(n(20)))
    assert after["lines"]["p1"]["cards"] == [n(20)]


@pytest.mark.parametrize(("second", "direction"), [(40, "up"), (30, "down")])
def test_second_number_card_sets_the_direction(second, direction):
    state = arrange(table(), market=[n(40), n(30), n(50), n(60)], lines={"p1": [n(35)]})
    after, events = act(state, "p1", take(n(second)))
    assert after["lines"]["p1"]["direction"] == direction
    assert events_of(events, "place")[0]["sets_direction"] is True


def test_bet_card_does_not_set_the_direction():
    state = arrange(table(), market=[n(30), n(40), n(50), n(60)], lines={"p1": [BET3, n(35)]})
    after, _events = act(state, "p1", take(n(30)))
    assert after["lines"]["p1"] == {"cards": [BET3, n(35), n(30)], "direction": "down"}
    state = arrange(table(), market=[n(30), BET4, n(50), n(60)], lines={"p1": [n(35)]})
    after, _events = act(state, "p1", take(BET4))
    assert after["lines"]["p1"]["direction"] is None


def test_line_going_up_accepts_higher_cards_and_refuses_lower_ones_with_the_reason():
    state = arrange(table(), market=[n(12), n(45), n(50), n(60)], lines={"p1": [n(30), n(40)]})
    error = refused(state, "p1", take(n(12)))
    assert error.code == "breaks_line"
    assert str(error) == "12 is less than 40: this line goes up"
    assert error.params == {"card": "12", "end": "40", "direction": "up"}
    after, _events = act(state, "p1", take(n(45)))
    assert after["lines"]["p1"]["cards"] == [n(30), n(40), n(45)]


def test_line_going_down_refuses_higher_cards_with_the_reason():
    state = arrange(table(), market=[n(45), n(12), n(50), n(60)], lines={"p1": [n(50 + 20), n(40)]})
    assert str(refused(state, "p1", take(n(45)))) == "45 is greater than 40: this line goes down"


def test_lines_compare_exact_values_of_fractions_powers_and_decimals():
    f = lambda face: S.by_face(5, face)  # noqa: E731
    state = arrange(
        table(level=5), market=[f("0.7"), f("2³"), f("0.66"), f("4.5")], lines={"p1": [f("2/3"), f("3/4")]}
    )
    assert str(refused(state, "p1", take(f("0.7")))) == "0.7 is less than 3/4: this line goes up"
    state = arrange(state, lines={"p1": [f("2⁰"), f("3²")]})
    assert str(refused(state, "p1", take(f("2³")))) == "2³ is less than 3²: this line goes up"
    state = arrange(state, lines={"p1": [f("1/8"), f("2/3")]})  # 0.66 < 2/3 exactly, though very close
    assert str(refused(state, "p1", take(f("0.66")))) == "0.66 is less than 2/3: this line goes up"
    after, _events = act(state, "p1", take(f("4.5")))
    assert after["lines"]["p1"]["cards"][-1] == f("4.5")


def test_refused_placement_is_recorded_as_a_learning_fact_with_both_values():
    f = lambda face: S.by_face(5, face)  # noqa: E731
    state = arrange(
        table(level=5), market=[f("0.7"), f("2³"), f("0.33"), f("4.5")], lines={"p1": [f("2/3"), f("3/4")]}
    )
    action = take(f("0.7"))
    error = refused(state, "p1", action)
    fact = refusal_fact(state, "p1", action, error, now=7.5)
    assert fact["player"] == "p1" and fact["game"] == "lineit" and fact["skill"] == "numeracy"
    assert (fact["category"], fact["correct"], fact["level"]) == ("comparison", False, 5)
    assert fact["time_taken"] == 7.5
    assert fact["detail"]["card_value"] == "7/10" and fact["detail"]["end_value"] == "3/4"
    assert fact["detail"]["relation"] == "less" and fact["detail"]["direction"] == "up"
    assert fact["response"] == {"card": "0.7", "after": "3/4", "direction": "up"}
    assert GAME.refusal_fact(state, "p1", action, error, now=7.5) == fact
    event = refusal_event(state, "p1", action, error, now=7.5)
    assert GAME.facts([event]) == [fact]


def test_refusal_fact_for_a_card_played_from_the_hand():
    state = arrange(
        table(), market=[n(90), n(2), n(3), n(4)], lines={"p1": [n(30), n(40)]}, hands={"p1": [n(12)]}
    )
    state, _events = act(state, "p1", take(n(90), "hand"))
    action = {"type": "play", "card": n(12)}
    error = refused(state, "p1", action)
    assert str(error) == "12 is less than 40: this line goes up"
    fact = refusal_fact(state, "p1", action, error, now=3.0)
    assert fact["detail"]["source"] == "hand" and fact["detail"]["card_value"] == "12"


def test_refusal_fact_is_none_for_other_refusals_and_junk():
    state = arrange(table(), market=[n(50), n(2), n(3), n(4)], hands={"p1": [n(5), n(6)]})
    action = take(n(50), "hand")
    error = refused(state, "p1", action)
    assert error.code == "hand_full"
    assert refusal_fact(state, "p1", action, error) is None
    fake = IllegalAction("x", code="breaks_line")
    for junk_action in (None, {"type": 5}, {"type": "take", "card": ["x"], "to": "line"}, "take"):
        assert refusal_fact(state, "p1", junk_action, fake) is None
    assert refusal_fact(state, "p2", take(n(50)), fake) is None
    assert refusal_fact(state, ["p1"], take(n(50)), fake) is None
    assert refusal_fact(state, "p1", take(n(50)), ValueError("no")) is None


def test_accepted_placement_is_a_comparison_fact_but_setting_the_direction_is_not():
    state = arrange(table(), market=[n(45), n(2), n(3), n(4)], lines={"p1": [n(30), n(40)]})
    _after, events = act(state, "p1", take(n(45)), now=4.0)
    [fact] = [f for f in GAME.facts(events) if f["category"] == "comparison"]
    assert fact["correct"] is True and fact["time_taken"] == 4.0
    assert (fact["detail"]["card_value"], fact["detail"]["end_value"]) == ("45", "40")
    assert fact["item_id"] == "compare:40|45"
    assert fact["response"] == {"card": "45", "after": "40", "direction": "up"}
    state = arrange(table(), market=[n(45), n(2), n(3), n(4)], lines={"p1": [n(30)]})
    _after, events = act(state, "p1", take(n(45)))
    assert not [f for f in GAME.facts(events) if f["category"] == "comparison"]


def test_hand_holds_at_most_two_cards():
    state = arrange(table(), market=[n(50), n(60), n(70), n(80)])
    state, _events = act(state, "p1", take(n(50), "hand"))
    assert state["hands"]["p1"] == [n(50)]
    state = arrange(table(), market=[n(50), n(60), n(70), n(80)], hands={"p1": [n(1), n(2)]})
    error = refused(state, "p1", take(n(50), "hand"))
    assert error.code == "hand_full" and "two cards" in str(error)


def test_card_fitting_neither_line_nor_hand_forces_scoring_and_starts_a_new_line():
    line = [n(30), n(40), n(50), n(60), n(70)]
    state = arrange(
        table(), market=[n(5), n(15), n(25), n(35)], lines={"p1": line}, hands={"p1": [n(10), n(20)]}
    )
    assert refused(state, "p1", take(n(25))).code == "breaks_line"
    assert refused(state, "p1", take(n(25), "hand")).code == "hand_full"
    moves = GAME.legal_actions(state, "p1")
    assert moves == [take(c, "new_line") for c in state["market"]]
    after, events = act(state, "p1", take(n(25), "new_line"))
    assert after["lines"]["p1"] == {"cards": [n(25)], "direction": None}
    assert after["piles"]["p1"] == [n(60), n(70)]
    assert after["discard"][-3:] == [n(30), n(40), n(50)]
    [score] = events_of(events, "score")
    assert score["forced"] is True and score["banked"] == 2
    assert after["turn"]["step"] == "after"


def test_new_line_is_refused_while_the_card_fits_the_line_or_the_hand_has_room():
    state = arrange(
        table(),
        market=[n(80), n(15), n(25), n(35)],
        lines={"p1": [n(30), n(40)]},
        hands={"p1": [n(10), n(20)]},
    )
    assert refused(state, "p1", take(n(80), "new_line")).code == "fits_line"
    state = arrange(state, hands={"p1": [n(10)]})
    assert refused(state, "p1", take(n(15), "new_line")).code == "hand_has_room"


def test_one_bet_card_per_line():
    state = arrange(table(), market=[BET4, n(50), n(60), n(70)], lines={"p1": [BET3, n(30)]})
    error = refused(state, "p1", take(BET4))
    assert error.code == "one_bet"
    after, _events = act(state, "p1", take(BET4, "hand"))
    assert after["hands"]["p1"] == [BET4]


def test_second_bet_with_a_full_hand_forces_scoring_the_betting_line():
    state = arrange(
        table(),
        market=[BET4, n(5), n(6), n(7)],
        lines={"p1": [BET3, n(30), n(40)]},
        hands={"p1": [n(1), n(2)]},
    )
    after, _events = act(state, "p1", take(BET4, "new_line"))
    assert after["tokens"]["p1"] == [-3]
    assert after["lines"]["p1"]["cards"] == [BET4]


def test_play_from_hand_once_per_turn_and_only_after_the_draft():
    state = arrange(
        table(), market=[n(2), n(3), n(4), n(90)], lines={"p1": [n(30), n(40)]}, hands={"p1": [n(45)]}
    )
    state, _events = act(state, "p1", take(n(2), "hand"))
    state, events = act(state, "p1", {"type": "play", "card": n(45)})
    assert state["lines"]["p1"]["cards"] == [n(30), n(40), n(45)]
    assert state["hands"]["p1"] == [n(2)]
    assert events_of(events, "place")[0]["source"] == "hand"
    assert state["turn"]["played"] is True
    assert refused(state, "p1", {"type": "play", "card": n(2)}).code == "already_played"
    assert refused(state, "p1", {"type": "play", "card": n(99)}).code == "already_played"


def test_play_from_hand_refuses_a_card_not_in_the_hand():
    state = arrange(table(), market=[n(2), n(3), n(4), n(90)], lines={"p1": [n(30), n(40)]})
    state, _events = act(state, "p1", take(n(2), "hand"))
    assert refused(state, "p1", {"type": "play", "card": n(90)}).code == "not_in_hand"


def test_player_may_end_the_turn_without_scoring():
    state = arrange(table(), market=[n(50), n(2), n(3), n(4)], lines={"p1": [n(30), n(40)]})
    state, _events = act(state, "p1", take(n(50)))
    state, _events = act(state, "p1", END)
    assert state["lines"]["p1"]["cards"] == [n(30), n(40), n(50)]
    assert state["turn"]["player"] == "p2" and state["turn"]["step"] == "take"


def test_empty_line_cannot_be_scored_during_the_draft():
    state = arrange(table(), market=[n(50), n(2), n(3), n(4)])
    state, _events = act(state, "p1", take(n(50), "hand"))
    assert refused(state, "p1", SCORE).code == "empty_line"


# --------------------------------------------------------------------------------------------------
# Scoring a line and bets
# --------------------------------------------------------------------------------------------------


def scored(line, market_card, hand=()):
    """p1's state after drafting ``market_card`` into ``line`` and choosing to score."""
    state = arrange(
        table(), market=[n(market_card), n(2), n(3), n(4)], lines={"p1": line}, hands={"p1": list(hand)}
    )
    state, _events = act(state, "p1", take(n(market_card)))
    return act(state, "p1", SCORE)


def test_scoring_discards_the_first_three_number_cards_and_banks_the_rest():
    state, events = scored([n(10), n(20), n(30), n(40)], 50)
    assert state["piles"]["p1"] == [n(40), n(50)]
    assert state["discard"][-3:] == [n(10), n(20), n(30)]
    assert state["lines"]["p1"] == {"cards": [], "direction": None}
    assert state["turn"]["player"] == "p2", "scoring ends the turn"
    [score] = events_of(events, "score")
    assert score["discarded"] == [n(10), n(20), n(30)] and score["banked"] == 2


def test_line_of_three_or_fewer_number_cards_scores_nothing():
    state, _events = scored([n(10), n(20)], 30)
    assert state["piles"]["p1"] == []
    assert state["discard"][-3:] == [n(10), n(20), n(30)]


def test_bet_won_when_enough_number_cards_follow_it():
    state, events = scored([n(10), BET3, n(20), n(30)], 40)  # 3 number cards after the +3 bet
    assert state["tokens"]["p1"] == [3]
    assert BET3 in state["discard"] and BET3 not in state["piles"]["p1"]
    assert state["piles"]["p1"] == [n(30), n(40)]  # the Bet and the two oldest numbers go
    [score] = events_of(events, "score")
    assert score["bet"] == {"bet": 3, "after": 3, "won": True, "token": 3}
    assert rules.score_of(state, "p1") == 2 + 3


def test_bet_lost_when_too_few_number_cards_follow_it():
    state, events = scored([n(10), n(20), n(30), BET5, n(40)], 50)  # 2 after a +5 bet
    assert state["tokens"]["p1"] == [-5]
    assert state["piles"]["p1"] == [n(30), n(40), n(50)]
    assert rules.score_of(state, "p1") == 3 - 5
    facts = [f for f in GAME.facts(events) if f["category"] == "bet"]
    assert facts[0]["correct"] is False and facts[0]["score"] == -5


def test_scoring_discards_three_cards_of_the_line_and_a_bet_is_one_of_them():
    """The rulebook: discard three cards from the line, score the rest. Six cards, one a Bet: three are
    banked (the Bet and two numbers go), where discarding the Bet and three numbers banked only two."""
    with_bet, _events = scored([n(10), BET3, n(20), n(30), n(40)], 50)
    without_bet, _events = scored([n(10), n(20), n(30), n(40), n(45)], 50)
    assert len(with_bet["piles"]["p1"]) == 3 and len(without_bet["piles"]["p1"]) == 3
    assert with_bet["discard"][-3:] == [BET3, n(10), n(20)]


def test_bet_played_first_counts_every_number_card_of_the_line():
    state, _events = scored([BET4, n(10), n(20), n(30)], 40)
    assert state["tokens"]["p1"] == [4]


def test_forced_scoring_can_lose_a_bet():
    state = arrange(
        table(),
        market=[n(5), n(6), n(7), n(8)],
        lines={"p1": [BET4, n(30), n(40)]},
        hands={"p1": [n(1), n(2)]},
    )
    state, _events = act(state, "p1", take(n(5), "new_line"))
    assert state["tokens"]["p1"] == [-4]


# --------------------------------------------------------------------------------------------------
# Leftovers and jackpots
# --------------------------------------------------------------------------------------------------


def test_after_the_draft_unchosen_bets_are_discarded_and_numbers_go_under_their_jackpot():
    state = arrange(table(), market=[n(50), n(60), n(70), BET3])
    deck_top = state["deck"][:4]
    state, _events = act(state, "p1", take(n(50)))
    state, _events = act(state, "p1", END)
    state, _events = act(state, "p2", take(n(60)))
    state, events = act(state, "p2", END)
    assert state["jackpots"][S.colour_of(n(70))] == [n(70)]
    assert state["discard"] == [BET3]
    [leftovers] = events_of(events, "leftovers")
    assert leftovers["moved"] == {"discard": [BET3], S.colour_of(n(70)): [n(70)]}
    assert state["round"] == 2 and state["market"] == deck_top


def test_first_player_passes_to_the_next_seat_each_round():
    state = table(3)
    firsts = []
    for _round in range(4):
        firsts.append(state["turn"]["player"])
        for _turn in range(3):
            player = state["turn"]["player"]
            state, _events = act(state, player, GAME.legal_actions(state, player)[0])
            if state["turn"]["player"] == player:
                state, _events = act(state, player, END)
    assert firsts == ["p1", "p2", "p3", "p1"]


def test_third_card_of_a_colour_in_the_line_claims_that_jackpot_at_once():
    red = S.same_colour("red", 6, start=10)
    state = arrange(
        table(),
        market=[n(red[2]), n(2), n(3), n(4)],
        lines={"p1": [n(red[0]), n(red[1])]},
        jackpots={"red": [n(red[3]), n(red[4]), n(red[5])]},
        piles={"p1": [n(99)]},
    )
    after, events = act(state, "p1", take(n(red[2])))
    assert after["jackpots"]["red"] == []
    assert after["piles"]["p1"] == [n(99), n(red[3]), n(red[4]), n(red[5])]
    [claim] = events_of(events, "jackpot")
    assert claim["colour"] == "red" and claim["count"] == 3
    [fact] = [f for f in GAME.facts(events) if f["category"] == "jackpot"]
    assert fact["score"] == 3 and fact["player"] == "p1"


def test_fourth_card_of_a_colour_claims_nothing_more():
    red = S.same_colour("red", 6, start=10)
    state = arrange(
        table(),
        market=[n(red[3]), n(2), n(3), n(4)],
        lines={"p1": [n(red[0]), n(red[1]), n(red[2])]},
        jackpots={"red": [n(red[4])]},
    )
    after, events = act(state, "p1", take(n(red[3])))
    assert after["jackpots"]["red"] == [n(red[4])] and not events_of(events, "jackpot")


def test_only_the_current_line_counts_towards_a_jackpot():
    red = S.same_colour("red", 5, start=10)
    state = arrange(
        table(),
        market=[n(red[2]), n(2), n(3), n(4)],
        lines={"p1": [n(red[1])]},
        piles={"p1": [n(red[0])]},
        jackpots={"red": [n(red[4])]},
    )
    after, events = act(state, "p1", take(n(red[2])))
    assert after["jackpots"]["red"] == [n(red[4])] and not events_of(events, "jackpot")


def test_card_played_from_the_hand_can_claim_a_jackpot():
    red = S.same_colour("red", 4, start=10)
    state = arrange(
        table(),
        market=[n(2), n(3), n(4), n(5)],
        lines={"p1": [n(red[0]), n(red[1])]},
        hands={"p1": [n(red[2])]},
        jackpots={"red": [n(red[3])]},
    )
    state, _events = act(state, "p1", take(n(2), "hand"))
    after, events = act(state, "p1", {"type": "play", "card": n(red[2])})
    assert after["piles"]["p1"] == [n(red[3])] and events_of(events, "jackpot")


def test_empty_jackpot_gives_nothing():
    red = S.same_colour("red", 3, start=10)
    state = arrange(table(), market=[n(red[2]), n(2), n(3), n(4)], lines={"p1": [n(red[0]), n(red[1])]})
    after, events = act(state, "p1", take(n(red[2])))
    assert after["piles"]["p1"] == [] and not events_of(events, "jackpot")


# --------------------------------------------------------------------------------------------------
# End of the game
# --------------------------------------------------------------------------------------------------


def near_the_end():
    """Round with a 4-card market and only 2 cards left in the deck: the last round."""
    return arrange(
        table(),
        market=[n(50), n(51), n(52), BET4],
        deck=[n(90), BET5],
        lines={"p1": [n(10), n(20), n(30)], "p2": [n(99), n(98), n(97), n(96)]},
        hands={"p1": [n(40), n(5)], "p2": [n(60)]},
        piles={"p1": [n(1)]},
    )


def play_last_round(state):
    state, _events = act(state, "p1", take(n(50)))
    state, _events = act(state, "p1", END)
    state, _events = act(state, "p2", take(n(51), "hand"))
    return act(state, "p2", END)


def test_when_the_market_cannot_be_laid_out_the_rest_of_the_deck_goes_under_the_jackpots():
    state, events = play_last_round(near_the_end())
    assert state["phase"] == "final" and state["deck"] == [] and state["market"] == []
    assert n(90) in state["jackpots"][S.colour_of(n(90))]
    assert n(52) in state["jackpots"][S.colour_of(n(52))]
    assert {BET4, BET5} <= set(state["discard"])
    assert events_of(events, "final")
    assert state["turn"] == {"player": "p2", "step": "final", "played": False, "started": 1.0}


def test_final_phase_each_player_in_turn_plays_one_hand_card_then_must_score():
    state, _events = play_last_round(near_the_end())
    assert refused(state, "p2", take(n(90))).code == "wrong_phase"
    assert refused(state, "p2", END).code == "must_score"
    assert refused(state, "p1", SCORE).code == "not_your_turn"
    state, _events = act(state, "p2", {"type": "play", "card": n(60)})
    assert refused(state, "p2", {"type": "play", "card": n(51)}).code == "already_played"
    state, _events = act(state, "p2", SCORE)
    assert state["piles"]["p2"] == [n(96), n(60)]
    assert state["hands"]["p2"] == [] and n(51) in state["discard"], "unplayed hand cards are discarded"
    assert state["turn"]["player"] == "p1"
    error = refused(state, "p1", {"type": "play", "card": n(40)})
    assert str(error) == "40 is less than 50: this line goes up"
    assert GAME.legal_actions(state, "p1") == [SCORE]


def test_end_of_game_tally_and_equal_scores_share_the_win():
    state, _events = play_last_round(near_the_end())
    state, _events = act(state, "p2", {"type": "play", "card": n(60)})
    state, _events = act(state, "p2", SCORE)
    state, events = act(state, "p1", SCORE)
    assert GAME.is_over(state) and GAME.current_players(state) == []
    outcome = GAME.outcome(state)
    assert outcome["scores"] == {"p1": 2, "p2": 2}
    assert outcome["winners"] == ["p1", "p2"]
    finals = [f for f in GAME.facts(events) if f["category"] == "final_score"]
    assert [(f["player"], f["score"], f["correct"]) for f in finals] == [("p1", 2, True), ("p2", 2, True)]
    assert all(f["detail"]["shared"] for f in finals)
    S.check_invariants(state)
    assert refused(state, "p1", SCORE).code == "game_over"


def test_highest_score_wins_and_bet_tokens_count():
    state = arrange(near_the_end(), tokens={"p2": [5, -3]})
    state, _events = play_last_round(state)
    state, _events = act(state, "p2", SCORE)
    state, _events = act(state, "p1", SCORE)
    outcome = GAME.outcome(state)
    assert outcome["scores"] == {"p1": 2, "p2": 1 + 5 - 3}
    assert outcome["winners"] == ["p2"]
    assert outcome["tokens"]["p2"] == [5, -3]


# --------------------------------------------------------------------------------------------------
# Timed turns
# --------------------------------------------------------------------------------------------------


def timed_out(state, now=100.0):
    before = core.state_hash(state)
    after, events = GAME.on_deadline(state, now)
    assert core.state_hash(state) == before, "on_deadline must not mutate its input"
    assert events[0]["type"] == "timeout"
    return after, events


def test_deadline_takes_the_market_card_that_fits_the_line_best_and_ends_the_turn():
    state = arrange(table(), market=[n(90), n(45), n(20), n(60)], lines={"p1": [n(30), n(40)]})
    after, _events = timed_out(state)
    assert after["lines"]["p1"]["cards"] == [n(30), n(40), n(45)]
    assert after["turn"]["player"] == "p2"
    assert after["clock"]["deadline"] == 100.0 + 45


def test_deadline_starts_an_empty_line_with_the_card_nearest_the_middle():
    state = arrange(table(), market=[n(10), n(48), n(70), n(99)])
    after, _events = timed_out(state)
    assert after["lines"]["p1"]["cards"] == [n(48)]


def test_deadline_puts_the_first_market_card_in_the_hand_when_nothing_fits():
    state = arrange(table(), market=[n(10), n(20), n(25), n(35)], lines={"p1": [n(30), n(40)]})
    after, _events = timed_out(state)
    assert after["hands"]["p1"] == [n(10)]


def test_deadline_with_a_full_hand_plays_a_bet_if_it_can():
    state = arrange(
        table(), market=[n(10), BET3, n(20), n(25)], lines={"p1": [n(30), n(40)]}, hands={"p1": [n(1), n(2)]}
    )
    after, _events = timed_out(state)
    assert after["lines"]["p1"]["cards"] == [n(30), n(40), BET3]


def test_deadline_forces_scoring_when_nothing_fits_anywhere():
    state = arrange(
        table(), market=[n(10), n(20), n(25), n(35)], lines={"p1": [n(30), n(40)]}, hands={"p1": [n(1), n(2)]}
    )
    after, events = timed_out(state)
    assert after["lines"]["p1"]["cards"] == [n(35)]
    assert events_of(events, "score")[0]["forced"] is True


def test_deadline_after_the_draft_ends_the_turn_without_scoring():
    state = arrange(table(), market=[n(50), n(2), n(3), n(4)], lines={"p1": [n(30), n(40)]})
    state, _events = act(state, "p1", take(n(50)))
    after, events = timed_out(state)
    assert after["lines"]["p1"]["cards"] == [n(30), n(40), n(50)] and not events_of(events, "score")
    assert after["turn"]["player"] == "p2"


def test_deadline_in_the_final_phase_scores_the_line():
    state, _events = play_last_round(near_the_end())
    after, events = timed_out(state)
    assert events_of(events, "score")[0]["player"] == "p2"
    assert after["turn"]["player"] == "p1"


def test_untimed_tables_have_no_deadline_and_still_finish():
    state = table(turn_seconds=None)
    assert state["clock"]["deadline"] is None
    final, _log, _events = core.play_with_bots(GAME, S.config(turn_seconds=None), S.SEED)
    assert GAME.is_over(final)


def test_deadline_on_a_finished_game_changes_nothing():
    state, _log, _events = core.play_with_bots(GAME, S.config(), S.SEED)
    after, events = GAME.on_deadline(state, 1e9)
    assert events == [] and GAME.is_over(after)


# --------------------------------------------------------------------------------------------------
# Turns, validation
# --------------------------------------------------------------------------------------------------


def test_only_the_current_player_may_act():
    state = table()
    error = refused(state, "p2", take(state["market"][0]))
    assert error.code == "not_your_turn" and str(error) == "It is Ava's turn."
    assert refused(state, "mallory", take(state["market"][0])).code == "not_a_player"
    assert refused(state, core.TEACHER, take(state["market"][0])).code == "not_a_player"
    assert GAME.legal_actions(state, "p2") == []


@pytest.mark.parametrize(
    "action",
    [
        None,
        5,
        "take",
        [],
        {},
        {"type": 5},
        {"type": "fly"},
        {"type": "take"},
        {"type": "take", "card": "c001"},
        {"type": "take", "card": None, "to": "line"},
        {"type": "take", "card": "c001", "to": "pocket"},
        {"type": "take", "card": "x" * 10_000, "to": "line"},
        {"type": "take", "card": "c001", "to": "line", "extra": 1},
        {"type": "score", "card": "c001"},
        {"type": "play", "card": {"nested": ["junk"]}},
        {"type": "end", "to": None},
    ],
)
def test_malformed_actions_are_refused(action):
    refused(table(), "p1", action)


def test_card_not_in_the_market_is_refused():
    state = table()
    assert refused(state, "p1", take(state["deck"][0])).code == "not_in_market"


# --------------------------------------------------------------------------------------------------
# Views
# --------------------------------------------------------------------------------------------------


def viewers(players=("p1", "p2")):
    return [{"role": "player", "player": p} for p in players] + [
        {"role": "teacher"},
        {"role": "projector"},
        {"role": "spectator"},
        {"role": "hacker"},
        {},
    ]


def test_views_show_the_table_but_another_players_hand_only_as_a_count():
    red_card = n(S.same_colour("red", 1, start=60)[0])
    state = arrange(
        table(),
        market=[n(50), n(2), n(3), n(4)],
        hands={"p1": [n(77)], "p2": [n(88)]},
        lines={"p2": [n(10), n(20)]},
        jackpots={"red": [red_card]},
    )
    state, _events = act(state, "p1", take(n(50), "hand"))
    mine = GAME.view(state, {"role": "player", "player": "p1"})
    theirs = GAME.view(state, {"role": "player", "player": "p2"})
    assert [c["id"] for c in mine["you"]["hand"]] == [n(77), n(50)]
    assert [c["id"] for c in theirs["you"]["hand"]] == [n(88)]
    for view in (theirs, GAME.view(state, {"role": "teacher"}), GAME.view(state, {"role": "projector"})):
        text = core.canonical_json(view)
        assert n(77) not in text and n(50) not in text
    p2_entry = theirs["players"][1]
    assert p2_entry["line"]["cards"][1]["face"] == "20" and p2_entry["line"]["direction"] == "up"
    assert mine["players"][0]["hand_count"] == 2
    take_entries = [e for e in theirs["log"] if e["type"] == "take"]
    assert take_entries[-1] == {"n": take_entries[-1]["n"], "type": "take", "player": "p1", "to": "hand"}
    assert [e for e in mine["log"] if e["type"] == "take"][-1]["card"]["id"] == n(50)
    red = next(j for j in mine["jackpots"] if j["colour"] == "red")
    assert red["count"] == 1 and red["symbol"] == "heart" and red["cards"][0]["face"]


def test_views_built_together_show_a_card_taken_into_a_hand_to_its_owner_only():
    """The fan-out builds a table's views together, sharing the log entries that read the same to all:
    the taken card still shows in its owner's log only, whoever's view is built first."""
    state = arrange(table(), market=[n(50), n(2), n(3), n(4)], hands={"p1": [n(77)], "p2": [n(88)]})
    state, _events = act(state, "p1", take(n(50), "hand"))
    viewers = [{"role": "player", "player": "p2"}, {"role": "player", "player": "p1"}, {"role": "teacher"}]
    for order in (viewers, viewers[::-1]):
        for viewer, (_key, common, own) in zip(order, GAME.view_parts(state, order), strict=True):
            assert {**common, **own} == GAME.view(state, viewer)
            assert (n(50) in core.canonical_json(own["log"])) == (viewer.get("player") == "p1"), viewer
            assert n(50) not in core.canonical_json(common)


def test_views_hold_the_clock_phase_turn_and_are_json():
    state = table()
    for viewer in viewers():
        view = GAME.view(state, viewer)
        assert json.loads(json.dumps(view)) == view
        assert view["clock"] == core.clock_view(state)
        assert view["phase"] == "draft" and view["whose_turn"] == "p1"
        assert view["turn"] == {"player": "p1", "step": "take", "played_from_hand": False}
        assert "deck" not in view and "rng" not in view and view["deck_count"] == len(state["deck"])
        assert ("you" in view) == (viewer.get("role") == "player")
        assert S.SEED not in core.canonical_json(view)


def test_values_are_shown_only_after_scoring():
    f = lambda face: S.by_face(5, face)  # noqa: E731
    line = [f("2⁰"), f("3/2"), f("2.4"), f("3.14")]
    state = arrange(table(level=5), market=[f("2³"), f("0.7"), f("0.3"), f("4.5")], lines={"p1": line})
    view = GAME.view(state, {"role": "projector"})
    assert all("value" not in c for c in view["market"] + view["players"][0]["line"]["cards"])
    state, _events = act(state, "p1", take(f("2³")))
    state, _events = act(state, "p1", SCORE)
    view = GAME.view(state, {"role": "projector"})
    [score] = [e for e in view["log"] if e["type"] == "score"]
    assert [(c["face"], c["value"]) for c in score["cards"]][-1] == ("2³", "8")
    assert [c["value"] for c in score["cards"]] == ["1", "3/2", "12/5", "157/50", "8"]


def test_bet_cards_show_their_value_and_lines_show_the_bet_progress():
    state = arrange(table(), lines={"p1": [n(10), BET4, n(20)]})
    line = GAME.view(state, {"role": "spectator"})["players"][0]["line"]
    assert line["bet"] == {"card": BET4, "bet": 4, "cards_after": 1}
    assert line["cards"][1]["value"] == "4"


def test_final_view_reveals_values_and_outcome():
    state, _log, _events = core.play_with_bots(GAME, S.config(bots=("easy", "hard")), S.SEED)
    view = GAME.view(state, {"role": "projector"})
    assert view["outcome"] == GAME.outcome(state) and view["phase"] == "over" and view["whose_turn"] is None
    assert all("value" in c for j in view["jackpots"] for c in j["cards"])


# --------------------------------------------------------------------------------------------------
# Facts and bots
# --------------------------------------------------------------------------------------------------


def test_facts_cover_lines_bets_jackpots_and_final_scores_for_students_only():
    final, _log, events = core.play_with_bots(GAME, S.config(3, bots=(None, "hard", None)), "facts-seed")
    facts = GAME.facts(events)
    assert {f["player"] for f in facts} <= {"p1", "p3"}, "computer players get no facts"
    categories = {f["category"] for f in facts}
    assert {"comparison", "line", "final_score"} <= categories
    for fact in facts:
        assert fact["game"] == "lineit" and fact["skill"] == "numeracy" and fact["level"] == 3
        assert set(FACT_KEYS) <= set(fact)
        json.dumps(fact)
    finals = {f["player"]: f["score"] for f in facts if f["category"] == "final_score"}
    assert finals == {p: GAME.outcome(final)["scores"][p] for p in ("p1", "p3")}


@pytest.mark.parametrize("strength", ["easy", "medium", "hard"])
def test_bots_play_only_legal_moves(strength):
    rng = core.Rng("bot-test")
    state = table(3, bots=(strength, strength, strength))
    for _step in range(60):
        player = GAME.current_players(state)[0]
        action = GAME.bot_action(state, player, rng)
        assert action in GAME.legal_actions(state, player)
        state, _events = act(state, player, action)


def test_stronger_bots_score_more():
    totals = {"easy": 0, "hard": 0}
    for game in range(6):
        seats = ("easy", "hard") if game % 2 else ("hard", "easy")
        final, _log, _events = core.play_with_bots(GAME, S.config(bots=seats), f"strength-{game}")
        for player, strength in zip(("p1", "p2"), seats, strict=True):
            totals[strength] += GAME.outcome(final)["scores"][player]
    assert totals["hard"] > totals["easy"]
