"""Line-it through the live runtime: a class of three at one table, moves through ``action_submit``, the
views each device gets, refused placements recorded as learning facts, the turn clock's default move,
and a whole game played to its final scores."""

from __future__ import annotations

import json
import re

import pytest

from classrooms.services import student_level_set
from games import selectors, services
from games.definitions import get_engine
from games.engine import core
from games.engine.lineit import rules
from games.models import GameTable, TableLogEntry
from reports.models import LearningFact
from tests.factories import enrolled_student, recorded_facts, started_session

pytestmark = pytest.mark.django_db
T0 = 2_000_000.0
ENGINE = get_engine("lineit")


@pytest.fixture
def chloe(class_7b):
    return enrolled_student(
        class_7b, given_name="Chloe", family_name="Lee", display_name="Chloe L.", signin_code="8642"
    )


def start(classroom, teacher, students, **settings) -> GameTable:
    session = started_session(classroom, teacher, students, "lineit", now=T0, **settings)
    return GameTable.objects.get(session=session)


def view_for(table, viewer):
    table.refresh_from_db()
    return selectors.table_view(table, viewer)["view"]


def player_of(student):
    return services.student_player_id(student.pk)


def submit(table, player, action, *, at):
    return services.action_submit(table_id=table.pk, player=player, action=action, key=f"k{at}", now=at)


def test_three_students_share_one_table_at_their_median_level_with_random_card_ids(
    class_7b, ms_rivera, ava, ben, chloe
):
    for student, level in ((ava, 2), (ben, 5), (chloe, 4)):
        student_level_set(student=student, skill="numeracy", level=level, by=ms_rivera)
    table = start(class_7b, ms_rivera, [ava, ben, chloe])
    assert sorted(p["id"] for p in table.config["players"]) == sorted(map(player_of, (ava, ben, chloe)))
    assert table.config["level"] == 4 and table.config["turn_seconds"] == 30.0
    assert table.config["card_ids"] == "shuffled"
    assert table.state["level"] == 4 and all(re.fullmatch(r"k\d{3}", c) for c in table.state["market"])
    assert table.deadline == T0 + 30


def test_the_teacher_chooses_the_level_and_the_turn_clock(class_7b, ms_rivera, ava, ben):
    table = start(class_7b, ms_rivera, [ava, ben], level="1", turn_seconds=20)
    assert table.state["level"] == 1 and table.deadline == T0 + 20


def test_each_device_sees_its_own_hand_and_only_counts_of_the_others(class_7b, ms_rivera, ava, ben, chloe):
    table = start(class_7b, ms_rivera, [ava, ben, chloe])
    first = ENGINE.current_players(table.state)[0]
    card = table.state["market"][0]
    submit(table, first, {"type": "take", "card": card, "to": "hand"}, at=T0 + 1)
    table.refresh_from_db()
    assert table.state["hands"][first] == [card]
    others = [p["id"] for p in table.config["players"] if p["id"] != first]
    mine = view_for(table, {"role": "player", "player": first})
    assert [c["id"] for c in mine["you"]["hand"]] == [card]
    for viewer in [{"role": "player", "player": p} for p in others] + [
        {"role": "teacher"},
        {"role": "projector"},
    ]:
        view = view_for(table, viewer)
        text = json.dumps(view)
        assert card not in text, f"the hand card reached {viewer}"
        assert next(p for p in view["players"] if p["id"] == first)["hand_count"] == 1
        assert not any(card_id in text for card_id in table.state["deck"]), "a deck card was shown"
        assert not re.search(r"\bc\d{3}\b", text), "a deck id (the card's rank) was shown"
        assert table.seed not in text
    assert view_for(table, {"role": "projector"}).get("you") is None


