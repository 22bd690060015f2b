"""The copy button of a code cell copies the cell's source exactly; outputs have no copy button."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from .harness import LESSON

# the first code cell shown with both its input and its output, outside any fold
FIRST_SHOWN_CELL = "div.cell:not(details div.cell):has(> div.cell_input):has(> div.cell_output)"


def executed_sources(site, language: str, docname: str) -> list[str]:
    """The code cells' sources as myst-nb executed them (``jupyter_execute/`` beside ``html/``)."""
    notebook = site.parent / "jupyter_execute" / language / f"{docname}.ipynb"
    assert notebook.is_file(), f"{notebook} is missing: the browser tests need the whole build folder"
    cells = json.loads(notebook.read_text(encoding="utf8"))["cells"]
    return ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]


@pytest.mark.parametrize("language", ["ko", "en"])
def test_copy_button_copies_the_source(page, console, site, language):
    page.goto(f"{language}/{LESSON}.html")
    cell = page.locator(FIRST_SHOWN_CELL).first
    button = cell.locator("div.cell_input button.copybtn")
    expect(button).to_have_count(1)  # sphinx-copybutton adds it once the page has loaded

    page.evaluate("navigator.clipboard.writeText('')")
    cell.locator("div.cell_input").hover()
    button.click()
    expect(button).to_have_class(re.compile(r"\bsuccess\b"))  # ClipboardJS reported a copy
    copied = page.evaluate("navigator.clipboard.readText()")

    sources = executed_sources(site, language, LESSON)
    assert copied.strip(), "nothing was copied"
    assert copied in [source.rstrip("\n") for source in sources], f"copied text is no cell's source:\n{copied}"
    assert copied == cell.locator("div.cell_input pre").text_content().rstrip("\n")
    assert console.problems == []


@pytest.mark.parametrize("language", ["ko", "en"])
def test_no_copy_button_on_outputs(page, console, language):
    page.goto(f"{language}/{LESSON}.html")
    expect(page.locator("div.cell_input button.copybtn").first).to_be_attached()
    assert page.locator("div.cell_output pre").count() > 0, "the lesson should show text outputs"
    expect(page.locator("div.cell_output button.copybtn")).to_have_count(0)
    assert console.problems == []
