"""Word Up's spoken Spelling audio: only the student being asked hears the word before they answer; the
URL and every message name the question by its serial, never the word; audio is cached and works
without espeak-ng when it was spoken in advance."""

import os
from datetime import timedelta

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from classrooms.middleware import STUDENT_SESSION_KEY
from games import services
from games.definitions.wordup import pages as audio
from games.engine import core
from games.engine.wordup import board as B
from games.models import GameTable, Participant

pytestmark = pytest.mark.django_db
T0 = 1_000_000.0
FAKE_WAV = b"RIFF\x24\x00\x00\x00WAVEfmt fake"


@pytest.fixture(autouse=True)
def _audio_cache(tmp_path):
    with override_settings(WORDUP_AUDIO_DIR=tmp_path / "audio"):
        yield


@pytest.fixture
def spoken(monkeypatch):
    """A stand-in synthesizer (tests must not need espeak-ng): records what it was asked to say."""
    said = []

    def fake(text, part):
        said.append((part, text))
        return FAKE_WAV

    monkeypatch.setattr(audio, "synthesize", fake)
    return said


@pytest.fixture
def table(class_7b, ms_rivera, ava, ben):
    session = services.session_schedule(
        classroom=class_7b, by=ms_rivera, game="wordup", scheduled_for=timezone.now() + timedelta(hours=1)
    )
    services.session_open_lobby(session=session, by=ms_rivera)
    services.session_join(session=session, student=ava)
    services.session_join(session=session, student=ben)
    services.session_start(session=session, by=ms_rivera, now=T0)
    return GameTable.objects.get(session=session)


def spelling_on_show(table: GameTable) -> tuple[GameTable, str]:
    """The player whose turn it is rolls onto a Spelling square (through the real runtime)."""
    state = table.state
    rng = core.Rng.from_state(state["rng"])
    total = rng.randint(1, 6) + rng.randint(1, 6)
    square = next(s["index"] for s in B.BOARD if s.get("category") == B.SPELLING)
    state["positions"][state["turn"]] = (square - total) % B.BOARD_SIZE
    table.state = state
    table.save(update_fields=["state"])
    player = state["turn"]
    services.action_submit(table_id=table.pk, player=player, action={"type": "roll"}, key="r1", now=T0 + 1)
    table.refresh_from_db()
    assert table.state["phase"] == "answer" and table.state["question"]["category"] == B.SPELLING
    return table, player


def as_student(client, student):
    session = client.session
    session[STUDENT_SESSION_KEY] = student.pk
    session.save()
    return client


def student_of(table: GameTable, player: str):
    return Participant.objects.get(table=table, player_id=player).student


def url(table: GameTable, part: str = "sentence", serial: int | None = None) -> str:
    serial = table.state["question"]["serial"] if serial is None else serial
    return reverse("games:wordup-audio", args=[table.pk, serial, part])


def other_seat(table: GameTable, player: str) -> str:
    return next(pid for pid in table.state["seating"] if pid != player)


def test_the_student_being_asked_hears_the_sentence_then_the_word(client, table, spoken):
    table, player = spelling_on_show(table)
    as_student(client, student_of(table, player))
    data = table.state["question"]["data"]
    for part, text in (("sentence", data["sentence"]), ("word", data["answers"][0])):
        response = client.get(url(table, part))
        assert response.status_code == 200
        assert response["Content-Type"] == "audio/wav"
        assert response["Cache-Control"] == "private, no-store"
        assert b"".join(response.streaming_content) == FAKE_WAV
        assert spoken[-1] == (part, text.strip())


def test_the_url_and_the_view_never_name_the_word(client, table, spoken):
    table, player = spelling_on_show(table)
    data = table.state["question"]["data"]
    from games import selectors

    for viewer in ({"role": "player", "player": player}, {"role": "teacher"}, {"role": "projector"}):
        view = selectors.table_view(table, viewer)
        text = core.canonical_json(view)
        assert data["answers"][0] not in text and data["sentence"] not in text and data["id"] not in text
    for part in audio.PARTS:
        assert data["answers"][0] not in url(table, part) and data["id"] not in url(table, part)
    as_student(client, student_of(table, player))
    response = client.get(url(table, "word"))
    assert data["answers"][0].encode() not in response.get("Content-Disposition", "").encode()


def test_nobody_else_hears_the_word_before_the_answer(client, table, spoken, ms_rivera):
    table, player = spelling_on_show(table)
    assert client.get(url(table)).status_code == 403  # nobody signed in
    as_student(client, student_of(table, other_seat(table, player)))
    assert client.get(url(table, "word")).status_code == 403  # the other player at the board
    client.logout()
    client.force_login(ms_rivera)  # the teacher's console and the projector
    assert client.get(url(table, "word")).status_code == 403
    assert spoken == []


