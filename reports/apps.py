from django.apps import AppConfig

from games.results_panels import ResultsPanel, register


class ReportsConfig(AppConfig):
    name = "reports"

    def ready(self) -> None:
        from . import (
            receivers,  # noqa: F401 - connects the receivers to the live runtime's signals
            selectors,
        )

        # A session's results page shows who needs help and how the answers spread over each
        # multiple-choice question's options (the games app never imports the reports).
        register(ResultsPanel("reports/_session_help.html", selectors.session_help))
        register(ResultsPanel("reports/_session_options.html", selectors.session_options))
