"""Handing work to Redis (the Celery broker, the channel layer) without waiting on it while it is down.

The clock fires deadlines from the database; after each it queues the learning facts' recording and
tells the screens. With Redis down, each of those calls waited for Redis's own retries (Celery's
result store alone retries for about 19 s), and the clock with them: deadlines stopped firing. Now a
failure marks the service down for a few seconds, calls meanwhile are skipped at once, and the game
goes on from the database. What is skipped is made good: a session's wrap-up records every fact its
queued tasks missed (and the clock re-queues a lost wrap-up), and screens catch up on their next
message or when they reconnect.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Awaitable, Callable, Hashable

from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

#: Errors that say the service cannot be reached (so the next calls are skipped for a while). Anything
#: else is a fault of this call alone: logged, and the service is asked again next time.
UNREACHABLE = (OSError, TimeoutError, RedisError, BrokerError)

#: After a failure, the service is asked again only after this many seconds.
RETRY_AFTER = {"broker": 10.0, "channel layer": 2.0}
_down_until: dict[str, float] = {}
#: Calls skipped while their service was down, the latest per key, sent once it may be asked again:
#: a broadcast skipped in that window would otherwise reach no screen until the next change.
_pending: dict[str, dict[Hashable, Callable[[], object]]] = {}
_flushes: dict[str, threading.Timer] = {}
_lock = threading.Lock()


def is_down(service: str) -> bool:
    return time.monotonic() < _down_until.get(service, 0.0)


def reset() -> None:
    """Forget every failure and every skipped call (tests)."""
    with _lock:
        _down_until.clear()
        _pending.clear()
        for timer in _flushes.values():
            timer.cancel()
        _flushes.clear()


def attempt(
    service: str,
    call: Callable[[], object],
    *,
    even_if_down: bool = False,
    resend_key: Hashable | None = None,
) -> bool:
    """Run ``call`` unless ``service`` failed moments ago (``even_if_down``: a rare call that is worth
    a try all the same); an error reaching it marks it down. True if it ran. A call with a
    ``resend_key`` that could not run is made once the service may be asked again (only the latest
    call of each key: a screen needs the last news, not every one)."""
    if not may_try(service, call, even_if_down=even_if_down, resend_key=resend_key):
        return False
    try:
        call()
    except Exception as error:
        failed(service, error, call, resend_key=resend_key)
        return False
    succeeded(service)
    return True


async def attempt_async(
    service: str, call: Callable[[], Awaitable[object]], resend: Callable[[], object], resend_key: Hashable
) -> bool:
    """:func:`attempt` for a call made on the event loop (the broadcasts collected during a trip to the
    database thread): ``call`` is awaited there; ``resend`` is its blocking twin, made later from a timer
    thread if the service is down."""
    if not may_try(service, resend, resend_key=resend_key):
        return False
    try:
        await call()
    except Exception as error:
        failed(service, error, resend, resend_key=resend_key)
        return False
    succeeded(service)
    return True


def may_try(
    service: str,
    call: Callable[[], object],
    *,
    even_if_down: bool = False,
    resend_key: Hashable | None = None,
) -> bool:
    """Whether to make ``call`` now: not while ``service`` is marked down (the call is then kept to be
    made later when it has a ``resend_key``)."""
    if is_down(service) and not even_if_down:
        if resend_key is not None:
            _resend_later(service, resend_key, call)
        return False
    return True


def failed(
    service: str, error: Exception, call: Callable[[], object], *, resend_key: Hashable | None = None
) -> None:
    """``call`` to ``service`` raised ``error``: an unreachable service is marked down for a while (and
    the call kept to be made again); any other error is this call's fault alone, logged."""
    if not isinstance(error, UNREACHABLE):  # not the service's fault: the next calls go ahead
        logger.error("a call to the %s failed (the game goes on from the database)", service, exc_info=error)
        return
    # The move is committed all the same.
    _down_until[service] = time.monotonic() + RETRY_AFTER[service]
    if resend_key is not None:
        _resend_later(service, resend_key, call)
    logger.warning(
        "%s unreachable: skipping it for %.0f s (the game goes on from the database)",
        service,
        RETRY_AFTER[service],
        exc_info=error,
    )


def succeeded(service: str) -> None:
    _down_until.pop(service, None)


def _resend_later(service: str, key: Hashable, call: Callable[[], object]) -> None:
    with _lock:
        _pending.setdefault(service, {})[key] = call
        if service in _flushes:
            return
        wait = max(0.0, _down_until.get(service, 0.0) - time.monotonic()) + 0.05
        timer = threading.Timer(wait, _resend, args=(service,))
        timer.daemon = True
        _flushes[service] = timer
    timer.start()


def _resend(service: str) -> None:
    with _lock:
        _flushes.pop(service, None)
        calls = _pending.pop(service, {})
    for key, call in calls.items():
        attempt(service, call, resend_key=key)
