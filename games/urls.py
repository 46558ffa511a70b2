"""Session pages: scheduling, the teacher console, the projector, the student's device, results, replay.

A game may add pages of its own (its definition names the module; they are mounted at ``/games/<game>/``)."""

from django.urls import include, path

from . import homework_views, views
from .definitions import DEFINITIONS

app_name = "games"

GAME_PAGES = {"how-to-play": "how_to_play", "guide": "guide", "rules": "rules"}

urlpatterns: list = [
    path("sessions/new/", views.session_new, name="new"),
    path("sessions/<int:pk>/", views.console, name="console"),
    path("sessions/<int:pk>/edit/", views.session_edit, name="edit"),
    path("sessions/<int:pk>/cancel/", views.session_cancel, name="cancel"),
    path("sessions/<int:pk>/duplicate/", views.session_duplicate, name="duplicate"),
    path("sessions/<int:pk>/control/<slug:kind>/", views.session_control, name="control"),
    path(
        "sessions/<int:pk>/participants/<int:participant_pk>/<slug:kind>/",
        views.participant_control,
        name="participant_control",
    ),
    path("sessions/<int:pk>/tables/<int:table_pk>/<slug:kind>/", views.table_control, name="table_control"),
    path("sessions/<int:pk>/projector/", views.projector, name="projector"),
    path("sessions/<int:pk>/results/", views.results, name="results"),
    path("sessions/<int:pk>/replay/<int:number>/", views.replay, name="replay"),
    path("sessions/<int:pk>/replay/<int:number>/<int:step>.json", views.replay_step, name="replay_step"),
    path("homework/new/", homework_views.assignment_new, name="homework_new"),
    path("homework/<int:pk>/", homework_views.assignment_detail, name="homework"),
    path("homework/<int:pk>/edit/", homework_views.assignment_edit, name="homework_edit"),
    path("homework/<int:pk>/close/", homework_views.assignment_close, name="homework_close"),
    path("homework/<int:pk>/extend/", homework_views.assignment_extend, name="homework_extend"),
    path("homework/<int:pk>/reminders/", homework_views.assignment_reminders, name="homework_reminders"),
    path("homework/<int:pk>/start/", homework_views.attempt_start, name="homework_start"),
    path("play/<int:pk>/", views.play, name="play"),
    path("play/<int:pk>/join/", views.play_join, name="play_join"),
    path("play/<int:pk>/speak/", views.play_speak, name="speak"),
    path("me/games.json", views.open_sessions, name="open_sessions"),
    *(
        path(f"games/<slug:game>/{slug}/", views.game_page, {"page": page}, name=f"game_{page}")
        for slug, page in GAME_PAGES.items()
    ),
    *(path(f"games/{game.name}/", include(game.pages)) for game in DEFINITIONS.values() if game.pages),
]
