"""The deployment kit (deploy/) runs as written: nginx from its own site file in front of the web units'
uvicorn processes (two, one per port, as classplay.target starts them), with the clock, the Celery worker
and beat started from their units, all configured from the example environment file. A teacher signs in
through the proxy over TLS, students play over secure websockets, and /healthz reports every part alive
(to a monitor on the server; through the proxy it says "ok" only).

tests/kit.py starts the kit's files as they are, but for what a test machine must change (paths, ports,
the example's placeholders)."""

import asyncio
import contextlib
import json
import os
import re
import shutil
import ssl
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import timedelta
from http.cookiejar import CookieJar
from pathlib import Path

import psutil
import pytest
import websockets
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connection
from django.utils import timezone

from games import services
from games.models import GameTable, TableLogEntry
from tests.kit import Kit, make_certificate, nginx_binary, nginx_site
from tests.live import Client, free_port, student_cookie, teacher_cookie

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
REQUIRED = os.environ.get("CLASSPLAY_REQUIRE_SERVICES") == "1"
PASSWORD = "a-long-test-password-1"


@pytest.fixture
def kit_tools():
    missing = [
        tool
        for tool in ("nginx", "openssl")
        if not (shutil.which(tool) or Path(f"/usr/sbin/{tool}").exists())
    ]
    if not settings.REDIS_URL or connection.vendor != "postgresql":
        missing.append("REDIS_URL and a PostgreSQL DATABASE_URL")
    if missing and REQUIRED:
        pytest.fail(f"the deployment kit test needs {', '.join(missing)} in CI")
    if missing:
        pytest.skip(f"the deployment kit test needs {', '.join(missing)} (apt-get install nginx)")


@pytest.fixture
def kit(kit_tools, tmp_path):
    running = Kit(tmp_path)
    db = connection.settings_dict
    running.configure(
        # The test's own key, so the students' session cookies made here are good there too.
        SECRET_KEY=settings.SECRET_KEY,
        ALLOWED_HOSTS="127.0.0.1",
        CSRF_TRUSTED_ORIGINS=running.base,
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        REDIS_URL=settings.REDIS_URL,
        CLASSPLAY_CLOCK_IN_PROCESS="0",
        STATIC_ROOT=str(tmp_path / "static"),
        DJANGO_SETTINGS_MODULE="config.settings",
    ).start()
    yield running
    running.stop()


class Browser:
    """A browser's requests over TLS (the test certificate is self-signed), keeping its cookies."""

    def __init__(self, base: str):
        tls = ssl.create_default_context()
        tls.check_hostname, tls.verify_mode = False, ssl.CERT_NONE
        self.base, self.tls = base, tls
        self.cookies = CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPSHandler(context=tls), urllib.request.HTTPCookieProcessor(self.cookies)
        )

    def cookie_header(self) -> str:
        return "; ".join(f"{cookie.name}={cookie.value}" for cookie in self.cookies)

    def get(self, path: str):
        return self._open(urllib.request.Request(self.base + path))

    def post(self, path: str, data: dict):
        body = urllib.parse.urlencode(data).encode()
        return self._open(
            urllib.request.Request(self.base + path, data=body, headers={"Referer": self.base + path})
        )

    def _open(self, request):
        try:
            response = self.opener.open(request, timeout=30)
        except urllib.error.HTTPError as error:
            response = error
        response.text = response.read().decode()
        return response


def sign_in(kit: Kit, email: str) -> Browser:
    browser = Browser(kit.base)
    page = browser.get("/accounts/login/")
    assert page.status == 200
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    signed_in = browser.post(
        "/accounts/login/", {"csrfmiddlewaretoken": token, "login": email, "password": PASSWORD}
    )
    errors = re.findall(r'class="[^"]*error[^"]*"[^>]*>(.*?)</', signed_in.text, flags=re.S)
    assert signed_in.status == 200 and "/accounts/login/" not in signed_in.url, errors
    return browser


def healthy(kit: Kit, seconds: float) -> dict:
    """/healthz through the proxy, once the clock and the worker have beaten (beat queues the worker's)."""
    browser = Browser(kit.base)
    deadline = time.monotonic() + seconds
    while True:
        report = json.loads(browser.get("/healthz").text)
        if report["status"] == "ok" or time.monotonic() > deadline:
            return report
        time.sleep(0.5)


def local_health(kit: Kit) -> dict:
    """/healthz asked of a web process by a monitor on the server itself (plain HTTP, not through the
    proxy): the one caller, with site staff, that is told which part is alive."""
    port = next(iter(kit.web_ports.values()))
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as failing:
        return json.loads(failing.read())


def started_lineup(classroom, teacher, students, settings=None):
    """A Line Up! session of these students, started by their teacher, and its one table."""
    session = services.session_schedule(
        classroom=classroom,
        by=teacher,
        game="lineup",
        scheduled_for=timezone.now() + timedelta(minutes=1),
        settings=settings,
    )
    services.session_open_lobby(session=session, by=teacher)
    for student in students:
        services.session_join(session=session, student=student)
    services.session_start(session=session, by=teacher)
    return session, GameTable.objects.get(session=session)


