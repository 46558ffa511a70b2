"""Benchmark: a server process's CPU for one trip's news to its sessions' groups (Redis's channel layer).

    .venv/bin/python bench/group_send.py [--groups 4] [--processes 2] [--calls 3000] [--redis-url URL]

A script, not a test. Every trip of moves a web process commits is announced to each of its sessions'
groups in one ``RedisLayer.group_send_many``; a group holds one hub channel per server process serving the
session. This sets up ``--groups`` groups with ``--processes`` members each (this process's hub channel,
left out as the committing process's, and the others'), sends the same news ``--calls`` times, and prints
the sender's CPU (``time.process_time``) and wall time per call, and its round trips to Redis per call
(what the connection sent: a pipeline or a script is one), and Redis's own CPU per call (the emptying
included). The other processes' channels are emptied every 20 calls, so none fills up. Uses Redis's
database 3 (``--redis-url``); its keys are dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


async def run(args) -> dict:
    from config.channel_layers import RedisLayer

    layer = RedisLayer(hosts=[args.redis_url], prefix="bench-group-send")
    here = await layer.new_channel()
    others = [f"specific.process{n}!hub" for n in range(1, args.processes)]
    groups = [f"session-{n}" for n in range(args.groups)]
    for group in groups:
        for channel in (here, *others):
            await layer.group_add(group, channel)
    news = [
        (group, {"type": "table.changed", "session": n, "table": n, "seq": 1, "at": time.time()}, here)
        for n, group in enumerate(groups)
    ]
    await layer.group_send_many(news)  # (the script loaded, the members read)
    redis = layer.connection(0)
    trips = _count_round_trips()
    redis_cpu = await _redis_cpu(redis)
    cpu, wall, sent = time.process_time(), time.perf_counter(), 0
    for number in range(args.calls):
        before = trips["sent"]
        await layer.group_send_many(news)
        sent += trips["sent"] - before
        if number % 20 == 0:  # (nobody reads the other processes' channels: they must not fill up)
            await redis.delete(*{layer.prefix + layer.non_local_name(other) for other in others})
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    redis_cpu = await _redis_cpu(redis) - redis_cpu
    await layer.flush()
    await layer.close_pools()
    return {
        "groups": args.groups,
        "processes": args.processes,
        "calls": args.calls,
        "cpu_ms_per_call": round(1000 * cpu / args.calls, 3),
        "wall_ms_per_call": round(1000 * wall / args.calls, 3),
        "redis_round_trips_per_call": round(sent / args.calls, 2),
        "redis_cpu_ms_per_call": round(1000 * redis_cpu / args.calls, 3),
    }


async def _redis_cpu(redis) -> float:
    """Redis's own CPU seconds so far (the whole server's: run it on a Redis nothing else uses)."""
    info = await redis.info("cpu")
    return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])


def _count_round_trips() -> dict[str, int]:
    """Counts what redis-py's connections send (each send is one round trip: a command, a pipeline)."""
    from redis.asyncio.connection import AbstractConnection

    counted = {"sent": 0}
    original = AbstractConnection.send_packed_command

    async def send_packed_command(self, command, check_health=True):
        counted["sent"] += 1
        return await original(self, command, check_health)

    AbstractConnection.send_packed_command = send_packed_command
    return counted


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=4, help="sessions a trip's news goes to")
    parser.add_argument("--processes", type=int, default=2, help="server processes serving each session")
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/3")
    args = parser.parse_args()
    import django

    django.setup()
    print(json.dumps(asyncio.run(run(args))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
