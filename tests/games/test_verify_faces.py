"""``manage.py verify_faces``: an honest record verifies, a tampered one does not. No database."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def run(*args, **options):
    out = StringIO()
    call_command("verify_faces", *args, stdout=out, **options)
    return out.getvalue()


@pytest.fixture(scope="module")
def record_text(tmp_path_factory):
    path = tmp_path_factory.mktemp("faces") / "match.json"
    out = StringIO()
    call_command("verify_faces", example=str(path), seed=7, stdout=out)
    assert f"Wrote a Line-Up match record to {path}" in out.getvalue()
    return path.read_text(encoding="utf-8")


@pytest.fixture
def record(record_text):
    return json.loads(record_text)


def write(tmp_path, record, name="match.json"):
    path = tmp_path / name
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


def refused(path):
    """The verdict printed and the CommandError raised (exit status 1 on the command line)."""
    out = StringIO()
    with pytest.raises(CommandError) as error:
        call_command("verify_faces", path, stdout=out)
    return out.getvalue(), str(error.value)


def test_the_example_record_has_the_documented_format(record):
    assert record["format"] == "classplay/faces-match/1"
    assert record["game"] == "faces"
    assert record["seed"] == "simulate:7"
    assert len(record["salt"]) == 64
    assert len(record["commitment"]) == 64
    assert [p["id"] for p in record["config"]["players"]] == ["p1", "p2"]
    assert record["log"][0]["kind"] == "setup"
    assert all("events" in entry for entry in record["log"][1:])


def test_an_honest_record_verifies_and_replays_to_the_simulated_match(tmp_path, record):
    text = run(write(tmp_path, record))
    assert text.startswith("VERIFIED:")
    assert "agrees with the faces drawn from the seed" in text
    assert "Round 1: p1 had " in text
    summary = StringIO()
    call_command("simulate", "faces", seed=7, players=2, stdout=summary)
    assert f"Final state hash: {json.loads(summary.getvalue())['state_hash']}" in text


def test_the_example_is_the_same_file_for_the_same_seed(tmp_path, record_text):
    path = tmp_path / "again.json"
    call_command("verify_faces", example=str(path), seed=7, stdout=StringIO())
    assert path.read_text(encoding="utf-8") == record_text


def test_a_changed_answer_is_found_with_its_log_entry(tmp_path, record):
    number, event = next(
        (number, event)
        for number, entry in enumerate(record["log"])
        for event in entry.get("events", [])
        if event["type"] == "asked" and number >= 3
    )
    event["answer"] = not event["answer"]
    text, error = refused(write(tmp_path, record))
    assert text.startswith(f"NOT VERIFIED: Log entry {number}: the log says asked answer = {event['answer']}")
    assert f"Log entry {number}" in error


def test_a_changed_seed_breaks_the_commitment(tmp_path, record):
    record["seed"] = "simulate:8"
    text, error = refused(write(tmp_path, record))
    assert text.startswith("NOT VERIFIED: The commitment shown at the start is not SHA-256(salt:seed)")
    assert "commitment" in error


def test_a_changed_seed_with_a_matching_commitment_still_fails_on_the_answers(tmp_path, record):
    """Someone who swaps the seed and recomputes the commitment: the recorded answers give them away."""
    from games.engine.faces import commitment_of

    record["seed"] = "simulate:8"
    record["config"]["salt"] = record["salt"]  # keep the salt, so only the faces change
    record["commitment"] = commitment_of(record["seed"], record["salt"])
    text, _error = refused(write(tmp_path, record))
    assert text.startswith("NOT VERIFIED: Log entry ")


def test_a_changed_round_result_is_found(tmp_path, record):
    entry = next(
        entry for entry in record["log"] if any(e["type"] == "round_over" for e in entry.get("events", []))
    )
    event = next(e for e in entry["events"] if e["type"] == "round_over")
    event["winner"] = "p2" if event["winner"] == "p1" else "p1"
    text, _error = refused(write(tmp_path, record))
    assert "round_over winner" in text


def test_a_log_that_stops_before_the_end_does_not_verify(tmp_path, record):
    record["log"] = record["log"][:6]
    text, _error = refused(write(tmp_path, record))
    assert "ends before the match is over" in text


def test_without_recorded_events_the_answers_are_recomputed_for_comparison(tmp_path, record):
    for entry in record["log"]:
        entry.pop("events", None)
    text = run(write(tmp_path, record))
    assert text.startswith("VERIFIED:")
    assert "The log records no events" in text
    assert "  round 1: p" in text and "asked 'Does your person" in text


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "is not JSON"),
        ("[]", "does not hold a match record"),
        (json.dumps({"config": {}, "seed": "s", "salt": "x", "commitment": "c"}), "has no 'log'"),
        (json.dumps({"config": {}, "seed": "s", "salt": "x", "commitment": "c", "log": {}}), "'log' must be"),
        (json.dumps({"game": "wordup"}), "not of a Line-Up"),
    ],
)
def test_a_file_that_is_not_a_match_record_is_refused_clearly(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CommandError, match=message):
        run(str(path))


def test_file_or_example_is_required_and_a_missing_file_is_explained(tmp_path):
    with pytest.raises(CommandError, match="Give the match record"):
        run()
    with pytest.raises(CommandError, match="not both"):
        run("x.json", example=str(tmp_path / "out.json"))
    with pytest.raises(CommandError, match="Cannot read"):
        run(str(tmp_path / "missing.json"))


def test_an_example_on_the_monster_board_verifies(tmp_path):
    path = tmp_path / "monsters.json"
    call_command("verify_faces", example=str(path), seed=3, board="monsters", stdout=StringIO())
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["config"]["board"] == "monsters"
    text = run(str(path))
    assert text.startswith("VERIFIED:") and "agrees with the faces drawn from the seed" in text
    record["config"].pop("board")  # the same log is not a people match
    assert refused(write(tmp_path, record, "as-people.json"))[0].startswith("NOT VERIFIED:")
