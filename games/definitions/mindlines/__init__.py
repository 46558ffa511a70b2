"""Mind the Lines: a cooperative game; draw a concept on dotted lines in two minutes, then exclude decoys."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.catalog import GameSpec, Setting
from games.engine.core import Rng
from games.engine.mindlines import MindTheLines, rules
from games.shipped import MINDLINES_LANGUAGES, difficulty_of_level, mindlines_concepts
from questions.selectors import concepts_for

from ..base import BankUse, GameDefinition, HomeworkForm, TableContent, build_config, with_bots
from .pages import theme_name
from .reports import MEASURES

SPEC = GameSpec(
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
        # The game's own concepts come in these languages (games.shipped.MINDLINES_LANGUAGES); a word
        # list's words are played as written, and only its top-up comes from the chosen language.
        "language": Setting(
            _("Language of the concepts"),
            "choice",
            "en",
            choices=(
                ("en", _("English")),
                ("es", _("Spanish")),
                ("fr", _("French")),
                ("pt", _("Portuguese")),
                ("ar", _("Arabic")),
            ),
            follows_class_language=True,
        ),
    },
)


def add_content(config: dict, players: list[dict], table: TableContent) -> None:
    if "difficulty" not in table.settings and table.level is not None:
        config["difficulty"] = difficulty_of_level(table.level)
    # The language of the deck the concepts come from (a teacher's own words are as written).
    config["language"] = config.get("language", "en")
    content = table.content
    if content is None:
        content = mindlines_concepts(config["difficulty"], config["language"])
    elif config["language"] not in MINDLINES_LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(MINDLINES_LANGUAGES)}")
    config["concepts"] = content


def session_language(session) -> str:
    """The language of the game's own concepts (a session scheduled before the setting plays English)."""
    return session.settings.get("language", "en")


def word_list_concepts(session, player_count: int, rng: Rng) -> list[dict] | None:
    """The teacher's word list if the session has one, as written (never translated), topped up from the
    game's own deck in the session's language when it is too short for even one round; else None: the
    game's own concepts of the chosen difficulty and language (``add_content`` loads them)."""
    word_list = session.settings.get("word_list")
    if not word_list:
        return None
    concepts = concepts_for(session.classroom.school_id, word_list=word_list)
    needed = rules.concepts_needed(player_count, rounds=1)
    if len(concepts) < needed:
        known = {concept["text"].casefold() for concept in concepts}
        taken = {concept["id"] for concept in concepts}
        deck = mindlines_concepts(session.settings["difficulty"], session_language(session))
        spare = [c for c in deck if c["text"].casefold() not in known and c["id"] not in taken]
        concepts += rng.sample(spare, needed - len(concepts))
    return concepts


def table_config(session, players: list[dict], rng: Rng) -> dict:
    settings = session.settings
    seated = with_bots(DEFINITION, players, 2, "medium")
    return build_config(
        DEFINITION,
        players=seated,
        seed_rng=rng,
        content=word_list_concepts(session, len(seated), rng),
        language=session_language(session),
        difficulty=settings["difficulty"],
        draw_seconds=settings["draw_seconds"],
        exclude_seconds=settings.get("exclude_seconds", 60),
    )


DEFINITION = GameDefinition(
    name="mindlines",
    title=_("Mind the Lines"),
    bank=BankUse(
        kind="concepts",
        group_by="difficulty",
        group_label=lambda difficulty: dict(SPEC.settings["difficulty"].choices).get(difficulty, difficulty),
        shipped_only=True,
        reviewable=False,
        filter_label=theme_name,
    ),
    kind=_("draw and guess"),
    engine=MindTheLines,
    spec=SPEC,
    table_config=table_config,
    reports=MEASURES,
    add_content=add_content,
    # The language of the concepts: the config records it; the engine does not read it.
    extra_config=frozenset({"language"}),
    bots_take_accuracy=True,
    pages="games.definitions.mindlines.pages",
    homework=HomeworkForm(
        unavailable=_(
            "A computer cannot draw, so a student alone could only do the guessing half. That half is"
            " played together: the group wins or loses on what the drawers drew, with decoys dealt for"
            " that table. Drawings kept from the class's live games were revealed at the end of each"
            " round, so many students have already seen their answers, and the teacher may have hidden some."
            " Guessing them alone would test memory rather than vocabulary, so Mind the Lines is played"
            " live only."
        )
    ),
    scripts=tuple(
        f"js/games/mindlines/{part}.js" for part in ("words", "geometry", "board", "view", "fit", "input")
    ),
)
