"""Every game, played through the runtime (moves, computer players, deadlines, a pause, an extension and a
latecomer where the game seats one), replays from its seed and append-only log to the same state."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.definitions import get_engine
from games.engine import core
from games.models import GameTable
from tests.factories import enrolled_student, play_through_runtime

pytestmark = pytest.mark.django_db
T0 = 2_000_000.0


@pytest.mark.parametrize("game", ["lineup", "wordup", "faces", "lineit", "mindlines"])
def test_a_table_played_through_the_runtime_replays_to_the_same_state(game, class_7b, ms_rivera):
    students = [enrolled_student(class_7b, display_name=f"Player {n}") for n in range(3)]
    session = services.session_schedule(
        classroom=class_7b, by=ms_rivera, game=game, scheduled_for=timezone.now() + timedelta(hours=1)
    )
    services.session_open_lobby(session=session, by=ms_rivera)
    for student in students[:2]:
        services.session_join(session=session, student=student)
    services.session_start(session=session, by=ms_rivera, now=T0)
    session.refresh_from_db()
    engine = get_engine(game)
    table = GameTable.objects.filter(session=session).first()
    rng = core.Rng(f"replay-{game}")
    now = play_through_runtime(table, engine, rng, T0, 15)
    services.session_pause(session=session, by=ms_rivera, now=now + 1)
    services.session_resume(session=session, by=ms_rivera, now=now + 30)
    table.refresh_from_db()
    if table.status == GameTable.Status.PLAYING:
        services.table_extend(table=table, by=ms_rivera, seconds=20, now=now + 31)
    late = services.session_join(session=session, student=students[2])
    services.participant_admit(participant=late, by=ms_rivera, now=now + 32)
    play_through_runtime(table, engine, rng, now + 33, 15)
    for each in GameTable.objects.filter(session=session):
        log = [entry.as_log_entry() for entry in each.log.order_by("seq")]
        replayed = core.replay(engine, each.config, each.seed, log)
        assert core.state_hash(replayed) == core.state_hash(each.state), f"{game} table {each.number}"
        assert [entry.seq for entry in each.log.order_by("seq")] == list(range(1, each.seq + 1))
