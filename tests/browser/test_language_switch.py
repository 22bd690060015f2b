"""A reader switches language on a lesson and lands on the same lesson; the root page picks a language."""

from __future__ import annotations

import pytest

from .harness import LESSON


@pytest.mark.parametrize(("first", "other"), [("ko", "en"), ("en", "ko")])
def test_switch_lands_on_the_counterpart_and_back(page, console, base_url, first, other):
    page.goto(f"{first}/{LESSON}.html")
    assert page.get_attribute("html", "lang") == first

    page.click("a.learnjax-language-switch")
    page.wait_for_url(f"{base_url}/{other}/{LESSON}.html")
    assert page.get_attribute("html", "lang") == other
    assert page.get_attribute("a.learnjax-language-switch", "hreflang") == first

    page.click("a.learnjax-language-switch")
    page.wait_for_url(f"{base_url}/{first}/{LESSON}.html")
    assert page.get_attribute("html", "lang") == first
    assert console.problems == []


@pytest.mark.parametrize(("locale", "language"), [("ko-KR", "ko"), ("en-US", "en"), ("de-DE", "en")])
def test_root_page_sends_a_reader_to_their_language(open_context, base_url, locale, language):
    context, console = open_context(locale=locale)
    page = context.new_page()
    page.goto("index.html")
    page.wait_for_url(f"{base_url}/{language}/index.html")
    assert page.get_attribute("html", "lang") == language
    assert console.problems == []
