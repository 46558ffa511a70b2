"""Word Up through the live runtime: seating at the students' own levels (or the teacher's), a teacher's
accept through action_submit (and only the teacher's), learning facts per answer, a whole game to the end."""

import pytest

from classrooms.models import StudentLevel
from games import services
from games.definitions import get_engine
from games.engine import core
from games.engine.core import TEACHER
from games.engine.wordup import board as B
from games.models import GameTable
from tests.factories import recorded_facts, started_session

pytestmark = pytest.mark.django_db
T0 = 1_000_000.0
ENGINE = get_engine("wordup")


def start(classroom, teacher, students, **settings) -> GameTable:
    session = started_session(classroom, teacher, students, "wordup", now=T0, **settings)
    return GameTable.objects.get(session=session)


def set_level(student, level):
    StudentLevel.objects.update_or_create(
        student=student, skill="english_vocabulary", defaults={"level": level}
    )


def roll_onto_category(table: GameTable, category: str, now: float) -> str:
    """The player whose turn it is rolls onto a ``category`` square (the dice are in the state)."""
    state = table.state
    rng = core.Rng.from_state(state["rng"])
    total = rng.randint(1, 6) + rng.randint(1, 6)
    square = next(s["index"] for s in B.BOARD if s.get("category") == category)
    state["positions"][state["turn"]] = (square - total) % B.BOARD_SIZE
    table.state = state
    table.save(update_fields=["state"])
    player = state["turn"]
    services.action_submit(table_id=table.pk, player=player, action={"type": "roll"}, key=f"r{now}", now=now)
    table.refresh_from_db()
    return player


def test_students_are_asked_at_their_own_level(class_7b, ms_rivera, ava, ben):
    set_level(ava, 1)
    set_level(ben, 5)
    table = start(class_7b, ms_rivera, [ava, ben])
    levels = {p["id"]: p["level"] for p in table.config["players"]}
    assert levels == {f"s{ava.pk}": 1, f"s{ben.pk}": 5}
    teacher_view = ENGINE.view(table.state, {"role": "teacher"})
    assert teacher_view["levels"] == levels
    projector = core.canonical_json(ENGINE.view(table.state, {"role": "projector"}))
    assert '"level"' not in projector


def test_the_teacher_may_set_one_level_for_everyone(class_7b, ms_rivera, ava, ben):
    set_level(ava, 1)
    table = start(class_7b, ms_rivera, [ava, ben], level="4", target=1)
    assert {p["level"] for p in table.config["players"]} == {4}
    assert table.state["settings"]["target"] == 1


def test_a_student_alone_plays_against_a_computer_player(class_7b, ms_rivera, ava):
    table = start(class_7b, ms_rivera, [ava])
    assert len(table.state["seating"]) == 2
    assert any(p.get("bot") for p in table.config["players"])


def test_the_teacher_accepts_a_refused_answer_and_the_fact_is_teacher_marked(class_7b, ms_rivera, ava, ben):
    table = start(class_7b, ms_rivera, [ava, ben])
    player = roll_onto_category(table, B.CROSSWORD, T0 + 1)
    serial = table.state["question"]["serial"]
    services.action_submit(
        table_id=table.pk, player=player, action={"type": "answer", "answer": "qqq"}, key="a1", now=T0 + 2
    )
    table.refresh_from_db()
    assert table.state["phase"] == "reveal"
    assert not recorded_facts(table).exists()  # not final while the teacher may accept

    # A student cannot pose as the teacher, nor accept for themselves.
    with pytest.raises(services.ActionRefused):
        services.action_submit(
            table_id=table.pk, player=TEACHER, action={"type": "accept"}, key="x1", now=T0 + 3
        )
    with pytest.raises(services.ActionRefused):
        services.action_submit(
            table_id=table.pk, player=player, action={"type": "accept"}, key="x2", now=T0 + 3
        )
    with pytest.raises(services.ActionRefused):  # a late click naming an earlier question
        services.action_submit(
            table_id=table.pk,
            player=TEACHER,
            action={"type": "accept", "question": serial - 1},
            key="x3",
            now=T0 + 3,
            teacher=True,
        )

    result = services.action_submit(
        table_id=table.pk,
        player=TEACHER,
        action={"type": "accept", "question": serial},
        key="t1",
        now=T0 + 3,
        teacher=True,
    )
    again = services.action_submit(
        table_id=table.pk,
        player=TEACHER,
        action={"type": "accept", "question": serial},
        key="t1",
        now=T0 + 3,
        teacher=True,
    )
    assert again.duplicate and again.seq == result.seq  # a resent click is one accept
    table.refresh_from_db()
    assert table.state["tokens"][player][B.CROSSWORD] == 1
    assert table.state["phase"] == "roll" and table.state["turn"] == player
    (fact,) = recorded_facts(table)
    assert fact.correct is True and fact.teacher_marked is True
    assert fact.detail["checker_correct"] is False
    assert fact.response == "qqq" and fact.category == B.CROSSWORD
    assert fact.student_id == int(player[1:])


def test_an_accept_after_the_reveal_has_ended_is_refused(class_7b, ms_rivera, ava, ben):
    table = start(class_7b, ms_rivera, [ava, ben])
    player = roll_onto_category(table, B.MISSING_WORD, T0 + 1)
    services.action_submit(
        table_id=table.pk, player=player, action={"type": "answer", "answer": "qqq"}, key="a1", now=T0 + 2
    )
    table.refresh_from_db()
    late = table.deadline + 1
    with pytest.raises(services.ActionRefused):
        services.action_submit(
            table_id=table.pk, player=TEACHER, action={"type": "accept"}, key="t1", now=late, teacher=True
        )
    (fact,) = recorded_facts(table)
    assert fact.correct is False and fact.teacher_marked is False


