"""404 pages: one per language in the site's theme (sphinx-notfound-page), and one at the root.

A 404 page is served at whatever address was missing, and the site may be served under any path
(``/learning-jax/`` on GitHub Pages, ``/`` on a laptop), so its links cannot be relative to where it
is served, nor absolute to the published path. The language pages (``ko/404.html``) keep Sphinx's
relative links (this module undoes sphinx-notfound-page's rewriting of them) and carry a line of script,
first in ``<head>`` (``base_script``, in ``layout.html``'s css block), that sets ``<base>`` to the
language folder in the address it is served at (the part up to ``/ko/``), before any stylesheet
loads. This module gives the page its words in the build's language, with links home and to the
search page, and points the language switch at the other language's home page.

GitHub Pages serves only the ``404.html`` at the site's root, for a miss anywhere, so ``build.py``
also writes that one (``write_root_page``): both languages in plain HTML, its style inline, links
absolute to the published path, and a line of script that keeps English for misses under ``en/`` and
Korean for the others, and moves the links to where the site is served. Without script, both show.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from urllib.parse import quote

from sphinx.application import Sphinx
from sphinx.config import Config

from ..core import paths
from ..core.languages import LANGUAGES
from ..core.texts import text
from .site_url import base_path

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


def base_script(language: str, published: str) -> str:
    """The 404 page's first script: ``<base href>`` = the served address up to its ``/<language>/``.

    Without ``/<language>/`` in the address, the published path's language folder.

    >>> print(base_script("ko", "/jax/"))
    (function () { var p = location.pathname, i = p.indexOf("/ko/"), b = document.createElement("base");
    b.href = i < 0 ? "/jax/ko/" : p.slice(0, i + 4); document.head.appendChild(b); })();
    """
    folder = f"/{language}/"
    return ("(function () { var p = location.pathname, "
            f'i = p.indexOf("{folder}"), b = document.createElement("base");\n'
            f'b.href = i < 0 ? "{published}{language}/" : p.slice(0, i + {len(folder)}); '
            "document.head.appendChild(b); })();")


RELATIVE_HELPERS = ("pathto", "css_tag", "js_tag", "toctree")
"""What sphinx-notfound-page replaces on the 404 page to make links absolute; this module puts Sphinx's back."""


def on_config_inited(app: Sphinx, config: Config) -> None:
    config.notfound_pagename = PAGENAME
    config.notfound_urls_prefix = base_path(config.html_baseurl) + config.language + "/"
    config.notfound_context = {"title": text(config.language, "notfound_title"), "body": body(config.language, "")}


def keep_relative_helpers(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Before sphinx-notfound-page: keep Sphinx's own helpers for the 404 page (relative links)."""
    if pagename == PAGENAME:
        context["learnjax_relative_helpers"] = {name: context[name] for name in RELATIVE_HELPERS if name in context}


def restore_relative_helpers(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """After sphinx-notfound-page, before what uses them (Sphinx's resource paths, the theme's toctrees)."""
    context.update(context.pop("learnjax_relative_helpers", {}))


def on_html_page_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if pagename != PAGENAME:
        return
    context["learnjax_base_script"] = base_script(app.config.language, base_path(app.config.html_baseurl))
    context["pageurl"] = None  # no canonical address: the page stands in for any missing one
    switch = context.get("learnjax_switch")
    if switch:
        switch["href"] = f"../{switch['lang']}/index.html"


ROOT_PAGE = """<!DOCTYPE html>
<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{titles}</title>
<link rel="icon" href="{icon}">
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
  // Where the site is served: the address up to its first /ko/ or /en/ (else the published path, else /).
  // Misses under en/ keep the English text, every other miss the Korean one; links move to that root.
  (function () {{
    var path = window.location.pathname, published = "{path}";
    var found = /[/](ko|en)[/]/.exec(path);
    var root = found ? path.slice(0, found.index + 1) : path.indexOf(published) === 0 ? published : "/";
    var keep = found && found[1] === "en" ? "en" : "ko";
    document.documentElement.lang = keep;
    document.querySelectorAll("section[lang]").forEach(function (section) {{
      section.hidden = section.lang !== keep;
    }});
    document.querySelectorAll("a[href]").forEach(function (link) {{
      var href = link.getAttribute("href");
      if (href.indexOf(published) === 0) link.setAttribute("href", root + href.slice(published.length));
    }});
    document.title = document.querySelector("section[lang=" + keep + "] h1").textContent;
  }})();
</script>
</body>
</html>
"""


FAVICON = paths.DOCS / "_static" / "learnjax-favicon.svg"
"""The site's icon (``html_favicon``); the root 404 page carries it inline, as a data: URL."""
FAVICON_DATA_URL = "data:image/svg+xml," + quote(FAVICON.read_text(encoding="utf8").strip(), safe=" =:/'")


def root_page(base: str) -> str:
    """The root ``404.html``: both languages' text, links absolute from ``base``'s path."""
    path = base_path(base)
    sections = "\n".join(f'<section lang="{lang}">\n{body(lang, f"{path}{lang}/")}\n</section>' for lang in LANGUAGES)
    titles = " · ".join(escape(text(lang, "notfound_title")) for lang in LANGUAGES)
    return ROOT_PAGE.format(titles=titles, sections=sections, path=path, icon=FAVICON_DATA_URL)


def write_root_page(html: Path, base: str) -> None:
    (html / f"{PAGENAME}.html").write_text(root_page(base), encoding="utf8")
