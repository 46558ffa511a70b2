"""Line-Up in a live session: pairing the class, the computer for an odd student, the turn time limit through
the game clock, what each viewer is sent, and the learning facts the reports are built from."""

import pytest

from games import selectors, services
from games.engine import core
from games.engine.faces.features import FEATURE_KEYS
from games.engine.registry import get_engine
from games.models import GameTable
from tests.factories import enrolled_student, recorded_facts, started_session

pytestmark = pytest.mark.django_db
T0 = 3_000_000.0
ENGINE = get_engine("faces")


def running(classroom, teacher, students, **settings):
    return started_session(classroom, teacher, students, "faces", now=T0, **settings)


def test_the_class_is_paired_and_an_odd_student_plays_the_computer_at_the_chosen_level(
    class_7b, ms_rivera, ava, ben
):
    cai = enrolled_student(class_7b, display_name="Cai L.")
    session = running(class_7b, ms_rivera, [ava, ben, cai], bot="hard", turn_seconds=45)
    tables = list(GameTable.objects.filter(session=session).order_by("number"))
    assert len(tables) == 2
    seats = sorted(len([p for p in t.config["players"] if not services.is_bot(p["id"])]) for t in tables)
    assert seats == [1, 2]
    lone = next(t for t in tables if any(services.is_bot(p["id"]) for p in t.config["players"]))
    assert [p["bot"] for p in lone.config["players"] if services.is_bot(p["id"])] == ["hard"]
    for table in tables:
        assert table.config["turn_seconds"] == 45 and table.state["settings"]["turn_seconds"] == 45
        assert table.deadline == T0 + 45


def test_running_out_of_time_loses_the_match_and_only_then_is_the_seed_shown(class_7b, ms_rivera, ava, ben):
    session = running(class_7b, ms_rivera, [ava, ben], turn_seconds=60)
    table = GameTable.objects.get(session=session)
    slow = table.state["turn"]
    fast = next(p for p in table.state["players"] if p != slow)
    for pid in (slow, fast):
        view = selectors.table_view(table, {"role": "player", "player": pid})["view"]
        assert view["verification"] == {"commitment": table.state["commitment"]}
        assert not core.contains_value(view, table.seed)
    # A move after the deadline (before the clock fired) is refused, and the deadline fires first.
    with pytest.raises(services.ActionRefused) as refused:
        services.action_submit(
            table_id=table.pk, player=slow, action={"type": "ask", "question": "hat"}, key="late", now=T0 + 61
        )
    assert refused.value.code == "too_late"
    table.refresh_from_db()
    assert table.status == GameTable.Status.FINISHED
    assert table.outcome["winners"] == [fast] and table.outcome["reason"] == "timeout"
    view = selectors.table_view(table, {"role": "player", "player": slow})["view"]
    assert view["verification"]["seed"] == table.seed
    assert view["unfinished_round_faces"][slow]["id"] == table.state["rounds"][0]["secret"][slow]
    projector = selectors.table_view(table, {"role": "projector"})["view"]
    assert "seed" not in projector.get("verification", {}) and '"board"' not in str(projector)


def test_facts_record_each_students_questions_namings_rounds_and_match_but_never_the_computers(
    class_7b, ms_rivera, ava
):
    session = running(class_7b, ms_rivera, [ava], bot="easy")
    table = GameTable.objects.get(session=session)
    student = f"s{ava.pk}"
    now, rng = T0, core.Rng("runtime-facts")
    for _step in range(400):
        table.refresh_from_db()
        if table.status != GameTable.Status.PLAYING:
            break
        now += 2
        movers = ENGINE.current_players(table.state)
        if student in movers:
            action = ENGINE.bot_action(table.state, student, rng)
            services.action_submit(table_id=table.pk, player=student, action=action, key=f"k{now}", now=now)
        else:
            assert services.bots_sweep(now=now + services.BOT_THINK_SECONDS) >= 0
            now += services.BOT_THINK_SECONDS
    table.refresh_from_db()
    assert table.status == GameTable.Status.FINISHED
    facts = recorded_facts(table)
    assert facts.exists() and set(facts.values_list("student", flat=True)) == {ava.pk}
    categories = set(facts.values_list("category", flat=True))
    assert {"round", "match"} <= categories and categories <= {"question", "name", "round", "match"}
    assert set(facts.values_list("game", "skill").distinct()) == {("faces", "reasoning")}
    for fact in facts.filter(category="question"):
        assert 0 < fact.score <= 1 and fact.correct == (fact.score >= 1)
        assert fact.item_id in FEATURE_KEYS
    (match,) = facts.filter(category="match")
    assert match.correct == (table.outcome["winners"] == [student])
    assert match.detail["against_bot"] is True
