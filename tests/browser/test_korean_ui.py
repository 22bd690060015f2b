"""Korean all the way: no English interface string of the theme or the extensions on a Korean page.

Every Korean page of the built site is opened in Chromium (scripts run: the copy buttons, tooltips
and dialogs they add count), and every piece of text a reader sees or a screen reader reads
(text, and the ``aria-label``, ``aria-description``, ``title``, ``placeholder``, ``alt``, a button's
``value``, a tooltip's text) is looked up in the English interface strings the theme and the
extensions ship (``ui_strings``). Lesson content is not interface: code, outputs and formulas are
skipped, and so is anything marked as English on purpose (``lang="en"``, e.g. the "English" link
of the language switch, the English column of the glossary). A string is reported with the page,
where it was found and where it comes from.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .harness import LESSON, site_pages
from .ui_strings import normalize, ui_strings

# Every text and accessible text of the page with where it is, skipping content and declared English.
PAGE_TEXTS = r"""() => {
  const CONTENT = 'pre, code, kbd, samp, script, style, noscript, template, .cell_output, .output, '
                + 'math, mjx-container, .MathJax, .math';
  const ATTRIBUTES = ['aria-label', 'aria-description', 'aria-roledescription', 'title', 'placeholder', 'alt',
                      'data-tooltip', 'data-bs-title', 'data-bs-original-title'];
  const declaredOther = el => { const lang = el.closest('[lang]'); return lang && !/^ko\b/i.test(lang.lang); };
  const where = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
                    + (el.classList.length ? '.' + [...el.classList].slice(0, 2).join('.') : '');
  const found = [];
  for (const el of document.querySelectorAll('*')) {
    if (el.closest(CONTENT) || declaredOther(el)) continue;
    for (const name of ATTRIBUTES) {
      if (el.hasAttribute(name)) found.push([`${where(el)}[${name}]`, el.getAttribute(name)]);
    }
    if ((el.matches('input[type=button], input[type=submit], input[type=reset], button[value]'))
        && el.value) found.push([`${where(el)}[value]`, el.value]);
    for (const node of el.childNodes) {
      if (node.nodeType === Node.TEXT_NODE && node.textContent.trim()) found.push([where(el), node.textContent]);
    }
    if (el.matches('p, li, a, button, summary, label, span, h1, h2, h3, h4, h5, h6, td, th, div.admonition-title')) {
      found.push([where(el) + ' (text)', el.textContent]);  // a string split over several nodes
    }
  }
  return found;
}"""


def english_ui_on(page) -> list[str]:
    strings = ui_strings()
    report = []
    for place, text in page.evaluate(PAGE_TEXTS):
        string = strings.find(text)
        if string:
            report.append(f"{place}: {normalize(text)!r} ({string.source})")
    return sorted(set(report))


KOREAN_PAGES = [name for name in site_pages() if name.startswith("ko/")]


def test_there_are_korean_pages_to_walk():
    assert len(KOREAN_PAGES) > 10, KOREAN_PAGES


@pytest.mark.parametrize("name", KOREAN_PAGES)
def test_a_korean_page_shows_no_english_interface_string(page, name):
    page.goto(name)
    page.wait_for_load_state("load")
    found = english_ui_on(page)
    assert found == [], f"English interface strings on {name}:\n  " + "\n  ".join(found)


def test_the_walk_catches_an_english_string(page):
    """The check itself: an English string the theme would show is found (a translation removed)."""
    page.goto(f"ko/{LESSON}.html")
    page.evaluate("""() => {
      const heading = document.querySelector('a.headerlink');
      heading.title = 'Link to this heading';
      document.querySelector('article').insertAdjacentHTML('beforeend', '<p>© Copyright 2026, someone.</p>');
    }""")
    found = english_ui_on(page)
    assert any("'Link to this heading'" in line for line in found), found
    assert any("'© Copyright 2026, someone'" in line for line in found), found


def test_the_copy_button_speaks_korean_on_a_korean_page(page):
    page.goto(f"ko/{LESSON}.html")
    button = page.locator("div.cell_input button.copybtn").first
    expect(button).to_have_attribute("data-tooltip", "복사")
    button.click()
    expect(button).to_have_attribute("data-tooltip", re.compile("복사했습니다"))


# Runs of Hangul in the glossary's Korean cells that a line break cuts in two (drawn on two lines).
BROKEN_KOREAN_WORDS = r"""() => {
  const broken = [];
  for (const cell of document.querySelectorAll('table.learnjax-glossary td')) {
    if (!cell.matches(':lang(ko)')) continue;
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.textContent.matchAll(/[\uac00-\ud7a3]+/g)) {  // a run of Hangul syllables
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].map(rect => Math.round(rect.top)));
        if (lines.size > 1) broken.push(word[0]);
      }
    }
  }
  return broken;
}"""


@pytest.mark.parametrize("language", ["ko", "en"])
@pytest.mark.parametrize("width", [390, 1280])
def test_the_glossary_keeps_korean_words_whole_and_fits_the_screen(page, console, language, width):
    page.set_viewport_size({"width": width, "height": 844})
    page.goto(f"{language}/glossary.html")
    assert page.locator("table.learnjax-glossary td:lang(ko)").count() > 50
    assert page.evaluate(BROKEN_KOREAN_WORDS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert console.problems == []
