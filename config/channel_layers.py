"""The channel layers: the embedded mode's (one server process, no Redis), and Redis's, whose connections
wait out an outage."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections import deque
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer
from redis.exceptions import NoScriptError, RedisError

logger = logging.getLogger(__name__)
#: A connection's receive that found Redis unreachable tries again after this long, doubling up to the max.
RECEIVE_RETRY_SECONDS = 0.5
RECEIVE_RETRY_MAX_SECONDS = 5.0
#: The outage is logged at most this often per process (every connection retries on its own).
LOG_EVERY_SECONDS = 10.0

#: Expired messages and group memberships are looked for at most this often (seconds).
CLEAN_EVERY = 1.0

#: A receive takes up to this many of a channel's waiting messages from Redis at once.
RECEIVE_BATCH = 64
#: KEYS: the channel, its backup. ARGV: how many to take; "1" when the last batch may not have been
#: handed out (its call was interrupted): it is put back first, in order, as channels_redis's clean-up
#: does; otherwise the backup, all handed out, is dropped. The batch taken is kept in the backup until
#: the next call, so a call interrupted after Redis ran it loses nothing.
_FETCH = """
if ARGV[2] == '1' then
    local backed_up = redis.call('ZRANGE', KEYS[2], 0, -1, 'WITHSCORES')
    for i = #backed_up, 1, -2 do
        redis.call('ZADD', KEYS[1], backed_up[i], backed_up[i - 1])
    end
end
redis.call('DEL', KEYS[2])
local taken = redis.call('ZPOPMIN', KEYS[1], ARGV[1])
for i = 1, #taken, 2 do
    redis.call('ZADD', KEYS[2], taken[i + 1], taken[i])
end
return taken
"""
_FETCH_SHA = hashlib.sha1(_FETCH.encode()).hexdigest()

#: Lua: a message put on a channel unless the channel is full (its expired messages dropped first);
#: 1 when it was full. What channels_redis's group send did for each channel, for both scripts below.
_PUT = """
local function put(key, message, capacity, now, expiry, stale)
    redis.call('ZREMRANGEBYSCORE', key, 0, stale)
    if redis.call('ZCARD', key) < tonumber(capacity) then
        redis.call('ZADD', key, now, message)
        redis.call('EXPIRE', key, expiry)
        return 0
    end
    return 1
end
"""

#: KEYS: the group's channels. ARGV: their messages, their capacities, then the time, the expiry and the
#: time before which a waiting message has expired. What channels_redis's group send did in two calls
#: after its look-up of the group.
_GROUP_SEND = (
    _PUT
    + """
local count = #KEYS
local now, expiry, stale = ARGV[2 * count + 1], ARGV[2 * count + 2], ARGV[2 * count + 3]
local over_capacity = 0
for i = 1, count do
    over_capacity = over_capacity + put(KEYS[i], ARGV[i], ARGV[count + i], now, expiry, stale)
end
return over_capacity
"""
)
_GROUP_SEND_SHA = hashlib.sha1(_GROUP_SEND.encode()).hexdigest()


#: At most this many groups' members are kept by a process (see RedisLayer.group_send_many).
MEMBERS_KEPT = 4096

#: One Redis only. KEYS: the groups, then every channel to send to. ARGV: the time, the expiry, the time
#: before which a waiting message has expired, the time before which a group member has expired, the
#: number of groups; then for each group: how many members the sender believes it has (-1: it does not
#: know), those members, how many channels (the next KEYS) it sends to, and a message and a capacity for
#: each. A group whose members are as believed (expired ones dropped first) is sent as _GROUP_SEND sends;
#: the others are sent nothing and returned, by their 0-based position, with their members.
_SEND_TO_KNOWN = (
    _PUT
    + """
local now, expiry, stale, gone = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local groups = tonumber(ARGV[5])
local at, channel = 6, groups + 1
local over_capacity, changed = 0, {}
for g = 1, groups do
    redis.call('ZREMRANGEBYSCORE', KEYS[g], 0, gone)
    local members = redis.call('ZRANGE', KEYS[g], 0, -1)
    local believed = tonumber(ARGV[at])
    at = at + 1
    local same = #members == believed
    if same then
        local known = {}
        for i = 0, believed - 1 do
            known[ARGV[at + i]] = true
        end
        for _, member in ipairs(members) do
            if not known[member] then
                same = false
                break
            end
        end
    end
    at = at + math.max(believed, 0)
    local channels = tonumber(ARGV[at])
    at = at + 1
    if same then
        for i = 0, channels - 1 do
            over_capacity = over_capacity
                + put(KEYS[channel + i], ARGV[at + 2 * i], ARGV[at + 2 * i + 1], now, expiry, stale)
        end
    else
        table.insert(changed, g - 1)
        table.insert(changed, members)
    end
    channel = channel + channels
    at = at + 2 * channels
