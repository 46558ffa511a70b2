"""Mind the Lines in other languages: the shipped decks come in English, Spanish, French, Portuguese and
Arabic with the same concepts (same ids, difficulty and themes); a session chooses the language of the
game's own concepts, which the table's config keeps (so a replay deals the same cards); a teacher's word
list is played as written and only its top-up comes from the chosen language."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from classrooms.models import Student
from games import content, selectors, services, shipped
from games.definitions import definition, get_engine
from games.engine import core
from games.engine.mindlines import rules
from games.forms import SessionForm
from games.models import GameSession, GameTable
from questions import services as question_services
from questions.validation import clean_concept
from tests.factories import started_session

DATA_DIR = Path(__file__).resolve().parents[2] / "questions" / "data" / "mindlines"
LANGUAGES = shipped.MINDLINES_LANGUAGES
DECKS = shipped.MINDLINES_DIFFICULTIES
TRANSLATIONS = [language for language in LANGUAGES if language != "en"]
MIN_CONCEPTS = {"easy": 235, "hard": 250}
ENGINE = get_engine("mindlines")
T0 = 3_000_000.0


def raw_deck(language: str, difficulty: str) -> list[dict]:
    folder = DATA_DIR if language == "en" else DATA_DIR / language
    return json.loads((folder / f"{difficulty}.json").read_text(encoding="utf-8"))


def texts(language: str, difficulty: str) -> set[str]:
    return {concept["text"] for concept in shipped.mindlines_concepts(difficulty, language)}


# --------------------------------------------------------------------------------------------------
# The decks (no database)
# --------------------------------------------------------------------------------------------------


def test_the_languages_are_english_spanish_french_portuguese_and_arabic():
    assert LANGUAGES == ("en", "es", "fr", "pt", "ar")
    assert shipped.mindlines_concepts("easy") == shipped.mindlines_concepts("easy", "en")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("difficulty", DECKS)
def test_every_language_has_every_concept_with_the_same_id_difficulty_and_theme(language, difficulty):
    english = shipped.mindlines_concepts(difficulty, "en")
    deck = shipped.mindlines_concepts(difficulty, language)
    assert len(deck) >= MIN_CONCEPTS[difficulty]
    assert [c["id"] for c in deck] == [c["id"] for c in english]
    assert [c["theme"] for c in deck] == [c["theme"] for c in english]
    assert {c["difficulty"] for c in deck} == {difficulty}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("difficulty", DECKS)
def test_no_text_or_other_name_comes_twice_in_a_deck(language, difficulty):
    names = [
        name.casefold()
        for concept in shipped.mindlines_concepts(difficulty, language)
        for name in (concept["text"], concept.get("alt"))
        if name
    ]
    assert len(names) == len(set(names)), sorted({n for n in names if names.count(n) > 1})


@pytest.mark.parametrize("language", TRANSLATIONS)
@pytest.mark.parametrize("difficulty", DECKS)
def test_a_translation_is_translated_and_follows_the_concept_rules(language, difficulty):
    deck = shipped.mindlines_concepts(difficulty, language)
    english = {c["id"]: c["text"] for c in shipped.mindlines_concepts(difficulty, "en")}
    for concept in deck:
        cleaned, problems = clean_concept(concept)  # the rules a teacher's own words follow too
        assert problems == [] and cleaned == concept, concept
        assert concept["text"] == concept["text"].strip().lower(), concept
    # Words shared with English (pizza, robot, cactus ...) are allowed, but the deck is translated.
    same = [c["id"] for c in deck if c["text"] == english[c["id"]]]
    assert len(same) < len(deck) // 10, same
    assert texts(language, difficulty) != texts("en", difficulty)


@pytest.mark.parametrize("language", TRANSLATIONS)
@pytest.mark.parametrize("difficulty", DECKS)
def test_the_files_say_the_translation_is_classplays_own_and_the_loader_leaves_that_out(language, difficulty):
    raw = raw_deck(language, difficulty)
    assert all(item["translation"] == "Classplay's own" for item in raw)
    loaded = shipped.mindlines_concepts(difficulty, language)
    assert all("translation" not in concept for concept in loaded)
    assert loaded == [{k: v for k, v in item.items() if k != "translation"} for item in raw]


@pytest.mark.parametrize("difficulty", DECKS)
def test_the_english_deck_is_loaded_exactly_as_shipped(difficulty):
    assert shipped.mindlines_concepts(difficulty) == raw_deck("en", difficulty)


def test_the_question_bank_loads_the_english_decks_alone():
    """Translations share the English ids, so only the English files go into the bank's database."""
    from questions.services import shipped_entries

    loaded = [item for item, _position in shipped_entries("concepts")]
    assert loaded == raw_deck("en", "easy") + raw_deck("en", "hard")


