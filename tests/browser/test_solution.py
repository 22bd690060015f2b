"""A lesson's solution is folded away, output and all, until the reader opens it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .harness import LESSON

SHOW = {"ko": "풀이 보기", "en": "Show the solution"}
HIDE = {"ko": "풀이 숨기기", "en": "Hide the solution"}


@pytest.mark.parametrize("language", ["ko", "en"])
def test_solution_opens_on_click(page, console, language):
    page.goto(f"{language}/{LESSON}.html")
    fold = page.locator("div.tag_solution details").first
    summary = fold.locator("> summary")
    output = fold.locator("div.cell_output").first

    assert fold.evaluate("details => details.open") is False
    assert summary.inner_text().strip() == SHOW[language]  # the visible title, not the hidden one
    expect(output).to_be_hidden()

    summary.click()
    assert fold.evaluate("details => details.open") is True
    expect(output).to_be_visible()
    expect(output).not_to_be_empty()
    assert summary.inner_text().strip() == HIDE[language]
    assert console.problems == []
