"""MathJax comes from the site itself: on the fixture site built in both languages, no page loads
anything from another host, a page with math loads the build's own MathJax 3, and that build holds
the component, the TeX extensions and fonts it loads, and MathJax's licence."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from bs4 import BeautifulSoup
from learnjax_site.core.errors import LessonError
from learnjax_site.theme import mathjax
from sitebuild import page

LANGUAGES = ("ko", "en")
LOADS = {"stylesheet", "preload", "modulepreload", "prefetch", "preconnect", "dns-prefetch", "icon",
         "shortcut", "apple-touch-icon", "manifest"}
"""``<link rel>`` values whose ``href`` the browser fetches (canonical and alternate only name pages)."""


def fetched(soup: BeautifulSoup) -> list[str]:
    """What a page makes the browser fetch on opening: every ``src`` and each loading ``<link>``'s ``href``."""
    sources = [tag["src"] for tag in soup.select("[src]")]
    links = [tag["href"] for tag in soup.select("link[href]") if LOADS & set(tag.get("rel", []))]
    return sources + links


def mathjax_scripts(soup: BeautifulSoup) -> list[str]:
    return [tag["src"] for tag in soup.select("script[src]") if "mathjax" in tag["src"].lower()]


def test_no_page_of_either_language_fetches_anything_from_another_host(site):
    pages = sorted(site["html"].rglob("*.html"))
    assert {"ko", "en"} <= {path.relative_to(site["html"]).parts[0] for path in pages}
    found = {}
    for path in pages:
        outside = [url for url in fetched(BeautifulSoup(path.read_text(encoding="utf8"), "html.parser"))
                   if re.match(r"(https?:)?//", url)]
        if outside:
            found[path.relative_to(site["html"]).as_posix()] = outside
    assert not found, found


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_page_with_math_loads_the_builds_own_mathjax(site, language):
    root = site["html"] / language
    with_math = []
    for path in sorted(root.rglob("*.html")):
        soup = BeautifulSoup(path.read_text(encoding="utf8"), "html.parser")
        if not soup.select(".math"):
            continue
        with_math.append(path.relative_to(root).as_posix())
        [script] = mathjax_scripts(soup)
        assert (path.parent / script.split("?")[0]).resolve() == root / "_static" / "mathjax" / "tex-mml-chtml.js"
        assert "?v=" in script  # Sphinx saw the file when it wrote the page: a new MathJax gets a new URL
    assert "part/second.html" in with_math
    assert not mathjax_scripts(page(site, language, "part/first"))  # no math there, no MathJax either


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_math_is_left_for_mathjax_to_render(site, language):
    soup = page(site, language, "part/second")
    inline = [span.get_text() for span in soup.select("span.math")]
    assert inline == [r"\(f(x) = x^2 + 1\)", r"\(f'(x) = 2x\)"]  # $...$ and {math}
    [display] = soup.select("div.math")
    assert display.get_text().strip() == r"\[f'(x) \approx \frac{f(x+h) - f(x-h)}{2h}\]"
    # MyST's options, which MathJax 3 reads as they are: process the math Sphinx wrote (class "math")
    config = [script.get_text() for script in soup.select("script:not([src])") if "window.MathJax" in script.get_text()]
    classes = "tex2jax_process|mathjax_process|math|output_area"
    assert config == [f'window.MathJax = {{"options": {{"processHtmlClass": "{classes}"}}}}']


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_build_holds_mathjax_3_with_what_it_loads_and_its_licence(site, language):
    static = site["html"] / language / "_static" / "mathjax"
    component = (static / "tex-mml-chtml.js").read_text(encoding="utf8")
    assert 'VERSION="3.2.2"' in component
    assert '"output/chtml/fonts/woff-v2"' in component  # where it finds its fonts, relative to itself
    assert (static / "output" / "chtml" / "fonts" / "woff-v2" / "MathJax_Main-Regular.woff").is_file()
    assert (static / "output" / "chtml" / "fonts" / "woff-v2" / "MathJax_Math-Italic.woff").is_file()
    assert (static / "input" / "tex" / "extensions" / "boldsymbol.js").is_file()  # loaded by \boldsymbol
    assert "Apache License" in (static / "LICENSE").read_text(encoding="utf8")
    assert {path.name for path in static.iterdir()} == {"tex-mml-chtml.js", "input", "output", "LICENSE"}


def test_a_build_without_the_package_stops_naming_what_to_install(monkeypatch, tmp_path, caplog):
    monkeypatch.setattr(mathjax, "DISTRIBUTION", "no-such-mathjax-package")
    with pytest.raises(LessonError) as error:
        mathjax.distribution_root()
    assert "no-such-mathjax-package is not installed" in error.value.problem
    assert error.value.fix.startswith("install no-such-mathjax-package, pinned in pyproject.toml's docs group")
    app = SimpleNamespace(builder=SimpleNamespace(format="html"), outdir=tmp_path)
    with pytest.raises(SystemExit) as stopped:
        mathjax.copy_mathjax(app)
    assert stopped.value.code == 2
    assert "What to do: install no-such-mathjax-package" in caplog.text
    assert not (tmp_path / "_static").exists()
