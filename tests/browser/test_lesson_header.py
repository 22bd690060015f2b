"""The lesson header on a phone: padded inside its box, the provenance line said once, its date whole.

And coloured program output (ANSI colours) reads at 4.5:1 or more on its background, light and dark.
"""

from __future__ import annotations

import re

import pytest

from .harness import LESSON, color_mode_script

PHONE = {"width": 360, "height": 800}

# The contrast ratio (WCAG 2) of each coloured output span's text on the first opaque background
# behind it, with the span's text; spans without text are left out.
CONTRASTS = """() => {
  const rgb = (value) => value.match(/[\\d.]+/g).map(Number);
  const luminance = ([r, g, b]) => {
    const linear = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  };
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const colour = rgb(getComputedStyle(e).backgroundColor);
      if (colour.length < 4 || colour[3] === 1) return colour;
    }
    return [255, 255, 255];
  };
  return Array.from(document.querySelectorAll(".bd-article div.highlight .-Color"))
    .filter((span) => span.textContent.trim())
    .map((span) => {
      const [a, b] = [luminance(rgb(getComputedStyle(span).color)), luminance(background(span))];
      return {text: span.textContent.trim().slice(0, 30), colour: getComputedStyle(span).color,
              ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)};
    });
}"""


@pytest.mark.parametrize("language", ["ko", "en"])
def test_lesson_header_is_padded_and_its_provenance_line_reads_once_with_a_whole_date(
        open_context, language):
    context, console = open_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{language}/{LESSON}.html")
    header = page.locator(".learnjax-lesson-header")
    padding = header.evaluate("e => [getComputedStyle(e).paddingLeft, getComputedStyle(e).paddingRight]")
    assert all(float(side.removesuffix("px")) >= 8 for side in padding), f"lesson header padding {padding}"

    line = page.locator(".learnjax-provenance").inner_text()
    backends = re.findall(r"(?<![a-z])(cpu|gpu|tpu)(?![a-z])", line, flags=re.IGNORECASE)
    assert len(backends) == 1 and backends[0].isupper(), f"the backend should be named once, in capitals: {line!r}"
    when = page.locator(".learnjax-provenance .learnjax-when")
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", when.inner_text())
    assert when.evaluate("e => e.getClientRects().length") == 1, "the date breaks across lines"
    assert console.problems == []


@pytest.mark.parametrize("mode", ["light", "dark"])
@pytest.mark.parametrize("language", ["ko", "en"])
def test_coloured_output_reads_at_4_5_to_1(open_context, language, mode):
    context, console = open_context()
    context.add_init_script(color_mode_script(mode))
    page = context.new_page()
    page.goto(f"{language}/jit/what-jit-does.html")
    assert page.get_attribute("html", "data-theme") == mode
    spans = page.evaluate(CONTRASTS)
    assert spans, "no coloured output on the page to measure (the lesson changed: pick another)"
    low = [f"{s['text']!r} in {s['colour']}: {s['ratio']:.2f}:1" for s in spans if s["ratio"] < 4.5]
    assert not low, f"{len(low)} coloured output span(s) under 4.5:1 in {mode} mode:\n" + "\n".join(low)
    assert console.problems == []
