"""Read aloud: the server's spoken audio for a student whose device has no voice of its own.

A student with the *read aloud* accommodation has a Read aloud button on their device. The browser's own
speech synthesis reads the screen where it has a voice; otherwise the device asks this server for each
piece of text it shows, and espeak-ng (Debian package ``espeak-ng``) speaks it.

The server speaks only what that student's screen already shows: each piece must be a string of their
own table's view (the engine's deny-by-default view for their seat), the session's or the game's name,
their own name, or one of the game screen's own interface sentences (the ``gettext`` literals of its
scripts, translated) with its placeholders filled by such strings or numbers. Anything else is refused, so
the endpoint cannot be used to hear a secret (a Spelling word stays with Word Up's own audio, which only
the asked student may fetch) nor as a general speech service. Pieces are at most ``MAX_CHARS`` long, a
student may ask ``RATE`` times a minute, and audio is cached on disk by a hash of voice, speed and text.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils.translation import get_language
from django.utils.translation.trans_real import DjangoTranslation

from games.definitions import definition

MAX_CHARS = 300
RATE = "90/m"
SPEED = 150
ESPEAK_TIMEOUT_SECONDS = 10
#: espeak-ng's voice for a site language (British English, like the banks' spellings).
VOICES = {"en": "en-gb"}
#: The scripts whose interface sentences a game's device shows (besides the game's own module).
SHARED_SCRIPTS = ("js/games/common.js", "js/session.js", "js/live.js")
_STRING = r"""(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')"""
#: ``gettext("...")`` and ``ngettext("...", "...", n)``: the singular and, for ngettext, the plural.
_LITERAL = re.compile(r"\b(?:gettext|ngettext)\(\s*" + _STRING + r"(?:\s*,\s*" + _STRING + ")?")
_ESCAPE = re.compile(r"\\(.)")
#: A clock, a score or a count: numbers say nothing that is not on the screen.
_NUMBERS = re.compile(r"[-+]?\d+([.,:/]\d+)*( ?[%s])?")
_PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]")
_SPACE = re.compile(r"\s+")
#: What a screen puts between pieces of text ("Round 2 · your turn"); not part of either piece.
SEPARATORS = " ·•|–—-:;,/"


class SpeechUnavailable(Exception):
    """No cached audio and no speech synthesizer on this server."""


def normalise(text: str) -> str:
    return _SPACE.sub(" ", text or "").strip()


# --------------------------------------------------------------------------------------------------
# What the student's screen may show
# --------------------------------------------------------------------------------------------------


def view_strings(data: Any) -> Iterator[str]:
    """Every string (and number, as text) in a view, keys included."""
    if isinstance(data, str):
        yield normalise(data)
    elif isinstance(data, bool) or data is None:
        return
    elif isinstance(data, (int, float)):
        yield f"{data:g}" if isinstance(data, float) else str(data)
    elif isinstance(data, dict):
        for key, value in data.items():
            yield str(key)
            yield from view_strings(value)
    elif isinstance(data, (list, tuple)):
        for item in data:
            yield from view_strings(item)


def _unescape(match: re.Match) -> str:
    return {"n": " ", "t": " "}.get(match.group(1), match.group(1))


@functools.lru_cache(maxsize=16)
def _interface_literals(game: str) -> tuple[str, ...]:
    """The English sentences the game's screen scripts pass to ``gettext`` (what ``makemessages`` finds)."""
    literals: list[str] = []
    for script in (*definition(game).screen_scripts, *SHARED_SCRIPTS):
        path = Path(settings.BASE_DIR) / "static" / script
        if not path.exists():
            continue
        for match in _LITERAL.findall(path.read_text(encoding="utf-8")):
            for literal in (match[0] or match[1], match[2] or match[3]):
                if literal:
                    literals.append(normalise(_ESCAPE.sub(_unescape, literal)))
    return tuple(dict.fromkeys(literal for literal in literals if literal))


@functools.lru_cache(maxsize=64)
def _interface_patterns(game: str, language: str) -> tuple[frozenset[str], tuple[re.Pattern, ...]]:
    """The game's interface sentences in ``language``: plain ones, and patterns of those with placeholders."""
    translation = DjangoTranslation(language, domain="djangojs")
    plain: set[str] = set()
    patterns: list[re.Pattern] = []
    for literal in _interface_literals(game):
        for text in {literal, normalise(translation.gettext(literal))}:
            parts = _PLACEHOLDER.split(text)
            if len(parts) == 1:
                plain.add(text)
            else:
                patterns.append(re.compile("^" + "(.{1,120}?)".join(re.escape(part) for part in parts) + "$"))
    return frozenset(plain), tuple(patterns)


