"""Session pages: scheduling, the teacher console, the projector, the student's device, results, replay.

Each game may add pages of its own in ``games/extra/<game>.py`` (mounted at ``/games/<game>/``)."""

from django.urls import include, path

app_name = "games"

GAME_NAMES = ("lineup", "wordup", "faces", "lineit", "mindlines")

urlpatterns: list = [path(f"games/{name}/", include(f"games.extra.{name}")) for name in GAME_NAMES]