def _wss(kit: Kit) -> tuple[ssl.SSLContext, str]:
    """The kit's self-signed TLS as a device that trusts it, and its websocket address."""
    tls = ssl.create_default_context()
    tls.check_hostname, tls.verify_mode = False, ssl.CERT_NONE
    return tls, kit.base.replace("https://", "wss://")


def test_the_kit_serves_a_lesson_through_the_proxy(kit, class_7b, ms_rivera, ava, ben):
    # The production server hashes as production does (the test settings use a fast hasher it lacks).
    ms_rivera.password = PBKDF2PasswordHasher().encode(PASSWORD, PBKDF2PasswordHasher().salt())
    ms_rivera.save()
    browser = sign_in(kit, ms_rivera.email)
    dashboard = browser.get("/")
    assert dashboard.status == 200 and class_7b.name in dashboard.text
    assert dashboard.headers["Strict-Transport-Security"]  # DEBUG off: production headers
    assert "uvicorn" not in (dashboard.headers["Server"] or "")

    session, table = started_lineup(class_7b, ms_rivera, [ava, ben])
    tls, websocket_base = _wss(kit)
    # The teacher's console uses the browser's own sign-in; the students' devices signed in at /join/.
    cookies = [browser.cookie_header(), student_cookie(ava), student_cookie(ben)]

    async def lesson():
        teacher, *students = [
            await Client(websocket_base, session.pk, cookie, role, ssl=tls, origin=kit.base).connect()
            for cookie, role in zip(cookies, ("teacher", "student", "student"), strict=True)
        ]
        for device in [teacher, *students]:
            await device.until(lambda m: m["type"] == "table")
        ack = await students[0].act(table.pk, "kit-1", {"type": "rack", "order": [2, 1, 3, 4, 5]})
        assert ack["type"] == "ack", ack
        # Two web processes behind one proxy: every device sees the move, whichever process it reached.
        await teacher.until(lambda m: m["type"] == "table" and m["seq"] == ack["seq"])
        await students[1].until(lambda m: m["type"] == "table" and m["seq"] == ack["seq"])
        for device in [teacher, *students]:
            await device.socket.close()

    asyncio.run(lesson())
    report = healthy(kit, seconds=90)
    details = local_health(kit)
    assert report == {"status": "ok"}, (report, details, kit.log_tails())  # the public: no names behind it
    assert {"database", "redis", "clock", "worker"} <= set(details["checks"])


def test_the_kit_site_file_works_with_the_nginx_of_debian_stable(kit_tools, tmp_path):
    """`http2 on;` needs nginx 1.25; Debian 12 ships 1.22, where `listen ... ssl http2` is the way."""
    site = nginx_site(tmp_path, http_port=free_port(), https_port=free_port(), web_ports={8001: free_port()})
    make_certificate(tmp_path)
    (tmp_path / "nginx.conf").write_text(f"error_log {tmp_path}/error.log;\nevents {{}}\nhttp {{ {site} }}\n")
    command = [nginx_binary(), "-t", "-p", str(tmp_path), "-c", f"{tmp_path}/nginx.conf"]
    result = subprocess.run(command, capture_output=True, text=True)
    assert result.returncode == 0 and "unknown directive" not in result.stderr, result.stderr


def web_connections(kit: Kit) -> dict[str, int]:
    """Each web unit whose process is listening, with how many connections from the proxy it holds now."""
    held = {}
    for unit, process in kit.webs.items():
        try:
            connections = psutil.Process(process.pid).net_connections(kind="tcp")
        except psutil.Error:  # the killed one, until it is started again
            continue
        port = kit.web_ports[unit]
        if any(c.status == psutil.CONN_LISTEN and c.laddr.port == port for c in connections):
            held[unit] = sum(
                c.status == psutil.CONN_ESTABLISHED and c.laddr.port == port for c in connections
            )
    return held


def until_connections(kit: Kit, enough, seconds: float = 30) -> dict[str, int]:
    """Wait until the web units' connections are ``enough`` (a test of the dict)."""
    deadline = time.monotonic() + seconds
    while not enough(held := web_connections(kit)):
        assert time.monotonic() < deadline, (held, kit.log_tails())
        time.sleep(0.2)
    return held


