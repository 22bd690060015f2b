"""The site's own Sphinx extensions: one source in two languages, executed once, with provenance.

Listed in ``docs/conf.py`` as ``learnjax_site``; each module has one job:

* ``bilingual``: keep one language's cells, refuse pages whose languages do not pair up;
* ``provenance``: execution cache per machine, refusals, provenance records, the build report;
* ``lessons``: lesson front matter and the header under a lesson's title;
* ``callouts``: call-outs, exercises and folded solutions;
* ``language_switch``: the link to the other language and hreflang alternates;
* ``tags``, ``catalog``: tags' names in both languages (``docs/tags.toml``); lesson lists on the
  home and part pages, and tag pages;
* ``progress``: the reader's "done" marks, kept in the browser only;
* ``glossary``, ``glossary_links``: ids on the glossary page's rows; lessons link a term's first use;
* ``site_url``, ``sitemap``, ``not_found``, ``social_cards``: every page's public address, sitemaps
  with hreflang, 404 pages, Open Graph metadata and preview cards;
* ``report_problem``: the "report a problem" link that opens an issue about the page;
* ``sidebar``: sidebar toggles that work at every width and have names; the page on a phone
  (no sideways scroll), lesson header padding, readable coloured output;
* ``interface_language``: the theme's and extensions' own interface strings in the page's language;
* ``mathjax``: MathJax served from the site itself (pinned, offline, no request to another host);
* ``korean_search``: Korean search that ignores particles (함수를 is found by 함수), index and query;
* ``search_results``: snippets from the article's prose only; results as you type in the Ctrl+K dialog;
* ``notebooks`` (with ``notebook_markdown``, ``hidden_cells``): each lesson as a notebook in the
  page's language, outputs included, to download or open in Colab;
* ``figures``: each language's plot on its own page (checked in the source), lazy-loaded, sized,
  and linked to the image full size;
* ``css_bundle``: the site's stylesheets (every ``_static/learnjax*.css``) as one file;
* ``portable_outputs``: outputs on pages and in notebooks name no folder of the build machine
  (tracebacks show ``site-packages/jax/...``, ``examples/x.py``, ``Cell In[3], line 2``);
* ``stage``: the ``learnjax-stage`` builder, each page's notebook as the execution cache looks it up.

Executing and keeping outputs needs no Sphinx (these modules run on a GPU machine that has none, so
``setup`` imports the extensions, not the package): ``kernel`` (the probe, the provenance cell),
``cell_errors`` (what is wrong with an executed cell), ``runner`` (executes staged pages within a
budget), ``outputs`` (kept GPU outputs, the render's cache), ``gpu_run`` (what a GPU run carries and
brings back). The commands: ``build`` (stage, execute, render), ``record``, ``publish``.
"""

from __future__ import annotations


def setup(app) -> dict:
    # Imported here, not at the top: the package's Sphinx-free modules (kernel, cell_errors, runner)
    # are imported on a GPU machine that has no Sphinx.
    from . import (
        bilingual,
        callouts,
        catalog,
        css_bundle,
        figures,
        glossary,
        glossary_links,
        interface_language,
        korean_search,
        language_switch,
        lessons,
        mathjax,
        not_found,
        notebooks,
        outcomes,
        portable_outputs,
        progress,
        provenance,
        report_problem,
        search_results,
        sidebar,
        site_url,
        sitemap,
        social_cards,
        stage,
        tags,
    )

    for module in (bilingual, tags, provenance, lessons, callouts, language_switch, catalog, progress,
                   glossary, glossary_links, site_url, sitemap, not_found, social_cards, report_problem,
                   korean_search, search_results, notebooks, sidebar, portable_outputs, mathjax,
                   interface_language, figures, css_bundle, stage, outcomes):
        module.setup(app)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
