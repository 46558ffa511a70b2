from django.core.management.base import BaseCommand

from integrations.keys import RETIRED_KEY_PUBLISHED, rotate_key


class Command(BaseCommand):
    help = (
        "Make a new signing key for LTI (the old one stays in the published key set for a week, "
        "so LMS platforms that cached it keep working)."
    )

    def handle(self, *args, **options):
        key = rotate_key()
        days = RETIRED_KEY_PUBLISHED.days
        self.stdout.write(f"New LTI signing key {key.kid}; retired keys stay published for {days} days.")
