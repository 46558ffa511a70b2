"""Redis as the cache, but never the reason a page fails: while Redis cannot be reached, every cache call
goes to the database's cache table instead (so rate limits on sign-in still hold, across processes),
and back to Redis once it answers again. Sign-in pages returned 500 for as long as Redis was down."""

from __future__ import annotations

import logging
import time

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

#: After a failure, Redis is asked again only after this many seconds (no timeout paid on every call).
RETRY_AFTER = 5.0
_METHODS = (
    "add", "get", "set", "touch", "delete", "get_many", "has_key", "incr", "decr",
    "set_many", "delete_many", "clear", "get_or_set",
)  # fmt: skip


class FailSoftRedisCache(RedisCache):
    """``OPTIONS["FALLBACK"]`` names the cache alias used while Redis is down (the database cache)."""

    def __init__(self, server, params):
        options = dict(params.get("OPTIONS") or {})
        self._fallback_alias = options.pop("FALLBACK", "fallback")
        super().__init__(server, {**params, "OPTIONS": options})
        self._down_until = 0.0

    def _fallback(self):
        return caches[self._fallback_alias]


def _fail_soft(name):
    redis_method = getattr(RedisCache, name)

    def method(self, *args, **kwargs):
        if time.monotonic() >= self._down_until:
            try:
                return redis_method(self, *args, **kwargs)
            except (RedisError, ConnectionError, OSError):
                self._down_until = time.monotonic() + RETRY_AFTER
                logger.warning("Redis cache unreachable: using the database cache for %.0f s", RETRY_AFTER)
        return getattr(self._fallback(), name)(*args, **kwargs)

    method.__name__ = name
    return method


for _name in _METHODS:
    setattr(FailSoftRedisCache, _name, _fail_soft(_name))
