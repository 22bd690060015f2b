"""404 pages: one per language in the site's theme (sphinx-notfound-page), and one at the root.

A 404 page is served at whatever address was missing, so every link on it must be absolute:
sphinx-notfound-page rewrites the theme's links and resources against ``notfound_urls_prefix``
(the base URL's path plus the language folder), and this module gives it the page's words in the
build's language, with links home and to the search page, and points the language switch at the
other language's home page instead of a relative link that would break.

GitHub Pages serves only the ``404.html`` at the site's root, for a miss anywhere, so ``build.py``
also writes that one (``write_root_page``): both languages in plain HTML, and a line of script that
keeps English for misses under ``en/`` and Korean for the others. Without script, both show.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.config import Config

from .bilingual import LANGUAGES
from .site_url import base_path
from .texts import text

PAGENAME = "404"


def body(language: str, prefix: str) -> str:
    """The page's content in ``language``, its links starting with ``prefix`` (``/<path>/<lang>/``).

    >>> print(body("en", "/jax/en/"))
    <h1>Page not found</h1>
    <p>There is no page at this address. The page may have moved, or the link may be mistyped.</p>
    <ul class="learnjax-not-found-links">
    <li><a class="learnjax-not-found-home" href="/jax/en/index.html">Go to the home page</a></li>
    <li><a class="learnjax-not-found-search" href="/jax/en/search.html">Search the site</a></li>
    </ul>
    """
    def t(key: str) -> str:
        return escape(text(language, key))

    return (
        f"<h1>{t('notfound_title')}</h1>\n<p>{t('notfound_text')}</p>\n"
        '<ul class="learnjax-not-found-links">\n'
        f'<li><a class="learnjax-not-found-home" href="{prefix}index.html">{t("notfound_home")}</a></li>\n'
        f'<li><a class="learnjax-not-found-search" href="{prefix}search.html">{t("notfound_search")}</a></li>\n'
        "</ul>"
    )


def on_config_inited(app: Sphinx, config: Config) -> None:
    prefix = base_path(config.html_baseurl) + config.language + "/"
    config.notfound_pagename = PAGENAME
    config.notfound_urls_prefix = prefix
    config.notfound_context = {"title": text(config.language, "notfound_title"),
                               "body": body(config.language, prefix)}


def on_html_page_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if pagename != PAGENAME:
        return
    context["pageurl"] = None  # no canonical address: the page stands in for any missing one
    switch = context.get("learnjax_switch")
    if switch:
        switch["href"] = f"{base_path(app.config.html_baseurl)}{switch['lang']}/index.html"


ROOT_PAGE = """<!DOCTYPE html>
<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{titles}</title>
<style>
  body {{ font-family: system-ui, "Apple SD Gothic Neo", "Noto Sans KR", "Malgun Gothic", sans-serif;
         max-width: 36rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.7; }}
  section[lang="ko"] {{ word-break: keep-all; }}
  section + section {{ margin-top: 3rem; }}
</style>
</head>
<body>
{sections}
<script>
  // Misses under {path}en/ keep the English text, every other miss the Korean one.
  (function () {{
    var english = window.location.pathname.indexOf("{path}en/") === 0;
    var keep = english ? "en" : "ko";
    document.documentElement.lang = keep;
    document.querySelectorAll("section[lang]").forEach(function (section) {{
      section.hidden = section.lang !== keep;
    }});
    document.title = document.querySelector("section[lang=" + keep + "] h1").textContent;
  }})();
</script>
</body>
</html>
"""


def root_page(base: str) -> str:
    """The root ``404.html``: both languages' text, links absolute from ``base``'s path."""
    path = base_path(base)
    sections = "\n".join(f'<section lang="{lang}">\n{body(lang, f"{path}{lang}/")}\n</section>' for lang in LANGUAGES)
    titles = " · ".join(escape(text(lang, "notfound_title")) for lang in LANGUAGES)
    return ROOT_PAGE.format(titles=titles, sections=sections, path=path)


def write_root_page(html: Path, base: str) -> None:
    (html / f"{PAGENAME}.html").write_text(root_page(base), encoding="utf8")


def setup(app: Sphinx) -> dict:
    app.setup_extension("notfound.extension")
    app.connect("config-inited", on_config_inited)
    app.connect("html-page-context", on_html_page_context, priority=600)  # after language_switch's
    return {"parallel_read_safe": True, "parallel_write_safe": True}
