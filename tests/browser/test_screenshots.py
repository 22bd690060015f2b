"""Full-page screenshots of a lesson in both languages, light and dark, kept as test artifacts."""

from __future__ import annotations

import pytest

from .harness import LESSON, color_mode_script

BACKGROUND_LUMINANCE = """() => {
  // relative luminance (WCAG) of the page's background colour, 0 (black) to 1 (white)
  const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/[\\d.]+/g).map(Number);
  const linear = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}"""


@pytest.mark.parametrize("mode", ["light", "dark"])
@pytest.mark.parametrize("language", ["ko", "en"])
def test_lesson_screenshot(open_context, screenshots, language, mode):
    context, console = open_context()
    context.add_init_script(color_mode_script(mode))
    page = context.new_page()
    page.goto(f"{language}/{LESSON}.html")
    page.wait_for_load_state("networkidle")
    page.evaluate("document.fonts.ready.then(() => true)")

    assert page.get_attribute("html", "data-theme") == mode
    luminance = page.evaluate(BACKGROUND_LUMINANCE)
    if mode == "dark":
        assert luminance < 0.05, f"the dark page's background is not dark (luminance {luminance:.2f})"
    else:
        assert luminance > 0.8, f"the light page's background is not light (luminance {luminance:.2f})"

    path = screenshots / f"lesson-{language}-{mode}.png"
    page.screenshot(path=str(path), full_page=True, animations="disabled")
    assert path.stat().st_size > 10_000
    assert console.problems == []
