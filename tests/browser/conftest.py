"""Fixtures of the browser tests: the built site served locally, Chromium, a fresh context per test.

Run with ``nox -s browser`` (after ``nox -s docs``), or directly:
``pytest tests/browser`` with ``LEARNJAX_SITE`` pointing at another build's ``html`` folder.
"""

from __future__ import annotations

import os

import pytest

from .harness import (
    CHROMIUM,
    CHROMIUM_ARGS,
    SCREENSHOTS,
    SITE,
    Console,
    SiteServer,
    missing_site_message,
    site_prefix,
)


@pytest.fixture(scope="session")
def site():
    """The built site's folder; fails every test at once when it has not been built."""
    message = missing_site_message(SITE)
    if message:
        pytest.fail(message, pytrace=False)
    return SITE


@pytest.fixture(scope="session")
def server(site):
    """The built site served for the whole session, at the path it is published under."""
    with SiteServer(site, site_prefix(site)) as server:
        yield server


@pytest.fixture(scope="session")
def base_url(server) -> str:
    """The site's root on the local server, e.g. ``http://127.0.0.1:PORT/learning-jax`` (no final /)."""
    return server.url


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium from the system (``LEARNJAX_CHROMIUM``, default /usr/bin/chromium)."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(
            f"No Chromium at {CHROMIUM}: install it (Debian: apt-get install chromium fonts-noto-cjk; "
            "nox -s browser does this as root) or set LEARNJAX_CHROMIUM to a Chromium binary.",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def open_context(browser, server):
    """Open a fresh browser context (empty storage) and its ``Console``: ``context, console = open_context()``.

    Keyword arguments go to ``browser.new_context`` (``locale="ko-KR"``, ``color_scheme=...``). Every
    context may read and write the clipboard, accepts downloads, and resolves ``page.goto("ko/...")``
    against the local server. Contexts close when the test ends.
    """
    opened = []

    def open_(**options):
        context = browser.new_context(
            base_url=server.url + "/",
            accept_downloads=True,
            permissions=["clipboard-read", "clipboard-write"],
            **{"viewport": {"width": 1280, "height": 900}, **options},  # a test may ask for another viewport
        )
        context.set_default_timeout(15_000)
        console = Console(server.origin)
        console.attach(context)
        opened.append(context)
        return context, console

    yield open_
    for context in opened:
        context.close()


@pytest.fixture
def browsing(open_context):
    """The default fresh context of a test and its console, as ``(context, console)``."""
    return open_context()


@pytest.fixture
def context(browsing):
    return browsing[0]


@pytest.fixture
def console(browsing) -> Console:
    """What went wrong in the test's pages so far: ``assert console.problems == []``."""
    return browsing[1]


@pytest.fixture
def page(context):
    return context.new_page()


@pytest.fixture(scope="session")
def screenshots():
    """The folder screenshots are kept in as test artifacts (created)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
