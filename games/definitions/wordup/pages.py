"""Word Up's own pages (mounted at /games/wordup/): the spoken audio of Spelling questions.

A Spelling question is *heard*, never read: the word (and the sentence, which contains it) must not reach
the student's device as text before they answer. So the device cannot use the browser's speech synthesis
for it; it plays audio this server speaks with espeak-ng (Debian package ``espeak-ng``) and keeps on disk.

* ``GET audio/<table id>/<question serial>/<part>/`` (``part``: ``sentence`` or ``word``) returns a WAV.
  The URL names the table and the n-th question of its game, never the word or the bank's question id.
* While the question is being answered, only the student being asked may fetch it (not the other players,
  not the teacher's console, not the projector). Once the answer is given (the reveal, or a right answer)
  the word is public: everyone at that table and the session's staff may fetch it.
* Audio is cached under ``VAR_DIR/wordup-audio/`` by a hash of voice, speed and text, so each sentence is
  spoken once per server. :func:`audio_pregenerate` speaks a whole bank in advance (run it after loading
  the banks); a file missing from the cache is spoken on first request (about 50 ms). Without espeak-ng
  and without a cached file the endpoint answers 503 and the screen says so.
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import FileResponse, Http404, HttpResponse
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from classrooms.middleware import get_session_student
from games import selectors, speech
from games.models import GameTable, Participant
from games.shipped import wordup_questions
from questions.models import WordUpQuestion

PARTS = ("sentence", "word")
#: British English, like the bank's spellings ("colour"); a little slower than conversation for learners.
VOICE = "en-gb"
SPEED = {"sentence": 135, "word": 110}
#: Added round the word so espeak-ng says it on its own, slowly and clearly.
WORD_GAP_MS = 10
ESPEAK_TIMEOUT_SECONDS = 10
AUDIO_DIR_NAME = "wordup-audio"


#: No cached audio and no speech synthesizer on this server (the read-aloud's own error).
AudioUnavailable = speech.SpeechUnavailable


# --------------------------------------------------------------------------------------------------
# Speaking and the cache
# --------------------------------------------------------------------------------------------------


def audio_dir() -> Path:
    return Path(getattr(settings, "WORDUP_AUDIO_DIR", None) or Path(settings.VAR_DIR) / AUDIO_DIR_NAME)


def espeak_path() -> str | None:
    return getattr(settings, "WORDUP_ESPEAK", None) or shutil.which("espeak-ng")


def _cache_file(text: str, part: str) -> Path:
    digest = hashlib.sha256(f"{VOICE}|{SPEED[part]}|{text}".encode()).hexdigest()
    return audio_dir() / digest[:2] / f"{digest}.wav"


def synthesize(text: str, part: str) -> bytes:
    """WAV bytes of ``text`` spoken by espeak-ng. Raises :class:`AudioUnavailable` without it."""
    program = espeak_path()
    if not program:
        raise AudioUnavailable("espeak-ng is not installed")
    return speech.espeak(text, voice=VOICE, speed=SPEED[part], word_gap_ms=WORD_GAP_MS, program=program)


def audio_file(text: str, part: str) -> Path:
    """The cached WAV of ``text``, spoken now if it is not cached yet (written atomically)."""
    return speech.cached_wav(_cache_file(text, part), lambda: synthesize(text, part))


def spoken_parts(question: dict[str, Any]) -> dict[str, str]:
    """What is said for a Spelling question: the sentence, then the word on its own."""
    return {"sentence": question["sentence"].strip(), "word": question["answers"][0].strip()}


def audio_pregenerate(questions: Iterable[dict[str, Any]] | None = None) -> dict[str, int]:
    """Speak every Spelling question in advance (the shipped bank and every school's own, unless
    ``questions`` are given). Returns counts: ``made``, ``cached``, ``failed``."""
    if questions is None:
        questions = _all_spelling_questions()
    counts = {"made": 0, "cached": 0, "failed": 0}
    for question in questions:
        if question.get("category") != "spelling":
            continue
        for part, text in spoken_parts(question).items():
            if _cache_file(text, part).exists():
                counts["cached"] += 1
                continue
            try:
                audio_file(text, part)
            except AudioUnavailable:
                counts["failed"] += 1
            else:
                counts["made"] += 1
    return counts


def _all_spelling_questions() -> list[dict[str, Any]]:
    shipped = [q for level in wordup_questions().values() for q in level["spelling"]]
    own = [
        item.to_engine_dict()
        for item in WordUpQuestion.objects.filter(category=WordUpQuestion.Category.SPELLING)
    ]
    return shipped + own


# --------------------------------------------------------------------------------------------------
# Who may hear what
# --------------------------------------------------------------------------------------------------


def _seat(request, table: GameTable) -> str | None:
    """The engine player id of the signed-in student at ``table`` (None if they are not seated there)."""
    student = get_session_student(request)
    if student is None:
        return None
    participant = (
        Participant.objects.filter(session_id=table.session_id, student=student, table=table)
        .exclude(status=Participant.Status.REMOVED)
        .first()
    )
    return participant.player_id if participant else None


def _is_staff(request, table: GameTable) -> bool:
    user = request.user
    return user.is_authenticated and selectors.session_for_staff(user, table.session_id) is not None


def spoken_text(request, table: GameTable, serial: int, part: str) -> str:
    """The text to speak for this request, or Http404 / PermissionError when it may not be heard."""
    state = table.state or {}
    question = state.get("question")
    if (
        question
        and question.get("serial") == serial
        and question["category"] == "spelling"
        and state.get("phase") == "answer"
    ):
        # Being answered: only the student being asked hears it.
        if _seat(request, table) != question["player"]:
            raise PermissionError
        return spoken_parts(question["data"])[part]
    result = state.get("last_result") or {}
    if result.get("category") == "spelling" and (result.get("question") or {}).get("serial") == serial:
        # Answered: the word is public now, for the table and its teachers.
        if _seat(request, table) is None and not _is_staff(request, table):
            raise PermissionError
        return {"sentence": result["sentence"], "word": result["word"]}[part].strip()
    raise Http404("no such question on show")


@require_GET
def spelling_audio(request, table: int, serial: int, part: str):
    if part not in PARTS:
        raise Http404("no such part")
    table_row = GameTable.objects.filter(pk=table, session__game="wordup").select_related("session").first()
    if table_row is None:
        raise Http404("no such table")
    try:
        text = spoken_text(request, table_row, serial, part)
    except PermissionError:
        return HttpResponse(_("Only the player being asked can hear this word."), status=403)
    try:
        audio = audio_file(text, part)
    except AudioUnavailable:
        return HttpResponse(_("Spoken audio is not available on this server."), status=503)
    response = FileResponse(audio.open("rb"), content_type="audio/wav")
    response["Cache-Control"] = "private, no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response


urlpatterns: list = [
    path("audio/<int:table>/<int:serial>/<str:part>/", spelling_audio, name="wordup-audio"),
]
