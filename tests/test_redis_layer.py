"""The Redis channel layer's receive takes every message waiting on a channel in one call to Redis
(channels_redis made four calls per message), hands them out in order, never twice, and a batch whose
call was interrupted after Redis ran it is received again, not lost. Its group sends go in one call to
Redis while the groups' members are as the process last read them, and still reach a member that joined
meanwhile."""

import asyncio
import os
import uuid
from unittest import mock

import pytest
from django.conf import settings
from redis.asyncio import Redis
from redis.asyncio.client import Pipeline

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
    """How often Redis was asked for a batch or ran a script, waited on, and sent a pipeline."""
    counted = {"evalsha": 0, "eval": 0, "bzpopmin": 0, "execute": 0}

    def counting(owner, name):
        original = getattr(owner, name)

        async def call(self, *args, **kwargs):
            counted[name] += 1
            return await original(self, *args, **kwargs)

        return call

    on_redis = ("evalsha", "eval", "bzpopmin")
    with (
        mock.patch.multiple(Redis, **{name: counting(Redis, name) for name in on_redis}),
        mock.patch.object(Pipeline, "execute", counting(Pipeline, "execute")),
    ):
        yield counted


def round_trips(calls) -> int:
    """Calls to Redis for group sends (a script, or a pipeline of look-ups)."""
    return calls["evalsha"] + calls["eval"] + calls["execute"]


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


async def test_a_group_send_reaches_every_member_in_one_call_once_its_members_are_known(layer, calls):
    """The first send to a group reads its members (a process's channel and a plain one), the next ones
    only check them in the script that sends."""
    members = [await layer.new_channel(), "plain.member"]
    for member in members:
        await layer.group_add("news", member)
    before, evaluated = calls["evalsha"], calls["eval"]
    await layer.group_send("news", {"type": "news", "n": 1})
    # read, then sent (each script also sent whole once if Redis did not have it yet)
    assert calls["evalsha"] - before == 2 and calls["eval"] - evaluated <= 2 and calls["execute"] == 0
    before = round_trips(calls)
    await layer.group_send("news", {"type": "news", "n": 2})
    assert round_trips(calls) - before == 1
    for member in members:
        assert [(await asyncio.wait_for(layer.receive(member), 5))["n"] for _ in range(2)] == [1, 2]


async def test_a_member_that_joined_through_another_process_is_sent_the_next_message(layer):
    """Another server process's hub joins the group: this process's kept members are out of date, and
    the send finds it out in the same call (nothing is lost, nothing sent twice)."""
    here = "here.member"
    await layer.group_add("news", here)
    await layer.group_send("news", {"type": "news", "n": 1})  # members read and kept
    elsewhere = RedisLayer(hosts=[settings.REDIS_URL], prefix=layer.prefix)
    try:
        await elsewhere.group_add("news", "there.member")
        await layer.group_send("news", {"type": "news", "n": 2})
        await layer.group_send("news", {"type": "news", "n": 3})
        assert [(await layer.receive("there.member"))["n"] for _ in range(2)] == [2, 3]
        assert [(await layer.receive(here))["n"] for _ in range(3)] == [1, 2, 3]
        await elsewhere.group_discard("news", "there.member")
        await layer.group_send("news", {"type": "news", "n": 4})
        assert (await layer.receive(here))["n"] == 4
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(layer.receive("there.member"), 0.3)
        for channel in (here, "there.member"):
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(layer.receive(channel), 0.1)
    finally:
        await elsewhere.close_pools()


