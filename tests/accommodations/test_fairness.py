"""Fairness stays visible to the staff: the console marks the seats with accommodations and the results
note what the rules gave; the projector and every classmate's device say nothing of them."""

import json

import pytest
from django.urls import reverse

from classrooms.services import student_accommodations_set
from games import selectors
from reports.services import student_data_export
from tests.factories import started_session

pytestmark = pytest.mark.django_db
T0 = 2_000_000.0


@pytest.fixture
def session(class_7b, ms_rivera, ava, ben):
    student_accommodations_set(student=ava, by=ms_rivera, extra_time="2", fewer_options=True, read_aloud=True)
    return started_session(class_7b, ms_rivera, [ava, ben], "wordup", now=T0)


def _by_name(summary):
    return {p["name"]: p for p in summary["participants"]}


def test_the_console_marks_the_seat(session):
    people = _by_name(selectors.session_snapshot(session.pk).summary_for("teacher"))
    assert people["Ava M."]["accommodations"] == ["Double time (×2)", "Read aloud", "Fewer options"]
    assert people["Ben K."]["accommodations"] == []


def test_the_projector_and_the_devices_are_not_told(session):
    snapshot = selectors.session_snapshot(session.pk)
    assert all("accommodations" not in p for p in snapshot.summary_for("projector")["participants"])
    assert snapshot.summary_for("player")["participants"] == []
    assert "accommodations" in snapshot.summary["participants"][0]  # the teacher's copy is left whole


def test_the_results_note_what_the_rules_gave(client_of, ms_rivera, session):
    page = client_of(ms_rivera).get(reverse("games:results", args=[session.pk])).content.decode()
    assert "Ava M.: time ×2, fewer options" in page
    assert "Ben K.:" not in page


def test_the_progress_report_notes_them(client_of, ms_rivera, class_7b, session, ava, ben):
    page = client_of(ms_rivera).get(reverse("reports:student", args=[class_7b.pk, ava.pk])).content.decode()
    assert "Plays with accommodations: Double time (×2), Read aloud, Fewer options." in page
    other = client_of(ms_rivera).get(reverse("reports:student", args=[class_7b.pk, ben.pk])).content.decode()
    assert "Plays with accommodations" not in other


def test_the_students_data_export_holds_their_accommodations_and_history(ms_rivera, ava):
    student_accommodations_set(student=ava, by=ms_rivera, colour_safe=True, reason="Colour vision")
    document = json.loads(json.dumps(student_data_export(student=ava)))
    assert document["accommodations"]["colour_safe"] is True
    assert document["accommodation_history"][0]["reason"] == "Colour vision"
    assert document["accommodation_history"][0]["to"]["colour_safe"] is True