def test_a_whole_game_plays_to_the_end_with_one_fact_per_answer(class_7b, ms_rivera, ava, ben):
    table = start(class_7b, ms_rivera, [ava, ben], target=1)
    rng = core.Rng("bots")
    now = T0
    for step in range(2000):
        table.refresh_from_db()
        if table.status != GameTable.Status.PLAYING:
            break
        now += 1
        players = ENGINE.current_players(table.state)
        if players:
            action = ENGINE.bot_action(table.state, players[0], rng)
            services.action_submit(
                table_id=table.pk, player=players[0], action=action, key=f"k{step}", now=now
            )
        else:
            services.table_sweep(table_id=table.pk, now=table.deadline)
    table.refresh_from_db()
    assert table.status == GameTable.Status.FINISHED
    assert table.outcome["reason"] == "target" and table.outcome["winners"]
    facts = recorded_facts(table)
    assert facts.count() == table.state["answers_given"] > 0
    assert set(facts.values_list("game", flat=True)) == {"wordup"}
    assert set(facts.values_list("skill", flat=True)) == {"english_vocabulary"}
    assert {f.student_id for f in facts} <= {ava.pk, ben.pk}
    assert all(f.level in range(1, 6) and f.time_taken is not None for f in facts)


def test_a_game_ended_by_the_teacher_keeps_its_scores_for_the_results(class_7b, ms_rivera, ava, ben):
    from games import selectors

    table = start(class_7b, ms_rivera, [ava, ben])
    player = roll_onto_category(table, "crossword", T0 + 1)
    answer = table.state["question"]["data"]["answers"][0]
    services.action_submit(
        table_id=table.pk, player=player, action={"type": "answer", "answer": answer}, key="a1", now=T0 + 2
    )
    services.session_end(session=table.session, by=ms_rivera)
    table.refresh_from_db()
    assert table.status == GameTable.Status.ENDED
    other = next(pid for pid in table.state["seating"] if pid != player)
    assert table.outcome == {
        "winners": [],
        "reason": "ended",
        "scores": {player: 1, other: 0},
        "tokens": table.state["tokens"],
    }
    (row,) = selectors.session_results(table.session)["tables"]
    names = {f"s{s.pk}": s.display_name for s in (ava, ben)}
    assert row["winners"] == [] and row["scores"] == [(names[player], 1), (names[other], 0)]


def test_a_finished_game_ended_afterwards_keeps_its_own_outcome():
    from tests.loading import engine_module

    support = engine_module("test_wordup_support")
    state = ENGINE.setup(support.config(2), "seed", now=0.0)
    assert ENGINE.outcome_when_ended(state)["winners"] == []
    state["phase"] = "over"
    state["winners"], state["end_reason"] = [state["seating"][0]], "target"
    assert ENGINE.outcome_when_ended(state) == ENGINE.outcome(state)


@pytest.mark.parametrize(("settings", "window"), [({}, 20), ({"reveal_seconds": 45}, 45)])
def test_the_teachers_accept_window_is_20_seconds_unless_the_teacher_sets_it(
    class_7b, ms_rivera, ava, ben, settings, window
):
    from games.definitions import definition

    spec = definition("wordup").spec.settings["reveal_seconds"]
    assert (spec.default, spec.minimum, spec.maximum) == (20, 4, 120)
    table = start(class_7b, ms_rivera, [ava, ben], **settings)
    assert table.config["reveal_seconds"] == window
    player = roll_onto_category(table, "missing_word", T0 + 1)
    services.action_submit(
        table_id=table.pk, player=player, action={"type": "answer", "answer": "zzzz"}, key="a1", now=T0 + 2
    )
    table.refresh_from_db()
    assert table.state["phase"] == "reveal" and table.deadline == T0 + 2 + window
    # Still in time just before the window closes.
    accept = {"type": "accept"}
    services.action_submit(
        table_id=table.pk, player=TEACHER, action=accept, key="ok", now=T0 + 1 + window, teacher=True
    )
    table.refresh_from_db()
    assert table.state["tokens"][player]["missing_word"] == 1


def test_a_bank_too_thin_for_the_class_stops_the_start_with_the_reason_and_changes_nothing(
    class_7b, ms_rivera, ava, ben, monkeypatch
):
    from datetime import timedelta

    from django.core.exceptions import ValidationError
    from django.utils import timezone

    from games.definitions import wordup
    from games.models import GameSession
    from games.shipped import wordup_questions

    shipped = wordup_questions()
    thin = {level: dict(categories) for level, categories in shipped.items()}
    for level in ("1", "2"):
        thin[level]["spelling"] = []  # a level-1 class would be asked level-3 spelling
    monkeypatch.setattr(wordup, "school_bank", lambda session: thin)
    for student in (ava, ben):
        set_level(student, 1)
    session = services.session_schedule(
        classroom=class_7b, by=ms_rivera, game="wordup", scheduled_for=timezone.now() + timedelta(minutes=5)
    )
    services.session_open_lobby(session=session, by=ms_rivera)
    for student in (ava, ben):
        services.session_join(session=session, student=student)
    with pytest.raises(ValidationError) as refused:
        services.session_start(session=session, by=ms_rivera)
    assert "no spelling questions at level 1, nor at a level next to it" in refused.value.messages[0]
    session.refresh_from_db()
    assert session.status == GameSession.Status.LOBBY and not session.tables.exists()
