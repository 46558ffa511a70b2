"""Word Up: an English board game of four question categories over five levels."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.catalog import LEVEL_CHOICES, GameSpec, Setting
from games.engine.core import Rng
from games.engine.wordup import WordUp
from games.shipped import wordup_questions
from questions.selectors import vocabulary_questions_for, wordup_bank_for, wordup_bank_version

from ..base import BankUse, GameDefinition, HomeworkForm, TableContent, build_config, with_bots
from .reports import MEASURES

SPEC = GameSpec(
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
        # Also the teacher's window to Accept a refused answer: 20 s lets a teacher watching seven
        # boards notice it (8 s was too short in a busy room); from 4 s to 2 minutes.
        "reveal_seconds": Setting(
            _("Seconds a refused answer stays on show (your time to Accept it)"), "int", 20, 4, 120
        ),
        "level": Setting(_("Question level"), "choice", "auto", choices=LEVEL_CHOICES),
        "vocabulary": Setting(_("Vocabulary list"), "vocabulary_list", None),
    },
)


def add_content(config: dict, players: list[dict], table: TableContent) -> None:
    if table.level is not None:
        for player in players:
            player["level"] = table.level
    config["questions"] = table.content if table.content is not None else wordup_questions()


#: Each school's bank as its games start from it (with a vocabulary list or not), kept in this process
#: while its version (``wordup_bank_version``) is the same: a homework evening starts thousands of
#: attempts from one bank, and reading it was a query of every question at each start. The kept bank is
#: shared by every game made from it (the engine then keeps the bank it builds from it), so it is never
#: changed in place.
BANKS_KEPT = 32
_banks: OrderedDict[tuple[int, Any], tuple[tuple, dict]] = OrderedDict()
_banks_lock = threading.Lock()


def school_bank(session) -> dict:
    """The school's Word Up bank (shipped questions plus its own) from the database, or the shipped files
    on a fresh install before the banks are loaded. A session playing a vocabulary list gets the list's
    questions at every level (every student plays the class's words), the bank's for a kind the list
    could not make; a list deleted since the session was scheduled leaves the bank."""
    school_id, vocabulary = session.classroom.school_id, session.settings.get("vocabulary")
    key = (school_id, vocabulary)
    version = wordup_bank_version(school_id, vocabulary)  # read first: a change after it is seen next time
    with _banks_lock:
        kept = _banks.get(key)
        if kept is not None and kept[0] == version:
            _banks.move_to_end(key)
            return kept[1]
    bank = _school_bank_read(school_id, vocabulary)
    with _banks_lock:
        _banks[key] = (version, bank)
        while len(_banks) > BANKS_KEPT:
            _banks.popitem(last=False)
    return bank


def forget_kept_banks() -> None:
    """Read every school's bank afresh (tests: each starts with its own database)."""
    with _banks_lock:
        _banks.clear()


def _school_bank_read(school_id: int, vocabulary: Any) -> dict:
    bank = wordup_bank_for(school_id)
    if not all(bank[level][category] for level in bank for category in bank[level]):
        bank = wordup_questions()
    own = vocabulary_questions_for(school_id, vocabulary) if vocabulary else None
    if own:
        bank = {
            level: {category: own.get(category) or questions for category, questions in categories.items()}
            for level, categories in bank.items()
        }
    return bank


def table_config(session, players: list[dict], rng: Rng) -> dict:
    settings = session.settings
    override = settings.get("level", "auto")
    seated = [{**p, "level": int(override) if override != "auto" else (p.get("level") or 3)} for p in players]
    return build_config(
        DEFINITION,
        players=with_bots(DEFINITION, seated, 2, "medium"),
        seed_rng=rng,
        content=school_bank(session),
        target=settings["target"],
        answer_seconds=settings["answer_seconds"],
        reveal_seconds=settings.get("reveal_seconds", 8),
        time_limit=(settings.get("time_limit") or 0) * 60 or None,
    )


DEFINITION = GameDefinition(
    name="wordup",
    title=_("Word Up"),
    bank=BankUse(kind="wordup", group_by="level", group_label=lambda level: _("Level %(n)d") % {"n": level}),
    kind=_("English board game"),
    engine=WordUp,
    spec=SPEC,
    table_config=table_config,
    reports=MEASURES,
    add_content=add_content,
    bots_take_accuracy=True,
    pages="games.definitions.wordup.pages",
    homework=HomeworkForm(timers=("answer_seconds",), computer_players=(1, 5)),
    scripts=tuple(f"js/games/wordup/{part}.js" for part in ("words", "board", "view", "fit", "input")),
)
