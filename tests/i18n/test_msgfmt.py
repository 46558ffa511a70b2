"""The pure-Python catalog compiler (config/msgfmt.py): what gettext reads back, fuzzy and empty entries
left out, only stale catalogs compiled, placeholders checked; and GNU msgfmt's own output, where it is
installed, read back the same."""

from __future__ import annotations

import gettext
import os
import shutil
import subprocess

import pytest

from config import msgfmt

PO = r"""# A comment
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

#: games/engine/lineup/rules.py:1
msgid "The game is over."
msgstr "El juego "
"terminó."

msgctxt "CSV column"
msgid "student"
msgstr "estudiante"

msgid "%(n)s card"
msgid_plural "%(n)s cards"
msgstr[0] "%(n)s carta"
msgstr[1] "%(n)s cartas"

#, fuzzy
msgid "Pick a card."
msgstr "Elige una carta (sin revisar)."

msgid "Not translated yet."
msgstr ""

msgid "Say \"hi\"\tnow"
msgstr "Di \"hola\"\tahora"
"""


def _read(data: bytes, tmp_path) -> gettext.GNUTranslations:
    path = tmp_path / "out.mo"
    path.write_bytes(data)
    with path.open("rb") as handle:
        return gettext.GNUTranslations(handle)


def test_the_compiled_catalog_reads_back_as_written(tmp_path):
    catalog = _read(msgfmt.mo_bytes(msgfmt.parse(PO)), tmp_path)
    assert catalog.gettext("The game is over.") == "El juego terminó."
    assert catalog.pgettext("CSV column", "student") == "estudiante"
    assert catalog.ngettext("%(n)s card", "%(n)s cards", 1) == "%(n)s carta"
    assert catalog.ngettext("%(n)s card", "%(n)s cards", 3) == "%(n)s cartas"
    assert catalog.gettext('Say "hi"\tnow') == 'Di "hola"\tahora'
    assert catalog.gettext("Pick a card.") == "Pick a card."  # fuzzy: left out, as msgfmt does
    assert catalog.gettext("Not translated yet.") == "Not translated yet."


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext's msgfmt is not installed")
def test_it_agrees_with_gnu_msgfmt(tmp_path):
    source = tmp_path / "django.po"
    source.write_text(PO, encoding="utf-8")
    subprocess.run(["msgfmt", "-o", str(tmp_path / "gnu.mo"), str(source)], check=True)
    ours = _read(msgfmt.mo_bytes(msgfmt.parse(PO)), tmp_path)._catalog
    with (tmp_path / "gnu.mo").open("rb") as handle:
        theirs = gettext.GNUTranslations(handle)._catalog
    assert {k: v for k, v in ours.items() if k} == {k: v for k, v in theirs.items() if k}


def test_only_stale_catalogs_are_compiled(tmp_path):
    folder = tmp_path / "es" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    source = folder / "django.po"
    source.write_text(PO, encoding="utf-8")
    assert msgfmt.compile_all(tmp_path) == [folder / "django.mo"]
    assert msgfmt.compile_all(tmp_path) == []
    later = source.stat().st_mtime + 10
    os.utime(source, (later, later))
    assert msgfmt.compile_all(tmp_path) == [folder / "django.mo"]


def test_a_translation_naming_a_placeholder_its_english_lacks_is_reported():
    entries = msgfmt.parse('msgid "Hello %(name)s"\nmsgstr "Hola %(nombre)s"\n')
    assert msgfmt.placeholder_problems(entries) == ["'Hello %(name)s': 'Hola %(nombre)s'"]
    assert msgfmt.placeholder_problems(msgfmt.parse(PO)) == []