class Device(Client):
    """A device as static/js/live.js behaves: a lost connection is opened again through the proxy (the
    hello resyncs from its last sequence numbers), and a move not yet acknowledged is sent again under
    the same key."""

    reconnects = 0

    async def reconnect(self):
        self.reconnects += 1
        return await self.connect()

    async def send_move(self, table_id, key, action) -> None:
        message = json.dumps({"type": "action", "table": table_id, "key": key, "action": action})
        with contextlib.suppress(websockets.ConnectionClosed):  # then ``acked`` sends it again
            await self.socket.send(message)

    async def play(self, table_id, key, action) -> dict:
        await self.send_move(table_id, key, action)
        return await self.acked(table_id, key, action)

    async def acked(self, table_id, key, action) -> dict:
        for _attempt in range(3):
            try:
                return await self.until(lambda m: m.get("key") == key, timeout=30)
            except websockets.ConnectionClosed:
                await self.reconnect()
                await self.send_move(table_id, key, action)
        raise AssertionError(f"{key} was never acknowledged")

    async def sees(self, table_id, seq) -> None:
        for _attempt in range(3):
            if self.last_seq.get(str(table_id), 0) >= seq:
                return
            try:
                await self.until(
                    lambda m: m["type"] == "table" and m["table"] == table_id and m["seq"] >= seq, 30
                )
                return
            except websockets.ConnectionClosed:
                await self.reconnect()
        raise AssertionError(f"never saw #{seq}")


def test_a_web_process_killed_mid_play_loses_no_move_and_gets_devices_again_once_restarted(
    kit, class_7b, ms_rivera, ava, ben
):
    """kill -9 of the web process that holds a game's websockets (nginx sends a session's devices to one
    process, by a hash of the session), with moves in flight: its devices reconnect through nginx to the
    other process, every acknowledged move is in the table's log exactly once; once systemd has started
    it again, nginx sends it the session's next device (its home again)."""
    # No deadline fires while the test plays.
    session, table = started_lineup(class_7b, ms_rivera, [ava, ben], settings={"answer_seconds": 300})
    tls, websocket_base = _wss(kit)
    orders = iter(
        [[2, 1, 3, 4, 5], [3, 1, 2, 4, 5], [1, 3, 2, 4, 5], [4, 1, 2, 3, 5], [1, 2, 4, 3, 5], [5, 1, 2, 3, 4],
         [1, 2, 3, 5, 4]]
    )  # fmt: skip
    acks: dict[str, dict] = {}
    cookies = [teacher_cookie(ms_rivera), student_cookie(ava), student_cookie(ben)]

    def device(cookie, role):
        return Device(websocket_base, session.pk, cookie, role, ssl=tls, origin=kit.base).connect()

    async def lesson():
        # No page was fetched through the proxy yet, so the only connections the processes hold are these.
        teacher, *students = [
            await device(cookie, role)
            for cookie, role in zip(cookies, ("teacher", "student", "student"), strict=True)
        ]
        for screen in [teacher, *students]:
            await screen.until(lambda m: m["type"] == "table")
        for number, student in enumerate(students):
            key, action = f"before-{number}", {"type": "rack", "order": next(orders)}
            acks[key] = await student.play(table.pk, key, action)

        held = await asyncio.to_thread(until_connections, kit, lambda held: sum(held.values()) == 3)
        assert len(held) == 2 and sorted(held.values()) == [0, 3], held  # one process holds the game
        doomed = max(held, key=held.get)
        # Moves in flight: sent, not yet acknowledged, when the process dies without warning.
        in_flight = {}
        for number, student in enumerate(students):
            key, action = f"in-flight-{number}", {"type": "rack", "order": next(orders)}
            in_flight[key] = (student, action)
            await student.send_move(table.pk, key, action)
        os.kill(kit.webs[doomed].pid, 9)
        for key, (student, action) in in_flight.items():
            acks[key] = await student.acked(table.pk, key, action)
        for number, student in enumerate(students):
            key, action = f"after-{number}", {"type": "rack", "order": next(orders)}
            acks[key] = await student.play(table.pk, key, action)
        last = max(ack["seq"] for ack in acks.values())
        for screen in [teacher, *students]:
            await screen.sees(table.pk, last)
        assert sum(screen.reconnects for screen in [teacher, *students]) >= 1
        survivor = await asyncio.to_thread(web_connections, kit)
        assert list(survivor) != [doomed] and sum(survivor.values()) == 3, survivor

        # systemd starts the unit again (Restart=always); the next device to connect goes to it.
        await asyncio.to_thread(kit.start_web, doomed)
        projector = await device(cookies[0], "projector")
        await projector.until(lambda m: m["type"] == "table")
        held = await asyncio.to_thread(until_connections, kit, lambda held: sum(held.values()) == 4)
        assert held[doomed] == 1, held
        key, action = "restarted", {"type": "rack", "order": next(orders)}
        acks[key] = await students[0].play(table.pk, key, action)
        await projector.sees(table.pk, acks[key]["seq"])  # a move on one process reaches the other's screens
        for screen in [teacher, *students, projector]:
            await screen.socket.close()

    asyncio.run(lesson())
    assert all(ack["type"] == "ack" for ack in acks.values()), acks
    logged = list(
        TableLogEntry.objects.filter(table=table, kind=TableLogEntry.Kind.ACTION).values_list(
            "idempotency_key", "seq"
        )
    )
    keys = [key for key, _seq in logged]
    assert sorted(keys) == sorted(acks)  # each acknowledged move once, and nothing else
    assert {key: seq for key, seq in logged} == {key: ack["seq"] for key, ack in acks.items()}