def test_a_card_that_breaks_the_line_is_refused_with_the_reason_and_recorded_as_a_learning_fact(
    class_7b, ms_rivera, ava, ben, chloe
):
    table = start(class_7b, ms_rivera, [ava, ben, chloe], level="5")
    state = table.state
    first = ENGINE.current_players(state)[0]
    # Arrange the table: the first player's line goes up from the lowest card to the highest, and the
    # market's first card is the second lowest.
    numbers = [c for c in rules.card_ids_of(state) if rules.is_number(state, c)]
    numbers.sort(key=lambda c: rules.value_of(state, c))
    low, lower, high = numbers[0], numbers[1], numbers[99]
    for place in rules.all_locations(state):
        place[:] = [c for c in place if c not in (low, lower, high)]
    state["deck"].append(state["market"].pop(0))
    state["market"].insert(0, lower)
    state["lines"][first] = {"cards": [low, high], "direction": "up"}
    table.state = state
    table.save(update_fields=["state"])
    with pytest.raises(services.ActionRefused) as refused:
        submit(table, first, {"type": "take", "card": lower, "to": "line"}, at=T0 + 3)
    face, end_face = rules.face_of(state, lower), rules.face_of(state, high)
    assert refused.value.code == "breaks_line"
    assert refused.value.message == f"{face} is less than {end_face}: this line goes up"
    fact = LearningFact.objects.get(category="comparison")
    assert fact.correct is False and fact.skill == "numeracy" and fact.level == 5
    assert fact.student_id == int(first[1:]) and fact.game == "lineit"
    assert fact.detail["card_value"] == rules.card_of(state, lower)["value"]
    assert fact.detail["end_value"] == rules.card_of(state, high)["value"]
    assert fact.detail["direction"] == "up" and fact.detail["relation"] == "less"
    table.refresh_from_db()
    assert table.state["market"] == state["market"] and table.seq == 1, "a refusal changes nothing"


def test_other_refusals_are_not_learning_facts(class_7b, ms_rivera, ava, ben, chloe):
    table = start(class_7b, ms_rivera, [ava, ben, chloe])
    first = ENGINE.current_players(table.state)[0]
    waiting = next(p["id"] for p in table.config["players"] if p["id"] != first)
    with pytest.raises(services.ActionRefused) as refused:
        submit(table, waiting, {"type": "score"}, at=T0 + 1)
    assert refused.value.code == "not_your_turn"
    with pytest.raises(services.ActionRefused):
        submit(table, first, {"type": "take", "card": "c001", "to": "hand"}, at=T0 + 2)
    assert not LearningFact.objects.exists()


def test_when_the_turn_clock_runs_out_the_server_plays_the_default_move(class_7b, ms_rivera, ava, ben, chloe):
    table = start(class_7b, ms_rivera, [ava, ben, chloe], turn_seconds=15)
    first = ENGINE.current_players(table.state)[0]
    assert services.table_sweep(table_id=table.pk, now=T0 + 14) is False
    assert services.table_sweep(table_id=table.pk, now=T0 + 15) is True
    table.refresh_from_db()
    assert table.log.filter(kind=TableLogEntry.Kind.DEADLINE).count() == 1
    assert len(table.state["lines"][first]["cards"]) == 1, "the empty line was started for them"
    assert ENGINE.current_players(table.state)[0] != first and table.deadline == T0 + 30
    types = [e["type"] for e in view_for(table, {"role": "teacher"})["log"]]
    assert types[-3:] == ["timeout", "take", "place"]


