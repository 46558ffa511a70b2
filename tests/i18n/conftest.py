"""A tiny catalog per language, so the tests check the mechanism (which language each page, device and
message uses) whatever the real catalogs in locale/ hold. Entries in LOCALE_PATHS' first folder win."""

from __future__ import annotations

import pytest

from classrooms import languages
from config import i18n, msgfmt

#: msgid (or (context, msgid)) -> translation, per language folder.
FIXTURE = {
    "es": {
        "Language": "Idioma",
        "Line Up! has no such move.": "Line Up! no tiene esa jugada.",
        "Started %(time)s": "Empezó %(time)s",
        "You are invited to %(school)s on Classplay": "Te invitan a %(school)s en Classplay",
        ("CSV column", "student"): "estudiante",
    },
    "ar": {
        "Language": "اللغة",
        "Line Up! has no such move.": "لا توجد هذه الحركة في Line Up!",
        "Started %(time)s": "بدأت %(time)s",
    },
    "pt_BR": {"Language": "Idioma (pt)"},
}
FIXTURE_JS = {"es": {"Try now": "Intentar ahora"}, "ar": {"Try now": "حاول الآن"}}
PLURALS = {
    "es": "nplurals=2; plural=(n != 1);",
    "pt_BR": "nplurals=2; plural=(n > 1);",
    "ar": "nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : "
    "n%100>=11 ? 4 : 5;",
}


def _po(folder: str, entries: dict) -> str:
    header = (
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        f'"Plural-Forms: {PLURALS[folder]}\\n"\n'
    )
    body = []
    for key, text in entries.items():
        context, msgid = key if isinstance(key, tuple) else (None, key)
        lines = [f'msgctxt "{context}"'] if context else []
        body.append("\n".join([*lines, f'msgid "{msgid}"', f'msgstr "{text}"']))
    return header + "\n" + "\n\n".join(body) + "\n"


@pytest.fixture
def catalogs(tmp_path, settings):
    locale = tmp_path / "locale"
    for folder, entries in FIXTURE.items():
        target = locale / folder / "LC_MESSAGES"
        target.mkdir(parents=True)
        (target / "django.po").write_text(_po(folder, entries), encoding="utf-8")
        if folder in FIXTURE_JS:
            (target / "djangojs.po").write_text(_po(folder, FIXTURE_JS[folder]), encoding="utf-8")
    msgfmt.compile_all(locale)
    settings.LOCALE_PATHS = [locale, *settings.LOCALE_PATHS]  # resets Django's translation caches
    languages.catalog_version.cache_clear()
    i18n._BUILT.clear()
    yield locale
    languages.catalog_version.cache_clear()
    i18n._BUILT.clear()
