"""404 pages served under a path other than the published one, at a depth: styled, links that work.

GitHub Pages answers a miss with the root 404.html; a local server or another host may serve the
site under any path, and a server may answer with a language's 404 page. Both must work there."""

from __future__ import annotations

import pytest
from learnjax_tools.pages_server import PagesServer

from .harness import LANGUAGES, Console

ELSEWHERE = "/elsewhere/deeper"
"""A base path the site was not built for."""


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
        response = page.goto(f"{server.url}/{missing}")
        assert response.status == 404
        page.wait_for_load_state("networkidle")
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
