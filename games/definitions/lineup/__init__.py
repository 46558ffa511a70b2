"""Line Up!: two teams put five items in order on a board of coloured zones (an ordering quiz)."""

from __future__ import annotations

from django.conf import settings as django_settings
from django.utils.translation import gettext_lazy as _

from classrooms.languages import supported
from games.catalog import GameSpec, Setting
from games.engine.core import Rng
from games.engine.lineup import LineUp
from games.shipped import LINEUP_LANGUAGES, TEAMS, lineup_questions
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
        # The edition the shipped questions come from (games.shipped.LINEUP_LANGUAGES); blank: the
        # language of the teacher who scheduled the session (see session_language).
        "language": Setting(
            _("Language of the questions"),
            "choice",
            "",
            choices=(("", _("The teacher's language")), *django_settings.LANGUAGES),
        ),
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


def session_language(session) -> str:
    """The language of the session's questions: the one chosen when scheduling, else the language of
    the teacher who scheduled it, else the school's default language, else English."""
    teacher = session.created_by
    for code in (
        session.settings.get("language"),
        teacher.language if teacher is not None else None,
        session.classroom.school.default_language,
    ):
        if found := supported(code):
            return found
    return django_settings.LANGUAGE_CODE


def class_questions(session) -> list[dict]:
    """The class's questions for this session: its subjects and levels, in the session's language (the
    English ones where that edition runs short), the ones the class has not seen (or saw longest ago)
    first; the bank in the database (shipped plus the school's own), falling back to the shipped files
    only when the database holds none at all (a fresh install before loading)."""
    settings = session.settings
    low, high = sorted((settings["min_level"], settings["max_level"]))
    subject = settings.get("subject", "all")
    subjects = [] if subject == "all" else [subject]
    language = session_language(session)
    rows = lineup_questions_for(
        session.classroom,
        subjects,
        list(range(low, high + 1)),
        limit=QUESTIONS_PER_TABLE,
        language=language,
    )
    if rows:
        return [row.to_engine_dict() for row in rows]
    return shipped_questions(language, range(low, high + 1), subjects)


def shipped_questions(language: str, levels: range, subjects: list[str]) -> list[dict]:
    """The shipped files' questions of these levels and subjects in ``language``'s edition, and the
    English ones it has no translation of where it has too few (as the bank would give them); every
    subject's English ones if none at all fit."""

    def fits(question: dict) -> bool:
        return question["level"] in levels and (not subjects or question.get("subject") in subjects)

    edition = (
        [q for q in lineup_questions(language=language) if fits(q)] if language in LINEUP_LANGUAGES else []
    )
    english = lineup_questions()
    if len(edition) < QUESTIONS_PER_TABLE:
        translated = {q["id"] for q in edition}
        edition += [q for q in english if fits(q) and q["id"] not in translated]
    return edition or [q for q in english if q["level"] in levels]


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
        filter_label=lambda subject: str(SUBJECT_LABELS.get(subject, subject)),
    ),
    kind=_("ordering quiz"),
    engine=LineUp,
    spec=SPEC,
    table_config=table_config,
    reports=MEASURES,
    add_content=add_content,
    # One student orders for the blue team; the computer plays the yellow team on the same board.
    homework=HomeworkForm(timers=("answer_seconds",), computer_players=(1, 1)),
    # practice.js: the How to play page's practice rack (it draws nothing on a live page).
    scripts=tuple(
        f"js/games/lineup/{part}.js" for part in ("words", "board", "panels", "view", "input", "practice")
    ),
)
