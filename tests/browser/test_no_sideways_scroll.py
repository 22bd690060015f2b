"""No page of either language scrolls sideways on a phone, and the article header's buttons fit.

Every ``.html`` under ``ko/`` and ``en/`` of the built site is loaded once and measured at 360, 390
and 414 px: the document may be no wider than the viewport. Tables and long code scroll inside
their own box, long inline code wraps (``learnjax-layout.css``). A failure names every page and
width that overflows and the outermost elements that stick out past the right edge.
"""

from __future__ import annotations

import pytest

from .harness import LANGUAGES, LESSON, site_pages

WIDTHS = (360, 390, 414)

# The document's width, and the outermost elements past the viewport's right edge that no
# scrolling or clipping box (overflow-x other than visible) inside the viewport holds in, nor a
# fixed element (off-screen dialogs and sidebars add nothing to the document's width).
MEASURE = """() => {
  const width = window.innerWidth;
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    Array.from(el.classList).map((c) => "." + c).join("");
  const path = (el) => {
    const parts = [];
    for (let e = el; e && e !== document.body && parts.length < 4; e = e.parentElement) parts.unshift(name(e));
    return parts.join(" > ");
  };
  const heldIn = (el) => {
    for (let a = el; a && a !== document.body; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.position === "fixed") return true;
      if (a !== el && style.overflowX !== "visible" && a.getBoundingClientRect().right <= width + 0.5) return true;
    }
    return false;
  };
  const culprits = [];
  for (const el of document.body.querySelectorAll("*")) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.right <= width + 0.5) continue;
    if (culprits.some((c) => c.el.contains(el)) || heldIn(el)) continue;
    culprits.push({el, right: Math.round(box.right)});
  }
  return {
    documentWidth: document.documentElement.scrollWidth,
    width,
    culprits: culprits.slice(0, 4).map((c) => `${path(c.el)} (to ${c.right} px)`),
  };
}"""


def site_pages_of(site, language: str) -> list[str]:
    pages = [page for page in site_pages(site) if page.startswith(f"{language}/")]
    assert pages, f"no pages under {site / language}"
    return pages


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_is_wider_than_a_phone(site, page, console, language):
    found = []
    pages = site_pages_of(site, language)
    for path in pages:
        page.set_viewport_size({"width": WIDTHS[0], "height": 800})
        response = page.goto(path)
        assert response is not None and response.ok, f"{path} did not load ({response and response.status})"
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 800})
            measured = page.evaluate(MEASURE)
            assert measured["width"] == width, f"{path}: the viewport did not become {width} px wide"
            if measured["documentWidth"] > width:
                culprits = "; ".join(measured["culprits"]) or "no single element found"
                found.append(f"{path} at {width} px is {measured['documentWidth']} px wide: {culprits}")
    assert not found, f"{len(found)} of {len(pages) * len(WIDTHS)} page widths scroll sideways:\n" + "\n".join(found)
    assert console.problems == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_article_header_buttons_fit_a_phone_and_keep_their_names(open_context, language):
    context, console = open_context(viewport={"width": WIDTHS[0], "height": 800})
    page = context.new_page()
    page.goto(f"{language}/{LESSON}.html")
    header = page.locator(".bd-header-article")
    buttons = header.locator("a.btn, button.btn").filter(visible=True)
    assert buttons.count() >= 6  # ☰, the notebook's two links, the language switch, search, contents
    for i in range(buttons.count()):
        box = buttons.nth(i).bounding_box()
        label = buttons.nth(i).get_attribute("title") or buttons.nth(i).inner_text()
        assert 0 <= box["x"] and box["x"] + box["width"] <= WIDTHS[0], f"{label!r} is cut off at {box}"
    # The notebook links show their icons only on a phone; their words remain their accessible names.
    for link in (".learnjax-notebook-download", ".learnjax-colab"):
        name = header.locator(f"{link} span").text_content().strip()
        assert header.get_by_role("link", name=name, exact=True).is_visible()
        assert header.locator(f"{link} i, {link} svg").first.is_visible(), f"{link}'s icon is hidden"
    # The language switch keeps its outlined look (the theme's .btn rule used to win).
    switch = page.locator("a.learnjax-language-switch")
    assert switch.evaluate("e => getComputedStyle(e).borderTopStyle") == "solid"
    assert float(switch.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) < 16
    assert console.problems == []


def test_a_call_out_table_shows_every_column_or_scrolls_in_its_box(open_context):
    """The mental-model call-out of 'what jit does' holds a table; the call-out clips what overflows."""
    context, console = open_context(viewport={"width": WIDTHS[0], "height": 800})
    page = context.new_page()
    page.goto("en/jit/what-jit-does.html")
    tables = page.locator(".learnjax-callout table")
    assert tables.count() >= 1
    for i in range(tables.count()):
        fits = tables.nth(i).evaluate("""table => {
          const box = table.closest(".pst-scrollable-table-container") || table.parentElement;
          const callout = table.closest(".learnjax-callout").getBoundingClientRect();
          const scrolls = box.scrollWidth > box.clientWidth && getComputedStyle(box).overflowX === "auto";
          const shown = box.getBoundingClientRect().right <= callout.right + 0.5;
          const allColumns = Array.from(table.rows[0].cells).every(
            (cell) => cell.getBoundingClientRect().right <= callout.right + 0.5);
          return shown && (allColumns || scrolls);
        }""")
        assert fits, f"call-out table {i + 1} hides columns without scrolling"
    assert console.problems == []
