"""The shape of what the runtime needs to know about a game beyond its rules: table sizes, how students are
seated, which skill sets a table's level, and the settings a teacher may choose (with their limits). Each
game's own :class:`GameSpec` is part of its definition (:mod:`games.definitions`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

#: A label: a string or a lazily translated one.
Label = str | Promise


#: Setting kinds naming one of the school's own lists by id.
LIST_KINDS = ("word_list", "vocabulary_list")


@dataclass(frozen=True)
class Setting:
    """One teacher-chosen setting: ``kind`` is "int" (bounded), "choice" (listed), "word_list" (one of
    the school's own Mind the Lines lists, or None for the game's own concepts) or "vocabulary_list" (one
    of the school's Word Up vocabulary lists, or None for the question bank)."""

    label: Label
    kind: str
    default: Any
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[tuple[str, Label], ...] = ()
    #: A "choice" of languages whose default is the one the class reads (see
    #: ``selectors.class_language_choice``), where it is among the choices, instead of ``default``.
    follows_class_language: bool = False

    def clean(self, value: Any) -> Any:
        if self.kind in LIST_KINDS:  # a school's list by id; which school is checked on scheduling
            if value in (None, "", 0, "0"):
                return None
            try:
                number = int(value)
            except (TypeError, ValueError):
                raise ValueError(_("choose one of your school's word lists")) from None
            if number < 1:
                raise ValueError(_("choose one of your school's word lists"))
            return number
        if self.kind == "int":
            try:
                number = int(value)
            except (TypeError, ValueError):
                raise ValueError(_("must be a whole number")) from None
            if not self.minimum <= number <= self.maximum:
                raise ValueError(
                    _("must be between %(min)d and %(max)d") % {"min": self.minimum, "max": self.maximum}
                )
            return number
        allowed = [key for key, _label in self.choices]
        if value not in allowed:
            raise ValueError(_("must be one of %(choices)s") % {"choices": ", ".join(allowed)})
        return value


@dataclass(frozen=True)
class GameSpec:
    name: str
    table_min: int
    table_max: int
    table_target: int
    #: The skill whose level decides questions or the table's level (None: not levelled).
    skill: str | None
    #: "teams": one table, two teams; "tables": several tables of table_min..table_max players.
    seating: str = "tables"
    #: What fills a table that is too small: "bot" (a computer player) or "merge" (join another table).
    fill: str = "merge"
    #: Asked before "Move on" (the rules' deadline action, now) where it can decide a game: in Line-Up it
    #: starts the next round between rounds, but during a turn the player to move loses the match.
    advance_warning: Label | None = None
    settings: dict[str, Setting] = field(default_factory=dict)

    def clean_settings(self, raw: dict[str, Any]) -> dict[str, Any]:
        """Every setting checked and defaulted. Raises ValueError naming the bad setting."""
        unknown = set(raw) - set(self.settings)
        if unknown:
            raise ValueError(_("Unknown setting: %(name)s") % {"name": ", ".join(sorted(unknown))})
        cleaned = {}
        for key, setting in self.settings.items():
            value = raw.get(key, setting.default)
            try:
                cleaned[key] = setting.clean(value)
            except ValueError as error:
                raise ValueError(f"{setting.label}: {error}") from None
        return cleaned


LEVEL_CHOICES: tuple[tuple[str, Label], ...] = (
    ("auto", _("Each student's own level")),
    *((str(n), str(n)) for n in range(1, 6)),
)


def table_sizes(count: int, spec: GameSpec) -> list[int]:
    """How many students sit at each table: as few tables as the target size allows, sizes within one
    of each other. A remainder too small for a table joins others (merge) or is topped up with bots."""
    if count <= 0:
        return []
    if spec.seating == "teams":
        return [count]
    tables = max(1, math.ceil(count / spec.table_target))
    while tables > 1 and count / tables < spec.table_min and spec.fill == "merge":
        tables -= 1
    while math.ceil(count / tables) > spec.table_max:
        tables += 1
    base, extra = divmod(count, tables)
    return [base + 1 if index < extra else base for index in range(tables)]


def seat_students(students: list[dict], spec: GameSpec, *, balanced: bool, shuffle) -> list[list[dict]]:
    """Split students (dicts with ``level``) into tables. Balanced seating deals them out by level like
    cards (a snake draft), so each table (or team) has a similar mix; random seating shuffles first."""
    ordered = shuffle(list(students))
    if balanced:
        ordered.sort(key=lambda student: -(student.get("level") or 3))
    sizes = table_sizes(len(ordered), spec)
    tables: list[list[dict]] = [[] for _size in sizes]
    order = list(range(len(sizes)))
    index = 0
    while index < len(ordered):
        for table in order:
            if index < len(ordered) and len(tables[table]) < sizes[table]:
                tables[table].append(ordered[index])
                index += 1
        order.reverse()
    return tables
