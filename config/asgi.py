"""ASGI entry point: Django for HTTP, Channels for the game websocket."""

import asyncio
import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs Django set up first)
from django.conf import settings  # noqa: E402
from django.urls import get_resolver  # noqa: E402

from config import metrics  # noqa: E402
from config.sqlite.base import start_checkpointer  # noqa: E402
from games.clock import free_seats_of_the_last_run, start_in_thread  # noqa: E402
from games.realtime import balance  # noqa: E402
from games.realtime.routing import build_websocket_application  # noqa: E402

# The URLconf, and every view module it imports, is loaded now rather than by the first request: after a
# restart, a teacher's first pause waited some 0.4 s for it while a class's devices waited for the pause.
get_resolver().url_patterns  # noqa: B018

router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": build_websocket_application(URLRouter),
    }
)


async def application(scope, receive, send):
    """The router, plus ASGI lifespan: in embedded mode the game clock and SQLite's checkpointer run
    inside this process; with Redis the connection balancer (games.realtime.balance) does."""
    if scope["type"] != "lifespan":
        return await router(scope, receive, send)
    clock = balancer = collector = checkpointer = None
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            _tune_garbage_collector()
            metrics.forget_dead_processes()  # (PROMETHEUS_MULTIPROC_DIR: a crashed process's connections)
            checkpointer = start_checkpointer()  # SQLite: the log is copied back off the writers' turns
            if settings.CLASSPLAY_GC_FULL_SECONDS > 0:
                collector = asyncio.create_task(_collect_old_garbage(settings.CLASSPLAY_GC_FULL_SECONDS))
            if not settings.REDIS_URL:  # the one process: seats still held are from before it started
                await asyncio.to_thread(free_seats_of_the_last_run)
            if settings.CLASSPLAY_CLOCK_IN_PROCESS:
                clock = start_in_thread(loop=asyncio.get_running_loop())
            balancer = balance.start()  # with several web processes: spread their devices
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            if clock is not None:
                await asyncio.to_thread(clock.stop)
            if checkpointer is not None:
                await asyncio.to_thread(checkpointer.stop)
            for task in (balancer, collector):
                if task is not None:
                    task.cancel()
                    await asyncio.gather(task, return_exceptions=True)
            metrics.forget_this_process()
            await send({"type": "lifespan.shutdown.complete"})
            return


def _tune_garbage_collector() -> None:
    """A big session's fan-out builds a view for every device at once. With CPython's default
    thresholds the collector ran every 700 allocations and paused the event loop for 10-25 ms each
    time (gen2: 100 ms), over a hundred pauses in a minute of a 2000-student benchmark. Everything
    loaded at start-up is frozen (never scanned again) and young collections run less often."""

    gc.freeze()
    gc.set_threshold(settings.CLASSPLAY_GC_THRESHOLD, 50, 100)


async def _collect_old_garbage(every: float) -> None:
    """A full collection every ``every`` seconds. With the thresholds above the collector's older
    generations seldom run (with 1000 homework games: the middle one every ten minutes or so, the
    oldest not once in the first four), and what a finished game leaves in cycles (its connection,
    consumer, tasks and queues, Django's requests) is old by then: the server's memory rose all evening
    (158 -> 287 MB in ten minutes). A collection of what was not frozen at start-up pauses the process
    ~80-150 ms there; once a minute, about one move in a thousand waits for it."""
    while True:
        await asyncio.sleep(every)
        gc.collect()