def test_a_few_translations_read_as_a_teacher_would_expect():
    def text(difficulty, language, cid):
        return next(c["text"] for c in shipped.mindlines_concepts(difficulty, language) if c["id"] == cid)

    assert (text("easy", "es", "e-001"), text("easy", "fr", "e-001")) == ("gato", "chat")
    assert (text("easy", "es", "e-069"), text("easy", "fr", "e-069")) == ("arcoíris", "arc-en-ciel")
    assert (text("hard", "es", "h-122"), text("hard", "fr", "h-122")) == ("faro", "phare")
    # boat and ship are two concepts: two words in every language
    assert text("easy", "es", "e-044") != text("easy", "es", "e-045")
    assert text("easy", "fr", "e-044") != text("easy", "fr", "e-045")
    assert (text("easy", "ar", "e-001"), text("easy", "ar", "e-069")) == ("قطة", "قوس قزح")
    assert (text("easy", "ar", "e-044"), text("easy", "ar", "e-045")) == ("قارب", "سفينة")
    # A vowel mark where the bare word means something else too: scientist, not world
    assert text("hard", "ar", "h-139") == "عالِم"


def test_the_portuguese_decks_are_brazilian_and_avoid_the_false_friends():
    def concept(difficulty, cid):
        return next(c for c in shipped.mindlines_concepts(difficulty, "pt") if c["id"] == cid)

    assert [concept("easy", cid)["text"] for cid in ("e-001", "e-069", "e-041")] == [
        "gato",
        "arco-íris",
        "ônibus",
    ]
    assert concept("hard", "h-122")["text"] == "farol"
    assert (concept("easy", "e-044")["text"], concept("easy", "e-045")["text"]) == ("barco", "navio")
    # lamp and light bulb, trampoline and diving board: different words, as in English
    assert (concept("easy", "e-033")["text"], concept("easy", "e-158")["text"]) == ("abajur", "lâmpada")
    assert (concept("hard", "h-074")["text"], concept("hard", "h-078")["text"]) == (
        "cama elástica",
        "trampolim",
    )
    # Brazil's word first, and the other common name as alt
    assert concept("hard", "h-026") == {
        "id": "h-026",
        "text": "geladeira",
        "difficulty": "hard",
        "theme": "home",
        "alt": "refrigerador",
    }


def test_an_unknown_language_or_difficulty_is_a_clear_error():
    with pytest.raises(ValueError, match=r"no concepts in 'de'.*en, es, fr, pt, ar"):
        shipped.mindlines_concepts("easy", "de")
    with pytest.raises(ValueError, match="difficulty"):
        shipped.mindlines_concepts("medium", "es")
    with pytest.raises(ValueError, match="no concepts in 'de'"):
        content.default_config(
            "mindlines", players=content.bot_players("mindlines", 2), seed_rng=core.Rng("x"), language="de"
        )


def test_default_config_deals_the_languages_deck_and_records_the_language():
    players = content.bot_players("mindlines", 4)
    config = content.default_config(
        "mindlines", players=players, seed_rng=core.Rng("x"), difficulty="hard", language="fr"
    )
    assert config["language"] == "fr"
    assert config["concepts"] == shipped.mindlines_concepts("hard", "fr")
    assert content.default_config("mindlines", players=players, seed_rng=core.Rng("x"))["language"] == "en"
    state = ENGINE.setup(config, "seed")
    assert {c["text"] for c in state["concepts"].values()} <= texts("fr", "hard")


def test_the_same_seed_deals_the_same_concepts_in_every_language():
    """Same ids in every deck: a seed picks the same concepts, only their words differ."""
    players = content.bot_players("mindlines", 5)
    dealt = {}
    for language in LANGUAGES:
        config = content.default_config(
            "mindlines", players=players, seed_rng=core.Rng("x"), language=language
        )
        state = ENGINE.setup(config, "same seed")
        dealt[language] = (state["plan"], state["hands"])
    assert dealt["en"] == dealt["es"] == dealt["fr"] == dealt["pt"]