def test_a_student_of_another_class_or_table_cannot_fetch_it(client, table, spoken, cleo):
    table, _player = spelling_on_show(table)
    as_student(client, cleo)
    assert client.get(url(table, "word")).status_code == 403


def test_a_removed_student_no_longer_hears_it(client, table, spoken, ms_rivera):
    table, player = spelling_on_show(table)
    participant = Participant.objects.get(table=table, player_id=player)
    services.participant_remove(participant=participant, by=ms_rivera)
    as_student(client, participant.student)
    assert client.get(url(table, "word")).status_code == 403


def test_a_stale_serial_or_unknown_part_is_not_found(client, table, spoken):
    table, player = spelling_on_show(table)
    as_student(client, student_of(table, player))
    assert client.get(url(table, "word", serial=table.state["question"]["serial"] + 1)).status_code == 404
    assert client.get(reverse("games:wordup-audio", args=[table.pk, 1, "answer"])).status_code == 404
    assert client.get(reverse("games:wordup-audio", args=[999999, 1, "word"])).status_code == 404
    assert client.post(url(table, "word")).status_code == 405


def test_no_audio_for_a_question_that_is_not_spelling(client, table, spoken):
    state = table.state
    assert state["phase"] == "roll"
    as_student(client, student_of(table, state["turn"]))
    assert client.get(reverse("games:wordup-audio", args=[table.pk, 1, "word"])).status_code == 404


def test_after_the_answer_the_word_is_public_to_the_table_and_its_teacher(client, table, spoken, ms_rivera):
    table, player = spelling_on_show(table)
    serial = table.state["question"]["serial"]
    services.action_submit(
        table_id=table.pk, player=player, action={"type": "answer", "answer": "xq"}, key="a1", now=T0 + 2
    )
    table.refresh_from_db()
    assert table.state["phase"] == "reveal"
    as_student(client, student_of(table, other_seat(table, player)))
    assert client.get(url(table, "word", serial)).status_code == 200
    client.logout()
    client.force_login(ms_rivera)
    assert client.get(url(table, "word", serial)).status_code == 200


def test_cached_audio_is_served_without_a_synthesizer(client, table, monkeypatch):
    table, player = spelling_on_show(table)
    data = table.state["question"]["data"]
    monkeypatch.setattr(audio, "espeak_path", lambda: None)
    as_student(client, student_of(table, player))
    response = client.get(url(table, "word"))
    assert response.status_code == 503
    assert "not available" in response.content.decode()
    cached = audio._cache_file(data["answers"][0].strip(), "word")
    cached.parent.mkdir(parents=True)
    cached.write_bytes(FAKE_WAV)
    response = client.get(url(table, "word"))
    assert response.status_code == 200 and b"".join(response.streaming_content) == FAKE_WAV


def test_pregenerate_speaks_every_spelling_question_once(spoken):
    questions = [
        {"category": "spelling", "sentence": "My best friend lives next to me.", "answers": ["friend"]},
        {"category": "spelling", "sentence": "The garden is beautiful.", "answers": ["beautiful"]},
        {"category": "missing_word", "prompt": "x ____", "answers": ["aunt"]},
    ]
    assert audio.audio_pregenerate(questions) == {"made": 4, "cached": 0, "failed": 0}
    assert audio.audio_pregenerate(questions) == {"made": 0, "cached": 4, "failed": 0}
    assert len(spoken) == 4


def test_pregenerate_covers_the_shipped_bank(spoken):
    counts = audio.audio_pregenerate()
    assert counts["failed"] == 0 and counts["made"] + counts["cached"] >= 200  # 100 questions, two parts


def test_cache_files_are_named_by_a_hash_not_the_word():
    path = audio._cache_file("because", "word")
    assert "because" not in str(path) and path.suffix == ".wav"


def test_espeak_ng_speaks_a_real_wav():
    """Needs Debian's espeak-ng (CI installs it next to chromium; elsewhere the test skips without it)."""
    if not audio.espeak_path():
        if os.environ.get("CLASSPLAY_REQUIRE_SERVICES") == "1":
            pytest.fail("espeak-ng is required in CI but missing (apt-get install espeak-ng)")
        pytest.skip("espeak-ng is not installed (apt-get install espeak-ng)")
    data = audio.synthesize("My best friend lives next to me.", "sentence")
    assert data[:4] == b"RIFF" and data[8:12] == b"WAVE" and len(data) > 10_000
