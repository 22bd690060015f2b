"""Formulas render in both languages, with the site's own MathJax and its fonts, offline."""

from __future__ import annotations

import pytest

from .harness import LANGUAGES

MATH_LESSON = "origins/grad-first-steps"
"""A lesson with inline math (``$f(x) = x^3 - 2x$``) and a display formula (``$$...\\frac...$$``)."""

RAW_TEX = (r"\(", r"\)", r"\[", r"\]", r"\frac", r"\approx", r"\nabla", "x^3", "$")
"""What a reader would see of this lesson's formulas if MathJax had not rendered them."""


@pytest.mark.parametrize("language", LANGUAGES)
def test_formulas_render_with_the_sites_own_mathjax(page, console, base_url, language):
    page.goto(f"{language}/{MATH_LESSON}.html")
    page.wait_for_function("() => window.MathJax?.startup?.promise")
    page.evaluate("() => MathJax.startup.promise")
    page.evaluate("() => document.fonts.ready.then(() => true)")
    assert page.locator("span.math").count() >= 10
    assert page.locator("span.math:not(:has(mjx-container))").count() == 0, "an inline formula left as TeX"
    assert page.locator("div.math mjx-container[display='true']").count() >= 1, "no display formula rendered"
    prose = page.locator("article.bd-article").evaluate(
        "article => [...article.querySelectorAll('p, div.math')].map(node => node.innerText).join('\\n')")
    assert not [raw for raw in RAW_TEX if raw in prose]
    loaded = page.evaluate("() => performance.getEntriesByType('resource').map(entry => entry.name)")
    own = f"{base_url}/{language}/_static/mathjax/"
    assert [url for url in loaded if "tex-mml-chtml.js" in url][0].startswith(own)
    fonts = [url for url in loaded if url.endswith(".woff")]
    assert fonts, "MathJax loaded no font"
    assert all(url.startswith(f"{own}output/chtml/fonts/woff-v2/") for url in fonts), fonts
    assert console.problems == []
