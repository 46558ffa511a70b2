from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClassroomsConfig(AppConfig):
    name = "classrooms"
    verbose_name = _("Schools and classes")

    def ready(self):
        from . import device_cache, signals  # noqa: F401 - connects the receivers
