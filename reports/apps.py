from django.apps import AppConfig


class ReportsConfig(AppConfig):
    name = "reports"

    def ready(self) -> None:
        from . import receivers  # noqa: F401 - connects the receivers to the live runtime's signals
