"""What the browser tests share: where the built site is, how to serve it, and what went wrong in a page.

The tests drive the system's Chromium (Debian's ``chromium`` package; ``nox -s browser`` installs it)
through Playwright, against the site that ``nox -s docs`` built, served on 127.0.0.1. They never
reach the network: a request for anything outside the local server is blocked and fails the test,
with no exception (the site serves all it uses, MathJax included), so a page behaves the same on a
laptop and on an offline CI machine, and a page that calls out is seen.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import urlsplit

from learnjax_tools.pages_server import PagesServer

ROOT = Path(__file__).resolve().parents[2]

SITE = Path(os.environ.get("LEARNJAX_SITE") or ROOT / "docs" / "_build" / "html")
"""The built site (``docs/_build/html``; ``LEARNJAX_SITE`` points elsewhere, e.g. a private build)."""

SCREENSHOTS = Path(os.environ.get("LEARNJAX_SCREENSHOTS") or SITE.parent / "screenshots")
"""Where screenshots are kept as artifacts: ``docs/_build/screenshots`` beside the site."""

CHROMIUM = os.environ.get("LEARNJAX_CHROMIUM", "/usr/bin/chromium")
"""The browser to drive; Playwright's own browser downloads are not used (CI cannot fetch them)."""

CHROMIUM_ARGS = [
    "--no-sandbox",  # CI runs as root, where Chromium's sandbox refuses to start
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
]

LANGUAGES = ("ko", "en")
LESSON = "origins/what-is-jax"
"""The lesson the single-page tests open (a lesson with math, plots, a solution and a program)."""

_HANGUL = re.compile(r"[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]")


def missing_site_message(site: Path = SITE) -> str | None:
    """Why the browser tests cannot run on ``site``, or None when both languages are built."""
    missing = [lang for lang in LANGUAGES if not (site / lang / "index.html").is_file()]
    if missing:
        return f"No built site at {site} (missing {', '.join(missing)}/index.html): run nox -s docs first."
    return None


def site_pages(site: Path = SITE) -> list[str]:
    """Every page of the built site, as paths relative to it (``ko/index.html``), the root page first.

    Sphinx's own folders (``_static``, ``_sources``, ``_images``) hold no pages a reader opens.
    """
    pages = sorted(
        path.relative_to(site).as_posix()
        for path in site.rglob("*.html")
        if not any(part.startswith("_") for part in path.relative_to(site).parts)
    )
    return sorted(pages, key=lambda page: page != "index.html")


def has_hangul(text: str) -> bool:
    """True when ``text`` holds a Hangul syllable or jamo.

    >>> has_hangul("jax.jit은 함수를 컴파일합니다"), has_hangul("jax.jit compiles a function")
    (True, False)
    """
    return bool(_HANGUL.search(text))


def docname_of(href: str) -> str:
    """The docname a link within one language's build points to, anchors and queries dropped.

    >>> docname_of("origins/what-is-jax.html?highlight=jit#tracing")
    'origins/what-is-jax'
    >>> docname_of("http://127.0.0.1:8000/ko/jit/index.html")
    'jit/index'
    """
    path = re.split(r"[?#]", href, maxsplit=1)[0]
    path = re.sub(r"^[a-z]+://[^/]+/(ko|en)/", "", path)
    return path.removesuffix(".html")


def published_prefix(canonical: str | None) -> str:
    """The path the site is published under, from a home page's canonical URL ('' for the root).

    >>> published_prefix("https://learning-jax.github.io/learning-jax/ko/index.html")
    '/learning-jax'
    >>> published_prefix("https://example.org/ko/index.html"), published_prefix(None)
    ('', '')
    """
    if not canonical:
        return ""
    return urlsplit(canonical).path.removesuffix("/ko/index.html").rstrip("/")


def site_prefix(site: Path = SITE) -> str:
    """Where the built site expects to be served: pages meant for any URL (404.html) link absolutely."""
    found = re.search(r'<link rel="canonical" href="([^"]+)"', (site / "ko" / "index.html").read_text(encoding="utf8"))
    return published_prefix(found.group(1) if found else None)


