"""``manage.py simulate`` and the content module: engine only, no database (no ``db`` fixture here, so any
database access would fail these tests)."""

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games import content, shipped
from games.definitions import get_engine
from games.definitions.base import BOT_ACCURACY
from games.engine import core

GAMES = ("lineup", "wordup", "faces", "lineit", "mindlines")


def simulate(game, **options):
    out = StringIO()
    call_command("simulate", game, stdout=out, **options)
    text = out.getvalue()
    assert text.count("\n") == 1 and text.endswith("\n"), "one line of JSON"
    return text, json.loads(text)


# --------------------------------------------------------------------------------------------------
# The command
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_to_an_outcome_and_repeats_exactly(game):
    line, summary = simulate(game, seed=3, players=2)
    again, _ = simulate(game, seed=3, players=2)
    assert again == line
    assert summary["game"] == game
    assert summary["seed"] == 3
    assert summary["players"] == 2
    assert summary["actions"] > 0
    assert len(summary["state_hash"]) == 64
    outcome = summary["outcome"]
    assert outcome is not None
    assert set(outcome["winners"]) <= {"p1", "p2"}
    assert set(outcome["scores"]) == {"p1", "p2"}


@pytest.mark.parametrize("game", GAMES)
def test_a_different_seed_gives_a_different_final_state(game):
    _, first = simulate(game, seed=1, players=2)
    _, second = simulate(game, seed=2, players=2)
    assert first["state_hash"] != second["state_hash"]


def test_the_same_line_in_other_processes_whatever_their_hash_seed():
    """Set iteration order changes with PYTHONHASHSEED: a line must not depend on it."""
    script = (
        "import django, io; django.setup(); from django.core.management import call_command\n"
        f"for game in {GAMES!r}:\n"
        "    out = io.StringIO()\n"
        "    call_command('simulate', game, seed=6, players=2, stdout=out)\n"
        "    print(out.getvalue(), end='')"
    )
    root = Path(__file__).resolve().parents[2]
    outputs = set()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "DJANGO_SETTINGS_MODULE": "config.settings"}
        result = subprocess.run(
            [sys.executable, "-c", script], cwd=root, env=env, capture_output=True, text=True, timeout=120
        )
        assert result.returncode == 0, result.stderr
        outputs.add(result.stdout)
    expected = "".join(simulate(game, seed=6, players=2)[0] for game in GAMES)
    assert outputs == {expected}


def test_the_hash_is_the_engines_state_hash_of_a_replay_of_the_same_game():
    """The seed string depends on N alone: rebuilding the game by hand gives the printed hash."""
    from games.management.commands.simulate import build, seed_string

    _, summary = simulate("lineit", seed=5, players=3, level=2)
    engine, config, seed = build("lineit", seed=5, players=3, level=2)
    assert seed == seed_string(5) == "simulate:5"
    _state, log, _events = core.play_with_bots(engine, config, seed, max_steps=200_000)
    assert core.state_hash(core.replay(engine, config, seed, log)) == summary["state_hash"]
    assert summary["actions"] == sum(1 for entry in log if entry["kind"] == "action")


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("lineup", {"players": 4, "level": 2, "bot": "hard"}),
        ("wordup", {"players": 3, "level": 5, "bot": "0.3"}),
        ("faces", {"players": 2, "bot": "hard"}),
        ("lineit", {"players": 3, "level": 1, "bot": "easy"}),
        ("mindlines", {"players": 3, "level": 4, "bot": "hard"}),
    ],
)
def test_levels_bots_and_larger_tables_play_to_the_end(game, options):
    line, summary = simulate(game, seed=11, **options)
    assert simulate(game, seed=11, **options)[0] == line
    assert summary["outcome"] is not None
    assert summary["level"] == options.get("level")
    assert summary["bot"] == options["bot"]
    assert len(summary["outcome"]["scores"]) == options["players"]


def test_lineup_players_split_into_two_teams():
    _, summary = simulate("lineup", seed=4, players=5)
    winners = summary["outcome"]["winners"]
    # p1, p3, p5 are blue and p2, p4 yellow: the winners are exactly one team.
    assert winners in (["p1", "p3", "p5"], ["p2", "p4"])
    assert summary["outcome"]["winning_team"] == ("blue" if winners[0] == "p1" else "yellow")


def test_an_unknown_game_is_refused_with_the_list_of_games():
    with pytest.raises(CommandError, match=r"Unknown game 'chess'.*lineup, wordup, faces, lineit, mindlines"):
        call_command("simulate", "chess", stdout=StringIO())


@pytest.mark.parametrize(
    ("game", "players", "message"),
    [
        ("faces", 3, "faces is played by exactly 2 players, not 3"),
        ("faces", 1, "faces is played by exactly 2 players, not 1"),
        ("wordup", 7, "wordup is played by 2 to 6 players, not 7"),
        ("lineit", 6, "lineit is played by 2 to 5 players, not 6"),
        ("mindlines", 9, "mindlines is played by 2 to 8 players, not 9"),
        ("lineup", 1, "lineup is played by 2 to 60 players, not 1"),
        ("lineup", 0, "lineup is played by 2 to 60 players, not 0"),
    ],
)
def test_player_counts_outside_the_engines_limits_name_the_allowed_range(game, players, message):
    with pytest.raises(CommandError, match=message):
        call_command("simulate", game, players=players, stdout=StringIO())


@pytest.mark.parametrize(
    ("game", "options", "message"),
    [
        ("lineit", {"level": 9}, "level must be one of 1, 2, 3, 4, 5"),
        ("faces", {"level": 2}, "no levels"),
        ("lineup", {"bot": "genius"}, "bot strength must be one of easy, medium, hard"),
        ("lineit", {"bot": "0.5"}, "bot strength must be one of easy, medium, hard"),
        ("wordup", {"bot": "1.5"}, "or an accuracy from 0 to 1"),
    ],
)
def test_bad_levels_and_bot_strengths_are_refused_clearly(game, options, message):
    with pytest.raises(CommandError, match=message):
        call_command("simulate", game, players=2, stdout=StringIO(), **options)


