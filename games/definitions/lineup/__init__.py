"""Line Up!: two teams put five items in order on a board of coloured zones (an ordering quiz)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.catalog import GameSpec, Setting
from games.engine.core import Rng
from games.engine.lineup import LineUp
from games.shipped import TEAMS, lineup_questions
from questions.selectors import lineup_questions_for

from ..base import BankUse, GameDefinition, HomeworkForm, TableContent, build_config
from .reports import MEASURES, SUBJECT_LABELS

#: How many questions a table takes from the class's rotation (a long board asks about 25).
QUESTIONS_PER_TABLE = 40

SPEC = GameSpec(
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
            choices=(("all", _("All subjects")), *SUBJECT_LABELS.items()),
        ),
        "min_level": Setting(_("Easiest questions (level)"), "int", 1, 1, 5),
        "max_level": Setting(_("Hardest questions (level)"), "int", 3, 1, 5),
        # Time to read the answer and the explanation and talk about them; the console can also hold it.
        "reveal_seconds": Setting(_("Seconds the answer stays on show"), "int", 25, 10, 120),
    },
)


def add_content(config: dict, players: list[dict], table: TableContent) -> None:
    for index, player in enumerate(players):
        player.setdefault("team", TEAMS[index % 2])
    questions = table.content if table.content is not None else lineup_questions(table.level)
    if table.content is not None and table.level is not None:
        questions = [q for q in questions if q.get("level") == table.level]
    if not questions:
        raise ValueError(f"there are no Line Up! questions at level {table.level}")
    config["questions"] = table.seed_rng.shuffled(questions)


def class_questions(session) -> list[dict]:
    """The class's questions for this session: its subjects and levels, the ones the class has not seen
    (or saw longest ago) first; the bank in the database (shipped plus the school's own), falling back
    to the shipped files only when the database holds none at all (a fresh install before loading)."""
    settings = session.settings
    low, high = sorted((settings["min_level"], settings["max_level"]))
    subject = settings.get("subject", "all")
    subjects = [] if subject == "all" else [subject]
    rows = lineup_questions_for(
        session.classroom, subjects, list(range(low, high + 1)), limit=QUESTIONS_PER_TABLE
    )
    if rows:
        return [row.to_engine_dict() for row in rows]
    shipped = [q for q in lineup_questions() if low <= q["level"] <= high]
    return [q for q in shipped if not subjects or q.get("subject") in subjects] or shipped


def table_config(session, players: list[dict], rng: Rng) -> dict:
    settings = session.settings
    seated = [{**p, "team": p.get("team") or TEAMS[i % 2]} for i, p in enumerate(players)]
    if len(seated) == 1:  # a class of one practises against the computer
        seated.append({"id": "bot1", "name": "Computer", "team": "yellow", "bot": "medium"})
    return build_config(
        DEFINITION,
        players=seated,
        seed_rng=rng,
        content=class_questions(session),
        board=settings["board"],
        answer_seconds=settings["answer_seconds"],
        final_seconds=settings["answer_seconds"],
        # A session scheduled before the setting existed shows the answer for the new default.
        reveal_seconds=settings.get("reveal_seconds", 25),
    )


DEFINITION = GameDefinition(
    name="lineup",
    title=_("Line Up!"),
    bank=BankUse(
        kind="lineup",
        group_by="subject",
        group_label=lambda subject: dict(SPEC.settings["subject"].choices).get(
            subject, subject.replace("_", " ").capitalize()
        ),
    ),
    kind=_("ordering quiz"),
    engine=LineUp,
    spec=SPEC,
    table_config=table_config,
    reports=MEASURES,
    add_content=add_content,
    # One student orders for the blue team; the computer plays the yellow team on the same board.
    homework=HomeworkForm(timers=("answer_seconds",), computer_players=(1, 1)),
)
