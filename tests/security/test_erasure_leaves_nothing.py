"""A student who played, whose learning data the school's admin erased and whom the teacher then
removed from their class (so deleted) leaves nothing behind: not their name, not an answer they typed,
in any table of the database (every column, read raw) nor on any page their teacher can open."""

import base64
import contextlib
import json
import re

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client
from django.urls import reverse

from classrooms.models import Student
from games import services as game_services
from games.definitions import get_engine
from games.engine import core
from games.models import GameSession, GameTable
from reports.build import classrooms_build
from tests.classrooms.test_student_signin import signin
from tests.factories import enrolled_student, play_through_runtime, recorded_facts, started_session
from tests.security.test_erasure_games import T0, play_wordup_typing

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fixed_seeds")]

GIVEN, FAMILY, TYPED = "Quillondra", "Zephyrine-Marsh", "Xylophonix"
TRACES = (GIVEN, FAMILY, TYPED, "Quillondra Z.")


def _raw_database_dump() -> str:
    """Every row of every table, read with SQL (not through the models), as text. Django's sessions
    are stored signed and base64-encoded: they are decoded too."""
    parts = []
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            for row in cursor.fetchall():
                for value in row:
                    text = (
                        value.decode("utf-8", "replace")
                        if isinstance(value, bytes | memoryview)
                        else str(value)
                    )
                    parts.append(text)
                    if table == "django_session":
                        payload = text.split(":")[0]
                        with contextlib.suppress(ValueError):
                            parts.append(base64.urlsafe_b64decode(payload + "==").decode("utf-8", "replace"))
    return "\n".join(parts)


def _models_dump() -> str:
    """Every text and JSON value of every model, as the ORM gives it back (JSON decoded)."""
    parts = []
    for model in apps.get_models():
        for row in model._default_manager.values():
            parts.append(json.dumps(row, default=str, ensure_ascii=False))
    return "\n".join(parts)


def _pages(client: Client, class_7b, sessions) -> dict[str, str]:
    urls = [
        reverse("home"),
        reverse("classroom_detail", args=[class_7b.pk]),
        reverse("classroom_cards", args=[class_7b.pk]),
        reverse("classroom_export", args=[class_7b.pk]),
        reverse("reports:index"),
        reverse("reports:class", args=[class_7b.pk]),
        reverse("reports:class_skills_csv", args=[class_7b.pk]),
        reverse("reports:class_answers_csv", args=[class_7b.pk]),
        reverse("reports:school"),
        reverse("reports:school_skills_csv"),
    ]
    for session in sessions:
        urls += [reverse("games:console", args=[session.pk]), reverse("games:results", args=[session.pk])]
        for table in GameTable.objects.filter(session=session):
            urls.append(reverse("games:replay", args=[session.pk, table.number]))
            urls += [
                reverse("games:replay_step", args=[session.pk, table.number, step])
                for step in range(table.seq)
            ]
    pages = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code in (200, 302, 404), url  # 404: the school's pages, for the admin only
        body = b"".join(response.streaming_content) if response.streaming else response.content
        pages[url] = body.decode("utf-8", "replace")
    return pages


def _found(text: str) -> list[str]:
    return [trace for trace in TRACES if re.search(re.escape(trace), text, re.IGNORECASE)]


def test_an_erased_and_deleted_student_leaves_no_trace(
    client_of, ms_rivera, dr_patel, class_7b, ava, eager_celery, django_capture_on_commit_callbacks
):
    quill = enrolled_student(
        class_7b, given_name=GIVEN, family_name=FAMILY, display_name="Quillondra Z.", external_id="qz-1"
    )
    Student.objects.filter(pk=quill.pk).update(signin_code="7319")
    device = Client()
    assert signin(device, class_7b, quill, "7319").status_code == 302  # a device that knows her

    with django_capture_on_commit_callbacks(execute=True):
        word_up = started_session(class_7b, ms_rivera, [quill, ava], "wordup", now=T0)
        table = GameTable.objects.get(session=word_up)
        assert play_wordup_typing(table, game_services.student_player_id(quill.pk), TYPED) >= 1
        faces = started_session(class_7b, ms_rivera, [quill, ava], "faces", now=T0)
        play_through_runtime(GameTable.objects.get(session=faces), get_engine("faces"), core.Rng("f"), T0, 20)
        for session in (word_up, faces):
            game_services.session_end(session=session, by=ms_rivera)
    for each in GameTable.objects.all():
        recorded_facts(each)
    classrooms_build([class_7b.pk])
    sessions = list(GameSession.objects.all())
    teacher = client_of(ms_rivera)
    admin = client_of(dr_patel)
    before = _pages(teacher, class_7b, sessions)
    assert any(GIVEN in page for page in before.values()) and TYPED in _models_dump()  # it was all there

    with django_capture_on_commit_callbacks(execute=True):
        response = admin.post(reverse("reports:student_data", args=[quill.pk]), {"confirm": "Quillondra Z."})
        assert response.status_code == 302
        admin.get(response["Location"])  # the page that shows (and so clears) the message
        removed = teacher.post(
            reverse("student_detail", args=[quill.pk]) + f"?class={class_7b.pk}", {"action": "remove"}
        )
        assert removed.status_code == 302
        # The one confirmation that names her, shown once (a message, kept in no table):
        assert "Quillondra Z. removed from" in teacher.get(removed["Location"]).content.decode()
    assert not Student.objects.filter(pk=quill.pk).exists()

    for staff in (teacher, admin):
        pages = _pages(staff, class_7b, sessions)
        assert {url: _found(page) for url, page in pages.items() if _found(page)} == {}
    assert _found(_models_dump()) == []
    assert _found(_raw_database_dump()) == []
    assert device.get(reverse("student_home")).status_code == 302  # her device is signed out
