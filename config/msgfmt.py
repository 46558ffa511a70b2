"""Compile the translation catalogs (``locale/*/LC_MESSAGES/*.po`` to ``.mo``) in pure Python.

``python -m config.msgfmt`` does what ``manage.py compilemessages`` does, without GNU gettext's msgfmt,
which a fresh machine may not have: ``make run`` and ``make test`` run it, and so does the test suite
before it starts. It compiles only the catalogs whose ``.po`` is newer than their ``.mo``; the ``.mo``
files are build output (git ignores them). Like msgfmt, it leaves out fuzzy and untranslated entries
(the header always stays: it carries the plural rule). ``--check`` compiles nothing and fails when a
catalog is out of date or a translation's placeholders differ from its English (``%(name)s``).
"""

from __future__ import annotations

import ast
import os
import re
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
LOCALE_DIR = BASE_DIR / "locale"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdif]")


@dataclass
class Entry:
    context: str | None = None
    msgid: str = ""
    plural: str | None = None
    translations: dict[int, str] = field(default_factory=dict)
    fuzzy: bool = False
    obsolete: bool = False

    @property
    def key(self) -> str:
        singular = self.msgid if self.plural is None else f"{self.msgid}\0{self.plural}"
        return singular if self.context is None else f"{self.context}\x04{singular}"

    @property
    def value(self) -> str:
        return "\0".join(self.translations[n] for n in sorted(self.translations))

    @property
    def translated(self) -> bool:
        return any(self.translations.values())


def parse(text: str) -> list[Entry]:
    """The entries of a .po file (obsolete ``#~`` entries are dropped)."""
    entries: list[Entry] = []
    entry = Entry()
    target: tuple[str, int] | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        keyword, _space, rest = line.partition(" ")
        # A comment, a msgctxt or a msgid after a translation begins the next entry.
        begins_entry = line[0] == "#" or keyword in ("msgctxt", "msgid")
        if target is not None and target[0] == "msgstr" and begins_entry:
            entries.append(entry)
            entry, target = Entry(), None
        if line.startswith("#"):
            entry.fuzzy = entry.fuzzy or (line.startswith("#,") and "fuzzy" in line)
        elif line.startswith('"'):
            if target is None:
                raise ValueError(f"line {number}: a string outside an entry")
            _append(entry, target, _unquote(line, number))
        else:
            target = _start(entry, keyword, number)
            _append(entry, target, _unquote(rest, number))
    if entry.msgid or entry.translations:
        entries.append(entry)
    return entries


def _start(entry: Entry, keyword: str, number: int) -> tuple[str, int]:
    """The part of the entry a keyword line begins: ("msgid", 0), ("msgstr", 1) ..."""
    if keyword in ("msgctxt", "msgid", "msgid_plural"):
        if keyword == "msgctxt":
            entry.context = ""
        elif keyword == "msgid_plural":
            entry.plural = ""
        return keyword, 0
    if keyword == "msgstr" or (keyword.startswith("msgstr[") and keyword.endswith("]")):
        index = int(keyword[7:-1]) if keyword != "msgstr" else 0
        entry.translations[index] = ""
        return "msgstr", index
    raise ValueError(f"line {number}: unknown keyword {keyword!r}")


def _unquote(text: str, number: int) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f"line {number}: expected a quoted string")
    return ast.literal_eval(text)


def _append(entry: Entry, target: tuple[str, int], text: str) -> None:
    kind, index = target
    if kind == "msgctxt":
        entry.context = (entry.context or "") + text
    elif kind == "msgid":
        entry.msgid += text
    elif kind == "msgid_plural":
        entry.plural = (entry.plural or "") + text
    else:
        entry.translations[index] += text


def mo_bytes(entries: list[Entry]) -> bytes:
    """The GNU .mo format: a header, two tables of (length, offset), then the strings."""
    pairs = {
        entry.key: entry.value
        for entry in entries
        if entry.msgid == "" or (entry.translated and not entry.fuzzy and all(entry.translations.values()))
    }
    keys = sorted(pairs)
    ids = b""
    strs = b""
    offsets = []
    for key in keys:
        encoded_id, encoded_str = key.encode(), pairs[key].encode()
        offsets.append((len(ids), len(encoded_id), len(strs), len(encoded_str)))
        ids += encoded_id + b"\0"
        strs += encoded_str + b"\0"
    count = len(keys)
    originals_at = 7 * 4
    translations_at = originals_at + count * 8
    ids_at = translations_at + count * 8
    strs_at = ids_at + len(ids)
    table = []
    for id_offset, id_length, _str_offset, _str_length in offsets:
        table += [id_length, ids_at + id_offset]
    for _id_offset, _id_length, str_offset, str_length in offsets:
        table += [str_length, strs_at + str_offset]
    header = struct.pack("<7I", 0x950412DE, 0, count, originals_at, translations_at, 0, 0)
    return header + struct.pack(f"<{len(table)}I", *table) + ids + strs


def placeholder_problems(entries: list[Entry]) -> list[str]:
    """Translations whose named placeholders differ from their English (they would fail at run time)."""
    problems = []
    for entry in entries:
        if not entry.msgid or entry.fuzzy:
            continue
        wanted = set(PLACEHOLDER.findall(entry.msgid + (entry.plural or "")))
        for text in entry.translations.values():
            if text and set(PLACEHOLDER.findall(text)) - wanted:
                problems.append(f"{entry.msgid!r}: {text!r}")
    return problems


def catalogs(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    return sorted(locale_dir.glob("*/LC_MESSAGES/*.po"))


def compile_all(locale_dir: Path = LOCALE_DIR, *, force: bool = False) -> list[Path]:
    """Compile each out-of-date catalog; the .mo files written."""
    written = []
    for po in catalogs(locale_dir):
        mo = po.with_suffix(".mo")
        if not force and mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        entries = parse(po.read_text(encoding="utf-8"))
        partial = mo.with_name(f".{mo.name}.{os.getpid()}")
        partial.write_bytes(mo_bytes(entries))
        partial.replace(mo)  # at once: a server or a test worker reading it never sees half a file
        written.append(mo)
    return written


def main(argv: list[str]) -> int:
    if "--check" in argv:
        failures = []
        for po in catalogs():
            mo = po.with_suffix(".mo")
            if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
                failures.append(f"{po.relative_to(BASE_DIR)}: not compiled (run python -m config.msgfmt)")
            problems = placeholder_problems(parse(po.read_text(encoding="utf-8")))
            failures += [f"{po.relative_to(BASE_DIR)}: {problem}" for problem in problems]
        print("\n".join(failures) or "Translation catalogs compiled and consistent.")
        return 1 if failures else 0
    written = compile_all(force="--force" in argv)
    for mo in written:
        print(f"compiled {mo.relative_to(BASE_DIR)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
