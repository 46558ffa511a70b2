"""``manage.py verify_faces FILE``: check a finished Line-Up (faces) match from its published seed."""

from __future__ import annotations

import json
from argparse import RawDescriptionHelpFormatter
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser, DjangoHelpFormatter

from games.engine import core
from games.engine.faces import Faces, verify
from games.engine.faces.features import ANY_FEATURE_BY_KEY, DEFAULT_BOARD, PADS
from games.engine.faces.verify import RECORD_FIELDS, RECORD_FORMAT, record_problems

from .simulate import build, play

HELP = """Check a finished Line-Up (faces) match: that the commitment shown at the start is SHA-256 of
"salt:seed", that every move in the log is one the rules allow, and that every answer, naming, round result
and the winner recorded in the log is what the faces drawn from the seed give. Prints the verdict; exits
with status 1 when the record does not verify (the first problem names its log entry, counted from 0).

FILE is a JSON object (UTF-8):
  "format"      "classplay/faces-match/1" (optional)
  "config"      the engine config the match was set up with: "players" (two {"id", "name", "bot"}),
                the settings (turn_seconds, timeout, review_seconds, rounds_to_win, board: "people"
                or "monsters", people when absent) and, if the server chose one, "salt"
  "seed"        the match's seed (a string), published when the match ends
  "salt"        the salt (64 hex digits), published with the seed
  "commitment"  the SHA-256 hex shown to both players at the start
  "log"         the action log as the runtime stores it: {"kind": "setup", "at": t} first, then
                {"kind": "action", "player": p, "action": {...}, "at": t},
                {"kind": "deadline", "at": t}, {"kind": "pause" | "resume", "at": t} and
                {"kind": "extend", "seconds": s}. Each entry may carry "events": the events the server
                sent for it (asked, named, round_over and match_over are compared with the replay).
                Without events the answers are recomputed and printed, but cannot be compared.

--example OUT plays a match between two computer players from --seed N (the same match as
"manage.py simulate faces --seed N --players 2" with the same --bot; --board monsters plays it on
the monster board) and writes such a record to OUT, to try it (then change an answer or the seed in
OUT, and run verify_faces again)."""


def load_record(path: str) -> dict[str, Any]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise CommandError(f"Cannot read {path}: {error.strerror or error}.") from None
    try:
        record = json.loads(text)
    except ValueError as error:
        raise CommandError(f"{path} is not JSON: {error}.") from None
    if not isinstance(record, dict):
        raise CommandError(f"{path} does not hold a match record (a JSON object).")
    if record.get("game", "faces") != "faces":
        raise CommandError(f"{path} is a record of {record['game']!r}, not of a Line-Up (faces) match.")
    for field, kind in RECORD_FIELDS.items():
        if field not in record:
            raise CommandError(f"{path}: the match record has no {field!r}.")
        if field == "seed" and isinstance(record[field], int) and not isinstance(record[field], bool):
            record[field] = str(record[field])
        if not isinstance(record[field], kind):
            raise CommandError(f"{path}: {field!r} must be a JSON {_json_kind(kind)}.")
    for problem in record_problems(record):  # the limits the verify page applies too
        raise CommandError(f"{path}: {problem['message'] % problem['params']}")
    return record


def _json_kind(kind: type) -> str:
    return {dict: "object", str: "string", list: "list"}[kind]


def example_record(seed: int, bot: str = "medium", board: str = DEFAULT_BOARD) -> dict[str, Any]:
    """A finished bot match as a record: its log entries carry the events the engine produced for them."""
    engine, config, seed_text = build("faces", seed=seed, players=2, bot=bot)
    if board != DEFAULT_BOARD:  # a people example stays the very match "simulate faces" plays
        config["board"] = board
    state, log, _events = play(engine, config, seed_text)
    replayed = engine.setup(config, seed_text, now=log[0]["at"])
    entries = []
    for entry in log:
        replayed, events = core.apply_log_entry(engine, replayed, entry)
        entries.append({**entry, "events": events} if entry["kind"] != "setup" else entry)
    return {
        "format": RECORD_FORMAT,
        "game": "faces",
        "config": config,
        "seed": seed_text,
        "salt": state["salt"],
        "commitment": state["commitment"],
        "log": entries,
    }


