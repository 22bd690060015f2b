"""Sitemaps with hreflang: one per language (sphinx-sitemap), a root index of them, and robots.txt.

sphinx-sitemap writes ``<lang>/sitemap.xml`` in each language's build, every page with its ``ko``
and ``en`` alternates; this module gives it the site's layout (``<base><lang>/<page>.html``, set
here rather than in ``conf.py`` because ``build.py`` decides that layout) and adds the
``x-default`` alternate the pages' own ``<link rel="alternate">`` tags carry: the root page that
picks a language. After both languages, ``build.py`` calls ``write_root_files`` for the sitemap
index and ``robots.txt`` at the root, where crawlers look.
"""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

from sphinx.application import Sphinx

from ..core.languages import LANGUAGES

SITEMAP = "sitemap.xml"
SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML_NS = "http://www.w3.org/1999/xhtml"


def add_x_default(path: Path, x_default: str) -> None:
    """Give every ``<url>`` of the sitemap at ``path`` an ``x-default`` alternate: ``x_default``."""
    ElementTree.register_namespace("", SITEMAP_NS)
    ElementTree.register_namespace("xhtml", XHTML_NS)
    tree = ElementTree.parse(path)
    for url in tree.getroot().iter(f"{{{SITEMAP_NS}}}url"):
        ElementTree.SubElement(url, f"{{{XHTML_NS}}}link", rel="alternate", hreflang="x-default", href=x_default)
    tree.write(path, xml_declaration=True, encoding="utf-8", method="xml")


def on_build_finished(app: Sphinx, exception: Exception | None) -> None:
    path = Path(app.outdir) / SITEMAP
    if exception is None and path.exists():
        add_x_default(path, app.config.html_baseurl)


def sitemap_index(base: str, languages: list[str]) -> str:
    """A sitemap index naming each language's sitemap.

    >>> print(sitemap_index("https://example.org/jax/", ["ko"]))
    <?xml version="1.0" encoding="utf-8"?>
    <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <sitemap><loc>https://example.org/jax/ko/sitemap.xml</loc></sitemap>
    </sitemapindex>
    """
    entries = "".join(f"  <sitemap><loc>{base}{lang}/{SITEMAP}</loc></sitemap>\n" for lang in languages)
    return f'<?xml version="1.0" encoding="utf-8"?>\n<sitemapindex xmlns="{SITEMAP_NS}">\n{entries}</sitemapindex>'


def robots_txt(base: str) -> str:
    """Let every crawler in and name the sitemap index.

    >>> print(robots_txt("https://example.org/jax/"))
    User-agent: *
    Disallow:
    <BLANKLINE>
    Sitemap: https://example.org/jax/sitemap.xml
    """
    return f"User-agent: *\nDisallow:\n\nSitemap: {base}{SITEMAP}\n"


def write_root_files(html: Path, base: str) -> None:
    """``sitemap.xml`` (an index of the languages built so far) and ``robots.txt`` in ``html``."""
    built = [lang for lang in LANGUAGES if (html / lang / SITEMAP).exists()]
    (html / SITEMAP).write_text(sitemap_index(base, built) + "\n", encoding="utf8")
    (html / "robots.txt").write_text(robots_txt(base), encoding="utf8")
