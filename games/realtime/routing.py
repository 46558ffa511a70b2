"""Websocket routes: the game consumer (games.realtime.consumers) and the student's class watch
(games.realtime.student)."""

from channels.auth import AuthMiddleware
from channels.security.websocket import OriginValidator
from channels.sessions import CookieMiddleware, InstanceSessionWrapper
from django.conf import settings
from django.urls import path

from .consumers import GameConsumer
from .student import ClassGamesConsumer

websocket_urlpatterns = [
    path("ws/sessions/<int:session_id>/", GameConsumer.as_asgi()),
    path("ws/me/", ClassGamesConsumer.as_asgi()),
]


def allowed_origins() -> list[str]:
    """Origins a browser may open the websocket from: the site's own hosts plus any configured."""
    return [*settings.ALLOWED_HOSTS, *settings.WEBSOCKET_ALLOWED_ORIGINS]


class ReadOnlySessionMiddleware:
    """Channels' SessionMiddleware without its wrapper around every send. A game socket reads the
    session (who is signed in, which student this device is) and never changes it, while that wrapper
    checked whether to save the session on each of the 2000 sends of a big session's every update."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)


def build_websocket_application(url_router):
    stack = CookieMiddleware(ReadOnlySessionMiddleware(AuthMiddleware(url_router(websocket_urlpatterns))))
    return OriginValidator(stack, allowed_origins())
