"""Which language a page (or a game's websocket) speaks to the person in front of it.

In order, the first that names a language the site ships wins:

1. the language picked with the switcher during this visit (kept in the session, so it ends with the
   sign-in: a shared device's next student starts afresh);
2. a signed-in student's language, which their teacher sets on the student's page (the device follows
   the student, not the device);
3. the switcher's cookie, the device's own last choice (ignored while a student is signed in);
4. a signed-in teacher's or admin's own language (their preferences page);
5. the school's default language (school settings), for its students and staff;
6. the browser's languages (Accept-Language);
7. English.
"""

from __future__ import annotations

import functools
import hashlib
import unicodedata
from pathlib import Path

from django.conf import settings
from django.utils.translation import get_language_bidi, get_supported_language_variant
from django.utils.translation.trans_real import parse_accept_lang_header

from .models import Membership

#: Unicode's first-strong isolate and its end: text between them keeps its own direction in the text around.
FSI, PDI = "\u2068", "\u2069"

#: The session key the switcher's choice is kept under for this visit.
LANGUAGE_CHOICE_KEY = "classplay_language"


def supported(code: str | None) -> str | None:
    """The shipped language ``code`` names ("pt-BR" and "pt_br" name "pt-br", "es-MX" names "es"), or None."""
    if not code:
        return None
    try:
        return get_supported_language_variant(code.replace("_", "-").lower())
    except LookupError:
        return None


def language_choices(blank_label: str | None = None) -> list[tuple[str, str]]:
    """The shipped languages for a form's select, each named in its own language; ``blank_label`` first."""
    choices = [(code, name) for code, name in settings.LANGUAGES]
    return [("", blank_label), *choices] if blank_label is not None else choices


def from_accept_language(header: str) -> str | None:
    """The first shipped language among the browser's, in the browser's order of preference."""
    for code, _quality in parse_accept_lang_header(header or ""):
        if code != "*" and (found := supported(code)):
            return found
    return None


def staff_school_language(user) -> str:
    """The default language of the first school the member of staff belongs to ("" for none)."""
    rows = Membership.objects.filter(user=user).order_by("school_id")
    return rows.values_list("school__default_language", flat=True).first() or ""


def resolve(*, chosen=None, student=None, cookie=None, user=None, accept_language: str = "") -> str:
    """The language for a visitor, in the order of this module's docstring. ``student`` is the signed-in
    student (or None), ``user`` the signed-in member of staff (or None or anonymous)."""
    if found := supported(chosen):
        return found
    if student is not None:
        if found := supported(student.language) or supported(student.school.default_language):
            return found
    else:
        if found := supported(cookie):
            return found
        staff = user is not None and user.is_authenticated
        if staff and (found := supported(user.language) or supported(staff_school_language(user))):
            return found
    return from_accept_language(accept_language) or settings.LANGUAGE_CODE


@functools.cache
def catalog_version() -> str:
    """A short fingerprint of the compiled catalogs: it changes when a translation is compiled again, so
    pages ask for the new JavaScript catalog while browsers may keep each version for a year."""
    fingerprint = hashlib.sha256()
    for path in sorted(Path(folder) for folder in settings.LOCALE_PATHS):
        for compiled in sorted(path.glob("*/LC_MESSAGES/*.mo")):
            stat = compiled.stat()
            fingerprint.update(f"{compiled}:{stat.st_mtime_ns}:{stat.st_size}".encode())
    return fingerprint.hexdigest()[:12]


def has_right_to_left(text: str) -> bool:
    """Whether ``text`` holds a right-to-left letter (Arabic, Hebrew...)."""
    return any(unicodedata.bidirectional(character) in ("R", "AL") for character in text)


def isolated(value) -> str:
    """``value`` (a name, a title) between FSI and PDI, where no markup can go (a page's <title>, an
    attribute, a PDF's line), on a right-to-left page or around right-to-left text. A left-to-right name on
    a left-to-right page needs none, and is left as it is, so that an accessible name ("Login card for Ben
    K.") reads and is found as written by assistive tools that match it."""
    text = str(value)
    if get_language_bidi() or has_right_to_left(text):
        return f"{FSI}{text}{PDI}"
    return text
