import signal
import threading

from django.core.management.base import BaseCommand

from games import clock


class Command(BaseCommand):
    help = "Run the game clock: fire due deadlines, open due lobbies. One is enough; more are safe."

    def handle(self, *args, **options):
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        self.stdout.write("Clock running. Ctrl-C stops it.")
        clock.run(stop)
