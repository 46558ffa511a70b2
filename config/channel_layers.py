"""The channel layers: the embedded mode's (one server process, no Redis), and Redis's, whose connections
wait out an outage."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)
#: A connection's receive that found Redis unreachable tries again after this long, doubling up to the max.
RECEIVE_RETRY_SECONDS = 0.5
RECEIVE_RETRY_MAX_SECONDS = 5.0
#: The outage is logged at most this often per process (every connection retries on its own).
LOG_EVERY_SECONDS = 10.0

#: Expired messages and group memberships are looked for at most this often (seconds).
CLEAN_EVERY = 1.0


class InMemoryLayer(InMemoryChannelLayer):
    """Channels' in-memory layer, with its clean-up of expired messages at most once a second.

    The layer looked through every channel's queue for expired messages on each receive and group
    send, and every connected device waits in a receive on its own channel after each message: with
    2000 devices reconnecting at once, millions of looks (a second and a half of a 1000-device
    reconnect's event loop). Expiry is a safety net (60 s), so being a second late does not matter."""

    _cleaned_at = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._cleaned_at < CLEAN_EVERY:
            return
        self._cleaned_at = now
        super()._clean_expired()

    async def group_send(self, group: str, message: dict) -> None:
        """Put on each channel of the group directly, without a task for each (as Channels' does, a full
        channel misses the message). Every homework attempt is a group of its own, and its broadcasts
        are many."""
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            with contextlib.suppress(ChannelFull):
                await self.send(channel, message)


class RedisLayer(RedisChannelLayer):
    """channels_redis's layer, but a connection waiting for its messages waits out a Redis outage.

    Every websocket consumer waits in ``receive`` on its own channel, and channels_redis raises there when
    Redis is unreachable: that ended the consumer and closed its websocket, so a Redis restart dropped
    every device of the school at once, and they all reconnected together once it was back. Here the
    receive tries again instead (one coroutine at a time reads Redis for the whole process, so the retries
    cost Redis one attempt at a time): the devices stay connected and keep playing, their moves stored in
    the database and acknowledged, while the screens' updates wait for Redis (``games/outbox.py`` resends
    them; the session hub joins its groups again and sends every session afresh, see
    ``SessionHub._keep_groups``). The hub reads its own channel with ``receive_once``, which raises."""

    _logged_at = 0.0

    async def receive_once(self, channel):
        return await super().receive(channel)

    async def server_run_id(self) -> str:
        """Redis's run id: a new one means Redis restarted, without the groups it held."""
        info = await self.connection(0).info("server")
        return str(info.get("run_id", ""))

    async def receive(self, channel):
        wait = RECEIVE_RETRY_SECONDS
        while True:
            try:
                return await super().receive(channel)
            except (RedisError, OSError) as error:
                now = time.monotonic()
                if now - RedisLayer._logged_at >= LOG_EVERY_SECONDS:
                    RedisLayer._logged_at = now
                    logger.warning("Redis unreachable (%s): the connections wait for it", error)
                await asyncio.sleep(wait)
                wait = min(wait * 2, RECEIVE_RETRY_MAX_SECONDS)