def may_speak(text: str, game: str, shown: Iterable[str]) -> bool:
    """Whether ``text`` is on this student's screen: a shown string (or part of one), an interface
    sentence of the game, or an interface sentence whose placeholders hold shown strings or numbers."""
    text = normalise(text)
    if not text or len(text) > MAX_CHARS:
        return False
    shown_set = {item for item in shown if item}
    plain, patterns = _interface_patterns(game, get_language() or settings.LANGUAGE_CODE)
    # A screen joins pieces with " · " and the like: the piece is also tried without them.
    return any(
        _on_screen(piece, shown_set, plain, patterns) for piece in {text, text.strip(SEPARATORS)} if piece
    )


def _on_screen(text: str, shown: set[str], plain: frozenset[str], patterns: tuple[re.Pattern, ...]) -> bool:
    if text in shown or _part_of_shown(text, shown) or text in plain or _NUMBERS.fullmatch(text):
        return True
    for pattern in patterns:
        match = pattern.match(text)
        if match and all(_is_shown(group, shown, plain) for group in match.groups()):
            return True
    return False


def _part_of_shown(text: str, shown: set[str]) -> bool:
    """A whole-word part of a longer shown string (a prompt the screen splits round its blank)."""
    if len(text) < 3:
        return False
    pattern = re.compile(r"(?<!\w)" + re.escape(text) + r"(?!\w)")
    return any(len(item) > len(text) and pattern.search(item) for item in shown)


def _is_shown(value: str, shown: set[str], plain: frozenset[str]) -> bool:
    value = value.strip()
    return value in shown or value in plain or bool(_NUMBERS.fullmatch(value))


# --------------------------------------------------------------------------------------------------
# Speaking and the cache
# --------------------------------------------------------------------------------------------------


def speech_dir() -> Path:
    return Path(getattr(settings, "SPEECH_AUDIO_DIR", None) or Path(settings.VAR_DIR) / "speech-audio")


def voice_for(language: str | None) -> str:
    code = (language or "en").split("-")[0].lower()
    return VOICES.get(code, code)


def _cache_file(text: str, voice: str) -> Path:
    digest = hashlib.sha256(f"{voice}|{SPEED}|{text}".encode()).hexdigest()
    return speech_dir() / digest[:2] / f"{digest}.wav"


def espeak(
    text: str, *, voice: str, speed: int, word_gap_ms: int | None = None, program: str | None = None
) -> bytes:
    """WAV bytes of ``text`` spoken by espeak-ng (Word Up's spelling words and every game's read aloud).
    Raises :class:`SpeechUnavailable` without it."""
    program = program or getattr(settings, "WORDUP_ESPEAK", None) or shutil.which("espeak-ng")
    if not program:
        raise SpeechUnavailable("espeak-ng is not installed")
    command = [program, "-v", voice, "-s", str(speed), *(["-g", str(word_gap_ms)] if word_gap_ms else [])]
    try:
        done = subprocess.run(  # a fixed program; the text goes through stdin, never the command line
            [*command, "--stdout"],
            input=text.encode(),
            capture_output=True,
            timeout=ESPEAK_TIMEOUT_SECONDS,
            check=True,
        )
    except (OSError, subprocess.SubprocessError) as error:
        raise SpeechUnavailable(f"espeak-ng failed: {error}") from None
    if not done.stdout.startswith(b"RIFF"):
        raise SpeechUnavailable("espeak-ng gave no audio")
    return done.stdout


def cached_wav(target: Path, speak: Callable[[], bytes]) -> Path:
    """``target``, spoken now by ``speak`` if it is not cached yet (written atomically)."""
    if target.exists():
        return target
    data = speak()
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, suffix=".part")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, target)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return target


def synthesize(text: str, voice: str) -> bytes:
    """WAV bytes of ``text`` spoken by espeak-ng. Raises :class:`SpeechUnavailable` without it."""
    return espeak(text, voice=voice, speed=SPEED)


def speech_file(text: str, voice: str) -> Path:
    """The cached WAV of ``text``, spoken now if it is not cached yet."""
    return cached_wav(_cache_file(text, voice), lambda: synthesize(text, voice))
