"""The article header's ☰ and contents buttons open and close the sidebars, on a phone and a desktop.

The themes bind these buttons' handlers to a hidden copy of each in the top bar
(pydata-sphinx-theme#2451, sphinx-book-theme PR #991); ``learnjax-sidebar.js`` hands a click on
the visible button to the bound one. Without it, a tap on a phone only shows a tooltip.
"""

from __future__ import annotations

import pytest

from .harness import LESSON

PHONE = {"width": 390, "height": 844}

PRIMARY = ".bd-header-article .primary-toggle"
SECONDARY = ".bd-header-article .secondary-toggle"
LESSON_LIST = "nav.bd-docs-nav"
CONTENTS = "nav.page-toc"


def on_screen(page, selector: str) -> bool:
    """True when ``selector``'s first match is visible and at least partly inside the viewport."""
    locator = page.locator(selector).first
    if not locator.is_visible():
        return False
    box = locator.bounding_box()
    viewport = page.viewport_size
    return (box is not None and box["width"] > 0 and box["x"] < viewport["width"] and box["x"] + box["width"] > 0
            and box["y"] < viewport["height"])


def tap_outside(page, dialog: str) -> None:
    """Tap the backdrop beside an open sidebar dialog (on whichever side it leaves free)."""
    box = page.locator(dialog).bounding_box()
    width = page.viewport_size["width"]
    x = (box["x"] + box["width"] + width) / 2 if box["x"] < width - (box["x"] + box["width"]) else box["x"] / 2
    page.touchscreen.tap(x, page.viewport_size["height"] / 2)


@pytest.fixture
def phone(open_context):
    context, console = open_context(viewport=PHONE, has_touch=True, is_mobile=True)
    return context.new_page(), console


@pytest.mark.parametrize(("toggle", "dialog", "content"), [
    (PRIMARY, "#pst-primary-sidebar-modal", LESSON_LIST),
    (SECONDARY, "#pst-secondary-sidebar-modal", CONTENTS),
], ids=["lessons", "contents"])
@pytest.mark.parametrize("language", ["ko", "en"])
def test_a_tap_on_a_phone_opens_the_sidebar_and_a_tap_beside_it_closes_it(phone, language, toggle, dialog, content):
    page, console = phone
    page.goto(f"{language}/{LESSON}.html")
    assert not on_screen(page, content), f"{content} is on screen before any tap"

    page.tap(toggle)
    page.wait_for_function(f"document.querySelector({dialog!r}).open")
    assert on_screen(page, f"{dialog} {content}"), f"tapping {toggle} did not show {content}"

    tap_outside(page, dialog)
    page.wait_for_function(f"!document.querySelector({dialog!r}).open")
    page.locator(content).first.wait_for(state="hidden")  # back in the sidebar, which slides away
    assert not on_screen(page, content), f"{content} is still on screen after a tap beside it"

    page.tap(toggle)  # and again: the button still works after closing
    page.wait_for_function(f"document.querySelector({dialog!r}).open")
    page.keyboard.press("Escape")
    page.wait_for_function(f"!document.querySelector({dialog!r}).open")
    assert console.problems == []


@pytest.mark.parametrize("language", ["ko", "en"])
def test_on_a_desktop_the_menu_button_hides_and_shows_the_lesson_list(page, console, language):
    page.goto(f"{language}/{LESSON}.html")
    assert on_screen(page, LESSON_LIST)

    page.click(PRIMARY)
    page.wait_for_function("document.querySelector('#pst-primary-sidebar').classList.contains('pst-sidebar-hidden')")
    page.locator(LESSON_LIST).wait_for(state="hidden")
    assert not on_screen(page, LESSON_LIST)
    assert not page.evaluate("document.querySelector('#pst-primary-sidebar-modal').open")

    page.click(PRIMARY)
    page.locator(LESSON_LIST).wait_for(state="visible")
    assert on_screen(page, LESSON_LIST)
    assert console.problems == []


def test_between_tablet_and_desktop_the_contents_button_opens_the_contents(open_context):
    """From 992 to 1199 px the contents sit behind their button (wider, they are always shown)."""
    context, console = open_context(viewport={"width": 1024, "height": 800})
    page = context.new_page()
    page.goto(f"ko/{LESSON}.html")
    page.click(SECONDARY)
    page.wait_for_function("document.querySelector('#pst-secondary-sidebar-modal').open")
    assert on_screen(page, f"#pst-secondary-sidebar-modal {CONTENTS}")
    page.keyboard.press("Escape")
    page.wait_for_function("!document.querySelector('#pst-secondary-sidebar-modal').open")
    assert console.problems == []
