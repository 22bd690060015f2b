"""What readers and crawlers expect of a site, on the fixture site built in both languages:
sitemaps with hreflang, 404 pages, canonical and Open Graph metadata, the "report a problem"
link, and copy buttons on code only."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit
from xml.etree import ElementTree

import pytest
from bs4 import BeautifulSoup
from learnjax_site.core.texts import text
from learnjax_site.web.site_url import base_path, base_url
from learnjax_site.web.social_cards import CARD_FONT, register_card_font
from sitebuild import built_file, page

LANGUAGES = ("ko", "en")
OTHER = {"ko": "en", "en": "ko"}
PAGES = ["index", "part/index", "part/first", "part/second", "about/report"]
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "xhtml": "http://www.w3.org/1999/xhtml"}
NOT_CONTENT = {"404", "search", "genindex"}


def content_pages(site: dict, language: str) -> set[str]:
    """Every page a reader can land on in ``language``'s build, as docnames."""
    root = site["html"] / language
    names = {p.relative_to(root).with_suffix("").as_posix() for p in root.rglob("*.html")
             if not p.relative_to(root).parts[0].startswith("_")}
    return names - NOT_CONTENT


def url(language: str, name: str) -> str:
    return f"{base_url()}{language}/{name}.html"


def meta(soup: BeautifulSoup, prop: str) -> list[str]:
    return [tag["content"] for tag in soup.select(f'meta[property="{prop}"], meta[name="{prop}"]')]


# --- sitemaps


@pytest.mark.parametrize("language", LANGUAGES)
def test_sitemap_lists_every_page_with_both_alternates(site, language):
    urls = ElementTree.parse(site["html"] / language / "sitemap.xml").getroot().findall("s:url", NS)
    entries = {u.find("s:loc", NS).text: {link.get("hreflang"): link.get("href")
                                          for link in u.findall("xhtml:link", NS)} for u in urls}
    pages = content_pages(site, language)
    assert set(PAGES) <= pages
    assert set(entries) == {url(language, name) for name in pages}
    for name in pages:
        assert entries[url(language, name)] == {"ko": url("ko", name), "en": url("en", name), "x-default": base_url()}
        for href in (url("ko", name), url("en", name)):  # every alternate is a page that exists
            assert built_file(site, href, site["html"]).is_file()


def test_root_sitemap_index_and_robots_name_the_language_sitemaps(site):
    index = ElementTree.parse(site["html"] / "sitemap.xml").getroot()
    assert index.tag == f"{{{NS['s']}}}sitemapindex"
    assert [loc.text for loc in index.findall("s:sitemap/s:loc", NS)] == [
        f"{base_url()}{lang}/sitemap.xml" for lang in LANGUAGES]
    robots = (site["html"] / "robots.txt").read_text(encoding="utf8").splitlines()
    assert "User-agent: *" in robots and f"Sitemap: {base_url()}sitemap.xml" in robots


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", PAGES)
def test_canonical_link_is_the_page_in_its_language(site, language, name):
    assert [link["href"] for link in page(site, language, name).select("link[rel=canonical]")] == [url(language, name)]


# --- 404 pages


@pytest.mark.parametrize("language", LANGUAGES)
def test_language_404_page_links_relative_to_a_base_its_first_script_sets(site, language):
    soup = page(site, language, "404")
    assert soup.html["lang"] == language
    assert soup.select_one("article h1").get_text(strip=True) == text(language, "notfound_title")
    assert soup.title.get_text().startswith(text(language, "notfound_title"))
    home = soup.select_one("a.learnjax-not-found-home")
    assert home["href"] == "index.html" and home.get_text() == text(language, "notfound_home")
    assert soup.select_one("a.learnjax-not-found-search")["href"] == "search.html"
    # served at any address under any path: the first script sets <base> before anything loads, and
    # every link, stylesheet and script is relative to it (none absolute to the published path)
    first = soup.head.find(lambda tag: tag.name in ("script", "style")
                           or tag.name == "link" and not tag["href"].startswith("https:"))  # hreflang: absolute
    assert first.name == "script" and 'createElement("base")' in first.string and f'"/{language}/"' in first.string
    local = [t.get("href") or t.get("src") for t in soup.select("link[href], script[src], a[href], img[src]")]
    assert local and [h for h in local if h.startswith("/")] == []
    assert soup.select_one('link[rel="stylesheet"][href^="_static/"]')
    switch = soup.select_one("a.learnjax-language-switch")
    assert switch["href"] == f"../{OTHER[language]}/index.html"
    assert soup.select("link[rel=canonical]") == [] and soup.select("a.learnjax-report") == []


