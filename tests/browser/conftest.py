"""Playwright driving Debian's chromium (a browser download does not work on school-like networks or here)."""

import os

import pytest

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def chromium_path() -> str:
    return os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")


@pytest.fixture(scope="module")
def browser():
    """Chromium for one test module. Playwright's sync API runs an event loop in the test thread while
    the test's own ORM calls stay sync, so Django's async-safety check is off for exactly this module."""
    path = chromium_path()
    if not os.access(path, os.X_OK):
        if os.environ.get("CLASSPLAY_REQUIRE_SERVICES") == "1":
            pytest.fail(f"chromium is required in CI but missing at {path}")
        pytest.skip(f"no chromium at {path} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
            yield browser
            browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def new_page(browser):
    """``new_page(viewport=...)``: a page in a fresh browser context (its own cookies: another device).
    Whatever the test, nothing a page loads or runs may be refused by its Content-Security-Policy."""
    contexts, refused = [], []

    def make(width=1366, height=768):
        context = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
        # 20 s, not 10: in CI two workers' browsers and live servers share two cores (load 9 and more),
        # and a student's join, page and first view once took longer than 10 s there.
        context.set_default_timeout(20_000)
        contexts.append(context)
        page = context.new_page()
        page.on("console", lambda message: _note_refusal(refused, page, message))
        return page

    yield make
    for context in contexts:
        context.close()
    assert refused == [], "the Content-Security-Policy refused something a page needs"


def _note_refusal(refused: list, page, message) -> None:
    if message.type == "error" and "Content Security Policy" in message.text:
        refused.append(f"{page.url}: {message.text}")


@pytest.fixture
def live_site(transactional_db):
    """The whole product served as in production: config.asgi's HTTP and websocket routes under uvicorn,
    in a thread of this process (so it shares the test database and channel layer), with the game clock
    running beside it. Yields the base URL."""
    import socket
    import threading
    import time

    import uvicorn
    from channels.routing import ProtocolTypeRouter, URLRouter
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.core.asgi import get_asgi_application

    from games import clock
    from games.realtime.consumers import SERVER_MAX_MESSAGE_BYTES
    from games.realtime.routing import build_websocket_application

    app = ProtocolTypeRouter(
        {
            "http": ASGIStaticFilesHandler(get_asgi_application()),
            "websocket": build_websocket_application(URLRouter),
        }
    )
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            lifespan="off",
            log_level="warning",
            ws="auto",  # as the Procfile serves it (websockets-sansio with this uvicorn)
            ws_per_message_deflate=False,  # nor permessage-deflate
            ws_max_size=SERVER_MAX_MESSAGE_BYTES,  # and its frame limit
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    stop_clock = clock.start_in_thread()
    deadline = time.monotonic() + 15
    while not server.started:
        assert time.monotonic() < deadline, "the test server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
    stop_clock.stop()


@pytest.fixture
def signed_in(new_page):
    """``signed_in(base_url, user=... | student=..., width, height)``: a device whose session cookie signs
    in that teacher or student (the sign-in pages themselves are tested in test_foundation_flow)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    from classrooms.middleware import STUDENT_SESSION_KEY

    def make(base_url, *, user=None, student=None, width=1366, height=768):
        store = import_module(settings.SESSION_ENGINE).SessionStore()
        if user is not None:
            store[SESSION_KEY] = str(user.pk)
            store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        if student is not None:
            store[STUDENT_SESSION_KEY] = student.pk
        store.save()
        page = new_page(width=width, height=height)
        cookie = {"name": settings.SESSION_COOKIE_NAME, "value": store.session_key, "url": base_url}
        page.context.add_cookies([cookie])
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        return page

    return make
