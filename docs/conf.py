"""Sphinx configuration of Learning JAX · JAX 배우기.

Built once per language: ``sphinx-build -D language=ko`` and ``-D language=en`` (see
``learnjax_site.commands.build``, which ``nox -s docs`` runs). Test fixtures reuse this file with ``-c docs``.
"""

import os
import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

from learnjax_site.core.paths import site_code_fingerprint  # noqa: E402

# Sphinx keeps its environment between builds and re-reads only the pages that changed; a change to
# the site's own code (or to this file, or tags.toml) changes this value, which re-reads every page.
learnjax_site_code = site_code_fingerprint()

language = "ko"  # overridden per build with -D language=...
project = "JAX 배우기 · Learning JAX"
author = "JAX 배우기 · Learning JAX contributors"
copyright = "2026, Learning JAX contributors"

extensions = [
    "myst_nb",
    "sphinx_copybutton",
    "sphinx_design",
    "sphinx_sitemap",  # learnjax_site.web.sitemap adds the root index and robots.txt
    "notfound.extension",  # learnjax_site.web.not_found: each language's 404 page
    "sphinxext.opengraph",  # learnjax_site.web.social_cards: the cards' Hangul font, locale tags
    "learnjax_site",  # the site's own: learnjax_site/__init__.py lists its pipeline
]

exclude_patterns = ["_build", "**.ipynb_checkpoints", "README.md", "_lesson-template.md"]
templates_path = ["_templates"]
html_static_path = ["_static"]
html_css_files = ["learnjax.css"]
locale_dirs = [str(Path(__file__).parent / "locales")]  # absolute: fixtures build with -c docs

# --- execution: once, through the cache (learnjax_site points the cache at this machine's kind)
nb_execution_mode = "cache"
nb_execution_timeout = 900
nb_execution_raise_on_error = False  # learnjax_site stops the build naming the cell's line
nb_execution_show_tb = True
nb_merge_streams = True
myst_enable_extensions = ["colon_fence", "dollarmath", "deflist"]
myst_heading_anchors = 3
suppress_warnings = ["mystnb.unknown_mime_type"]

# --- the published site
# Settings that depend on the build's language (-D language=...) or on html_baseurl are made by
# learnjax_site at config-inited: notfound_urls_prefix and notfound_context, ogp_site_url and its
# locale tags, the cards' font.
sitemap_url_scheme = "{lang}{link}"  # each language's sitemap lists its own pages
sitemap_locales = ["ko", "en"]  # hreflang alternates between the two
sitemap_filename = "sitemap.xml"  # learnjax_site.web.sitemap.SITEMAP: the root index points at it
sitemap_excludes = ["404.html", "search.html", "genindex.html"]  # no content a search should land on
notfound_pagename = "404"  # learnjax_site.web.not_found.PAGENAME
mathjax_path = "mathjax/tex-mml-chtml.js"  # served from _static (learnjax_site.theme.mathjax copies it)
html_baseurl = os.environ.get("LEARNJAX_BASE_URL", "")  # empty: learnjax_site.web.site_url.DEFAULT_BASE_URL
html_theme = "sphinx_book_theme"
html_title = "JAX 배우기 · Learning JAX"
html_copy_source = False  # the sources hold both languages; each build shows one
html_show_sourcelink = False
html_last_updated_fmt = None
html_favicon = "_static/learnjax-favicon.svg"  # the site's icon (also inline in the root 404.html)
# Lessons' notebooks: "Open in Colab" opens them from this branch of the repository below, where
# pages.yml pushes them; the programs they carry need these packages beyond Colab's own.
learnjax_colab_branch = os.environ.get("LEARNJAX_COLAB_BRANCH", "notebooks")
# What a lesson's notebook installs in Colab for the programs it carries: the Hangul font package,
# pinned as pyproject.toml's "lessons" group pins it (read from there, so the two never differ).
learnjax_program_requirements = [
    requirement for requirement in tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(
        encoding="utf8"))["dependency-groups"]["lessons"]
    if isinstance(requirement, str) and requirement.startswith("koreanize-matplotlib")
]
html_theme_options = {
    "repository_url": os.environ.get("LEARNJAX_REPOSITORY_URL", "https://github.com/learning-jax/learning-jax"),
    "use_repository_button": True,
    "use_download_button": False,
    "article_header_end": ["notebook-links.html", "language-switch.html", "article-header-buttons.html"],
    "show_toc_level": 2,
    "article_footer_items": ["report-problem.html"],
}
copybutton_exclude = ".linenos, .gp, .go"
# Buttons on code (cell inputs, program sources, code blocks), never on a cell's output: myst-nb
# renders outputs as highlighted blocks too, inside div.output.
copybutton_selector = 'div[class*="highlight-"]:not(.output) > div.highlight > pre'
copybutton_prompt_text = r">>> |\.\.\. |\$ |In \[\d*\]: | {2,5}\.\.\.: | {5,8}: "
copybutton_prompt_is_regexp = True
# The theme's first-visit colour mode: follow the reader's system. Unset, pydata-sphinx-theme starts
# from an empty mode and logs "Got invalid theme mode" to the console on every first visit.
html_context = {"default_mode": "auto"}
