"""Benchmark: the server's CPU for each part of starting a homework attempt, in one process.

    .venv/bin/python bench/homework_attempt.py --students 300

A script, not a test. Every game a student finishes costs the server their next attempt's start: the
student's home page, the Start button, then the websocket's arrival (the device's seat found and claimed,
the attempt's clocks resumed, the device's first snapshot read) and, when the device leaves, its seat
released and the clocks paused. In ``homework_load.py``'s evening (1000 students, about 4.5 games
finished a second) these were a third of the server's CPU, spread over dozens of small queries, each
mostly the ORM's building. This measures each part apart, so a change to one shows in a minute.

Set up as ``homework_load.py`` (production settings, a fresh SQLite database, a class of N students, a
Word Up homework with one computer player, every student's first attempt started), each first attempt
then ended. Then, student by student, each part in turn, as the server runs it: the pages through
Django's test client (the server's middleware and views, without HTTP), the websocket's parts through the
services and selectors its consumer calls (their broadcasts collected, not sent). The first 20 students
warm the process up and are not counted. Prints the CPU (``time.process_time``) of each part per attempt
and one JSON line; ``--profile`` writes a cProfile of one part (the home page unless
``--profile-part`` names another; its CPU figure then includes the profiler's own).
"""

from __future__ import annotations

import argparse
import cProfile
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from homework_load import populate
from live_load import measured_in_process

WARM_UP = 20
PARTS = ("home", "start", "find", "claim", "arrive", "snapshot", "release", "leave")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=300)
    parser.add_argument("--profile", help="write a cProfile of one part here")
    parser.add_argument("--profile-part", choices=PARTS, default="home")
    parser.add_argument("--json-out")
    args = parser.parse_args()
    return measured_in_process(args, "classplay-homework-attempt-", measure)


class Attempt:
    """One student's next attempt, part by part (each part a method named as in ``PARTS``)."""

    def __init__(self, client, assignment_id: int, cookie: str, number: int):
        self.client, self.assignment_id, self.cookie, self.number = client, assignment_id, cookie, number
        self.session_id = self.participant_id = 0

    def _as_this_student(self):
        from django.conf import settings

        self.client.cookies.clear()
        self.client.cookies[settings.SESSION_COOKIE_NAME] = self.cookie
        return self.client

    def home(self) -> None:
        assert self._as_this_student().get("/me/").status_code == 200

    def start(self) -> None:
        response = self._as_this_student().post(f"/homework/{self.assignment_id}/start/")
        assert response.status_code == 302 and "/play/" in response["Location"], response
        self.session_id = int(response["Location"].rstrip("/").rsplit("/", 1)[1])

    def find(self) -> None:
        from games import selectors

        (player,) = selectors.players_for_devices([(self.cookie, self.session_id)])
        self.participant_id = player.participant.pk

    def claim(self) -> None:
        from games import services

        services.seats_update([services.SeatChange(self.participant_id, self.channel, claim=True)])

    def arrive(self) -> None:
        from games import services

        assert services.attempt_device_arrived(participant_id=self.participant_id)

    def snapshot(self) -> None:
        from games import selectors

        assert selectors.players_snapshot(self.session_id, [self.participant_id]) is not None

    def release(self) -> None:
        from games import services

        services.seats_update([services.SeatChange(self.participant_id, self.channel, claim=False)])

    def leave(self) -> None:
        from games import services

        assert services.attempt_device_left(participant_id=self.participant_id)

    @property
    def channel(self) -> str:
        return f"bench.attempt!{self.number}"


def first_attempts_ended() -> None:
    from games import services
    from games.models import GameSession, GameTable

    for table in GameTable.objects.filter(status=GameTable.Status.PLAYING).select_related("session"):
        services.table_end(table=table, by=None)
    for session_id in GameSession.objects.values_list("pk", flat=True):
        services.session_finish_if_done(session_id=session_id)


def measure(args) -> dict:
    from django.test import Client

    from games import broadcast
    from games.models import Assignment

    _assignment_id, seats = populate(args.students)
    with broadcast.collected():
        first_attempts_ended()
    assignment_id = Assignment.objects.get().pk
    # One client for all (the server loads its middleware once; a test client loads it on its first request).
    client = Client(HTTP_HOST="127.0.0.1")
    attempts = [Attempt(client, assignment_id, seat.cookie, number) for number, seat in enumerate(seats)]
    cpu: dict[str, float] = defaultdict(float)
    profiler = cProfile.Profile() if args.profile else None
    for counted, attempt in enumerate(attempts, start=-WARM_UP):
        for part in PARTS:
            profiling = profiler is not None and counted >= 0 and part == args.profile_part
            with broadcast.collected():
                if profiling:
                    profiler.enable()
                started = time.process_time()
                getattr(attempt, part)()
                spent = time.process_time() - started
                if profiling:
                    profiler.disable()
            if counted >= 0:
                cpu[part] += spent
    if profiler is not None:
        profiler.dump_stats(args.profile)
    measured = max(1, len(attempts) - WARM_UP)
    result: dict = {"benchmark": "homework_attempt", "students": args.students, "attempts": measured}
    for part in PARTS:
        result[f"{part}_ms"] = round(cpu[part] * 1000 / measured, 2)
    result["total_ms"] = round(sum(cpu.values()) * 1000 / measured, 1)
    return result


if __name__ == "__main__":
    sys.exit(main())
