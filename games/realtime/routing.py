"""Websocket routes: the game consumer (games.realtime.consumers) and the student's class watch
(games.realtime.student)."""

from importlib import import_module
from types import SimpleNamespace

from channels.security.websocket import OriginValidator
from channels.sessions import CookieMiddleware
from django.conf import settings
from django.contrib import auth
from django.urls import path
from django.utils.functional import SimpleLazyObject

from .consumers import GameConsumer
from .student import ClassGamesConsumer

websocket_urlpatterns = [
    path("ws/sessions/<int:session_id>/", GameConsumer.as_asgi()),
    path("ws/me/", ClassGamesConsumer.as_asgi()),
]


def allowed_origins() -> list[str]:
    """Origins a browser may open the websocket from: the site's own hosts plus any configured."""
    return [*settings.ALLOWED_HOSTS, *settings.WEBSOCKET_ALLOWED_ORIGINS]


class LazySessionMiddleware:
    """The device's Django session and user, read from the database only if something reads them.

    Channels' SessionMiddleware and AuthMiddleware read both on every connection (two trips to the
    database thread before the consumer runs). A student's game socket needs neither: it looks its
    device up by the session's key (``scope["session_key"]``) in ``classrooms.device_cache``. Staff
    screens read ``scope["user"]``, on the database thread, which loads both then. Nothing here
    saves the session: a socket only reads it (Channels' wrapper also checked whether to save it on
    every one of a big session's sends)."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        key = scope["cookies"].get(settings.SESSION_COOKIE_NAME)
        session = import_module(settings.SESSION_ENGINE).SessionStore(key)  # reads nothing yet
        user = SimpleLazyObject(lambda: auth.get_user(SimpleNamespace(session=session)))
        scope = {**scope, "session": session, "session_key": key, "user": user}
        return await self.inner(scope, receive, send)


def build_websocket_application(url_router):
    stack = CookieMiddleware(LazySessionMiddleware(url_router(websocket_urlpatterns)))
    return OriginValidator(stack, allowed_origins())
