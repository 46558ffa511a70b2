"""The web server collects its old garbage on a timer, so its memory stays flat through an evening."""

import asyncio

import config.asgi


def test_the_server_collects_all_its_garbage_every_so_often_until_it_stops(monkeypatch, settings):
    settings.REDIS_URL, settings.CLASSPLAY_CLOCK_IN_PROCESS = "", False
    settings.CLASSPLAY_GC_FULL_SECONDS = 0.01
    collections = []
    monkeypatch.setattr(config.asgi.gc, "collect", lambda *args: collections.append(args) or 0)
    monkeypatch.setattr(config.asgi.gc, "freeze", lambda: None)
    monkeypatch.setattr(config.asgi.gc, "set_threshold", lambda *thresholds: None)
    monkeypatch.setattr(config.asgi, "free_seats_of_the_last_run", lambda: 0)

    async def serve_a_while():
        said = []
        messages = iter([{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}])

        async def receive():
            if said:  # started: serve for a while before the shutdown arrives
                await asyncio.sleep(0.1)
            return next(messages)

        async def send(message):
            said.append(message["type"])

        await config.asgi.application({"type": "lifespan"}, receive, send)
        collected_while_serving = len(collections)
        await asyncio.sleep(0.05)
        return said, collected_while_serving

    said, collected_while_serving = asyncio.run(serve_a_while())
    assert said == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
    assert collected_while_serving >= 2
    assert collections == [()] * collected_while_serving  # full collections, none after the shutdown
