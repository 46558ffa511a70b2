"""Read aloud: every prompt, option and result of every game has an audio source (the browser's voice,
else the server's espeak-ng audio), and the server speaks only what the student's own screen shows."""

from __future__ import annotations

import pytest
from django.test import override_settings
from django.urls import reverse

from classrooms.services import student_accommodations_set
from games import clock, selectors, services, speech
from games.models import GameTable
from tests.factories import started_session

pytestmark = pytest.mark.django_db
T0 = 2_000_000.0
FAKE_WAV = b"RIFF\x24\x00\x00\x00WAVEfmt fake"
GAMES = ("wordup", "lineit", "faces", "mindlines", "lineup")


@pytest.fixture(autouse=True)
def spoken(tmp_path, monkeypatch):
    """A stand-in synthesizer (tests must not need espeak-ng): records what it was asked to say."""
    said = []

    def fake(text, voice):
        said.append(text)
        return FAKE_WAV

    monkeypatch.setattr(speech, "synthesize", fake)
    with override_settings(SPEECH_AUDIO_DIR=tmp_path / "speech"):
        yield said


@pytest.fixture
def ava_reads_aloud(ava, ms_rivera):
    student_accommodations_set(student=ava, by=ms_rivera, read_aloud=True)
    return ava


def _screens(table: GameTable, student, steps: int):
    """Each screen the student's device shows while the clock plays the game on (deadline after deadline)."""
    for _step in range(steps):
        table.refresh_from_db()
        shown = selectors.strings_on_student_screen(student, table.session_id)
        yield shown
        if table.deadline is None or table.status != GameTable.Status.PLAYING:
            return
        clock.tick(now=table.deadline, check_lobbies=False)


@pytest.mark.parametrize("game", GAMES)
def test_every_prompt_option_and_result_on_the_screen_has_server_audio(
    game, class_7b, ms_rivera, ava_reads_aloud, ben, spoken
):
    session = started_session(class_7b, ms_rivera, [ava_reads_aloud, ben], game, now=T0)
    table = GameTable.objects.filter(session=session).first()
    walked = 0
    for shown in _screens(table, ava_reads_aloud, 25):
        assert shown is not None
        for text in {text for text in shown["strings"] if any(c.isalpha() for c in text)}:
            assert speech.may_speak(text, game, shown["strings"]), (game, text)
            assert speech.speech_file(speech.normalise(text), "en-gb").read_bytes() == FAKE_WAV
        walked += 1
    assert walked >= 2


@pytest.mark.parametrize("game", GAMES)
def test_the_games_interface_sentences_can_be_spoken_with_what_the_screen_shows(game):
    shown = ["Ava M.", "Ben K."]
    plain, patterns = speech._interface_patterns(game, "en")
    assert plain and patterns
    for sentence in plain:
        assert speech.may_speak(sentence, game, shown) or len(sentence) > speech.MAX_CHARS
    assert speech.may_speak("Ava M.", game, shown)


def test_the_device_hears_its_own_question(student_client, class_7b, ms_rivera, ava_reads_aloud, ben, spoken):
    session = started_session(class_7b, ms_rivera, [ava_reads_aloud, ben], "faces", now=T0)
    shown = selectors.strings_on_student_screen(ava_reads_aloud, session.pk)
    text = next(text for text in shown["strings"] if " " in text and any(c.isalpha() for c in text))
    response = student_client(ava_reads_aloud).post(reverse("games:speak", args=[session.pk]), {"text": text})
    assert response.status_code == 200
    assert response["Content-Type"] == "audio/wav"
    assert b"".join(response.streaming_content) == FAKE_WAV
    assert spoken == [text]


def test_a_secret_is_never_spoken(student_client, class_7b, ms_rivera, ava_reads_aloud, ben, spoken):
    session = started_session(class_7b, ms_rivera, [ava_reads_aloud, ben], "mindlines", now=T0)
    state = GameTable.objects.get(session=session).state
    # Both decks are dealt, and a word can be in both: one Ava also holds is hers to hear, not a secret.
    on_her_screen = set(selectors.strings_on_student_screen(ava_reads_aloud, session.pk)["strings"])
    hand = state["hands"][services.student_player_id(ben.pk)]
    texts = [state["concepts"][cid]["text"] for cid in hand]
    theirs = [text for text in texts if text not in on_her_screen]
    client = student_client(ava_reads_aloud)
    for text in (*theirs, "Say anything the server is asked to say", "x" * 400):
        assert client.post(reverse("games:speak", args=[session.pk]), {"text": text}).status_code == 403
    assert spoken == []


def test_only_a_student_with_read_aloud_seated_in_the_game_may_ask(
    student_client, class_7b, ms_rivera, ava_reads_aloud, ben, cleo
):
    session = started_session(class_7b, ms_rivera, [ava_reads_aloud, ben], "faces", now=T0)
    url = reverse("games:speak", args=[session.pk])
    assert student_client(ben).post(url, {"text": "Ben K."}).status_code == 404  # no read aloud on his record
    student_accommodations_set(student=cleo, by=ms_rivera, read_aloud=True)
    assert student_client(cleo).post(url, {"text": "Cleo N."}).status_code == 404  # not in this game


@pytest.mark.usefixtures("rate_limit_minute_held")  # (91 asks straddling a minute's end counted in two)
def test_a_device_that_asks_too_often_is_slowed(student_client, class_7b, ms_rivera, ava_reads_aloud, ben):
    session = started_session(class_7b, ms_rivera, [ava_reads_aloud, ben], "faces", now=T0)
    client, url = student_client(ava_reads_aloud), reverse("games:speak", args=[session.pk])
    limit = int(speech.RATE.split("/")[0])
    codes = [client.post(url, {"text": "Ava M."}).status_code for _ask in range(limit + 1)]
    assert codes[:limit] == [200] * limit and codes[-1] == 429


def test_the_play_page_offers_read_aloud_only_to_its_own_student(
    student_client, class_7b, ms_rivera, ava_reads_aloud, ben
):
    student_accommodations_set(student=ava_reads_aloud, by=ms_rivera, read_aloud=True, larger_text=True)
    session = started_session(class_7b, ms_rivera, [ava_reads_aloud, ben], "lineit", now=T0)
    mine = student_client(ava_reads_aloud).get(reverse("games:play", args=[session.pk])).content.decode()
    assert "data-read-aloud-bar" in mine and "acc-larger-text" in mine and "read-aloud.js" in mine
    theirs = student_client(ben).get(reverse("games:play", args=[session.pk])).content.decode()
    assert "data-read-aloud" not in theirs and "acc-" not in theirs


def test_every_page_of_the_students_device_takes_larger_text(student_client, client_of, ms_rivera, ava):
    student_accommodations_set(student=ava, by=ms_rivera, larger_text=True, reduced_motion=True)
    for url in (reverse("student_home"), reverse("games:game_how_to_play", args=["wordup"])):
        page = student_client(ava).get(url).content.decode()
        assert '<body class="acc-larger-text acc-reduced-motion">' in page, url
        assert "css/accommodations.css" in page
    staff_page = client_of(ms_rivera).get(reverse("student_detail", args=[ava.pk])).content.decode()
    assert "acc-larger-text" not in staff_page  # the teacher's own pages stay as they are
