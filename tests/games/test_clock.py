"""The clock fires due deadlines from the database, so a restart loses none and fires none twice."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import clock, services
from games.models import GameTable, TableLogEntry

pytestmark = pytest.mark.django_db
T0 = 2_000_000.0


def test_a_restarted_clock_fires_what_became_due_exactly_once(class_7b, ms_rivera, ava, ben):
    session = services.session_schedule(
        classroom=class_7b, by=ms_rivera, game="faces", scheduled_for=timezone.now() + timedelta(minutes=1)
    )
    services.session_open_lobby(session=session, by=ms_rivera)
    services.session_join(session=session, student=ava)
    services.session_join(session=session, student=ben)
    services.session_start(session=session, by=ms_rivera, now=T0)
    table = GameTable.objects.get(session=session)
    due = table.deadline
    # The server was down while the deadline passed; the first tick after the restart fires it...
    assert clock.tick(now=due + 300, check_lobbies=False) == 1
    # ... and a second clock (or a second tick) finds nothing left to fire.
    assert clock.tick(now=due + 300, check_lobbies=False) == 0
    assert TableLogEntry.objects.filter(table=table, kind="deadline").count() == 1


def test_the_clock_opens_lobbies_that_are_due(class_7b, ms_rivera):
    session = services.session_schedule(
        classroom=class_7b, by=ms_rivera, game="lineit", scheduled_for=timezone.now() + timedelta(minutes=2)
    )
    clock.tick()
    session.refresh_from_db()
    assert session.status == "lobby"
