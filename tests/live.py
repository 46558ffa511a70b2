"""Real server processes for tests that run Classplay as production does: free ports, waiting for a
process to listen, killing it as a crash would, session cookies for a student or a member of staff, and a
websocket device that keeps every message it gets."""

import asyncio
import json
import signal
import socket
import subprocess
import time
from importlib import import_module

from django.conf import settings

#: A websocket handshake on a busy CI machine (test workers and a browser on two cores) can take more than
#: the channels communicator's 1 s default; a test waiting that little failed now and then.
CONNECT_TIMEOUT = 10


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def until_listening(port: int, process: subprocess.Popen, what: str, seconds: float) -> None:
    """Wait until ``process`` accepts connections on ``port`` (failing if it exits or takes too long)."""
    deadline = time.monotonic() + seconds
    while True:
        if process.poll() is not None:
            output = process.stderr.read().decode()[-2000:] if process.stderr else ""
            raise AssertionError(f"{what} exited: {output}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            assert time.monotonic() < deadline, f"{what} did not start"
            time.sleep(0.05)


def kill(process: subprocess.Popen | None) -> None:
    """Without warning (SIGKILL), as a crash would."""
    if process and process.poll() is None:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)


def cookie(**values) -> str:
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    for key, value in values.items():
        store[key] = value
    store.save()
    return f"{settings.SESSION_COOKIE_NAME}={store.session_key}"


def student_cookie(student) -> str:
    from classrooms.middleware import STUDENT_SESSION_KEY

    return cookie(**{STUDENT_SESSION_KEY: student.pk})


def teacher_cookie(user) -> str:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    return cookie(
        **{
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
            HASH_SESSION_KEY: user.get_session_auth_hash(),
        }
    )


class Client:
    """A device: one websocket, every message kept, the last sequence number per table."""

    def __init__(self, base: str, session_id: int, cookie: str, role: str, *, ssl=None, origin=None):
        self.url = f"{base}/ws/sessions/{session_id}/?as={role}"
        self.cookie, self.messages, self.last_seq = cookie, [], {}
        self.ssl, self.origin = ssl, origin or "http://127.0.0.1"

    async def connect(self):
        import websockets

        self.socket = await websockets.connect(
            self.url, additional_headers=[("Cookie", self.cookie), ("Origin", self.origin)], ssl=self.ssl
        )
        await self.socket.send(json.dumps({"type": "hello", "last_seq": self.last_seq}))
        return self

    async def until(self, predicate, timeout=10):
        end = time.monotonic() + timeout
        while True:
            raw = await asyncio.wait_for(self.socket.recv(), timeout=max(0.05, end - time.monotonic()))
            message = json.loads(raw)
            # A bundle carries several messages in one frame (a session change with its tables).
            for inner in message["messages"] if message["type"] == "bundle" else [message]:
                self.messages.append(inner)
                if inner["type"] == "table":
                    self.last_seq[str(inner["table"])] = inner["seq"]
                if predicate(inner):
                    return inner

    async def act(self, table_id, key, action):
        await self.socket.send(
            json.dumps({"type": "action", "table": table_id, "key": key, "action": action})
        )
        return await self.until(lambda m: m.get("key") == key)
