"""Mind the Lines through the live runtime: a class's group is seated and set up from the session's
settings, strokes and exclusions go through ``action_submit`` with readable refusals, the teacher hides a
drawing, deadlines move the phases on, and the reveal writes each student's learning facts."""

from __future__ import annotations

import pytest

from games import services
from games.definitions import get_engine
from games.engine import core
from games.engine.mindlines import boards, rules
from games.models import GameTable
from tests.factories import enrolled_student, recorded_facts, started_session

pytestmark = pytest.mark.django_db
T0 = 2_000_000.0
ENGINE = get_engine("mindlines")


@pytest.fixture
def chloe(class_7b):
    return enrolled_student(class_7b, given_name="Chloe", family_name="Lee", display_name="Chloe L.")


def start(classroom, teacher, students, **settings):
    return started_session(classroom, teacher, students, "mindlines", now=T0, **settings)


def submit(table, player, action, now, teacher=False):
    result = services.action_submit(
        table_id=table.pk, player=player, action=action, key=f"k{now}", now=now, teacher=teacher
    )
    table.refresh_from_db()
    return result


def lines_of(table, player):
    drawing = table.state["drawings"][player]
    return boards.side_lines(table.state["board_seed"], rules.BOARD_COUNT, drawing["board"], drawing["side"])


def test_a_group_of_three_is_set_up_from_the_sessions_settings_with_the_students_names(
    class_7b, ms_rivera, ava, ben, chloe
):
    session = start(class_7b, ms_rivera, [ava, ben, chloe], difficulty="hard", draw_seconds=240)
    table = GameTable.objects.get(session=session)
    assert len(table.config["players"]) == 3 and table.config["difficulty"] == "hard"
    assert table.state["timers"]["draw_seconds"] == 240
    assert all(concept["difficulty"] == "hard" for concept in table.state["concepts"].values())
    view = ENGINE.view(table.state, {"role": "teacher"})
    assert sorted(player["name"] for player in view["players"]) == ["Ava M.", "Ben K.", "Chloe L."]
    assert view["concepts_each"] == 2 and not any(player["bot"] for player in view["players"])


def test_a_student_alone_gets_a_computer_partner(class_7b, ms_rivera, ava):
    table = GameTable.objects.get(session=start(class_7b, ms_rivera, [ava]))
    view = ENGINE.view(table.state, {"role": "projector"})
    assert [player["bot"] for player in view["players"]] == [False, True]


def test_strokes_off_the_lines_and_moves_out_of_turn_are_refused_with_a_reason(
    class_7b, ms_rivera, ava, ben, chloe
):
    table = GameTable.objects.get(session=start(class_7b, ms_rivera, [ava, ben, chloe]))
    players = table.state["players"]
    for n, player in enumerate(players):
        submit(table, player, {"type": "ready"}, T0 + 1 + n / 10)
    assert table.state["phase"] == "scribbling"
    me = players[0]
    lines = set(map(tuple, lines_of(table, me)))
    off = next([x, y, x + 1, y] for y in range(12) for x in range(11) if (x, y, x + 1, y) not in lines)
    with pytest.raises(services.ActionRefused) as refused:
        submit(table, me, {"type": "stroke", "segments": [off]}, T0 + 5)
    assert refused.value.code == "off_lines" and "dotted lines" in refused.value.message
    submit(table, me, {"type": "stroke", "segments": [lines_of(table, me)[0]]}, T0 + 6)
    assert len(table.state["drawings"][me]["strokes"]) == 1
    with pytest.raises(services.ActionRefused) as refused:
        submit(table, me, {"type": "exclude", "card": 0}, T0 + 7)
    assert refused.value.code == "wrong_phase"
    with pytest.raises(services.ActionRefused) as refused:
        submit(table, me, {"type": "hide", "player": players[1]}, T0 + 8)
    assert refused.value.code == "unknown_action"
    # the teacher hides a drawing with letters; the group and the projector no longer see its strokes
    submit(table, core.TEACHER, {"type": "hide", "player": me}, T0 + 9, teacher=True)
    submit(table, me, {"type": "done"}, T0 + 10)
    gallery = ENGINE.view(table.state, {"role": "projector"})["gallery"]
    assert gallery[0]["hidden"] and gallery[0]["strokes"] is None


def test_deadlines_move_the_round_on_and_the_reveal_writes_every_students_facts(
    class_7b, ms_rivera, ava, ben, chloe
):
    table = GameTable.objects.get(session=start(class_7b, ms_rivera, [ava, ben, chloe]))
    now = T0
    for _step in range(40):  # reading, drawing, six timed-out exclusions: each deadline fires once
        if table.state["phase"] in ("reveal", "over"):
            break
        now = table.deadline
        assert services.table_sweep(table_id=table.pk, now=now)
        assert not services.table_sweep(table_id=table.pk, now=now)  # never twice
        table.refresh_from_db()
    assert table.state["phase"] in ("reveal", "over")
    reveal = table.state["history"][-1]
    facts = recorded_facts(table)
    assert facts.filter(category="drawing").count() == 6  # three students, two concepts each
    assert facts.filter(category="exclusion").count() == 6
    # the timer excluded for everyone: those rows are kept, but not judged
    assert set(facts.filter(category="exclusion").values_list("correct", flat=True)) == {None}
    drawn = {card["id"]: card for card in reveal["cards"] if card["drawn_by"]}
    for fact in facts.filter(category="drawing"):
        assert fact.correct == (drawn[fact.item_id]["excluded_by"] is None)
