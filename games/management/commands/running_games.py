"""``manage.py running_games``: the games open or under way now; exits 1 if there are any.

Before an upgrade that migrates the database, wait until this says none (or end them from the consoles):
``manage.py running_games && systemctl stop classplay.target && ...``."""

from django.core.management.base import BaseCommand

from games.models import GameSession


class Command(BaseCommand):
    help = "List the games open or under way now; exit 1 if there are any (for upgrade scripts)."

    def handle(self, *args, **options):
        live = GameSession.objects.filter(
            status__in=[GameSession.Status.LOBBY, GameSession.Status.RUNNING, GameSession.Status.PAUSED]
        ).select_related("classroom__school")
        sessions = list(live.order_by("classroom__school__name", "scheduled_for"))
        if not sessions:
            self.stdout.write("No game is open or under way.")
            return
        for session in sessions:
            self.stdout.write(f"{session.classroom.school.name}: {session} ({session.get_status_display()})")
        self.stderr.write(f"{len(sessions)} game(s) open or under way.")
        raise SystemExit(1)
