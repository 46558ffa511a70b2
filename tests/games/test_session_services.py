"""The live-session runtime's writers: scheduling, lobby, start, actions, deadlines, clocks, replay."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from games import services
from games.definitions import get_engine
from games.engine import core
from games.models import GameSession, GameTable, Participant, SessionControl, TableLogEntry
from reports.models import LearningFact

pytestmark = pytest.mark.django_db
T0 = 1_000_000.0


@pytest.fixture
def lineup_session(class_7b, ms_rivera):
    return services.session_schedule(
        classroom=class_7b, by=ms_rivera, game="lineup", scheduled_for=timezone.now() + timedelta(hours=1)
    )


@pytest.fixture
def running(lineup_session, ms_rivera, ava, ben):
    services.session_open_lobby(session=lineup_session, by=ms_rivera)
    services.session_join(session=lineup_session, student=ava)
    services.session_join(session=lineup_session, student=ben)
    services.session_start(session=lineup_session, by=ms_rivera, now=T0)
    return GameTable.objects.get(session=lineup_session)


def test_scheduling_cleans_and_defaults_the_settings(lineup_session):
    assert lineup_session.settings["board"] == "standard"
    assert lineup_session.status == GameSession.Status.SCHEDULED


@pytest.mark.parametrize(
    "settings", [{"board": "huge"}, {"answer_seconds": 2}, {"answer_seconds": "soon"}, {"colour": "red"}]
)
def test_bad_settings_are_refused(class_7b, ms_rivera, settings):
    with pytest.raises(ValidationError):
        services.session_schedule(
            classroom=class_7b, by=ms_rivera, game="lineup", scheduled_for=timezone.now(), settings=settings
        )
    assert not GameSession.objects.exists()


def test_an_unknown_game_is_refused(class_7b, ms_rivera):
    with pytest.raises(ValidationError):
        services.session_schedule(
            classroom=class_7b, by=ms_rivera, game="chess", scheduled_for=timezone.now()
        )


def test_the_lobby_opens_by_itself_shortly_before_the_start(class_7b, ms_rivera):
    soon = services.session_schedule(
        classroom=class_7b, by=ms_rivera, game="faces", scheduled_for=timezone.now() + timedelta(minutes=5)
    )
    later = services.session_schedule(
        classroom=class_7b, by=ms_rivera, game="faces", scheduled_for=timezone.now() + timedelta(hours=3)
    )
    assert services.sessions_open_due_lobbies() == 1
    soon.refresh_from_db()
    later.refresh_from_db()
    assert (soon.status, later.status) == ("lobby", "scheduled")


def test_a_student_of_another_class_cannot_join(lineup_session, ms_rivera, cleo):
    services.session_open_lobby(session=lineup_session, by=ms_rivera)
    with pytest.raises(PermissionDenied):
        services.session_join(session=lineup_session, student=cleo)


def test_joining_twice_is_one_participation(lineup_session, ms_rivera, ava):
    services.session_open_lobby(session=lineup_session, by=ms_rivera)
    first = services.session_join(session=lineup_session, student=ava)
    assert services.session_join(session=lineup_session, student=ava) == first


def test_a_locked_lobby_makes_latecomers_wait_for_admission(lineup_session, ms_rivera, ava):
    services.session_open_lobby(session=lineup_session, by=ms_rivera)
    services.session_lock_lobby(session=lineup_session, by=ms_rivera)
    participant = services.session_join(session=lineup_session, student=ava)
    assert participant.status == Participant.Status.WAITING
    services.participant_admit(participant=participant, by=ms_rivera)
    assert participant.status == Participant.Status.PRESENT


def test_a_removed_student_cannot_rejoin_until_readmitted(lineup_session, ms_rivera, ava):
    services.session_open_lobby(session=lineup_session, by=ms_rivera)
    participant = services.session_join(session=lineup_session, student=ava)
    services.participant_remove(participant=participant, by=ms_rivera)
    with pytest.raises(PermissionDenied):
        services.session_join(session=lineup_session, student=ava)
    services.participant_readmit(participant=participant, by=ms_rivera)
    assert services.session_join(session=lineup_session, student=ava).status == Participant.Status.PRESENT


def test_starting_seats_both_students_in_two_teams(running, ava, ben):
    players = {p["id"]: p["team"] for p in running.config["players"]}
    assert set(players) == {f"s{ava.pk}", f"s{ben.pk}"}
    assert sorted(players.values()) == ["blue", "yellow"]
    assert running.seq == 1 and running.deadline == T0 + 60
    assert running.session.status == GameSession.Status.RUNNING


def test_starting_an_empty_lobby_is_refused(lineup_session, ms_rivera):
    services.session_open_lobby(session=lineup_session, by=ms_rivera)
    with pytest.raises(ValidationError):
        services.session_start(session=lineup_session, by=ms_rivera)


def test_an_action_is_applied_once_per_idempotency_key(running, ava):
    player = f"s{ava.pk}"
    move = {"type": "rack", "order": [2, 1, 3, 4, 5]}
    first = services.action_submit(table_id=running.pk, player=player, action=move, key="k1", now=T0 + 1)
    again = services.action_submit(table_id=running.pk, player=player, action=move, key="k1", now=T0 + 2)
    assert again.duplicate and again.seq == first.seq == 2
    assert TableLogEntry.objects.filter(table=running).count() == 2


def test_an_illegal_action_is_refused_clearly_and_changes_nothing(running, ava):
    before = GameTable.objects.get(pk=running.pk).state
    with pytest.raises(services.ActionRefused) as refused:
        services.action_submit(
            table_id=running.pk,
            player=f"s{ava.pk}",
            action={"type": "rack", "order": [1, 1]},
            key="x",
            now=T0 + 1,
        )
    assert refused.value.message
    table = GameTable.objects.get(pk=running.pk)
    assert table.state == before and table.seq == 1


def test_a_student_cannot_act_as_the_teacher(running):
    with pytest.raises(services.ActionRefused):
        services.action_submit(
            table_id=running.pk, player=core.TEACHER, action={"type": "x"}, key="t", now=T0
        )


def test_an_action_after_the_deadline_is_refused_and_the_deadline_fires_once(running, ava):
    with pytest.raises(services.ActionRefused) as refused:
        services.action_submit(
            table_id=running.pk, player=f"s{ava.pk}", action={"type": "confirm"}, key="late", now=T0 + 65
        )
    assert refused.value.code == "too_late"
    services.deadline_sweep(now=T0 + 65)  # the sweeper arriving afterwards finds nothing left to fire
    assert list(
        TableLogEntry.objects.filter(table=running, kind="deadline").values_list("at", flat=True)
    ) == [T0 + 60]


def test_two_sweeps_fire_a_deadline_exactly_once(running):
    assert services.deadline_sweep(now=T0 + 59) == 0
    assert services.deadline_sweep(now=T0 + 61) == 1
    entries = TableLogEntry.objects.filter(table=running, kind="deadline")
    assert [entry.at for entry in entries] == [T0 + 60]
    table = GameTable.objects.get(pk=running.pk)
    assert table.deadline is None or table.deadline > T0 + 61


def test_pause_freezes_and_resume_restores_the_remaining_time(running, ms_rivera, ava):
    session = running.session
    services.session_pause(session=session, by=ms_rivera, now=T0 + 30)
    assert GameTable.objects.get(pk=running.pk).deadline is None
    assert services.deadline_sweep(now=T0 + 500) == 0
    with pytest.raises(services.ActionRefused) as refused:
        services.action_submit(
            table_id=running.pk,
            player=f"s{ava.pk}",
            action={"type": "rack", "order": [2, 1, 3, 4, 5]},
            key="p",
        )
    assert refused.value.code == "paused"
    services.session_resume(session=session, by=ms_rivera, now=T0 + 600)
    assert GameTable.objects.get(pk=running.pk).deadline == T0 + 600 + 30
    assert set(SessionControl.objects.values_list("kind", flat=True)) >= {"pause", "resume", "start"}


def test_extend_and_advance(running, ms_rivera):
    services.table_extend(table=running, by=ms_rivera, seconds=30, now=T0 + 10)
    assert GameTable.objects.get(pk=running.pk).deadline == T0 + 90
    services.table_advance(table=running, by=ms_rivera, now=T0 + 11)
    assert TableLogEntry.objects.filter(table=running, kind="deadline").count() == 1


def test_ending_the_session_ends_every_table(running, ms_rivera):
    services.session_end(session=running.session, by=ms_rivera)
    running.refresh_from_db()
    assert running.status == GameTable.Status.ENDED
    assert running.session.status == GameSession.Status.FINISHED
    with pytest.raises(services.ActionRefused):
        services.action_submit(table_id=running.pk, player="s1", action={"type": "confirm"}, key="z")


def test_ending_a_session_that_has_ended_changes_nothing(running, ms_rivera):
    services.session_end(session=running.session, by=ms_rivera)
    ended = GameSession.objects.get(pk=running.session_id)
    with pytest.raises(ValidationError, match="already ended"):
        services.session_end(session=ended, by=ms_rivera)
    again = GameSession.objects.get(pk=running.session_id)
    assert (again.status, again.ended_at) == (GameSession.Status.FINISHED, ended.ended_at)
    assert again.controls.filter(kind="end").count() == 1


def test_a_table_replays_from_its_seed_and_log(running, ava, ben):
    engine = get_engine("lineup")
    now = T0
    for step in range(40):
        table = GameTable.objects.get(pk=running.pk)
        if table.status != GameTable.Status.PLAYING:
            break
        players = engine.current_players(table.state)
        now += 3
        if players:
            player = players[step % len(players)]
            action = engine.bot_action(table.state, player, core.Rng(f"t{step}"))
            services.action_submit(table_id=table.pk, player=player, action=action, key=f"k{step}", now=now)
        else:
            services.deadline_sweep(now=max(now, table.deadline))
            now = max(now, table.deadline)
    table = GameTable.objects.get(pk=running.pk)
    log = [entry.as_log_entry() for entry in table.log.all()]
    replayed = core.replay(engine, table.config, table.seed, log)
    assert core.state_hash(replayed) == core.state_hash(table.state)


def test_answers_become_learning_facts_for_the_students(
    running, ava, ben, eager_celery, django_capture_on_commit_callbacks
):
    """The reveal's facts are recorded by a task queued when the move commits (here run at once)."""
    with django_capture_on_commit_callbacks(execute=True):
        for player in (f"s{ava.pk}", f"s{ben.pk}"):
            services.action_submit(
                table_id=running.pk,
                player=player,
                action={"type": "rack", "order": [2, 1, 3, 4, 5]},
                key="r",
                now=T0 + 5,
            )
            services.action_submit(
                table_id=running.pk, player=player, action={"type": "confirm"}, key="c", now=T0 + 6
            )
        assert not LearningFact.objects.exists(), "never inside the move's transaction"
    facts = LearningFact.objects.filter(session=running.session)
    assert {fact.student_id for fact in facts} == {ava.pk, ben.pk}
    assert all(fact.game == "lineup" for fact in facts)


def test_a_broadcast_that_fails_after_the_commit_never_fails_the_move(
    running, ava, django_capture_on_commit_callbacks
):
    """The move is committed: it is acknowledged even if telling the screens fails (Redis down a moment);
    they catch up with the next update or when they reconnect."""
    from unittest import mock

    with (
        mock.patch("games.broadcast._send", side_effect=ConnectionError("redis down")) as send,
        django_capture_on_commit_callbacks(execute=True),
    ):
        result = services.action_submit(
            table_id=running.pk,
            player=f"s{ava.pk}",
            action={"type": "rack", "order": [2, 1, 3, 4, 5]},
            key="r",
            now=T0 + 5,
        )
    assert send.called and result.seq == running.seq + 1 and not result.duplicate
    assert running.log.filter(seq=result.seq, idempotency_key="r").exists()
