"""Every page of both languages opens without a console error, a failed request or a call to elsewhere."""

from __future__ import annotations

import pytest

from .harness import LANGUAGES, site_pages


def visit_all(page, console, pages: list[str]) -> dict[str, list[str]]:
    """Open each page in turn; return what went wrong, by page (pages that went right are left out)."""
    found = {}
    for path in pages:
        console.clear()
        page.goto(path)
        page.wait_for_load_state("networkidle")
        if console.problems:
            found[path] = list(console.problems)
    return found


def report(found: dict[str, list[str]]) -> str:
    return "\n".join(f"{path}:\n  " + "\n  ".join(problems) for path, problems in found.items())


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_is_clean(page, console, site, language):
    pages = [path for path in site_pages(site) if path.startswith(f"{language}/")]
    assert f"{language}/index.html" in pages
    # the search page does its work only with a query: searching loads the index and every result
    pages.append(f"{language}/search.html?q=jax")
    found = visit_all(page, console, pages)
    assert not found, f"{len(found)} of {len(pages)} pages went wrong:\n{report(found)}"


def test_root_pages_are_clean(page, console, site, base_url):
    """The root's own pages: index.html (which sends the browser on to its language) and the 404 page."""
    found = visit_all(page, console, ["index.html"])
    assert page.url.startswith(f"{base_url}/en/"), "the root page sends a browser without Korean to en/"
    found |= visit_all(page, console, [path for path in site_pages(site) if "/" not in path and path != "index.html"])
    assert not found, report(found)
