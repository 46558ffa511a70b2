"""A session change reaching only students' devices (a homework attempt's, or a class whose staff screens
are on another server process) reads their seats and the lobby's counts, not the whole session: what a
student's device is sent is the same either way, and a staff screen that comes back reads the seats anew."""

from unittest.mock import patch

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings

from games import broadcast, selectors, services
from games.models import GameSession, Participant
from games.realtime import fanout
from tests.factories import enrolled_student, open_assignment, started_session
from tests.games.test_consumer_runtime import _connect, _cookie_for, _until


def _players_view_both_ways(session_id):
    ids = list(Participant.objects.filter(session_id=session_id).values_list("pk", flat=True))
    whole = selectors.session_snapshot(session_id)
    seats = selectors.players_snapshot(session_id, ids)
    for code, _name in settings.LANGUAGES:
        assert seats.summary_for("player", code) == whole.summary_for("player", code)
    assert seats.seats == {pk: whole.seats[pk] for pk in ids}
    return seats


@pytest.mark.django_db
def test_a_students_view_of_the_session_is_the_same_from_their_seats_as_from_the_whole_session(
    class_7b, ms_rivera, ava, ben
):
    chloe = enrolled_student(class_7b, given_name="Chloe", family_name="Ray", display_name="Chloe R.")
    session = started_session(class_7b, ms_rivera, [ava, ben, chloe], "lineup")
    assert _players_view_both_ways(session.pk).summary_for("player")["counts"]["present"] == 3
    services.participant_remove(
        participant=Participant.objects.get(session=session, student=chloe), by=ms_rivera
    )
    services.session_pause(session=GameSession.objects.get(pk=session.pk), by=ms_rivera)
    paused = _players_view_both_ways(session.pk).summary_for("player")
    assert paused["status"] == "paused" and paused["counts"]["present"] == 2


class _NoWholeSession:
    """``selectors.session_snapshot`` standing in: counts its reads."""

    def __init__(self):
        self.reads = 0
        self.real = selectors.session_snapshot

    def __call__(self, *args, **kwargs):
        self.reads += 1
        return self.real(*args, **kwargs)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_homework_attempt_is_resumed_and_told_of_changes_without_reading_the_whole_session(
    class_7b, ms_rivera, ava
):
    assignment = await sync_to_async(open_assignment)(class_7b, ms_rivera, "wordup")
    session = await sync_to_async(services.attempt_start)(assignment=assignment, student=ava)
    whole = _NoWholeSession()
    with patch.object(selectors, "session_snapshot", whole):
        device = await _connect(session.pk, await sync_to_async(_cookie_for)(student=ava))
        running = await _until(device, "session")
        while running["session"]["status"] != "running":
            running = await _until(device, "session")
        await _until(device, "table")
        await sync_to_async(broadcast.session_changed)(session.pk)  # as a finished game's session is
        again = await _until(device, "session")
    assert again["role"] == "player" and again["session"]["status"] == "running"
    assert not again["session"]["participants"] and again["session"]["counts"]["present"] == 1
    assert whole.reads == 0
    await device.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_teachers_console_still_reads_the_whole_session_and_its_seats_are_read_anew_later(
    class_7b, ms_rivera, ava, ben
):
    session = await sync_to_async(started_session)(class_7b, ms_rivera, [ava, ben], "lineup")
    student = await _connect(session.pk, await sync_to_async(_cookie_for)(student=ava))
    await _until(student, "table")
    console = await _connect(session.pk, await sync_to_async(_cookie_for)(user=ms_rivera), role="teacher")
    await _until(console, "session")
    await sync_to_async(broadcast.session_changed)(session.pk)
    told = await _until(console, "session")
    assert len(told["session"]["participants"]) == 2
    assert session.pk in fanout.hub().seated  # kept for a pause's or resume's next message
    await console.disconnect()
    await sync_to_async(broadcast.session_changed)(session.pk)
    # Only the student's device is left: its seat is read, and the seats kept are forgotten (the next
    # staff screen's first pause or resume reads them again, as they may have changed meanwhile). The
    # change may wait for the hub's throttle behind the one before.
    for _ in range(5):
        await _until(student, "session")
        if session.pk not in fanout.hub().seated:
            break
    assert session.pk not in fanout.hub().seated
    await student.disconnect()