# --------------------------------------------------------------------------------------------------
# The session setting
# --------------------------------------------------------------------------------------------------


def test_the_setting_offers_every_language_english_first_and_is_labelled_without_game():
    setting = definition("mindlines").spec.settings["language"]
    assert setting.default == "en" and setting.kind == "choice"
    assert tuple(key for key, _label in setting.choices) == LANGUAGES
    assert str(setting.label) == "Language of the concepts"
    assert "game" not in str(setting.label).lower()  # a browser test finds the Game field by its label
    assert definition("mindlines").spec.clean_settings({})["language"] == "en"
    with pytest.raises(ValueError, match="Language of the concepts"):
        definition("mindlines").spec.clean_settings({"language": "de"})


def _form_data(classroom, **extra):
    start = timezone.localtime() + timedelta(days=1)
    return {
        "classroom": classroom.pk,
        "game": "mindlines",
        "scheduled_for": start.strftime("%Y-%m-%dT%H:%M"),
        "planned_minutes": 25,
        "arrangement": "balanced",
        **extra,
    }


@pytest.mark.django_db
def test_the_scheduling_form_shows_the_setting_and_keeps_the_choice(client_of, ms_rivera, class_7b):
    client = client_of(ms_rivera)
    page = client.get(reverse("games:new") + f"?classroom={class_7b.pk}").content.decode()
    assert 'name="mindlines__language"' in page and "Language of the concepts" in page
    assert "Spanish" in page and "French" in page and "Portuguese" in page
    response = client.post(
        reverse("games:new"), _form_data(class_7b, mindlines__difficulty="hard", mindlines__language="es")
    )
    assert response.status_code == 302
    session = GameSession.objects.get()
    assert session.settings["language"] == "es" and session.settings["difficulty"] == "hard"
    assert ("Language of the concepts", "Spanish") in selectors.settings_display(session)


@pytest.mark.django_db
def test_the_form_defaults_to_english_and_refuses_a_language_it_does_not_offer(class_7b, ms_rivera):
    classrooms = type(class_7b).objects.filter(pk=class_7b.pk)
    form = SessionForm(data=_form_data(class_7b), classrooms=classrooms)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["settings"]["language"] == "en"
    form = SessionForm(data=_form_data(class_7b, mindlines__language="de"), classrooms=classrooms)
    assert not form.is_valid() and "mindlines__language" in form.errors


def _offered(form) -> str:
    return form["mindlines__language"].value()


@pytest.mark.django_db
def test_the_deck_defaults_to_the_language_most_of_the_class_reads(client_of, ms_rivera, class_7b, ava, ben):
    """A Spanish class gets the Spanish deck by default, not English: the students' own language (most of
    the class), else the school's default, else the teacher's own; a language without a deck (or none)
    leaves English."""
    classrooms = type(class_7b).objects.filter(pk=class_7b.pk)
    form = SessionForm(classrooms=classrooms, teacher=ms_rivera, initial={"classroom": class_7b})
    assert _offered(form) == "en"  # nobody chose a language
    ms_rivera.language = "pt-br"
    ms_rivera.save()
    assert _offered(SessionForm(classrooms=classrooms, teacher=ms_rivera)) == "pt"  # the teacher's own
    class_7b.school.default_language = "es"
    class_7b.school.save()
    assert _offered(SessionForm(classrooms=classrooms, teacher=ms_rivera)) == "es"  # the school's
    Student.objects.filter(pk__in=[ava.pk, ben.pk]).update(language="ar")
    assert _offered(SessionForm(classrooms=classrooms, teacher=ms_rivera)) == "ar"  # most of the class
    # the scheduling page offers it, and a form posted without the setting plays it
    with translation.override("en"):  # (the page's language stays with the page)
        page = client_of(ms_rivera).get(reverse("games:new") + f"?classroom={class_7b.pk}").content.decode()
    assert '<option value="ar" selected>' in page
    form = SessionForm(data=_form_data(class_7b), classrooms=classrooms, teacher=ms_rivera)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["settings"]["language"] == "ar"


