"""Speak every Word Up spelling question in advance (espeak-ng), so no student waits for audio in class."""

from django.core.management.base import BaseCommand

from games.definitions.wordup.pages import audio_pregenerate


class Command(BaseCommand):
    help = "Generate the spoken audio of every Word Up spelling question (shipped and schools' own)."

    def handle(self, *args, **options):
        counts = audio_pregenerate()
        made, cached, failed = counts["made"], counts["cached"], counts["failed"]
        self.stdout.write(f"Word Up audio: {made} made, {cached} already there, {failed} failed")
        if failed:
            self.stdout.write("Spelling questions need espeak-ng to be heard: apt-get install espeak-ng")
