"""A lesson's notebook downloads in the page's language, with its code and executed outputs.

The check for "one language" does not trust the notebook's own metadata: the two languages' cells
pair up one for one (the build refuses pages where they do not), so the Korean and English
notebooks have the same number of markdown cells, equal where a cell is shared and different
where it was written per language. The per-language cells must be Korean in one and free of
Hangul in the other, and each notebook's first heading is its page's title.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from .harness import LESSON, has_hangul


def download_notebook(page, language: str) -> tuple[dict, str]:
    """Download the lesson's notebook from its page as a reader does; the notebook and the page's h1."""
    page.goto(f"{language}/{LESSON}.html")
    link = page.locator("a.learnjax-notebook-download[download]")
    expect(link).to_have_count(1)
    assert link.get_attribute("href").endswith(".ipynb")
    with page.expect_download() as download:
        link.click()
    assert download.value.suggested_filename.endswith(".ipynb")
    notebook = json.loads(open(download.value.path(), encoding="utf8").read())
    title = page.locator("article h1").first.evaluate(
        "h1 => [...h1.childNodes].filter(n => !(n.classList && n.classList.contains('headerlink')))"
        ".map(n => n.textContent).join('').trim()")
    return notebook, title


def markdown_cells(notebook: dict) -> list[str]:
    return ["".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "markdown"]


def first_heading(notebook: dict) -> str:
    """The text of the first Markdown heading of a notebook.

    >>> first_heading({"cells": [{"cell_type": "markdown", "source": ["intro\\n", "# What JAX is\\n"]}]})
    'What JAX is'
    """
    for source in markdown_cells(notebook):
        if match := re.search(r"^#{1,6}\s+(.+?)\s*#*\s*$", source, re.MULTILINE):
            return match.group(1)
    return ""


@pytest.mark.parametrize("language", ["ko", "en"])
def test_notebook_holds_code_outputs_and_no_hidden_cells(page, console, language):
    notebook, title = download_notebook(page, language)
    assert notebook["nbformat"] == 4
    code = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    assert code, "the notebook has no code cells"
    assert any(cell.get("outputs") for cell in code), "the notebook's code cells carry no outputs"
    removed = [cell for cell in notebook["cells"] if "remove-cell" in cell.get("metadata", {}).get("tags", [])]
    assert not removed, f"{len(removed)} cell(s) tagged remove-cell reached the reader's notebook"
    assert first_heading(notebook) == title
    expect(page.locator("a.learnjax-colab")).to_have_count(1)
    assert "colab" in page.locator("a.learnjax-colab").get_attribute("href")
    assert console.problems == []


def test_each_notebook_holds_one_language(open_context):
    context, console = open_context()
    page = context.new_page()
    korean, korean_title = download_notebook(page, "ko")
    english, english_title = download_notebook(page, "en")
    assert has_hangul(korean_title) and not has_hangul(english_title)

    ko_cells, en_cells = markdown_cells(korean), markdown_cells(english)
    assert len(ko_cells) == len(en_cells), (
        f"the notebooks should pair cell for cell: {len(ko_cells)} Korean and {len(en_cells)} English markdown cells")
    pairs = [(ko, en) for ko, en in zip(ko_cells, en_cells, strict=True) if ko != en]
    assert pairs, "the two notebooks' markdown is identical: neither holds one language"
    leaked = [en for _, en in pairs if has_hangul(en)]
    assert not leaked, "Korean in the English notebook:\n" + "\n---\n".join(leaked)
    unkorean = [ko for ko, _ in pairs if not has_hangul(ko)]
    assert not unkorean, "Korean notebook cells without Korean:\n" + "\n---\n".join(unkorean)
    assert console.problems == []