def test_root_404_page_shows_each_language_without_javascript(site):
    soup = BeautifulSoup((site["html"] / "404.html").read_text(encoding="utf8"), "html.parser")
    path = base_path(base_url())
    sections = {s["lang"]: s for s in soup.select("body > section[lang]")}
    assert list(sections) == ["ko", "en"]  # Korean first: what a reader without script sees on top
    for language, section in sections.items():
        assert section.h1.get_text() == text(language, "notfound_title")
        assert section.select_one("a.learnjax-not-found-home")["href"] == f"{path}{language}/index.html"
        assert (site["html"] / language / "index.html").is_file()
    script = soup.select_one("body > script").string
    assert f'published = "{path}"' in script  # links move from the published path to where it is served
    # nothing to load at any depth: the style is inline, the icon a data: URL
    assert [link["href"][:19] for link in soup.find_all("link")] == ["data:image/svg+xml,"]
    assert soup.select("script[src]") == []


# --- Open Graph


@pytest.mark.parametrize("language", LANGUAGES)
def test_open_graph_describes_a_lesson_by_its_title_and_summary(site, language):
    soup = page(site, language, "part/first")
    title = {"ko": "첫 강의", "en": "First lesson"}[language]
    summary = {"ko": "KOONLY 첫 강의 요약입니다.", "en": "ENONLY summary of the first lesson."}[language]
    assert meta(soup, "og:title") == [title]
    assert meta(soup, "og:description") == [summary] and meta(soup, "description") == [summary]
    assert meta(soup, "og:url") == [url(language, "part/first")]
    assert meta(soup, "og:locale") == [{"ko": "ko_KR", "en": "en_US"}[language]]
    assert meta(soup, "og:locale:alternate") == [{"ko": "en_US", "en": "ko_KR"}[language]]
    [image] = meta(soup, "og:image")
    assert image.startswith(f"{base_url()}{language}/_images/social_previews/")
    card = built_file(site, image, site["html"])
    assert card.is_file() and card.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("language", LANGUAGES)
def test_open_graph_on_other_pages(site, language):
    soup = page(site, language, "index")
    assert meta(soup, "og:title") == [{"ko": "시험용 사이트", "en": "Fixture site"}[language]]
    [description] = meta(soup, "og:description")
    assert {"ko": "KOONLY", "en": "ENONLY"}[language] in description
    assert meta(soup, "og:url") == [url(language, "index")]


def test_card_font_draws_hangul_in_both_weights(caplog):
    """The cards' titles are bold: NanumGothic must answer both weights itself, without a warning."""
    from matplotlib import font_manager, ft2font

    family = register_card_font()
    for weight, file in (("normal", "NanumGothic.ttf"), ("bold", "NanumGothicExtraBold.ttf")):
        path = font_manager.findfont(font_manager.FontProperties(family=family, weight=weight),
                                     fallback_to_default=False)
        assert Path(path).name == file
        font = ft2font.FT2Font(path)
        assert all(font.get_char_index(ord(c)) for c in "첫 강의 시험용 사이트 JAX 배우기 · Learning")
    assert family == CARD_FONT
    assert not [r for r in caplog.records if "findfont" in r.getMessage()]


