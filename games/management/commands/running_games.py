"""``manage.py running_games``: the games an upgrade must wait for; exits 1 while there are any.

A lobby that is open, or a game whose clocks run (live, or a homework attempt a student is playing right
now), is waited for: a stopped site does not stop a clock, so moves due meanwhile would time out when it
starts again. Paused games are listed but not waited for: their clocks are stopped and their state is in
the database, so they carry on where they were (a homework attempt pauses whenever its student leaves,
and may wait for days). docs/deploy.md, "Upgrade", uses it:
``manage.py running_games && systemctl stop classplay.target && ...``."""

from django.core.management.base import BaseCommand

from games.models import GameSession
from games.selectors import sessions_under_way


def describe(session: GameSession) -> str:
    kind = "homework" if session.is_homework else "live"
    return f"{session.classroom.school.name}: {session} ({kind}, {session.get_status_display()})"


class Command(BaseCommand):
    help = "List the games an upgrade must wait for; exit 1 while there are any (for upgrade scripts)."

    def handle(self, *args, **options):
        under_way = sessions_under_way()
        for session in under_way.blocking:
            self.stdout.write(describe(session))
        if under_way.paused:
            self.stdout.write(
                f"{len(under_way.paused)} paused game(s) (clocks stopped) carry on after the upgrade; "
                "not waited for."
            )
        if under_way.blocking:
            self.stderr.write(f"{len(under_way.blocking)} game(s) open or under way: wait, or end them.")
            raise SystemExit(1)
        self.stdout.write("No game is open or under way.")
