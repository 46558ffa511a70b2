"""A websocket message larger than the server's frame limit closes the connection before it is read
whole (a flood of 10 MB messages once grew the server by 400 MB); every way of serving sets that limit."""

import asyncio
import pathlib
import re

import pytest
import websockets

from games.realtime.consumers import MAX_MESSAGE_BYTES, SERVER_MAX_MESSAGE_BYTES

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("procfile", ["Procfile", "Procfile.dev"])
def test_every_procfile_serves_with_the_frame_limit(procfile):
    web = next(line for line in (ROOT / procfile).read_text().splitlines() if line.startswith("web:"))
    match = re.search(r"--ws-max-size (\d+)", web)
    assert match and int(match.group(1)) == SERVER_MAX_MESSAGE_BYTES
    assert MAX_MESSAGE_BYTES < SERVER_MAX_MESSAGE_BYTES


def test_the_server_leaves_forwarded_addresses_to_the_site():
    """uvicorn would trust X-Forwarded-For from any loopback client: it passes the connection's own
    address, and config.proxy trusts the header from TRUSTED_PROXY_IPS only (tests/security/test_proxy.py)."""
    lines = [(ROOT / name).read_text().splitlines() for name in ("Procfile", "Procfile.dev")]
    lines.append((ROOT / "deploy/systemd/classplay-web@.service").read_text().splitlines())
    for text in lines:
        web = next(line for line in text if line.startswith(("web:", "ExecStart=")))
        assert "--no-proxy-headers" in web and "--forwarded-allow-ips" not in web


@pytest.mark.django_db(transaction=True)
def test_a_message_over_the_limit_closes_the_connection_unread(live_site, ava):
    from importlib import import_module

    from django.conf import settings

    from classrooms.middleware import STUDENT_SESSION_KEY

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[STUDENT_SESSION_KEY] = ava.pk
    store.save()
    cookie = f"{settings.SESSION_COOKIE_NAME}={store.session_key}"
    url = live_site.replace("http://", "ws://") + "/ws/me/"

    async def send(size: int):
        headers = {"Cookie": cookie}
        async with websockets.connect(url, origin=live_site, additional_headers=headers, max_size=None) as ws:
            await ws.send("x" * size)
            try:
                await asyncio.wait_for(ws.recv(), timeout=2)
            except TimeoutError:
                return None  # still open: the message was read (and ignored)
            except websockets.ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else 1006
            return None

    assert asyncio.run(send(SERVER_MAX_MESSAGE_BYTES // 2)) is None
    assert asyncio.run(send(SERVER_MAX_MESSAGE_BYTES * 16)) == 1009
