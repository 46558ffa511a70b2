"""What the runtime needs to know about each game beyond its rules: table sizes, how students are seated,
which skill sets a table's level, and the settings a teacher may choose (with their limits)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Setting:
    """One teacher-chosen setting: ``kind`` is "int" (bounded), "choice" (listed) or "word_list" (one of
    the school's own Mind the Lines lists, or None for the game's own concepts)."""

    label: str
    kind: str
    default: Any
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[tuple[str, str], ...] = ()

    def clean(self, value: Any) -> Any:
        if self.kind == "word_list":  # a school's word list by id; which school is checked on scheduling
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
    advance_warning: str | None = None
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


LEVEL_CHOICES = (("auto", _("Each student's own level")), *((str(n), str(n)) for n in range(1, 6)))

GAMES: dict[str, GameSpec] = {
    "lineup": GameSpec(
        name="lineup",
        table_min=2,
        table_max=40,
        table_target=40,
        skill=None,
        seating="teams",
        fill="bot",
        settings={
            "board": Setting(
                _("Board"),
                "choice",
                "standard",
                choices=(("short", _("Short")), ("standard", _("Standard")), ("long", _("Long"))),
            ),
            "answer_seconds": Setting(_("Seconds to answer"), "int", 60, 15, 300),
            "subject": Setting(
                _("Subject"),
                "choice",
                "all",
                choices=(
                    ("all", _("All subjects")),
                    ("science", _("Science")),
                    ("geography", _("Geography")),
                    ("history", _("History")),
                    ("language", _("Language")),
                    ("maths", _("Maths")),
                ),
            ),
            "min_level": Setting(_("Easiest questions (level)"), "int", 1, 1, 5),
            "max_level": Setting(_("Hardest questions (level)"), "int", 3, 1, 5),
        },
    ),
    "wordup": GameSpec(
        name="wordup",
        table_min=2,
        table_max=6,
        table_target=4,
        skill="english_vocabulary",
        fill="bot",
        settings={
            "target": Setting(_("Tokens of each colour to win"), "int", 2, 1, 3),
            "time_limit": Setting(_("Time limit in minutes (0: play to the target)"), "int", 0, 0, 90),
            "answer_seconds": Setting(_("Seconds to answer"), "int", 45, 15, 180),
            "reveal_seconds": Setting(_("Seconds the answer stays on show"), "int", 8, 4, 60),
            "level": Setting(_("Question level"), "choice", "auto", choices=LEVEL_CHOICES),
        },
    ),
    "faces": GameSpec(
        name="faces",
        table_min=2,
        table_max=2,
        table_target=2,
        skill=None,
        fill="bot",
        advance_warning=_(
            "Between rounds this starts the next round. During a turn the student to move loses the match"
            " (to give more time, use +30 s). Move on?"
        ),
        settings={
            "turn_seconds": Setting(_("Seconds per turn"), "int", 60, 15, 300),
            "bot": Setting(
                _("Computer opponent"),
                "choice",
                "medium",
                choices=(("easy", _("Easy")), ("medium", _("Medium")), ("hard", _("Hard"))),
            ),
        },
    ),
    "lineit": GameSpec(
        name="lineit",
        table_min=2,
        table_max=5,
        table_target=4,
        skill="numeracy",
        fill="bot",
        settings={
            "turn_seconds": Setting(_("Seconds per turn"), "int", 30, 10, 120),
            "level": Setting(_("Number level"), "choice", "auto", choices=LEVEL_CHOICES),
        },
    ),
    "mindlines": GameSpec(
        name="mindlines",
        table_min=2,
        table_max=8,
        table_target=5,
        skill="english_vocabulary",
        fill="merge",
        settings={
            "difficulty": Setting(
                _("Concepts"), "choice", "easy", choices=(("easy", _("Easy")), ("hard", _("Hard")))
            ),
            "draw_seconds": Setting(_("Seconds to draw"), "int", 120, 60, 600),
            "exclude_seconds": Setting(_("Seconds per exclusion"), "int", 60, 10, 600),
            "word_list": Setting(_("Word list"), "word_list", None),
            # The game's own concepts come in these languages (content.MINDLINES_LANGUAGES); a word
            # list's words are played as written, and only its top-up comes from the chosen language.
            "language": Setting(
                _("Language of the concepts"),
                "choice",
                "en",
                choices=(("en", _("English")), ("es", _("Spanish")), ("fr", _("French"))),
            ),
        },
    ),
}


def spec_for(game: str) -> GameSpec:
    return GAMES[game]


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