class SiteServer(PagesServer):
    """The built site over HTTP on 127.0.0.1 and a free port, under the path it is published at, served as
    GitHub Pages serves it (``learnjax_tools.pages_server``: gzip, content types, the 404 page).

    A page opened from ``file://`` is not what a reader gets (no ``fetch`` of the search index, no
    clipboard, no localStorage shared between pages), so the tests use a real, local server:
    ``origin`` is ``http://127.0.0.1:PORT`` and ``url`` the site's root there (``origin + prefix``).
    """


class Console:
    """What went wrong in the pages of one browser context, for tests to assert empty.

    * ``errors``: console messages of type error and uncaught exceptions, with where they came from;
    * ``failed_requests``: requests to the local server that failed or were answered with >= 400;
    * ``external_requests``: requests for anything outside the site, every one a finding (the site
      serves everything it uses, MathJax included); blocked, so nothing depends on the network.
      The console error a blocked load causes is not counted again in ``errors``.

    ``problems`` is all three; ``clear()`` starts afresh (e.g. per page visited).
    """

    def __init__(self, origin: str):
        self.origin = origin
        self.errors: list[str] = []
        self.failed_requests: list[str] = []
        self.external_requests: list[str] = []

    def is_local(self, url: str) -> bool:
        return url == self.origin or url.startswith(self.origin + "/")

    def attach(self, context) -> None:
        """Listen to every page of a Playwright ``BrowserContext`` and block requests to elsewhere."""
        context.route(lambda url: url.startswith(("http:", "https:")) and not self.is_local(url), self._block)
        context.on("console", self._on_console)
        context.on("weberror", lambda error: self.errors.append(f"uncaught: {error.error}"))
        context.on("requestfailed", self._on_request_failed)
        context.on("response", self._on_response)

    @property
    def problems(self) -> list[str]:
        outside = [f"request outside the site: {url}" for url in self.external_requests]
        return self.errors + self.failed_requests + outside

    def clear(self) -> None:
        self.errors.clear()
        self.failed_requests.clear()
        self.external_requests.clear()

    def _block(self, route) -> None:
        self.external_requests.append(route.request.url)
        route.abort("blockedbyclient")

    def _on_console(self, message) -> None:
        if message.type != "error":
            return
        where = message.location.get("url", "")
        if where in self.external_requests and "ERR_BLOCKED_BY_CLIENT" in message.text:
            return  # a load this harness blocked, already in external_requests
        line = message.location.get("lineNumber")
        self.errors.append(f"console error at {where or 'page'}:{line}: {message.text}")

    def _on_request_failed(self, request) -> None:
        if request.failure == "net::ERR_ABORTED":
            # The browser cancelled it: a page left before it finished loading (the root page's
            # redirect), or a fetch still in flight when the test went to another page (the search
            # dialog's snippet files). Not a failure of the site: a missing file is answered 404,
            # which _on_response records.
            return
        if self.is_local(request.url):
            self.failed_requests.append(f"{request.method} {request.url}: {request.failure}")

    def _on_response(self, response) -> None:
        if self.is_local(response.url) and response.status >= 400:
            self.failed_requests.append(f"{response.request.method} {response.url}: HTTP {response.status}")


def color_mode_script(mode: str) -> str:
    """An init script that makes pydata-sphinx-theme open every page in ``mode`` (light, dark, auto).

    The theme's switch stores the reader's choice in localStorage "mode" and reads it back before
    the page paints (its layout.html); setting it the same way is what a returning reader has.

    Frames without storage of their own (``about:blank``, ``data:``) are left alone.

    >>> color_mode_script("dark")
    'if (location.protocol.startsWith("http")) localStorage.setItem("mode", "dark");'
    """
    if mode not in ("light", "dark", "auto"):
        raise ValueError(f"unknown color mode {mode!r}")
    return f'if (location.protocol.startsWith("http")) localStorage.setItem("mode", "{mode}");'