# --------------------------------------------------------------------------------------------------
# The content module
# --------------------------------------------------------------------------------------------------


def test_lineup_config_holds_every_question_shuffled_by_the_seed():
    players = content.bot_players("lineup", 3)
    config = content.default_config("lineup", players=players, seed_rng=core.Rng("a"))
    same = content.default_config("lineup", players=players, seed_rng=core.Rng("a"))
    other = content.default_config("lineup", players=players, seed_rng=core.Rng("b"))
    bank = shipped.lineup_questions()
    assert len(bank) >= 100
    assert config == same
    assert [q["id"] for q in config["questions"]] != [q["id"] for q in other["questions"]]
    assert sorted(q["id"] for q in config["questions"]) == sorted(q["id"] for q in bank)
    assert [p["team"] for p in config["players"]] == ["blue", "yellow", "blue"]
    assert [p["bot"] for p in config["players"]] == ["medium"] * 3
    get_engine("lineup").setup(config, "seed")  # the engine accepts it


def test_lineup_level_keeps_only_that_levels_questions_and_given_teams_are_kept():
    players = [{"id": "a", "name": "A", "team": "yellow"}, {"id": "b", "name": "B", "team": "blue"}]
    config = content.default_config("lineup", players=players, seed_rng=core.Rng("x"), level=3)
    assert config["questions"] and {q["level"] for q in config["questions"]} == {3}
    assert [p["team"] for p in config["players"]] == ["yellow", "blue"]
    assert players[0] == {"id": "a", "name": "A", "team": "yellow"}, "the caller's dicts are not changed"


def test_wordup_bank_is_by_level_and_category_in_bank_order():
    bank = shipped.wordup_questions()
    assert list(bank) == ["1", "2", "3", "4", "5"]
    for level, categories in bank.items():
        assert list(categories) == list(shipped.WORDUP_CATEGORIES)
        for category, questions in categories.items():
            assert questions and all(q["category"] == category for q in questions)
            assert all(q["level"] == int(level) for q in questions)
    level1 = json.loads((shipped.DATA_DIR / "wordup" / "level1.json").read_text())
    assert [q["id"] for q in bank["1"]["spelling"]] == [
        q["id"] for q in level1 if q["category"] == "spelling"
    ]


def test_wordup_level_sets_every_players_level_and_accuracy_bots():
    players = content.bot_players("wordup", 2, "hard")
    config = content.default_config("wordup", players=players, seed_rng=core.Rng("x"), level=4)
    assert [p["level"] for p in config["players"]] == [4, 4]
    assert [p["bot"] for p in config["players"]] == [BOT_ACCURACY["hard"]] * 2
    own = content.default_config(
        "wordup", players=[{"id": "a", "level": 2}, {"id": "b"}], seed_rng=core.Rng("x")
    )
    assert [p.get("level") for p in own["players"]] == [2, None]


@pytest.mark.parametrize(
    ("level", "difficulty"), [(None, "easy"), (1, "easy"), (3, "easy"), (4, "hard"), (5, "hard")]
)
def test_mindlines_deck_follows_the_difficulty(level, difficulty):
    config = content.default_config(
        "mindlines", players=content.bot_players("mindlines", 4), seed_rng=core.Rng("x"), level=level
    )
    assert config["difficulty"] == difficulty
    assert config["concepts"] and {c["difficulty"] for c in config["concepts"]} == {difficulty}


def test_mindlines_difficulty_setting_wins_over_the_level():
    config = content.default_config(
        "mindlines",
        players=content.bot_players("mindlines", 2),
        seed_rng=core.Rng("x"),
        level=1,
        difficulty="hard",
    )
    assert config["difficulty"] == "hard"


def test_lineit_and_faces_configs():
    lineit = content.default_config(
        "lineit", players=content.bot_players("lineit", 2), seed_rng=core.Rng("x"), level=2
    )
    assert lineit["level"] == 2
    faces = content.default_config(
        "faces", players=content.bot_players("faces", 2, "hard"), seed_rng=core.Rng("x")
    )
    assert set(faces) == {"players", *get_engine("faces").default_config}
    assert [p["bot"] for p in faces["players"]] == ["hard", "hard"]


def test_settings_pass_through_and_unknown_settings_are_refused():
    players = content.bot_players("faces", 2)
    config = content.default_config(
        "faces", players=players, seed_rng=core.Rng("x"), turn_seconds=30, salt="s"
    )
    assert config["turn_seconds"] == 30 and config["salt"] == "s"
    with pytest.raises(ValueError, match="faces has no setting turn_secs"):
        content.default_config("faces", players=players, seed_rng=core.Rng("x"), turn_secs=30)


def test_own_content_replaces_the_shipped_content():
    questions = shipped.lineup_questions(level=1)[:2]
    config = content.default_config(
        "lineup", players=content.bot_players("lineup", 2), seed_rng=core.Rng("x"), content=questions
    )
    assert sorted(q["id"] for q in config["questions"]) == sorted(q["id"] for q in questions)


def test_bot_values_per_engine():
    assert content.bot_value("lineup", "easy") == "easy"
    assert content.bot_value("faces", "hard") == "hard"
    assert content.bot_value("lineit", "medium") == "medium"
    assert content.bot_value("wordup", "easy") == BOT_ACCURACY["easy"]
    assert content.bot_value("mindlines", "0.25") == 0.25
    with pytest.raises(ValueError, match="unknown game"):
        content.bot_value("chess", "easy")
