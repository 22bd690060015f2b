"""What a page loads, on the fixture site built in both languages: one stylesheet of the site's own
(every docs/_static/learnjax*.css bundled), no FontAwesome script, the site's icon."""

from __future__ import annotations

from pathlib import Path

import pytest
from learnjax_site.theme.css_bundle import BUNDLE, bundle, sources
from sitebuild import ROOT, page

LANGUAGES = ("ko", "en")
PAGES = ["index", "part/index", "part/first", "404", "search"]
STATIC = ROOT / "docs" / "_static"


def stylesheets(soup) -> list[str]:
    return [Path(link["href"].split("?")[0]).name for link in soup.select('link[rel="stylesheet"]')]


def test_the_bundle_is_every_learnjax_stylesheet_in_static_with_the_base_last():
    names = [path.name for path in sources(STATIC)]
    assert sorted(names) == sorted(path.name for path in STATIC.glob("learnjax*.css"))
    assert len(names) >= 6 and names[-1] == "learnjax.css"


def test_a_new_learnjax_stylesheet_needs_no_registration(tmp_path):
    for name in ("learnjax.css", "learnjax-progress.css"):
        (tmp_path / name).write_text(f"/* {name} rules */\n", encoding="utf8")
    (tmp_path / "learnjax-newtopic.css").write_text(".learnjax-newtopic { color: red; }\n", encoding="utf8")
    text = bundle(sources(tmp_path))
    assert ".learnjax-newtopic { color: red; }" in text
    assert text.index("learnjax-newtopic.css") < text.index("learnjax-progress.css") < text.index("/* learnjax.css */")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_built_bundle_holds_every_learnjax_stylesheet(site, language):
    built = (site["html"] / language / "_static" / BUNDLE).read_text(encoding="utf8")
    for path in STATIC.glob("learnjax*.css"):
        assert f"/* {path.name} */\n{path.read_text(encoding='utf8').rstrip()}\n" in built, path.name


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", PAGES)
def test_a_page_links_one_stylesheet_of_the_site_last_and_no_fontawesome_script(site, language, name):
    soup = page(site, language, name)
    ours = [sheet for sheet in stylesheets(soup) if sheet.startswith("learnjax")]
    assert ours == [BUNDLE] and stylesheets(soup)[-1] == BUNDLE
    scripts = [script["src"] for script in soup.select("script[src]")]
    assert scripts and not [src for src in scripts if "fontawesome" in src]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_names_the_site_icon(site, language):
    icon = page(site, language, "part/first").select_one('link[rel="icon"]')["href"]
    assert icon == "../_static/learnjax-favicon.svg"
    assert (site["html"] / language / "_static" / "learnjax-favicon.svg").read_text(encoding="utf8").startswith("<svg")
