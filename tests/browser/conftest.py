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
    """``new_page(viewport=...)``: a page in a fresh browser context (its own cookies: another device)."""
    contexts = []

    def make(width=1366, height=768):
        context = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
