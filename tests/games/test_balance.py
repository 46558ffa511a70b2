"""Spreading devices over the web processes (games.realtime.balance): a process holding clearly more than
its share of the game connections asks some students' devices to reconnect (nginx sends them to the least
busy process); teachers' screens and homework attempts stay, and a process that stopped posting is
forgotten."""

import os
import time
import uuid

import pytest
from django.conf import settings
from redis.asyncio import Redis

from games.realtime import balance, fanout

REQUIRED = os.environ.get("CLASSPLAY_REQUIRE_SERVICES") == "1"


@pytest.mark.parametrize(
    ("mine", "counts", "moved"),
    [
        (50, [50], 0),  # one process: nothing to balance
        (50, [50, 0], 13),  # just restarted beside it: half the excess of 25 this tick
        (28, [28, 22], 0),  # 3 over a share of 25: within the slack
        (30, [30, 20], 3),  # 5 over: half of it now
        (1800, [1800, 0], 50),  # at most MOVE_PER_TICK at once
        (0, [1800, 0], 0),  # the empty one moves nobody
        (650, [650, 550, 600], 0),  # 50 over a share of 600: within a tenth of it
        (800, [800, 400, 600], 50),
    ],
)
def test_how_many_connections_a_process_moves(mine, counts, moved):
    assert balance.connections_to_move(mine, counts) == moved


class Screen:
    def __init__(self, role, homework=False, connected_at=0.0):
        self.role, self.homework, self.closed = role, homework, None
        self.connected_at = connected_at

    async def close(self, code=None):
        self.closed = code


@pytest.fixture
async def redis_client():
    if not settings.REDIS_URL:
        if REQUIRED:
            pytest.fail("the balancer test needs REDIS_URL in CI")
        pytest.skip("the balancer runs only with REDIS_URL")
    client = Redis.from_url(settings.REDIS_URL)
    yield client
    await client.aclose()


async def test_a_busy_process_moves_students_of_live_games_and_forgets_a_stopped_process(redis_client):
    key = f"test:web-connections:{uuid.uuid4().hex}"
    hub = fanout.hub()
    students = [Screen("player") for _ in range(60)]
    stay = [Screen("teacher"), Screen("projector"), *(Screen("player", homework=True) for _ in range(5))]
    hub.sessions[991] = set(students + stay)
    try:
        now = time.time()
        await redis_client.hset(key, "restarted:1", f"0:{now}")
        await redis_client.hset(key, "crashed:2", f"900:{now - 61}")  # silent for over a minute: gone
        await redis_client.hset(key, "stalled:3", f"900:{now - 10}")  # silent for 10 s: left out, not gone
        balancer = balance.Balancer(redis_client, key=key, gone_key=f"{key}:gone")
        await redis_client.zadd(f"{key}:gone", {balancer.name: now - 100})  # this one stalled once

        moved = await balancer.tick()

        # 67 here and 0 there: a share of 34, 33 over it, half of that now.
        assert moved == 17
        assert sum(screen.closed == balance.REBALANCE_CLOSE_CODE for screen in students) == 17
        assert all(screen.closed is None for screen in stay)
        posted = await redis_client.hgetall(key)
        assert set(posted) == {b"restarted:1", b"stalled:3", balancer.name.encode()}
        assert posted[balancer.name.encode()].startswith(b"67:")
        # The crashed one is remembered as gone: the clock frees the seats its devices still hold.
        assert await redis_client.zrange(f"{key}:gone", 0, -1) == [b"crashed:2"]

        # The moved devices reconnect and the counts settle before it moves any more.
        assert await balancer.tick() == 0
        await balancer.forget()
        assert set(await redis_client.hgetall(key)) == {b"restarted:1", b"stalled:3"}
        assert set(await redis_client.zrange(f"{key}:gone", 0, -1)) == {b"crashed:2", balancer.name.encode()}
    finally:
        del hub.sessions[991]
        await redis_client.delete(key, f"{key}:gone")


async def test_a_connection_names_its_process_as_channels_redis_makes_it():
    from channels_redis.core import RedisChannelLayer

    layer = RedisChannelLayer(hosts=["redis://127.0.0.1:1"])  # naming a channel asks no server
    assert balance.process_of(await layer.new_channel()) == layer.client_prefix


async def test_balancing_is_off_without_redis(settings):
    settings.REDIS_URL = ""
    assert balance.start() is None
    assert balance.gone_processes() == set()


def test_the_play_screen_and_the_school_benchmark_know_the_close_code():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    code = str(balance.REBALANCE_CLOSE_CODE)
    assert f"REBALANCE_CLOSE_CODE = {code};" in (root / "static/js/live.js").read_text()
    assert f"REBALANCE_CLOSE_CODE = {code}\n" in (root / "bench/school_load.py").read_text()
    assert f'REBALANCE_CLOSE_CODE = "{code}"\n' in (root / "bench/live_load.py").read_text()


def test_a_device_that_has_just_connected_is_not_moved():
    """The proxy has just placed it; moving it again would cost its student a second reconnect."""
    now = 1000.0
    arrived = Screen("player", connected_at=now - 1)
    settled = Screen("player", connected_at=now - balance.SETTLE_SECONDS)
    assert balance.movable([arrived, settled, Screen("teacher")], now) == [settled]


@pytest.mark.parametrize(
    ("setting", "child_of_a_supervisor", "moves"),
    [
        ("auto", False, True),  # one process per port behind nginx (the deployment kit)
        ("auto", True, False),  # uvicorn --workers: the kernel picks where a device reconnects
        ("true", True, True),
        ("false", False, False),
    ],
)
def test_devices_are_moved_only_where_a_proxy_places_their_reconnection(
    settings, monkeypatch, setting, child_of_a_supervisor, moves
):
    settings.CLASSPLAY_BALANCE_DEVICES = setting
    parent = object() if child_of_a_supervisor else None
    monkeypatch.setattr(balance.multiprocessing, "parent_process", lambda: parent)
    assert balance.moves_help() is moves


async def test_a_balancer_that_cannot_usefully_move_still_posts_its_count_and_moves_nobody(redis_client):
    key = f"test:web-connections:{uuid.uuid4().hex}"
    hub = fanout.hub()
    students = [Screen("player") for _ in range(60)]
    hub.sessions[992] = set(students)
    try:
        await redis_client.hset(key, "other:1", f"0:{time.time()}")
        balancer = balance.Balancer(redis_client, key=key, gone_key=f"{key}:gone", moves=False)
        assert await balancer.tick() == 0
        assert all(screen.closed is None for screen in students)
        assert (await redis_client.hget(key, balancer.name)).startswith(b"60:")
    finally:
        del hub.sessions[992]
        await redis_client.delete(key, f"{key}:gone")
