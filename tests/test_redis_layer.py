"""The Redis channel layer's receive takes every message waiting on a channel in one call to Redis
(channels_redis made four calls per message), hands them out in order, never twice, and a batch whose
call was interrupted after Redis ran it is received again, not lost."""

import asyncio
import os
import uuid
from unittest import mock

import pytest
from django.conf import settings
from redis.asyncio import Redis

from config.channel_layers import RedisLayer

pytestmark = pytest.mark.services
REQUIRED = os.environ.get("CLASSPLAY_REQUIRE_SERVICES") == "1"


@pytest.fixture
async def layer():
    if not settings.REDIS_URL:
        if REQUIRED:
            pytest.fail("the Redis layer's tests need REDIS_URL in CI")
        pytest.skip("set REDIS_URL to run the Redis layer's tests")
    layer = RedisLayer(hosts=[settings.REDIS_URL], prefix=f"test-layer-{uuid.uuid4().hex[:8]}")
    yield layer
    await layer.flush()
    await layer.close_pools()


@pytest.fixture
def calls():
    """How often Redis was asked for a batch and waited on."""
    counted = {"evalsha": 0, "eval": 0, "bzpopmin": 0}
    originals = {name: getattr(Redis, name) for name in counted}

    def counting(name):
        async def call(self, *args, **kwargs):
            counted[name] += 1
            return await originals[name](self, *args, **kwargs)

        return call

    with mock.patch.multiple(Redis, **{name: counting(name) for name in counted}):
        yield counted


async def test_every_waiting_message_comes_in_one_call_in_order(layer, calls):
    channel = await layer.new_channel()
    for number in range(10):
        await layer.send(channel, {"type": "news", "n": number})
    received = [(await layer.receive(channel))["n"] for _ in range(10)]
    assert received == list(range(10))
    # One batch (and, the first time Redis meets the script, the script itself), no wait.
    assert calls["evalsha"] == 1 and calls["eval"] <= 1 and calls["bzpopmin"] == 0


async def test_no_message_is_received_twice(layer):
    channel = await layer.new_channel()
    for number in range(2):
        await layer.send(channel, {"type": "news", "n": number})
    first = [(await layer.receive(channel))["n"] for _ in range(2)]
    for number in range(2, 4):
        await layer.send(channel, {"type": "news", "n": number})
    later = [(await layer.receive(channel))["n"] for _ in range(2)]
    assert first + later == [0, 1, 2, 3]
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(channel), 0.5)


async def test_an_empty_channel_waits_for_its_next_message(layer, calls):
    channel = await layer.new_channel()
    waiting = asyncio.ensure_future(layer.receive(channel))
    await asyncio.sleep(0.2)
    assert not waiting.done()
    await layer.send(channel, {"type": "news", "n": 7})
    assert (await asyncio.wait_for(waiting, 5))["n"] == 7
    assert calls["bzpopmin"] >= 1


async def test_a_batch_whose_answer_never_arrived_is_received_again(layer):
    """Redis took the batch, then the receive was cancelled before its answer came (a connection closing,
    a server stopping): the next receive puts the batch back first."""
    channel = await layer.new_channel()
    for number in range(3):
        await layer.send(channel, {"type": "news", "n": number})
    real = Redis.evalsha

    async def taken_then_cancelled(self, *args, **kwargs):
        await real(self, *args, **kwargs)
        raise asyncio.CancelledError

    with mock.patch.object(Redis, "evalsha", taken_then_cancelled), pytest.raises(asyncio.CancelledError):
        await layer.receive(channel)
    received = [(await layer.receive(channel))["n"] for _ in range(3)]
    assert received == [0, 1, 2]
