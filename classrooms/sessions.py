"""Django's database sessions, telling the device cache when a session changes or goes
(``classrooms.device_cache``: a game socket reads the device's session from the cache)."""

from django.contrib.sessions.backends import db

from . import device_cache


class SessionStore(db.SessionStore):
    def save(self, must_create: bool = False) -> None:
        super().save(must_create=must_create)
        device_cache.forget_device(self.session_key)

    def delete(self, session_key: str | None = None) -> None:
        key = session_key or self.session_key
        super().delete(session_key)
        device_cache.forget_device(key)
