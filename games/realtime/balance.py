"""Spreading the devices over the web processes again after one of them restarted.

nginx (``least_conn``) sends each new connection to the process holding the fewest, but a websocket stays
where it is: after a process crashes, its devices reconnect to the others, and when it is back it would
get only the devices that connect later. So every few seconds each process posts in Redis how many game
connections it holds, and a process holding clearly more than its share asks some of its students'
devices to reconnect (close code ``REBALANCE_CLOSE_CODE``), a few at a time; nginx sends them to the
process with the fewest. The play screen reconnects at once, resyncs from its sequence numbers and resends
any move not yet acknowledged under the same key, so a student sees at most a moment of "reconnecting".
Teachers' consoles and projectors are never moved, nor homework attempts (their game pauses while no
device is connected). Only with ``REDIS_URL``: in embedded mode there is one process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import multiprocessing
import os
import random
import socket
import time

from channels.layers import get_channel_layer
from django.conf import settings
from redis import Redis as SyncRedis
from redis.asyncio import Redis
from redis.exceptions import RedisError

from . import fanout

logger = logging.getLogger(__name__)
KEY = "classplay:web-connections"
#: How often each process posts its count and compares it with the others'.
TICK_SECONDS = 2.0
#: A count older than this is left out of the shares (its process stopped, or is too busy to post).
STALE_SECONDS = 2 * TICK_SECONDS
#: A process silent this long has stopped: it is listed as gone and the clock frees its devices' seats.
#: Far longer than STALE_SECONDS, so a process whose event loop stalls for seconds under load is never
#: taken for dead while its devices are still connected to it.
GONE_AFTER_SECONDS = 60.0
#: A process above its share by no more than this (or a tenth of the share) leaves its devices be.
SLACK = 3
#: At most this many devices are moved by one process per tick, so a restart never becomes a storm.
MOVE_PER_TICK = 50
#: After moving some, a process waits this long before it moves more: the moved devices reconnect and
#: every process posts its new count first (acting on counts from before would move too many, and the
#: other process would then move them back).
SETTLE_SECONDS = 3 * TICK_SECONDS
REBALANCE_CLOSE_CODE = 4010
#: Processes that stopped posting (their score: when that was seen), kept this long: the clock frees the
#: seats their devices held (services.seats_release_gone).
GONE_KEY = "classplay:web-gone"
GONE_KEPT_SECONDS = 3600


def process_of(connection: str) -> str:
    """The web process a connection is on: channels_redis names a process's channels
    ``specific.<the process's prefix>!<connection>``."""
    return connection.partition(".")[2].partition("!")[0]


def gone_processes() -> set[str]:
    """The web processes seen to stop in the last GONE_KEPT_SECONDS (for the clock; empty without Redis)."""
    if not settings.REDIS_URL:
        return set()
    client = SyncRedis.from_url(settings.REDIS_URL)
    try:
        return {name.decode() for name in client.zrange(GONE_KEY, 0, -1)}  # type: ignore[union-attr]
    except (RedisError, OSError):
        return set()
    finally:
        client.close()


def posted_counts() -> dict[str, int]:
    """Each running web process's game connections, as it last posted them (the staff's status page;
    empty without Redis). A count older than STALE_SECONDS is left out: its process is not running."""
    if not settings.REDIS_URL:
        return {}
    client = SyncRedis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)
    try:
        posted = client.hgetall(KEY)
    except (RedisError, OSError):
        return {}
    finally:
        client.close()
    now, counts = time.time(), {}
    for name, value in posted.items():  # type: ignore[union-attr]
        count, _sep, at = value.decode().partition(":")
        if now - float(at) <= STALE_SECONDS:
            counts[name.decode()] = int(count)
    return counts


