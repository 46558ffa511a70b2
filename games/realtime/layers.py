"""The channel layer of a server that runs alone (embedded mode: no Redis).

Channels' ``InMemoryChannelLayer`` looks through every channel and every group for expired entries on
each ``group_send`` and ``receive``. Every homework attempt is a session, so a group of its own: with 1000
students playing, each broadcast walked 1000 groups (a profile of 200 students already showed it as the
largest cost on the event loop). Here that clean-up runs at most once a second, which changes nothing a
caller can see but the moment an expired message (60 s old) or group membership (a day) is dropped; and
a group's message is put on its channels directly, without a task for each.
"""

from __future__ import annotations

import contextlib
import time

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

#: Expired messages and group memberships are looked for at most this often (seconds).
CLEAN_EVERY = 1.0


class LocalChannelLayer(InMemoryChannelLayer):
    _cleaned_at = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._cleaned_at >= CLEAN_EVERY:
            self._cleaned_at = now
            super()._clean_expired()

    async def group_send(self, group: str, message: dict) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            with contextlib.suppress(ChannelFull):  # as InMemoryChannelLayer: a full channel misses it
                await self.send(channel, message)
