"""The session hub's reader (games/realtime/fanout.py) when the channel layer fails: it waits before it
tries again, longer each time, and once the layer is back it sends its sessions afresh and goes on."""

import asyncio

import pytest

from games.realtime import fanout


class FlakyLayer:
    """A channel layer that fails ``failures`` reads (Redis down), then has one message, then waits."""

    def __init__(self, failures: int):
        self.failures, self.reads, self.groups = failures, 0, []

    async def group_add(self, group, channel):
        self.groups.append((group, channel))

    async def receive(self, channel):
        self.reads += 1
        if self.reads <= self.failures:
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        if self.reads == self.failures + 1:
            return {"type": "table.changed", "session": 7, "table": 3, "seq": 9}
        await asyncio.Event().wait()


@pytest.mark.asyncio
async def test_a_failing_channel_layer_is_retried_with_growing_waits_then_read_again(monkeypatch):
    waits, delivered = [], []
    real_sleep = asyncio.sleep

    async def sleep(seconds):
        waits.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr(fanout.asyncio, "sleep", sleep)
    hub = fanout.SessionHub()
    hub.layer, hub.channel = FlakyLayer(failures=6), "specific.test"

    async def dispatch(message):
        delivered.append(message)

    hub.dispatch = dispatch
    resent = []
    hub.sessions[7], hub.sessions[8] = {object()}, {object()}
    hub._throttle = lambda session_id, staff_only, clocks_only=False: resent.append((session_id, staff_only))
    reader = asyncio.get_running_loop().create_task(hub._read())
    for _ in range(100):
        if delivered:
            break
        await real_sleep(0)
    reader.cancel()
    assert delivered == [{"type": "table.changed", "session": 7, "table": 3, "seq": 9}]
    assert waits == [0.5, 1.0, 2.0, 4.0, 8.0, 10.0], "each failure waits longer, up to 10 s"
    # Back: the hub joins its sessions' groups again (a Redis restarted empty has none), and sends every
    # local session afresh, since what was broadcast meanwhile never arrived.
    assert hub.layer.groups == [
        ("classplay.session.7", "specific.test"),
        ("classplay.session.8", "specific.test"),
    ]
    assert resent == [(7, False), (8, False)]
