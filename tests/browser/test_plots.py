"""Plots in the reader's language: each page shows its own language's plot, described in that
language, lazy-loaded with its size set, legible on a phone, and a tap (or Enter) opens it full size."""

from __future__ import annotations

import re
import sys

import pytest

from .harness import ROOT, has_hangul

sys.path.insert(0, str(ROOT / "examples"))
import plotting  # noqa: E402  (the sizes every plot is drawn at)

PLOTS = {"jit/control-flow": 1, "jit/looking-inside": 1, "jit/changing-shapes": 1, "jit/throughput": 1,
         "origins/grad-first-steps": 1, "origins/host-and-device": 1, "origins/numpy-on-accelerators": 1,
         "origins/transformations": 1, "programs/pytrees": 1, "programs/random-numbers": 1, "programs/state": 1,
         "programs/vmap-in-depth": 1, "training/jvp-vjp": 1, "training/custom-derivatives": 1, "training/remat": 1,
         "training/optax": 2, "training/flax-nnx": 1, "accelerator/roofline": 1, "accelerator/precision": 1,
         "accelerator/profiling": 1, "parallel/sharding": 1, "parallel/recipes": 1, "parallel/capstone": 1}
"""The lessons that draw plots, and how many each shows (the solution's, and any in the body)."""

PHONE = {"width": 390, "height": 844}
TICK_PX = plotting.FONT_SIZES["xtick.labelsize"] * plotting.DPI / 72  # a tick label's height in the image's pixels
PLOT = "img.learnjax-figure-image"


def plots_of(page, language: str, docname: str, count: int = 1) -> list:
    page.goto(f"{language}/{docname}.html")
    images = page.locator(PLOT)
    assert images.count() == count, f"{language}/{docname}: {images.count()} plots, not {count}"
    return [images.nth(index) for index in range(count)]


def plot_of(page, language: str, docname: str):
    return plots_of(page, language, docname)[0]


def show(page, image) -> None:
    """Open the folded "About the solution" that holds the plot, as a reader would, and scroll to
    the plot until it has loaded (it is lazy)."""
    image.evaluate("img => { const d = img.closest('details'); if (d) d.open = true; }")
    image.scroll_into_view_if_needed()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())


@pytest.mark.parametrize("docname", PLOTS)
def test_each_language_shows_its_own_plots_described_in_its_language(page, console, docname):
    seen = {}
    for language in ("ko", "en"):
        for index, image in enumerate(plots_of(page, language, docname, PLOTS[docname])):
            alt = image.get_attribute("alt") or ""
            assert len(alt) > 30 and ".png" not in alt, alt  # says what the plot shows, not its file
            assert has_hangul(alt) == (language == "ko"), alt
            assert image.get_attribute("loading") == "lazy"
            width, height = image.get_attribute("width"), image.get_attribute("height")
            assert width and height and int(width) > int(height) > 0  # space kept while it loads
            link = image.locator("xpath=..")
            assert link.evaluate("a => a.tagName") == "A"
            seen[language, index] = page.request.get(link.evaluate("a => a.href")).body()
            assert seen[language, index][:4] == b"\x89PNG"
    for index in range(PLOTS[docname]):
        assert seen["ko", index] != seen["en", index]
    assert len(set(seen.values())) == len(seen)  # every plot its own image
    assert console.problems == []


@pytest.mark.parametrize("language", ["ko", "en"])
def test_a_tap_on_a_phone_opens_the_plot_full_size(open_context, language):
    context, console = open_context(has_touch=True, is_mobile=True, device_scale_factor=3)
    page = context.new_page()
    page.set_viewport_size(PHONE)
    image = plot_of(page, language, "jit/control-flow")
    show(page, image)
    shown = image.bounding_box()
    natural = image.evaluate("img => img.naturalWidth")
    assert shown["x"] >= 0 and shown["x"] + shown["width"] <= PHONE["width"]
    assert shown["width"] / natural * TICK_PX >= 9, (shown, natural)  # tick labels at least 9 CSS px tall

    image.tap()
    page.wait_for_url(re.compile(r".*/_images/[^/]+\.png$"))
    assert page.evaluate("document.images[0].naturalWidth") == natural  # the image itself, full size
    assert console.problems == []


def test_enter_on_the_focused_plot_opens_it(page, console):
    image = plot_of(page, "en", "origins/grad-first-steps")
    show(page, image)
    image.locator("xpath=..").focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r".*/_images/[^/]+\.png$"))
    assert console.problems == []
