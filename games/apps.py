from django.apps import AppConfig
from django.db.models.signals import post_migrate


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from . import bank_names, fields, receivers  # noqa: F401 - receivers pseudonymise a deleted student's tables

        # ``flush`` (between tests) empties the tables and then sends post_migrate.
        post_migrate.connect(fields.forget_stored_parts, dispatch_uid="games.forget_stored_parts")
        bank_names.name_bank_choices()
