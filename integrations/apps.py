from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class IntegrationsConfig(AppConfig):
    name = "integrations"
    verbose_name = _("LMS integrations (LTI 1.3)")

    def ready(self) -> None:
        from . import receivers  # noqa: F401  (connects the grade passback to the end of a game)
