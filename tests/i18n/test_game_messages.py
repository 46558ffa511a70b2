"""Each device of one session reads the game in its own language: the engines' refusals, the session's
sentences (the projector's, the console's, a student's), whoever caused them. And the rest that leaves
the site in a language: emails and CSV headers; and makemessages finds the engines' strings."""

from __future__ import annotations

import json
import shutil
import subprocess
from importlib import import_module

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.core import mail
from django.core.management.commands.makemessages import Command as MakeMessages
from django.utils import translation

from classrooms import languages, services
from classrooms.middleware import STUDENT_SESSION_KEY
from classrooms.models import Membership, Student
from config.asgi import application
from games import services as game_services
from games.models import GameTable
from reports import exports
from tests.factories import started_session
from tests.live import CONNECT_TIMEOUT

ORIGIN = (b"origin", b"http://127.0.0.1:8000")


def _cookie(*, student=None, user=None, chosen=None) -> str:
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    if student is not None:
        store[STUDENT_SESSION_KEY] = student.pk
    if user is not None:
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    if chosen:
        store[languages.LANGUAGE_CHOICE_KEY] = chosen
    store.save()
    return store.session_key


async def _connect(session_id, cookie, role="student", accept_language="en"):
    headers = [
        ORIGIN,
        (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()),
        (b"accept-language", accept_language.encode()),
    ]
    device = WebsocketCommunicator(application, f"/ws/sessions/{session_id}/?as={role}", headers=headers)
    connected, _code = await device.connect(timeout=CONNECT_TIMEOUT)
    assert connected
    return device


async def _until(device, kind):
    """The next message of that kind, alone or in a bundle (a pause sends the session with its tables)."""
    for _ in range(50):
        message = json.loads(await device.receive_from(timeout=5))
        for inner in message.get("messages", [message]):
            if inner["type"] == kind:
                return inner
    raise AssertionError(f"no {kind} message")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_two_players_at_one_table_read_the_engines_refusal_each_in_their_language(
    catalogs, class_7b, ms_rivera, ava, ben
):
    await sync_to_async(Student.objects.filter(pk=ava.pk).update)(language="es")
    await sync_to_async(Student.objects.filter(pk=ben.pk).update)(language="ar")
    session = await sync_to_async(started_session)(class_7b, ms_rivera, [ava, ben], "lineup")
    table = await sync_to_async(GameTable.objects.get)(session=session)
    spanish = await _connect(session.pk, await sync_to_async(_cookie)(student=ava), accept_language="ar")
    arabic = await _connect(session.pk, await sync_to_async(_cookie)(student=ben), accept_language="es")
    for device in (spanish, arabic):
        await _until(device, "table")
    nonsense = {"type": "action", "table": table.pk, "action": {"type": "nonsense"}}
    await spanish.send_to(text_data=json.dumps({**nonsense, "key": "a1"}))
    await arabic.send_to(text_data=json.dumps({**nonsense, "key": "b1"}))
    assert (await _until(spanish, "error"))["message"] == "Line Up! no tiene esa jugada."
    assert (await _until(arabic, "error"))["message"] == "لا توجد هذه الحركة في Line Up!"
    for device in (spanish, arabic):
        await device.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_projector_and_the_console_of_one_teacher_each_read_their_own_language(
    catalogs, class_7b, ms_rivera, ava
):
    session = await sync_to_async(started_session)(class_7b, ms_rivera, [ava], "lineup")
    projector = await _connect(
        session.pk, await sync_to_async(_cookie)(user=ms_rivera, chosen="ar"), role="projector"
    )
    console = await _connect(session.pk, await sync_to_async(_cookie)(user=ms_rivera), role="teacher")
    student = await _connect(session.pk, await sync_to_async(_cookie)(student=ava), accept_language="es")
    assert (await _until(projector, "session"))["session"]["when"]["text"].startswith("بدأت ")
    assert (await _until(console, "session"))["session"]["when"]["text"].startswith("Started ")
    assert (await _until(student, "session"))["session"]["when"]["text"].startswith("Empezó ")
    # A change the teacher makes reaches each screen in the screen's language, not the teacher's.
    await sync_to_async(_pause)(session, ms_rivera)
    assert (await _until(projector, "session"))["session"]["when"]["text"].startswith("بدأت ")
    assert (await _until(student, "session"))["session"]["when"]["text"].startswith("Empezó ")
    for device in (projector, console, student):
        await device.disconnect()


def _pause(session, teacher):
    game_services.session_pause(session=session, by=teacher)


@pytest.mark.django_db
def test_an_invitation_is_written_in_the_schools_language(catalogs, riverside, dr_patel):
    riverside.default_language = "es"
    riverside.save()
    services.invitation_create(
        school=riverside,
        email="new@riverside.example",
        role=Membership.Role.TEACHER,
        invited_by=dr_patel,
        base_url="http://testserver",
    )
    assert mail.outbox[-1].subject == f"Te invitan a {riverside.name} en Classplay"


def test_csv_headers_are_in_the_readers_language(catalogs):
    with translation.override("es"):
        assert "estudiante" in [str(column) for column in exports.SKILL_HEADER]
    with translation.override("en"):
        assert "student" in [str(column) for column in exports.SKILL_HEADER]


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext's xgettext is not installed")
def test_makemessages_finds_the_engines_strings(tmp_path):
    """The engines mark strings with core._ (no Django there): xgettext's Python keywords include _."""
    source = settings.BASE_DIR / "games" / "engine" / "lineup" / "rules.py"
    output = tmp_path / "engine.pot"
    command = [
        "xgettext",
        "--language=Python",
        *MakeMessages.xgettext_options,
        "-o",
        str(output),
        str(source),
    ]
    subprocess.run(command, check=True)
    assert 'msgid "Line Up! has no such move."' in output.read_text()