async def test_a_group_send_with_several_redis_hosts_reads_the_members_first(layer):
    """Sharded, a group and its channels may live on different hosts: no single script can check and send.
    (A plain channel is read from each host in turn, as channels_redis reads it: what one read took from
    one host is handed out by the next read, whichever host that one asks.)"""
    sharded = RedisLayer(hosts=[settings.REDIS_URL, settings.REDIS_URL], prefix=layer.prefix + "-sharded")
    try:
        members = [f"member{n}.channel" for n in range(6)]
        for member in members:
            await sharded.group_add("news", member)
        for number in (1, 2):
            await sharded.group_send_many([("news", {"type": "news", "n": number}, members[0])])
        assert [[(await sharded.receive(m))["n"] for _ in range(2)] for m in members[1:]] == [[1, 2]] * 5
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(sharded.receive(members[0]), 0.3)
    finally:
        await sharded.flush()
        await sharded.close_pools()


async def test_a_group_send_skips_a_full_channel_and_an_expired_member(layer):
    layer.capacity, layer.group_expiry = 2, 60
    full, open_, gone = "full.member", "open.member", "gone.member"
    for member in (full, open_):
        await layer.group_add("news", member)
    connection = layer.connection(layer.consistent_hash("news"))
    await connection.zadd(layer._group_key("news"), {gone: 1})  # joined long ago, never renewed
    for number in range(2):
        await layer.send(full, {"type": "news", "n": number})
    await layer.group_send("news", {"type": "news", "n": 9})
    assert (await layer.receive(open_))["n"] == 9
    assert [(await layer.receive(full))["n"] for _ in range(2)] == [0, 1]  # not the third
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(full), 0.3)
    assert gone.encode() not in await connection.zrange(layer._group_key("news"), 0, -1)


async def test_a_group_send_drops_a_channels_expired_messages_first(layer):
    channel = "slow.member"
    await layer.group_add("news", channel)
    await layer.send(channel, {"type": "news", "n": 0})
    channel_key = layer.prefix + channel
    connection = layer.connection(layer.consistent_hash(channel))
    (waiting,) = await connection.zrange(channel_key, 0, -1)
    await connection.zadd(channel_key, {waiting: 1})  # as if sent long ago: expired
    await layer.group_send("news", {"type": "news", "n": 1})
    assert (await layer.receive(channel))["n"] == 1
    assert await connection.zcard(channel_key) == 0


async def test_many_group_sends_go_in_one_script(layer, calls):
    """A trip's news to the groups of several sessions: one script for every group and every channel's
    message once the groups' members are known; a channel in two of the groups (a server process's)
    gets both messages."""
    shared, first, second = await layer.new_channel(), "first.member", "second.member"
    for group, member in (
        ("one", shared),
        ("one", first),
        ("two", shared),
        ("two", second),
        ("empty", first),
    ):
        await layer.group_add(group, member)
    await layer.group_discard("empty", first)
    news = [
        ("one", {"type": "news", "n": 1}, None),
        ("two", {"type": "news", "n": 2}, None),
        ("empty", {"type": "news", "n": 3}, None),
    ]
    await layer.group_send_many(news)  # the groups' members read
    before = round_trips(calls)
    await layer.group_send_many(news)
    assert round_trips(calls) - before == 1
    assert [(await layer.receive(first))["n"] for _ in range(2)] == [1, 1]
    assert [(await layer.receive(second))["n"] for _ in range(2)] == [2, 2]
    assert sorted([(await layer.receive(shared))["n"] for _ in range(4)]) == [1, 1, 2, 2]
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(first), 0.3)


async def test_news_a_channel_already_has_goes_to_the_rest_of_its_group_only(layer, calls):
    """A server process's hub, handed its own trip's tables, is not sent their news; a group with no
    other channel is only checked (a session whose devices are all on the sending process)."""
    here, other = await layer.new_channel(), "other.member"
    await layer.group_add("shared", here)
    await layer.group_add("shared", other)
    await layer.group_add("mine", here)
    await layer.group_send_many([("mine", {"type": "news", "n": 1}, here)])
    before = round_trips(calls)
    await layer.group_send_many([("mine", {"type": "news", "n": 1}, here)])
    assert round_trips(calls) - before == 1
    await layer.group_send_many([("shared", {"type": "news", "n": 2}, here)])
    assert (await layer.receive(other))["n"] == 2
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(here), 0.3)