class _HelpFormatter(DjangoHelpFormatter, RawDescriptionHelpFormatter):
    pass


class Command(BaseCommand):
    help = HELP
    requires_system_checks: list[str] = []

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        kwargs.setdefault("formatter_class", _HelpFormatter)  # keep the record format's line breaks
        return super().create_parser(prog_name, subcommand, **kwargs)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", help="the match record (JSON) to verify")
        parser.add_argument("--example", metavar="OUT", help="write an example record of a bot match to OUT")
        parser.add_argument("--seed", type=int, default=1, help="the example match's seed (default 1)")
        parser.add_argument(
            "--bot", default="medium", help="the example's computer players: easy, medium, hard"
        )
        parser.add_argument(
            "--board", default=DEFAULT_BOARD, choices=tuple(PADS), help="the example's board (default people)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["example"]:
            if options["file"]:
                raise CommandError("Give either a FILE to verify or --example OUT, not both.")
            self._write_example(options["example"], options["seed"], options["bot"], options["board"])
            return
        if not options["file"]:
            raise CommandError("Give the match record to verify (FILE), or --example OUT to write one.")
        self._verify(options["file"])

    def _write_example(self, out: str, seed: int, bot: str, board: str) -> None:
        record = example_record(seed, bot, board)
        try:
            Path(out).write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        except OSError as error:
            raise CommandError(f"Cannot write {out}: {error.strerror or error}.") from None
        moves = sum(1 for entry in record["log"] if entry["kind"] == "action")
        self.stdout.write(
            f"Wrote a Line-Up match record to {out}: seed {record['seed']!r}, {moves} moves.\n"
            f"Check it with: manage.py verify_faces {out}"
        )

    def _verify(self, path: str) -> None:
        record = load_record(path)
        report = verify(record["config"], record["seed"], record["salt"], record["commitment"], record["log"])
        problems = list(report["problems"])
        if not problems and report["winner"] is None:
            problems.append(
                "The log ends before the match is over, so the match cannot be checked to its end."
            )
        write = self.stdout.write
        if problems:
            write(f"NOT VERIFIED: {problems[0]}")
            for problem in problems[1:]:
                write(f"  also: {problem}")
            raise CommandError(f"{path} does not verify: {problems[0]}")
        # The record verified, so it replays; the replay gives the rounds won and the faces' names.
        engine = Faces()
        log = [{k: v for k, v in entry.items() if k != "events"} for entry in record["log"]]
        state = core.replay(engine, record["config"], record["seed"], log)
        wins = ", ".join(f"{player} {state['wins'][player]}" for player in state["players"])
        with_events = sum(1 for entry in record["log"] if "events" in entry)
        write(f"VERIFIED: the commitment {record['commitment'][:16]}... is SHA-256 of salt:seed.")
        write(
            f"All {len(log)} log entries replay by the rules; {report['winner']} wins the match "
            f"(rounds won: {wins})."
        )
        if with_events:
            write(
                f"Every answer, naming and result recorded in the log ({with_events} entries) agrees with "
                "the faces drawn from the seed."
            )
        else:
            write(
                "The log records no events: compare these recomputed answers with those given in the match."
            )
            for answer in report["answers"]:
                write(
                    f"  round {answer['round']}: {answer['player']} asked "
                    f"{ANY_FEATURE_BY_KEY[answer['question']].question!r}: "
                    f"{'yes' if answer['answer'] else 'no'}"
                )
        for round_ in report["rounds"]:
            board = {face["id"]: face["name"] for face in state["rounds"][round_["round"] - 1]["board"]}
            faces = ", ".join(f"{player} had {board[face]}" for player, face in round_["faces"].items())
            write(f"Round {round_['round']}: {faces}.")
        write(f"Final state hash: {report['final_state_hash']}")