# --------------------------------------------------------------------------------------------------
# Sessions
# --------------------------------------------------------------------------------------------------


def _start(classroom, teacher, students, **settings):
    return started_session(classroom, teacher, students, "mindlines", now=T0, **settings)


@pytest.mark.django_db
def test_a_session_in_spanish_deals_spanish_concepts_and_replays_from_its_config(
    class_7b, ms_rivera, ava, ben
):
    session = _start(class_7b, ms_rivera, [ava, ben], language="es")
    table = GameTable.objects.get(session=session)
    assert table.config["language"] == "es"
    assert table.config["concepts"] == shipped.mindlines_concepts("easy", "es")
    spanish = texts("es", "easy")
    assert {c["text"] for c in table.state["concepts"].values()} <= spanish
    mine = ENGINE.view(table.state, {"role": "player", "player": f"s{ava.pk}"})["me"]["concepts"]
    assert mine and all(concept["text"] in spanish for concept in mine)

    # A few moves, then the replay (seed + log, from the config saved at setup) gives the same table.
    for player in (f"s{ava.pk}", f"s{ben.pk}"):
        services.action_submit(
            table_id=table.pk, player=player, action={"type": "ready"}, key=player, now=T0 + 1
        )
    table.refresh_from_db()
    log = [entry.as_log_entry() for entry in table.log.order_by("seq")]
    assert len(log) == 3
    assert core.state_hash(core.replay(ENGINE, table.config, table.seed, log)) == core.state_hash(table.state)
    step = selectors.replay_step(table, len(log))
    assert step["table"]["view"] == ENGINE.view(table.state, {"role": "teacher"})


@pytest.mark.django_db
def test_a_session_scheduled_before_the_setting_plays_english(class_7b, ms_rivera, ava, ben):
    session = services.session_schedule(
        classroom=class_7b, by=ms_rivera, game="mindlines", scheduled_for=timezone.now() + timedelta(hours=1)
    )
    GameSession.objects.filter(pk=session.pk).update(
        settings={k: v for k, v in session.settings.items() if k != "language"}
    )
    session.refresh_from_db()
    assert "language" not in session.settings
    services.session_open_lobby(session=session, by=ms_rivera)
    for student in (ava, ben):
        services.session_join(session=session, student=student)
    services.session_start(session=session, by=ms_rivera, now=T0)
    table = GameTable.objects.get(session=session)
    assert table.config["language"] == "en"
    assert {c["text"] for c in table.state["concepts"].values()} <= texts("en", "easy")


WEEK = ["volcano", "lantern", "compass"]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["fr", "es"])
def test_a_word_list_is_played_as_written_and_topped_up_in_the_chosen_language(
    class_7b, ms_rivera, ava, ben, language
):
    word_list = question_services.word_list_create(school=class_7b.school, author=ms_rivera, name="Week 3")
    question_services.word_list_add_words(word_list=word_list, by=ms_rivera, texts=WEEK, difficulty="easy")
    session = _start(class_7b, ms_rivera, [ava, ben], word_list=word_list.pk, language=language)
    config = GameTable.objects.get(session=session).config
    dealt = [concept["text"] for concept in config["concepts"]]
    assert dealt[: len(WEEK)] == WEEK  # the teacher's words, untranslated
    top_up = dealt[len(WEEK) :]
    assert len(dealt) == rules.concepts_needed(2, rounds=1)
    assert top_up and set(top_up) <= texts(language, "easy")
    assert config["language"] == language


LONG_LIST = ["anchor", "bridge", "candle", "desert", "engine", "feather", "garden", "helmet", "island"]


@pytest.mark.django_db
def test_a_word_list_long_enough_for_a_round_takes_nothing_from_any_deck(class_7b, ms_rivera, ava, ben):
    word_list = question_services.word_list_create(school=class_7b.school, author=ms_rivera, name="Long")
    question_services.word_list_add_words(
        word_list=word_list, by=ms_rivera, texts=LONG_LIST, difficulty="easy"
    )
    assert len(LONG_LIST) >= rules.concepts_needed(2, rounds=1)
    session = _start(class_7b, ms_rivera, [ava, ben], word_list=word_list.pk, language="es")
    config = GameTable.objects.get(session=session).config
    assert [concept["text"] for concept in config["concepts"]] == LONG_LIST
