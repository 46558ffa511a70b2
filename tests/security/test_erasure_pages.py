"""After "erase learning data" the student stays on the class list, but the pages of every game they
played (the results, the console, and the live summary the console and the projector draw from) name
them as their tables now do, "Student N", not by their name on the roster (they said "Players: Ava M.,
Computer 1" of a homework attempt, and named them in a live game's console)."""

import importlib
import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import selectors, services
from games.models import Participant
from reports import services as report_services
from tests.factories import open_assignment, started_session

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fixed_seeds")]
NAME = "Ava M."


def avas_attempt(class_7b, ms_rivera, ava, ben):
    return services.attempt_start(assignment=open_assignment(class_7b, ms_rivera, "faces"), student=ava)


def live_game_ava_joined_late(class_7b, ms_rivera, ava, ben):
    """Ben seated at the start, Ava let in late by the teacher (the console's log names her)."""
    session = started_session(class_7b, ms_rivera, [ben], "lineit")
    services.participant_admit(participant=services.session_join(session=session, student=ava), by=ms_rivera)
    return session


def pages(client, session) -> dict[str, str]:
    """The console and results pages, and the session's live summary (the console and the projector draw
    their lists of students from it)."""
    urls = [reverse(name, args=[session.pk]) for name in ("games:console", "games:results")]
    pages = {url: client.get(url).content.decode() for url in urls}
    pages["summary"] = json.dumps(selectors.session_snapshot(session.pk).summary_for("teacher"))
    return pages


@pytest.mark.parametrize(
    ("played", "other"),
    [(avas_attempt, "Computer 1"), (live_game_ava_joined_late, "Ben K.")],
    ids=["homework", "live"],
)
def test_an_erased_student_is_named_by_the_pseudonym_on_the_games_pages(
    played, other, client_of, ms_rivera, dr_patel, class_7b, ava, ben
):
    session = played(class_7b, ms_rivera, ava, ben)
    services.session_end(session=session, by=ms_rivera)
    before = pages(client_of(ms_rivera), session)
    assert {where: NAME in page for where, page in before.items()} == dict.fromkeys(before, True)

    admin = client_of(dr_patel)
    assert admin.post(reverse("reports:student_data", args=[ava.pk]), {"confirm": NAME}).status_code == 302
    admin.get(reverse("reports:student_data", args=[ava.pk]))  # shows (so clears) the confirmation

    after = pages(client_of(ms_rivera), session)
    assert {where: NAME in page for where, page in after.items()} == dict.fromkeys(after, False)
    pseudonym = Participant.objects.get(session=session, student=ava).pseudonym
    assert pseudonym.startswith("Student ")
    results = after[reverse("games:results", args=[session.pk])]
    assert pseudonym in results and pseudonym in after["summary"]
    assert other in results  # only her name changed
    if played is live_game_ava_joined_late:
        assert f"Rivera let {pseudonym} in." in after["summary"]  # the console's log


def test_the_seats_of_students_erased_before_take_their_pseudonym(class_7b, ms_rivera, dr_patel, ava, ben):
    """An erasure made before seats kept a pseudonym: the migration names them as their tables do."""
    from django.apps import apps

    migration = importlib.import_module("reports.migrations.0007_erased_students_seats_take_their_pseudonym")
    session = live_game_ava_joined_late(class_7b, ms_rivera, ava, ben)
    waited = services.session_schedule(
        classroom=class_7b, by=ms_rivera, game="faces", scheduled_for=timezone.now() + timedelta(hours=1)
    )
    services.session_open_lobby(session=waited, by=ms_rivera)
    services.session_join(session=waited, student=ava)  # a lobby she waited in, never seated
    report_services.student_data_erase(student=ava, by=dr_patel)
    expected = dict(Participant.objects.filter(student=ava).values_list("session", "pseudonym"))
    Participant.objects.update(pseudonym="")  # as an erasure before left them
    later = started_session(class_7b, ms_rivera, [ava], "faces")  # played after the erasure

    migration.name_erased_students_seats(apps, None)
    assert dict(Participant.objects.filter(student=ava).values_list("session", "pseudonym")) == {
        **expected,
        later.pk: "",
    }
    assert expected[session.pk].startswith("Student ") and expected[waited.pk] == "A student"
    assert not Participant.objects.filter(student=ben).exclude(pseudonym="").exists()
