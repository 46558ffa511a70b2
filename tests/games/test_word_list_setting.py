"""Mind the Lines with the class's own words: a session may choose one of its school's word lists; the
game then deals those concepts (a list too short for a round is topped up from the game's own deck)."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import GameSession, GameTable
from questions import services as question_services

pytestmark = pytest.mark.django_db
WORDS = [
    "volcano",
    "harbour",
    "lantern",
    "compass",
    "glacier",
    "meadow",
    "anchor",
    "castle",
    "ladder",
    "kettle",
    "bridge",
    "feather",
    "island",
    "rocket",
    "tunnel",
    "saddle",
    "candle",
    "orchard",
    "wheel",
    "pyramid",
]


def _list(school, author, words):
    word_list = question_services.word_list_create(school=school, author=author, name="Week 12")
    question_services.word_list_add_words(word_list=word_list, by=author, texts=words, difficulty="easy")
    return word_list


def _schedule(class_7b, ms_rivera, **settings):
    return services.session_schedule(
        classroom=class_7b,
        by=ms_rivera,
        game="mindlines",
        scheduled_for=timezone.now() + timedelta(hours=1),
        settings=settings,
    )


def test_a_session_plays_with_the_schools_word_list(class_7b, ms_rivera, ava, ben):
    word_list = _list(class_7b.school, ms_rivera, WORDS)
    session = _schedule(class_7b, ms_rivera, word_list=word_list.pk)
    services.session_open_lobby(session=session, by=ms_rivera)
    for student in (ava, ben):
        services.session_join(session=session, student=student)
    services.session_start(session=session, by=ms_rivera)
    config = GameTable.objects.get(session=session).config
    dealt = {concept["text"] for concept in config["concepts"]}
    assert set(WORDS) <= dealt


def test_another_schools_word_list_is_refused(class_7b, class_9a, ms_rivera, mr_okafor):
    theirs = _list(class_9a.school, mr_okafor, WORDS)
    with pytest.raises(ValidationError, match="your school's word lists"):
        _schedule(class_7b, ms_rivera, word_list=theirs.pk)
    assert not GameSession.objects.exists()


def test_the_schedule_form_offers_the_schools_lists(client_of, ms_rivera, class_7b):
    word_list = _list(class_7b.school, ms_rivera, WORDS[:5])
    page = client_of(ms_rivera).get(reverse("games:new")).content.decode()
    assert "Week 12 (5)" in page and "The game&#x27;s own concepts" in page
    assert word_list.pk
