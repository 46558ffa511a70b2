"""Line-Up's verify pages: anyone can check a pasted match record; a match played here can be checked (and
its record downloaded) by its two players and the class's staff, once it is over."""

import html
import json
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from games.engine.core import Rng
from games.engine.faces import Faces, verify
from games.management.commands.verify_faces import example_record
from games.models import GameTable

pytestmark = pytest.mark.django_db
T0 = 2_000_000.0
URL = "/games/faces/verify/"
BASE = {"config": {}, "seed": "s", "salt": "x", "commitment": "c"}


@pytest.fixture(scope="module")
def honest():
    return example_record(11, "hard")


def post_record(record, **extra):
    text = record if isinstance(record, str) else json.dumps(record)
    return Client().post(URL, {"record": text, **extra})


def test_the_verify_page_is_public_and_explains_the_check():
    response = Client().get(URL)
    assert response.status_code == 200
    text = response.content.decode()
    assert "Check a Line-Up match" in text and "commitment" in text
    assert 'name="record"' in text and 'type="file"' in text


def test_an_honest_record_is_verified_with_its_faces_and_answers(honest):
    response = post_record(honest)
    text = response.content.decode()
    assert response.status_code == 200
    assert "Verified: this match was fair." in text
    assert "Every answer, naming and round result recorded during the match agrees" in text
    assert text.count("<svg") >= 2 and 'role="img"' in text  # each round's two faces, with descriptions
    assert "Does your person" in text  # the recomputed answers, as questions
    assert honest["commitment"] in text


def test_a_monster_match_record_is_verified_with_monster_faces_and_questions():
    record = example_record(12, "hard", "monsters")
    assert record["config"]["board"] == "monsters"
    text = post_record(record).content.decode()
    assert "Verified: this match was fair." in text
    assert "Does your monster" in text and "Does your person" not in text
    assert text.count("<svg") >= 2  # each round's two monsters


def test_a_record_uploaded_as_a_file_is_checked_too(honest):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("match.json", json.dumps(honest).encode(), content_type="application/json")
    response = Client().post(URL, {"record": "", "file": upload})
    assert "Verified: this match was fair." in response.content.decode()


def test_a_tampered_answer_is_reported_with_its_log_entry(honest):
    record = json.loads(json.dumps(honest))
    number, event = next(
        (number, event)
        for number, entry in enumerate(record["log"])
        for event in entry.get("events", [])
        if event["type"] == "asked"
    )
    event["answer"] = not event["answer"]
    text = post_record(record).content.decode()
    assert "Not verified." in text
    assert f"Log entry {number}: the log says asked answer" in text
    assert "Verified: this match was fair." not in text


def test_a_changed_seed_breaks_the_commitment(honest):
    record = {**honest, "seed": honest["seed"] + "x"}
    text = post_record(record).content.decode()
    assert "Not verified." in text and "is not SHA-256(salt:seed)" in text
    assert "different" in text


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "Paste a match record or choose its file."),
        ("not json", "That is not JSON"),
        ("[1, 2]", "This is not a match record"),
        (json.dumps({"game": "wordup"}), "not of a Line-Up match"),
        (json.dumps(BASE), "has no &#x27;log&#x27;"),
        (json.dumps({**BASE, "log": {}}), "must be a JSON list"),
        (json.dumps({**BASE, "log": [{}] * 5001}), "more than"),
    ],
)
def test_what_is_not_a_record_is_refused_with_a_reason(content, message):
    response = post_record(content)
    assert response.status_code == 200
    text = response.content.decode()
    assert message in text and "Verified" not in text


def test_a_record_with_bad_settings_is_not_verified_and_does_not_crash(honest):
    record = {**honest, "config": {**honest["config"], "players": [{"id": "solo"}]}}
    text = post_record(record).content.decode()
    assert "Not verified." in text and "settings are not valid" in text


# --------------------------------------------------------------------------------------------------
# A match played here
# --------------------------------------------------------------------------------------------------


@pytest.fixture
def table(class_7b, ms_rivera, ava, ben):
    session = services.session_schedule(
        classroom=class_7b, by=ms_rivera, game="faces", scheduled_for=timezone.now() + timedelta(minutes=1)
    )
    services.session_open_lobby(session=session, by=ms_rivera)
    services.session_join(session=session, student=ava)
    services.session_join(session=session, student=ben)
    services.session_start(session=session, by=ms_rivera, now=T0)
    return GameTable.objects.get(session=session)


def play_to_the_end(table):
    engine, rng = Faces(), Rng("pages-test")
    for step in range(500):
        table.refresh_from_db()
        if table.status != GameTable.Status.PLAYING:
            return table
        player = engine.current_players(table.state)[0]
        action = engine.bot_action(table.state, player, rng)
        services.action_submit(table_id=table.pk, player=player, action=action, key=f"k{step}", now=T0 + step)
    raise AssertionError("the match did not end")


def signed_in(student):
    from classrooms.middleware import STUDENT_SESSION_KEY

    client = Client()
    session = client.session
    session[STUDENT_SESSION_KEY] = student.pk
    session.save()
    return client


def test_a_finished_match_is_verified_for_its_players_and_teacher(table, ava, ms_rivera):
    play_to_the_end(table)
    teacher = Client()
    teacher.force_login(ms_rivera)
    for client in (signed_in(ava), teacher):
        response = client.get(f"{URL}{table.pk}/")
        text = response.content.decode()
        assert response.status_code == 200
        assert "Verified: this match was fair." in text
        assert "Ava" in text and table.seed in text
        assert f"/games/faces/verify/{table.pk}/record.json" in text


