"""A reader marks a lesson done; the mark survives a reload and counts on the home and part pages.

Progress lives in this browser only (localStorage "learnjax-progress", a JSON list of docnames),
shared by both languages since they are served from one origin.
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from .harness import LESSON, has_hangul

KEY = "learnjax-progress"
PART = LESSON.split("/")[0] + "/index"
DONE = re.compile(r"\blearnjax-done\b")


def stored(page) -> list[str]:
    return json.loads(page.evaluate(f"localStorage.getItem('{KEY}')") or "[]")


def check_counts(page, language: str, done: int) -> None:
    """The home page and the lesson's part page count ``done`` lessons, and mark the lesson's entries."""
    for docname, scope in (("index", "all"), (PART, PART)):
        page.goto(f"{language}/{docname}.html")
        count = page.locator(f'.learnjax-progress-count[data-scope="{scope}"]')
        listed = set(page.eval_on_selector_all("li.learnjax-lesson-entry", "es => es.map(e => e.dataset.docname)"))
        assert LESSON in listed, f"{language}/{docname} does not list {LESSON}"
        expect(count).to_have_attribute("data-done", str(done))
        expect(count).to_have_attribute("data-total", str(len(listed)))
        expect(count).to_be_visible()
        entry = page.locator(f'li.learnjax-lesson-entry[data-docname="{LESSON}"]')
        if done:
            expect(entry.first).to_have_class(DONE)
            expect(page.locator("li.learnjax-lesson-entry.learnjax-done")).to_have_count(entry.count())
        else:
            expect(page.locator("li.learnjax-lesson-entry.learnjax-done")).to_have_count(0)


def test_done_survives_reload_counts_in_both_languages_and_resets(page, console):
    page.goto(f"ko/{LESSON}.html")
    toggle = page.locator("button.learnjax-progress-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert stored(page) == [LESSON]
    page.reload()
    expect(toggle).to_have_attribute("aria-pressed", "true")

    check_counts(page, "ko", done=1)
    check_counts(page, "en", done=1)  # same origin, same key: the other language sees it too
    page.goto(f"en/{LESSON}.html")
    expect(page.locator("button.learnjax-progress-toggle")).to_have_attribute("aria-pressed", "true")

    # resetting asks first, in the page's language; saying no keeps the progress
    page.goto("ko/index.html")
    dialogs = []

    def answer(dialog, accept: bool) -> None:
        dialogs.append((dialog.type, dialog.message))
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, accept=False))
    page.click("button.learnjax-progress-reset")
    expect(page.locator('.learnjax-progress-count[data-scope="all"]')).to_have_attribute("data-done", "1")
    page.once("dialog", lambda dialog: answer(dialog, accept=True))
    page.click("button.learnjax-progress-reset")
    expect(page.locator('.learnjax-progress-count[data-scope="all"]')).to_have_attribute("data-done", "0")
    assert [kind for kind, _ in dialogs] == ["confirm", "confirm"]
    assert has_hangul(dialogs[0][1]), f"the Korean page asks in Korean: {dialogs[0][1]!r}"
    assert stored(page) == []

    check_counts(page, "ko", done=0)
    page.goto(f"ko/{LESSON}.html")
    expect(page.locator("button.learnjax-progress-toggle")).to_have_attribute("aria-pressed", "false")
    assert console.problems == []


def test_toggle_twice_undoes(page, console):
    page.goto(f"en/{LESSON}.html")
    toggle = page.locator("button.learnjax-progress-toggle")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert stored(page) == []
    check_counts(page, "en", done=0)
    assert console.problems == []