def connections_to_move(mine: int, counts: list[int]) -> int:
    """How many of this process's ``mine`` connections to move now, given every live process's count
    (its own among them). Half the excess a tick: the other counts are up to a tick old."""
    if len(counts) < 2:
        return 0
    share = math.ceil(sum(counts) / len(counts))
    excess = mine - share
    if excess <= max(SLACK, share // 10):
        return 0
    return min(MOVE_PER_TICK, math.ceil(excess / 2))


def movable(consumers, now: float) -> list:
    """The connections that may be moved: students' devices in live games, but none that connected in the
    last SETTLE_SECONDS (the proxy has just placed it; moving it again costs its student a reconnect for
    counts that may be a tick old)."""
    return [
        c
        for c in consumers
        if c.role == "player" and not c.homework and now - getattr(c, "connected_at", 0.0) >= SETTLE_SECONDS
    ]


def moves_help() -> bool:
    """Whether asking a device to reconnect can move it: only where a proxy sends the new connection to the
    least busy process (one process per port behind nginx's least_conn, as the deployment kit runs them).
    uvicorn's ``--workers`` share one listening socket, and the kernel, not the counts, picks the process a
    device reconnects to: there a move costs its student a reconnect and may land it where it was. Such a
    worker is a child process of uvicorn's supervisor. ``CLASSPLAY_BALANCE_DEVICES`` (true / false) says
    so outright: the deployment kit's nginx sends all of a game's devices to one process (a hash of the
    session), where a moved device would come back, so the kit says false."""
    setting = settings.CLASSPLAY_BALANCE_DEVICES
    if setting in ("true", "1", "yes", "on"):
        return True
    if setting in ("false", "0", "no", "off"):
        return False
    return multiprocessing.parent_process() is None


class Balancer:
    """This process's side: post its count, read the others', move its excess."""

    def __init__(self, client: Redis, key: str = KEY, gone_key: str = GONE_KEY, moves: bool = True):
        self.client, self.key, self.gone_key = client, key, gone_key
        #: whether it moves devices, or only posts its count (the clock learns of a process that stopped)
        self.moves = moves
        # Named as its connections are (process_of), so the clock can tell whose seats to free.
        prefix = getattr(get_channel_layer(), "client_prefix", None)
        self.name = prefix or f"{socket.gethostname()}:{os.getpid()}"
        self.settled_at = 0.0

    async def tick(self) -> int:
        """One round; returns how many devices were asked to reconnect."""
        hub = fanout.hub()
        consumers = [c for local in hub.sessions.values() for c in local]
        now = time.time()
        # (redis-py types each command as sync-or-async, hence the ignores.)
        await self.client.hset(self.key, self.name, f"{len(consumers)}:{now}")  # type: ignore[misc]
        await self.client.zrem(self.gone_key, self.name)  # back after a stall: its new seats stay
        counts, gone = [], []
        for name, value in (await self.client.hgetall(self.key)).items():  # type: ignore[misc]
            count, _sep, at = value.decode().partition(":")
            if now - float(at) > GONE_AFTER_SECONDS:
                gone.append(name)
            elif now - float(at) <= STALE_SECONDS:
                counts.append(int(count))
        if gone:
            await self.client.hdel(self.key, *gone)  # type: ignore[misc]
            await self.gone(gone, now)
        if now < self.settled_at or not self.moves:
            return 0
        candidates = movable(consumers, time.monotonic())
        chosen = random.sample(candidates, min(connections_to_move(len(consumers), counts), len(candidates)))
        for consumer in chosen:
            await consumer.close(code=REBALANCE_CLOSE_CODE)
        if chosen:
            self.settled_at = now + SETTLE_SECONDS
            logger.info("asked %s devices to reconnect to a less busy web process", len(chosen))
        return len(chosen)

    async def gone(self, names: list, now: float) -> None:
        await self.client.zadd(self.gone_key, dict.fromkeys(names, now))
        await self.client.zremrangebyscore(self.gone_key, 0, now - GONE_KEPT_SECONDS)

    async def forget(self) -> None:
        """At shutdown: this process's count goes at once, not after GONE_AFTER_SECONDS."""
        await self.client.hdel(self.key, self.name)  # type: ignore[misc]
        await self.gone([self.name], time.time())

    async def run(self) -> None:
        try:
            while True:  # posts at once: a process just (re)started is counted from its first second
                try:
                    await self.tick()
                except (RedisError, OSError):  # Redis out: the counts wait, the games go on
                    pass
                except Exception:
                    logger.exception("connection balancing failed; trying again")
                await asyncio.sleep(TICK_SECONDS * random.uniform(0.8, 1.2))
        finally:
            with contextlib.suppress(RedisError, OSError, asyncio.CancelledError):
                await asyncio.shield(self.forget())
            with contextlib.suppress(RedisError, OSError, asyncio.CancelledError):
                await self.client.aclose()


def start() -> asyncio.Task | None:
    """The balancer of this server process, or None in embedded mode."""
    if not settings.REDIS_URL:
        return None
    balancer = Balancer(Redis.from_url(settings.REDIS_URL), moves=moves_help())
    return asyncio.get_running_loop().create_task(balancer.run())
