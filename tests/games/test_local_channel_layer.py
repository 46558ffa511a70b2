"""The embedded server's channel layer: what Channels' in-memory layer does, without walking every group
of every homework attempt on each message."""

import pytest

from config import channel_layers as layers


@pytest.mark.asyncio
async def test_a_group_message_reaches_every_channel_of_the_group_and_no_other():
    layer = layers.InMemoryLayer()
    await layer.group_add("classplay.session.1", "specific.a")
    await layer.group_add("classplay.session.1", "specific.b")
    await layer.group_add("classplay.session.2", "specific.c")
    await layer.group_send("classplay.session.1", {"type": "table.changed", "table": 3})
    assert await layer.receive("specific.a") == {"type": "table.changed", "table": 3}
    assert await layer.receive("specific.b") == {"type": "table.changed", "table": 3}
    assert "specific.c" not in layer.channels


@pytest.mark.asyncio
async def test_a_full_channel_misses_the_message_and_the_others_still_get_it():
    layer = layers.InMemoryLayer(capacity=1)
    await layer.group_add("g", "specific.full")
    await layer.group_add("g", "specific.free")
    await layer.send("specific.full", {"type": "first"})
    await layer.group_send("g", {"type": "second"})
    assert await layer.receive("specific.full") == {"type": "first"}
    assert await layer.receive("specific.free") == {"type": "second"}


@pytest.mark.asyncio
async def test_expired_entries_are_looked_for_at_most_once_a_second(monkeypatch):
    layer, walks = layers.InMemoryLayer(), []
    monkeypatch.setattr(layers.InMemoryChannelLayer, "_clean_expired", lambda self: walks.append(1))
    now = [1000.0]
    monkeypatch.setattr(layers.time, "monotonic", lambda: now[0])
    for _n in range(50):
        await layer.group_send("g", {"type": "x"})
    assert len(walks) == 1
    now[0] += layers.CLEAN_EVERY
    await layer.group_send("g", {"type": "x"})
    assert len(walks) == 2


@pytest.mark.asyncio
async def test_news_a_channel_already_has_goes_to_the_rest_of_its_group_only():
    """A server process's hub was handed its own trip's tables: their news is for the other channels."""
    layer = layers.InMemoryLayer()
    for channel in ("specific.here", "specific.other"):
        await layer.group_add("classplay.session.1", channel)
    await layer.group_add("classplay.session.2", "specific.here")
    await layer.group_send_many(
        [
            ("classplay.session.1", {"type": "table.changed", "table": 3}, "specific.here"),
            ("classplay.session.2", {"type": "table.changed", "table": 4}, "specific.here"),
        ]
    )
    assert await layer.receive("specific.other") == {"type": "table.changed", "table": 3}
    assert layer.channels.get("specific.here") is None or layer.channels["specific.here"].empty()
