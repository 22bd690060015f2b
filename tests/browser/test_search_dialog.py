"""The Ctrl+K search dialog: results as you type, in both languages, from a lesson in a subfolder.

Sphinx's search scripts are not in a lesson's <head>; learnjax-search.js loads them when the dialog
opens. A Korean query with a particle (함수를) lists what the search page lists for it, in the same
order: the dialog runs the same search with the same stemmer.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest

from .harness import docname_of
from .test_korean_search import SEARCH_FINISHED, UI_STRINGS

LESSON = "jit/timing"
QUERIES = [("ko", "함수를"), ("en", "function")]
SEARCH_SCRIPTS = ("searchtools.js", "language_data.js", "searchindex.js")
RESULT_LINKS = ".learnjax-search-results li > a"
CLOSED = "() => !document.getElementById('pst-search-dialog').open"


def open_dialog_and_type(page, language: str, query: str) -> None:
    page.goto(f"{language}/{LESSON}.html")
    page.keyboard.press("Control+k")
    page.wait_for_function("() => document.getElementById('pst-search-dialog').open")
    page.keyboard.type(query)  # no Enter
    page.wait_for_selector(RESULT_LINKS)


@pytest.mark.parametrize(("language", "query"), QUERIES)
def test_lesson_head_loads_no_search_scripts_until_the_dialog_opens(page, console, language, query):
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(f"{language}/{LESSON}.html")
    page.wait_for_load_state("networkidle")
    head = page.inner_html("head")
    assert not [script for script in SEARCH_SCRIPTS if script in head]
    assert not [url for url in requested if url.endswith(SEARCH_SCRIPTS)]
    page.keyboard.press("Control+k")
    page.keyboard.type(query)
    page.wait_for_selector(RESULT_LINKS)
    assert {script for script in SEARCH_SCRIPTS if any(url.endswith(script) for url in requested)} == set(
        SEARCH_SCRIPTS)
    assert console.problems == []


@pytest.mark.parametrize(("language", "query"), QUERIES)
def test_results_appear_as_you_type_and_the_first_opens_a_page(page, console, language, query):
    open_dialog_and_type(page, language, query)
    first = page.locator(RESULT_LINKS).first
    title = first.text_content().split(" > ")[0]
    assert page.url.endswith(f"{LESSON}.html"), "typing alone must not leave the page"
    first.click()
    page.wait_for_load_state()
    assert not page.url.endswith(f"{LESSON}.html")
    assert page.locator("article.bd-article h1").first.text_content().startswith(title)
    assert console.problems == []


@pytest.mark.parametrize(("language", "query"), QUERIES)
def test_dialog_lists_what_the_search_page_lists(page, console, language, query):
    open_dialog_and_type(page, language, query)
    in_dialog = page.eval_on_selector_all(RESULT_LINKS, "links => links.map(a => a.href)")
    page.goto(f"{language}/search.html?q={quote(query)}")
    page.wait_for_function(SEARCH_FINISHED)
    on_search_page = page.eval_on_selector_all(
        "#search-results ul.search li > a", "links => links.map(a => a.href)")
    assert [docname_of(href) for href in in_dialog] == [docname_of(h) for h in on_search_page][:len(in_dialog)]
    assert console.problems == []


@pytest.mark.parametrize(("language", "query"), QUERIES)
def test_snippets_in_the_dialog_are_prose(page, console, language, query):
    open_dialog_and_type(page, language, query)
    page.wait_for_selector(".learnjax-search-results li .context")
    snippets = page.locator(".learnjax-search-results li .context").all_text_contents()
    found = [(ui, snippet) for snippet in snippets for ui in UI_STRINGS[language] if ui in snippet]
    assert not found, f"interface text in snippets: {found}"
    assert console.problems == []


def test_keyboard_reaches_results_and_escape_closes(page, console):
    open_dialog_and_type(page, "ko", "함수를")
    page.keyboard.press("ArrowDown")
    focused = page.evaluate("() => document.activeElement.closest('.learnjax-search-results') !== null")
    assert focused, "ArrowDown from the field should move to the first result"
    page.keyboard.press("Escape")
    page.wait_for_function(CLOSED)
    page.keyboard.press("Control+k")
    page.wait_for_function(f"() => !({CLOSED})()")
    page.keyboard.press("Escape")
    page.wait_for_function(CLOSED)
    assert console.problems == []


@pytest.mark.parametrize(("language", "query"), QUERIES)
def test_the_magnifying_glass_does_not_cover_the_typed_text(page, language, query):
    # The theme places the icon absolutely, made for FontAwesome's script (which the site leaves out).
    open_dialog_and_type(page, language, query)
    icon_right, text_left = page.evaluate("""() => {
        const form = document.querySelector('#pst-search-dialog form.bd-search');
        const input = form.querySelector('input');
        const style = getComputedStyle(input);
        return [form.querySelector('.fa-magnifying-glass').getBoundingClientRect().right,
                input.getBoundingClientRect().left + parseFloat(style.paddingLeft)];
    }""")
    assert icon_right <= text_left, f"the icon ends at {icon_right} px, the typed text starts at {text_left} px"