# --- report a problem


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", PAGES)
def test_report_link_opens_an_issue_about_the_page(site, language, name):
    soup = page(site, language, name)
    [link] = soup.select("a.learnjax-report")
    assert link.get_text(strip=True) == text(language, "problem_link")
    assert link.find_parent(class_="bd-footer-article") is not None  # under the article, not in the header
    repository = soup.select_one("a.btn-source-repository-button")["href"].rstrip("/")
    parts = urlsplit(link["href"])
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == f"{repository}/issues/new"
    query = parse_qs(parts.query, strict_parsing=True)
    title = soup.select_one("article h1").get_text().rstrip("#").strip()
    assert query["title"] == [f"[{language}] {title}"]
    [body] = query["body"]
    assert title in body and url(language, name) in body and f"({language})" in body


@pytest.mark.parametrize("language", LANGUAGES)
def test_generated_pages_have_no_report_link(site, language):
    for name in ("search", "genindex"):
        assert page(site, language, name).select("a.learnjax-report") == []


# --- copy buttons


def copybutton_config(site: dict, language: str) -> tuple[str, str]:
    """The selector and the prompt pattern sphinx-copybutton was built with (its copybutton.js)."""
    script = (site["html"] / language / "_static" / "copybutton.js").read_text(encoding="utf8")
    selector = re.search(r"const COPYBUTTON_SELECTOR = '(.*)';", script).group(1)
    prompt, is_regexp = re.search(r"return formatCopyText\(text, ('.*?'), (true|false),", script).groups()
    assert is_regexp == "true"
    return selector, ast.literal_eval(prompt)


def strip_prompts(text: str, prompt: str) -> str:
    """What copybutton_funcs.js's formatCopyText copies, for this site's options (a Python port)."""
    regexp = re.compile(f"^({prompt})(.*)")
    matches = [regexp.match(line) for line in text.split("\n")]
    if any(matches):
        text = "\n".join(m.group(2) if m else line for m, line in zip(matches, text.split("\n"), strict=True)
                         if m or not line.strip())
    return text.removesuffix("\n")


@pytest.mark.parametrize("language", LANGUAGES)
def test_copy_buttons_on_code_never_on_outputs(site, language):
    selector, _ = copybutton_config(site, language)
    soup = page(site, language, "part/first")
    with_button = soup.select(selector)
    inputs = soup.select("div.cell_input div.highlight pre")
    sources = soup.select("details.learnjax-program-source div.highlight pre")
    outputs = soup.select("div.cell_output div.highlight pre")
    assert inputs and sources and outputs
    assert all(pre in with_button for pre in inputs + sources)
    assert not any(pre in with_button for pre in outputs)
    plain = page(site, language, "about/report")
    for lexer in ("pycon", "console"):  # plain code blocks get one too
        assert plain.select_one(f"div.highlight-{lexer} pre") in plain.select(selector)


def test_copied_text_leaves_prompts_out(site):
    _, prompt = copybutton_config(site, "en")
    assert strip_prompts(">>> x = 1\n>>> print(x)\n1\n", prompt) == "x = 1\nprint(x)"
    assert strip_prompts(">>> for i in range(2):\n...     print(i)\n", prompt) == "for i in range(2):\n    print(i)"
    assert strip_prompts("$ pip install jax\nSuccessfully installed\n", prompt) == "pip install jax"
    assert strip_prompts("In [3]: jax.numpy.ones(2)\n", prompt) == "jax.numpy.ones(2)"
    source = 'def f(x):\n    """\n    >>> f(1)\n    2\n    """\n    return x + 1\n'
    assert strip_prompts(source, prompt) == source.removesuffix("\n")  # a program's doctest stays intact


# --- dark mode


def test_dark_mode_sets_plots_on_a_light_ground(site):
    """Plots are PNGs with dark text. In dark mode pydata-sphinx-theme pads a cell output's images
    with its light text colour, so they stay legible (seen in a screenshot); the site adds no CSS of
    its own for that, so this fails if a theme upgrade drops the rule."""
    css = (site["html"] / "ko" / "_static" / "styles" / "pydata-sphinx-theme.css").read_text(encoding="utf8")
    rule = re.search(r"html\[data-theme=dark\] \.bd-content div\.cell_output img\{([^}]*)\}", css)
    assert rule, "the theme no longer styles output images in dark mode: give them a light background"
    assert "background-color:var(--pst-color-text-base)" in rule.group(1) and "padding" in rule.group(1)
