"""Line-Up in a live session: pairing the class, the computer for an odd student, the turn time limit through
the game clock, what each viewer is sent, and the learning facts the reports are built from."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import selectors, services
from games.definitions import get_engine
from games.engine import core
from games.engine.faces.features import FEATURE_KEYS
from games.models import GameSession, GameTable
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


def test_by_default_running_out_of_time_passes_the_turn(class_7b, ms_rivera, ava, ben):
    session = running(class_7b, ms_rivera, [ava, ben], turn_seconds=60)
    table = GameTable.objects.get(session=session)
    assert table.state["settings"]["timeout"] == "pass"
    slow = table.state["turn"]
    assert services.deadline_sweep(now=T0 + 61) == 1
    table.refresh_from_db()
    assert table.status == GameTable.Status.PLAYING and table.state["turn"] != slow
    assert table.outcome is None


def test_running_out_of_time_loses_the_match_and_only_then_is_the_seed_shown(class_7b, ms_rivera, ava, ben):
    session = running(class_7b, ms_rivera, [ava, ben], turn_seconds=60, timeout="lose_match")
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
        # A question's measure is its quality score, not a mark.
        assert 0 < fact.score <= 1 and fact.correct is None
        assert fact.item_id in FEATURE_KEYS
    (match,) = facts.filter(category="match")
    assert match.correct == (table.outcome["winners"] == [student])
    assert match.detail["against_bot"] is True


def test_a_match_won_by_resignation_has_a_result_that_agrees_with_itself(
    class_7b, ms_rivera, ava, ben, client_of
):
    from django.urls import reverse

    session = running(class_7b, ms_rivera, [ava, ben], turn_seconds=60)
    table = GameTable.objects.get(session=session)
    quitter = table.state["turn"]
    services.action_submit(table_id=table.pk, player=quitter, action={"type": "resign"}, key="r", now=T0 + 5)
    table.refresh_from_db()
    winner = next(p for p in table.state["players"] if p != quitter)
    assert table.outcome["winners"] == [winner]
    assert table.outcome["scores"][winner] > table.outcome["scores"][quitter]
    page = client_of(ms_rivera).get(reverse("games:results", args=[session.pk])).content.decode()
    names = {f"s{s.pk}": s.display_name for s in (ava, ben)}
    assert f"Won by <strong>{names[winner]}</strong>" in page
    rows = re.findall(r'<th scope="row">([^<]+)</th><td>(\d+)</td>', page)
    assert rows == [(names[winner], "2"), (names[quitter], "0")]


def test_a_match_the_teacher_ends_early_shows_its_score_on_the_results(
    class_7b, ms_rivera, ava, ben, client_of
):
    from django.urls import reverse

    session = running(class_7b, ms_rivera, [ava, ben], turn_seconds=60)
    table = GameTable.objects.get(session=session)
    first = table.state["turn"]
    other = next(p for p in table.state["players"] if p != first)
    target = table.state["rounds"][0]["secret"][other]
    services.action_submit(
        table_id=table.pk, player=first, action={"type": "name", "face": target}, key="n", now=T0 + 5
    )
    services.session_end(session=session, by=ms_rivera)
    table.refresh_from_db()
    assert table.status == GameTable.Status.ENDED
    assert table.outcome == {"winners": [], "scores": {first: 1, other: 0}, "reason": "ended"}
    page = client_of(ms_rivera).get(reverse("games:results", args=[session.pk])).content.decode()
    assert "Won by" not in page and "Ended early by the teacher." in page
    names = {f"s{s.pk}": s.display_name for s in (ava, ben)}
    rows = re.findall(r'<th scope="row">([^<]+)</th><td>(\d+)</td>', page)
    assert rows == [(names[first], "1"), (names[other], "0")]


def test_the_board_setting_reaches_every_table_config_and_its_faces(class_7b, ms_rivera, ava, ben):
    cai = enrolled_student(class_7b, display_name="Cai L.")
    session = running(class_7b, ms_rivera, [ava, ben, cai], board="monsters")
    for table in GameTable.objects.filter(session=session):
        assert table.config["board"] == "monsters" and table.state["settings"]["board"] == "monsters"
        assert all(face["kind"] == "monster" for face in table.state["rounds"][0]["board"])
        player = next(p["id"] for p in table.config["players"] if not services.is_bot(p["id"]))
        view = selectors.table_view(table, {"role": "player", "player": player})["view"]
        assert view["board_kind"] == "monsters" and view["pad"][0]["id"] == "green_body"


def test_by_default_the_board_is_people_and_is_recorded(class_7b, ms_rivera, ava, ben):
    table = GameTable.objects.get(session=running(class_7b, ms_rivera, [ava, ben]))
    assert table.config["board"] == "people" and table.state["settings"]["board"] == "people"
    view = ENGINE.view(table.state, {"role": "player", "player": table.state["players"][0]})
    assert [item["id"] for item in view["pad"]] == list(FEATURE_KEYS)


def test_a_teacher_picks_the_monster_board_on_the_scheduling_form(client_of, ms_rivera, class_7b):
    client = client_of(ms_rivera)
    page = client.get(reverse("games:new") + f"?classroom={class_7b.pk}").content.decode()
    assert 'name="faces__board"' in page and "Friendly monsters" in page
    start = timezone.localtime() + timedelta(days=1)
    response = client.post(
        reverse("games:new"),
        {
            "classroom": class_7b.pk,
            "game": "faces",
            "title": "Monster match",
            "scheduled_for": start.strftime("%Y-%m-%dT%H:%M"),
            "planned_minutes": 20,
            "arrangement": "balanced",
            "faces__board": "monsters",
            "faces__turn_seconds": 60,
            "faces__timeout": "pass",
            "faces__bot": "medium",
        },
    )
    session = GameSession.objects.get()
    assert response.status_code == 302 and session.settings["board"] == "monsters"
    assert ("Board", "Friendly monsters (horns, wings, eyes ...)") in selectors.settings_display(session)
