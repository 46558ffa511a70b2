"""What the live games tell the site's operators (served at ``/metrics``, config/metrics.py).

Each figure is one ``inc``/``dec``/``observe`` on the event loop: no lock of ours, no database, no I/O (a
few microseconds, see tests/test_metrics.py). With ``PROMETHEUS_MULTIPROC_DIR`` set (several web
processes, docs/deploy.md) prometheus_client writes them to a memory-mapped file per process instead.
"""

from __future__ import annotations

from prometheus_client import Gauge, Histogram

#: Game connections this process holds, by kind of screen. ``liveall``: one series per live process.
LIVE_CONNECTIONS = Gauge(
    "classplay_live_connections",
    "Game websocket connections held by this web process, by role (player, teacher, projector).",
    ["role"],
    multiprocess_mode="liveall",
)
ROLES = ("player", "teacher", "projector")
#: The children made once, so a connect or disconnect does no label look-up.
_LIVE_BY_ROLE = {role: LIVE_CONNECTIONS.labels(role=role) for role in ROLES}

FANOUT_LAG = Histogram(
    "classplay_fanout_lag_seconds",
    "From a table's change being committed to its new views sent to every device of this process that "
    "watches it (channel layer, coalescing and the sends included).",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.75, 1.0, 2.0, 5.0, 10.0),
)

MOVE_ACK = Histogram(
    "classplay_move_ack_seconds",
    "From a move arriving on a device's websocket to its acknowledgement being sent (validation, the "
    "database write and the batching included).",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0),
)


def connection_opened(role: str | None) -> None:
    child = _LIVE_BY_ROLE.get(role or "")
    if child is not None:
        child.inc()


def connection_closed(role: str | None) -> None:
    child = _LIVE_BY_ROLE.get(role or "")
    if child is not None:
        child.dec()
