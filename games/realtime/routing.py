"""Websocket routes. The game consumer is mounted here (see games.realtime.consumers)."""

from channels.auth import AuthMiddlewareStack
from channels.security.websocket import OriginValidator
from django.conf import settings
from django.urls import path

from .consumers import GameConsumer

websocket_urlpatterns = [path("ws/sessions/<int:session_id>/", GameConsumer.as_asgi())]


def allowed_origins() -> list[str]:
    """Origins a browser may open the websocket from: the site's own hosts plus any configured."""
    return [*settings.ALLOWED_HOSTS, *settings.WEBSOCKET_ALLOWED_ORIGINS]


def build_websocket_application(url_router):
    return OriginValidator(AuthMiddlewareStack(url_router(websocket_urlpatterns)), allowed_origins())