def test_a_whole_game_through_the_services_ends_with_scores_and_learning_facts(
    class_7b, ms_rivera, ava, ben, chloe
):
    table = start(class_7b, ms_rivera, [ava, ben, chloe], level="3")
    bot_rng = core.Rng("students")
    at = T0
    for _step in range(2000):
        table.refresh_from_db()
        if table.status != GameTable.Status.PLAYING:
            break
        player = ENGINE.current_players(table.state)[0]
        at += 1
        submit(table, player, ENGINE.bot_action(table.state, player, bot_rng), at=at)
    table.refresh_from_db()
    assert table.status == GameTable.Status.FINISHED and table.deadline is None
    outcome = table.outcome
    assert set(outcome["scores"]) == {player_of(s) for s in (ava, ben, chloe)}
    for player, score in outcome["scores"].items():
        assert score == outcome["piles"][player] + sum(outcome["tokens"][player])
    facts = recorded_facts(table)
    finals = facts.filter(category="final_score")
    assert {(f.student_id, f.score) for f in finals} == {
        (int(p[1:]), float(s)) for p, s in outcome["scores"].items()
    }
    categories = set(facts.values_list("category", flat=True))
    assert {"comparison", "line", "final_score"} <= categories
    assert all(f.skill == "numeracy" and f.level == 3 for f in facts)
    replayed = core.replay(
        ENGINE,
        table.config,
        table.seed,
        [
            {"kind": e.kind, "player": e.player, "action": e.action, "at": e.at, "seconds": e.seconds}
            for e in table.log.order_by("seq")
        ],
    )
    assert core.state_hash(replayed) == core.state_hash(table.state)
    final_view = view_for(table, {"role": "projector"})
    assert final_view["phase"] == "over" and final_view["outcome"]["winners"]


def test_results_and_the_step_through_replay_of_a_finished_table(class_7b, ms_rivera, ava, ben, client_of):
    table = start(class_7b, ms_rivera, [ava, ben], level="4")
    bot_rng = core.Rng("replay")
    at = T0
    while True:
        table.refresh_from_db()
        if table.status != GameTable.Status.PLAYING:
            break
        player = ENGINE.current_players(table.state)[0]
        at += 1
        submit(table, player, ENGINE.bot_action(table.state, player, bot_rng), at=at)
    client = client_of(ms_rivera)
    results = client.get(f"/sessions/{table.session_id}/results/")
    assert results.status_code == 200 and "Ava M." in results.content.decode()
    page = client.get(f"/sessions/{table.session_id}/replay/{table.number}/")
    html = page.content.decode()
    scripts = ["vendor/idiomorph/idiomorph.js", "js/games/common.js"]
    scripts += [f"js/games/lineit/{piece}.js" for piece in ("words", "board", "view", "input")]
    assert page.status_code == 200
    places = [html.find(f'src="/static/{script}"') for script in [*scripts, "js/replay.js"]]
    assert -1 not in places and places == sorted(places), "the replay loads the screen's scripts in order"
    steps = table.log.count()
    first = client.get(f"/sessions/{table.session_id}/replay/{table.number}/1.json").json()
    last = client.get(f"/sessions/{table.session_id}/replay/{table.number}/{steps}.json").json()
    assert first["table"]["view"]["round"] == 1 and "you" not in first["table"]["view"]
    assert last["table"]["status"] == "finished" and last["table"]["view"]["outcome"] == table.outcome


def test_a_game_the_teacher_ends_early_shows_everyones_score_at_that_moment(
    class_7b, ms_rivera, ava, ben, chloe, client_of
):
    table = start(class_7b, ms_rivera, [ava, ben, chloe], level="3")
    bot_rng = core.Rng("early")
    at = T0
    for _step in range(120):  # far enough that lines have been scored and cards banked
        table.refresh_from_db()
        player = ENGINE.current_players(table.state)[0]
        at += 1
        submit(table, player, ENGINE.bot_action(table.state, player, bot_rng), at=at)
    table.refresh_from_db()
    scores = {p: rules.score_of(table.state, p) for p in table.state["order"]}
    assert any(scores.values())
    services.session_end(session=table.session, by=ms_rivera)
    table.refresh_from_db()
    assert table.status == GameTable.Status.ENDED
    assert table.outcome["winners"] == [] and table.outcome["scores"] == scores
    page = client_of(ms_rivera).get(f"/sessions/{table.session_id}/results/").content.decode()
    assert "Won by" not in page and "Ended early by the teacher." in page
    names = {player_of(s): s.display_name for s in (ava, ben, chloe)}
    rows = re.findall(r'<th scope="row">([^<]+)</th><td>(-?\d+)</td>', page)
    assert sorted(rows) == sorted((names[p], str(s)) for p, s in scores.items())