end
return {over_capacity, changed}
"""
)
_SEND_TO_KNOWN_SHA = hashlib.sha1(_SEND_TO_KNOWN.encode()).hexdigest()


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
        await self.group_send_many([(group, message, None)])

    async def group_send_many(self, sends: list[tuple[str, dict, str | None]]) -> None:
        """Each (group, message, a channel of the group not to send it to) in turn (as RedisLayer's,
        which sends them all in one go)."""
        self._clean_expired()
        for group, message, told in sends:
            self.require_valid_group_name(group)
            for channel in list(self.groups.get(group, ())):
                if channel != told:
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

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        #: (shard, channel key) -> messages taken from Redis, not yet handed out
        self._taken: dict[tuple[int, str], deque] = {}
        #: (shard, channel key) whose last batch may not have been handed out (its call was interrupted)
        self._unsure: set[tuple[int, str]] = set()
        #: group -> its members as this process last read them (see group_send_many)
        self._members: dict[str, tuple[str, ...]] = {}

    async def _brpop_with_clean(self, index, channel, timeout):
        """One message of the channel, from a batch taken at once. channels_redis made four calls to Redis
        for every message received (put its backup back, pop one, back it up, drop the backup), a fifth
        of a web process's time with a thousand homework games; here one call takes every message
        waiting (up to RECEIVE_BATCH), and only an empty channel is waited on (BZPOPMIN, as before).
        As with channels_redis, an interruption can bring a message twice, never lose one: a call
        interrupted before Redis ran it has the batch before it, all handed out, put back (every
        receiver here goes by sequence numbers and drops what it already has)."""
        key = (index, channel)
        taken = self._taken.setdefault(key, deque())
        if not taken and self.ring_size > 1:
            # channels_redis reads a plain channel from each host in turn: what an earlier read took
            # from another host comes first, or it would wait there until a read asks that host again.
            others = (self._taken.get((host, channel)) for host in range(self.ring_size))
            taken = next((left for left in others if left), taken)
        if not taken:
            connection = self.connection(index)
            arguments = (
                2,
                channel,
                self._backup_channel_name(channel),
                RECEIVE_BATCH,
                "1" if key in self._unsure else "0",
            )
            self._unsure.add(key)  # until the batch is here: an interrupted call is put back next time
            try:
                batch = await connection.evalsha(_FETCH_SHA, *arguments)
            except NoScriptError:
                batch = await connection.eval(_FETCH, *arguments)
            taken.extend(batch[0::2])
            self._unsure.discard(key)
            if not taken:
                # Nothing waiting: wait for the next (a message popped here is handed out at once, with
                # the same small window channels_redis's own wait has).
                result = await connection.bzpopmin(channel, timeout=timeout)
                if result is None:
                    return None
                return result[1]
        return taken.popleft()

    async def group_send(self, group, message):
        """channels_redis's group send in one call to Redis instead of four (see :meth:`group_send_many`).
        Every move a server process commits is announced to its session's group, and at a school's load
        a third of a web process's event loop was spent there."""
        await self.group_send_many([(group, message, None)])

    async def group_send_many(self, sends: list[tuple[str, dict, str | None]]) -> None:
        """Each (group, message, a channel of the group not to send it to), as channels_redis's group send
        sends it: the group's expired members dropped, then the message put on each member's channel
        that is not full.

        With one Redis, in one call whatever their number: this process keeps each group's members as it
        last read them, and one script checks them against the group's before it sends (a group whose
        members changed is sent nothing there; its members come back and it is sent in a second call).
        A group's members are the server processes serving a session, so they rarely change, and the
        look-up of every group of a trip was a second round trip (6-9% of a web process in a burst).
        Sharded (several Redis hosts) a group and its channels may be on different hosts: the members
        are read first, then sent (two calls per host)."""
        if self.ring_size != 1:
            await self._send_to_members(sends, await self._groups_members([g for g, _m, _t in sends]))
            return
        changed = await self._send_if_members_known(sends)
        if changed:
            await self._send_to_members([sends[index] for index in changed], list(changed.values()))

    async def _send_if_members_known(self, sends: list[tuple[str, dict, str | None]]) -> dict[int, list[str]]:
        """The sends whose groups have the members kept here, sent (one script); the rest, by their
        index in ``sends``, with their groups' members now (kept for the next time)."""
        group_keys: list[bytes] = []
        channel_keys: list[str] = []
        arguments: list[Any] = []
        for group, message, told in sends:
            assert self.require_valid_group_name(group), "Group name not valid"
            group_keys.append(self._group_key(group))
            known = self._members.get(group)
            if known is None:
                arguments += [-1, 0]  # never matches: the script returns the members
                continue
            channel_names = [name for name in known if name != told]
            messages, capacities = {}, {}
            if channel_names:
                _shards, messages, capacities = self._map_channel_keys_to_connection(channel_names, message)
            arguments += [len(known), *known, len(messages)]
            for channel_key, serialised in messages.items():
                arguments += [serialised, capacities[channel_key]]
            channel_keys += messages
        now = time.time()
        head = [now, self.expiry, int(now) - int(self.expiry), int(now) - self.group_expiry, len(sends)]
        keyed = (len(group_keys) + len(channel_keys), *group_keys, *channel_keys, *head, *arguments)
        connection = self.connection(0)
        try:
            over_capacity, changed = await connection.evalsha(_SEND_TO_KNOWN_SHA, *keyed)
        except NoScriptError:
            over_capacity, changed = await connection.eval(_SEND_TO_KNOWN, *keyed)
        self._log_over_capacity(over_capacity, len(channel_keys))
        fresh = {}
        for index, members in zip(changed[0::2], changed[1::2], strict=True):
            fresh[index] = names = [member.decode("utf8") for member in members]
            self._keep_members(sends[index][0], names)
        return fresh

    def _keep_members(self, group: str, members: list[str]) -> None:
        if len(self._members) >= MEMBERS_KEPT and group not in self._members:
            self._members.clear()  # (homework makes a group per attempt: the kept ones must not pile up)
        self._members[group] = tuple(members)

    async def _send_to_members(
        self, sends: list[tuple[str, dict, str | None]], members: list[list[str]]
    ) -> None:
        """Each send to its group's members as given: one script per host."""
        per_shard: dict[int, list[tuple[str, bytes, int]]] = {}
        for (_group, message, told), channel_names in zip(sends, members, strict=True):
            channel_names = [name for name in channel_names if name != told]
            if not channel_names:
                continue
            by_connection, messages, capacities = self._map_channel_keys_to_connection(channel_names, message)
            for index, channel_keys in by_connection.items():
                per_shard.setdefault(index, []).extend(
                    (channel_key, messages[channel_key], capacities[channel_key])
                    for channel_key in channel_keys
                )
        for index, entries in per_shard.items():
            self._log_over_capacity(await self._put(index, entries), len(entries))

    @staticmethod
    def _log_over_capacity(over_capacity: int, sent: int) -> None:
        if over_capacity > 0:
            logger.info("%s of %s group messages over their channel's capacity", over_capacity, sent)

    async def group_add(self, group, channel):
        self._members.pop(group, None)
        await super().group_add(group, channel)

    async def group_discard(self, group, channel):
        self._members.pop(group, None)
        await super().group_discard(group, channel)

    async def _groups_members(self, groups: list[str]) -> list[list[str]]:
        """Each group's channels, its expired members dropped first: one pipeline per shard."""
        expired_before = int(time.time()) - self.group_expiry
        pipelines: dict[int, Any] = {}
        for group in groups:
            assert self.require_valid_group_name(group), "Group name not valid"
            index = self.consistent_hash(group)
            if index not in pipelines:
                pipelines[index] = self.connection(index).pipeline(transaction=False)
            key = self._group_key(group)
            pipelines[index].zremrangebyscore(key, min=0, max=expired_before)
            pipelines[index].zrange(key, 0, -1)
        answers = {index: iter((await pipeline.execute())[1::2]) for index, pipeline in pipelines.items()}
        return [
            [member.decode("utf8") for member in next(answers[self.consistent_hash(group)])]
            for group in groups
        ]

    async def _put(self, index: int, entries: list[tuple[str, bytes, int]]) -> int:
        """Each message on its channel unless the channel is full (the script); how many were not."""
        now = time.time()
        keys = [channel_key for channel_key, _message, _capacity in entries]
        arguments = [message for _key, message, _capacity in entries]
        arguments += [capacity for _key, _message, capacity in entries]
        arguments += [now, self.expiry, int(now) - int(self.expiry)]
        keyed = (len(keys), *keys, *arguments)
        target = self.connection(index)
        try:
            return await target.evalsha(_GROUP_SEND_SHA, *keyed)
        except NoScriptError:
            return await target.eval(_GROUP_SEND, *keyed)

    async def _clean_receive_backup(self, index, channel):
        """Nothing: the next batch's call drops the backup of the messages handed out."""

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
