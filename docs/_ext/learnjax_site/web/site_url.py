"""Where each page lives on the public site, so every absolute link the site prints agrees.

The site's root (``LEARNJAX_BASE_URL``, ``html_baseurl`` in ``conf.py``) holds the page that picks a
language; a page of the ``ko`` build lives at ``<base>ko/<page>.html``. Sphinx's own canonical link
is ``html_baseurl`` + page, which misses the language folder and would tell search engines that
every page lives at an address that does not exist; this module sets it to the real one. The
sitemaps, the 404 pages, the social-card metadata and the report link start from the same functions.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from urllib.parse import urlparse

from sphinx.application import Sphinx
from sphinx.config import Config

DEFAULT_BASE_URL = "https://learning-jax.github.io/learning-jax/"
"""GitHub Pages' address for the default repository in ``conf.py`` (learning-jax/learning-jax)."""


def base_url(environ: Mapping[str, str] = os.environ) -> str:
    """The public URL of the site's root, always ending in ``/`` (unset or empty: the default).

    >>> base_url({})
    'https://learning-jax.github.io/learning-jax/'
    >>> base_url({"LEARNJAX_BASE_URL": "https://example.org/jax"})
    'https://example.org/jax/'
    """
    url = environ.get("LEARNJAX_BASE_URL", "").strip()
    return url.rstrip("/") + "/" if url else DEFAULT_BASE_URL


def base_path(base: str) -> str:
    """The path part of the base URL, for links that must work at any depth (404 pages).

    >>> base_path("https://learning-jax.github.io/learning-jax/")
    '/learning-jax/'
    >>> base_path("http://localhost:8000/")
    '/'
    """
    return urlparse(base).path.rstrip("/") + "/"


def page_url(base: str, language: str, pagename: str, suffix: str = ".html") -> str:
    """The public address of ``pagename`` in ``language``'s build.

    >>> page_url("https://example.org/jax/", "ko", "jit/index")
    'https://example.org/jax/ko/jit/index.html'
    """
    return f"{base}{language}/{pagename}{suffix}"


def on_config_inited(app: Sphinx, config: Config) -> None:
    """Normalize ``html_baseurl`` (also when given with ``-D``): never empty, ending in ``/``."""
    config.html_baseurl = base_url({"LEARNJAX_BASE_URL": config.html_baseurl or ""})


def on_html_page_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if context.get("pageurl"):  # Sphinx set it from html_baseurl, without the language folder
        context["pageurl"] = page_url(app.config.html_baseurl, app.config.language, pagename,
                                      app.builder.out_suffix)
