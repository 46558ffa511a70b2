"""The embedded channel layer (config.channel_layers): expired messages are still dropped, looked for at
most once a second rather than on every receive."""

from unittest.mock import patch

import pytest

from config import channel_layers


@pytest.mark.asyncio
async def test_expired_messages_are_dropped_at_most_once_a_second():
    layer = channel_layers.InMemoryLayer(expiry=1)
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "old"})
    looks = []
    real = channel_layers.InMemoryChannelLayer._clean_expired

    def counted(self):
        looks.append(1)
        real(self)

    with (
        patch.object(channel_layers.InMemoryChannelLayer, "_clean_expired", counted),
        patch("channels.layers.time.time", return_value=10**10),  # every message has expired
    ):
        with patch("config.channel_layers.time.monotonic", return_value=1000.0):
            for _ in range(50):
                layer._clean_expired()
        assert len(looks) == 1  # fifty receives, one look
        assert channel not in layer.channels  # and the expired message is gone
