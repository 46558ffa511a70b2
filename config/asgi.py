"""ASGI entry point: Django for HTTP, Channels for the game websocket."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs Django set up first)
from django.conf import settings  # noqa: E402

from games.realtime.routing import build_websocket_application  # noqa: E402

router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": build_websocket_application(URLRouter),
    }
)


async def application(scope, receive, send):
    """The router, plus ASGI lifespan: in embedded mode the game clock runs inside this process."""
    if scope["type"] != "lifespan":
        return await router(scope, receive, send)
    stop = None
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            if settings.CLASSPLAY_CLOCK_IN_PROCESS:
                from games.clock import start_in_thread

                stop = start_in_thread()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            if stop is not None:
                stop.set()
            await send({"type": "lifespan.shutdown.complete"})
            return