def test_the_downloaded_record_verifies_with_the_engine_alone(table, ben):
    play_to_the_end(table)
    response = signed_in(ben).get(f"{URL}{table.pk}/record.json")
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    record = json.loads(response.content)
    assert record["format"] == "classplay/faces-match/1" and record["seed"] == table.seed
    report = verify(record["config"], record["seed"], record["salt"], record["commitment"], record["log"])
    assert report["ok"] and report["winner"] == table.state["result"]["winner"]
    assert sum(1 for entry in record["log"] if entry.get("events")) >= 2


def test_nobody_sees_the_seed_while_the_match_is_on(table, ava):
    response = signed_in(ava).get(f"{URL}{table.pk}/")
    assert response.status_code == 403
    assert table.seed not in response.content.decode()
    assert signed_in(ava).get(f"{URL}{table.pk}/record.json").status_code == 403


def test_strangers_cannot_open_someone_elses_match(table, cleo, mr_okafor):
    play_to_the_end(table)
    okafor = Client()
    okafor.force_login(mr_okafor)
    for client in (Client(), signed_in(cleo), okafor):
        assert client.get(f"{URL}{table.pk}/").status_code == 404
        assert client.get(f"{URL}{table.pk}/record.json").status_code == 404


def test_a_resigned_match_shows_the_unfinished_round_faces_too(table, ms_rivera):
    engine, rng = Faces(), Rng("resign")
    player = engine.current_players(table.state)[0]
    action = engine.bot_action(table.state, player, rng)
    services.action_submit(table_id=table.pk, player=player, action=action, key="a", now=T0 + 1)
    services.action_submit(table_id=table.pk, player=player, action={"type": "resign"}, key="b", now=T0 + 2)
    teacher = Client()
    teacher.force_login(ms_rivera)
    text = teacher.get(f"{URL}{table.pk}/").content.decode()
    assert "Verified: this match was fair." in text
    assert "Round 1 (not finished)" in text and text.count('<div class="fc-art"><svg') == 2


def test_a_match_the_teacher_ended_early_is_checked_as_far_as_it_went(table, ms_rivera, ava):
    engine, rng = Faces(), Rng("early")
    player = engine.current_players(table.state)[0]
    action = engine.bot_action(table.state, player, rng)
    services.action_submit(table_id=table.pk, player=player, action=action, key="one", now=T0 + 1)
    services.table_end(table=table, by=ms_rivera)
    text = signed_in(ava).get(f"{URL}{table.pk}/").content.decode()
    assert "The teacher ended this match before it was over." in text
    assert "Not verified" not in text


# --------------------------------------------------------------------------------------------------
# How to play, teacher guide, one-screen rules
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("/games/faces/how-to-play/", ["How to play Line-Up", "first to two rounds", "Gamble when you are"]),
        ("/games/faces/guide/", ["teacher guide", "Seconds per turn", "Computer opponent", "reasoning"]),
        ("/games/faces/rules/", ["find the other player", "First to two rounds wins."]),
    ],
)
def test_the_guides_render_with_their_rules(url, words):
    response = Client().get(url)
    assert response.status_code == 200
    text = response.content.decode()
    for word in words:
        assert word in text
    assert "faces.css" in text


def test_the_teacher_guide_quotes_the_settings_a_teacher_can_choose():
    from games.definitions import definition

    text = Client().get("/games/faces/guide/").content.decode()
    turn, bot = definition("faces").spec.settings["turn_seconds"], definition("faces").spec.settings["bot"]
    assert f"<td>{turn.default}</td>" in text
    assert f"({turn.minimum}–{turn.maximum} seconds)" in text
    default_bot = dict(bot.choices)[bot.default]
    assert f"<td>{default_bot}</td>" in text
    board = definition("faces").spec.settings["board"]
    assert f"<td>{dict(board.choices)[board.default]}</td>" in text and "Friendly monsters" in text


def test_the_example_faces_on_the_how_to_play_page_are_the_game_own_drawings(rf):
    """The pictures are the art module's faces from the board of seed "how-to-play", with the same words."""
    import pathlib
    import re

    from games.engine.faces.art import face_svg
    from games.engine.faces.features import generate_board

    root = pathlib.Path(__file__).resolve().parents[2]
    page = (root / "templates" / "games" / "faces" / "how_to_play.html").read_text(encoding="utf-8")
    board = {face["id"]: face for face in generate_board(Rng("how-to-play"))}
    shown = re.findall(r"example-([A-Z])\.svg' %}\" alt=\"\{% translate '([^']+)' %}\"", page)
    assert len(shown) == 8
    for letter, alt in shown:
        face = board[letter]
        image = root / "static" / "img" / "games" / "faces" / f"example-{letter}.svg"
        assert image.read_text(encoding="utf-8").strip() == face_svg(face)
        assert alt.removesuffix(" (ruled out)") == face["description"]


def test_how_to_play_lists_both_pads_in_pad_order():
    from games.engine.faces.features import PEOPLE
    from games.engine.faces.monsters import MONSTERS

    text = Client().get("/games/faces/how-to-play/").content.decode()
    lists = re.findall(r'<ul class="fc-pad-list[^"]*">(.*?)</ul>', text, re.S)
    shown = [re.findall(r"<li>(.*?)</li>", items) for items in lists]
    escaped = [[html.escape(f.question) for f in pad.features] for pad in (PEOPLE, MONSTERS)]
    assert shown == escaped
