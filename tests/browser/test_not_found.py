"""404 pages served under a path other than the published one, at a depth: styled, links that work.

GitHub Pages answers a miss with the root 404.html; a local server or another host may serve the
site under any path, and a server may answer with a language's 404 page. Both must work there."""

from __future__ import annotations

import pytest
from learnjax_tools.pages_server import PagesServer

from .harness import LANGUAGES, Console

ELSEWHERE = "/elsewhere/deeper"
"""A base path the site was not built for."""


def console_urls(console: Console) -> set[str]:
    """The URLs of the failed requests a ``Console`` saw ("GET URL: HTTP 404")."""
    return {failed.split(" ")[1].rstrip(":") for failed in console.failed_requests}


@pytest.fixture
def open_missing(browser, site, screenshots):
    """Open a missing address under ELSEWHERE on a server answering with ``not_found``: (page, console, server)."""
    opened = []

    def open_(not_found: str, missing: str, width: int = 1280):
        server = PagesServer(site, ELSEWHERE, not_found=not_found).__enter__()
        context = browser.new_context(viewport={"width": width, "height": 900})
        console = Console(server.origin)
        console.attach(context)
        opened.append((server, context))
        page = context.new_page()
        address = f"{server.url}/{missing}"
        response = page.goto(address)
        assert response.status == 404
        page.wait_for_load_state("networkidle")
        # The 404 of the missing address itself is the point. Chromium's preload scanner also fetches the
        # page's resources relative to the missing address before the first script sets <base> (a known
        # limit: 404s in the network log, nothing lost); each such URL must then have loaded from the site.
        folder = address.rsplit("/", 1)[0] + "/"
        speculative = {url for url in console_urls(console) if url.startswith(folder)} - {address}
        loaded = set(page.evaluate("performance.getEntriesByType('resource').map(e => e.name)"))
        site_copies = {url.replace(folder, f"{server.url}/{missing.split('/')[0]}/", 1) for url in speculative}
        assert not site_copies - loaded, sorted(site_copies - loaded)
        console.errors[:] = [error for error in console.errors
                             if not any(f" at {url}:" in error for url in speculative | {address})]
        console.failed_requests[:] = [failed for failed in console.failed_requests
                                      if failed.split(" ")[1].rstrip(":") not in speculative | {address}]
        return page, console, server

    yield open_
    for server, context in opened:
        context.close()
        server.__exit__(None, None, None)


@pytest.mark.parametrize("language", LANGUAGES)
def test_language_404_page_is_styled_and_links_home_under_another_path(open_missing, screenshots, language):
    for width in (390, 1280):
        page, console, server = open_missing(f"{language}/404.html", f"{language}/jit/no/such-page.html", width)
        # the site's stylesheets loaded from where the site is served: the theme's layout, the site's bundle
        sheets = page.evaluate("[...document.styleSheets].map(s => s.href || '')")
        assert any(href.startswith(f"{server.url}/{language}/_static/learnjax-site.css") for href in sheets), sheets
        assert page.locator(".bd-header-article, .bd-article").first.is_visible()
        assert page.evaluate("getComputedStyle(document.body).fontFamily") != "Times New Roman"
        assert console.problems == []
        page.screenshot(path=screenshots / f"404-{language}-{width}.png", full_page=True)
    home = page.locator("a.learnjax-not-found-home")
    assert home.evaluate("a => a.href") == f"{server.url}/{language}/index.html"
    home.click()
    page.wait_for_url(f"{server.url}/{language}/index.html")
    assert page.locator("article h1").count() >= 1 and console.problems == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_root_404_page_keeps_the_language_and_links_under_another_path(open_missing, screenshots, language):
    page, console, server = open_missing("404.html", f"{language}/jit/no/such-page.html", 390)
    assert page.evaluate("document.documentElement.lang") == language
    shown = page.locator(f'section[lang="{language}"]')
    assert shown.is_visible() and page.locator("section[lang]:not([hidden])").count() == 1
    assert shown.locator("a.learnjax-not-found-home").evaluate("a => a.href") == f"{server.url}/{language}/index.html"
    assert console.problems == []
    page.screenshot(path=screenshots / f"404-root-{language}-390.png", full_page=True)
