"""The site's own Sphinx extension: one source in two languages, executed once, with provenance.

Listed in ``docs/conf.py`` as ``learnjax_site``. One folder per stage of the pipeline, each importing
only the stages below it:

    core        the languages, errors at file:line, per-page data, strings, paths, flags
    source      read a page: cells, the build's language, figures, outcomes, call-outs, lessons
    execution   stage, execute (also on a GPU machine without Sphinx), keep, record
    pages       lesson headers, lesson lists and tags, progress, the glossary and its links
    notebooks   the reader's notebook per lesson and language
    web         public addresses, sitemaps, 404 pages, social cards
    theme       language switch, report link, sidebar, interface strings, CSS, MathJax
    search      Korean search, prose-only results
    commands    python -m learnjax_site.commands.build (and record, publish, gpu_run)

``PIPELINE`` below is the whole order of the build: every handler the site connects, event by
event, in the order Sphinx fires the events and in the order each event runs them.
"""

from __future__ import annotations

# (event, priority, handlers in the order they run). Sphinx runs an event's handlers by priority
# (its default is 500), then in the order they were connected. A priority other than 500 places a
# step among other extensions' handlers of the same event, and says why.
PIPELINE = (
    ("config-inited", 400, ["web.site_url.on_config_inited"]),  # html_baseurl first: the next ones read it
    ("config-inited", 500, ["execution.provenance.on_config_inited", "web.not_found.on_config_inited",
                            "web.social_cards.on_config_inited"]),
    ("builder-inited", 500, ["source.tags.on_builder_inited", "pages.glossary.on_builder_inited",
                             "search.korean_search.add_korean_search_status",
                             "search.search_results.add_search_scripts",
                             "theme.sidebar.add_toggle_names", "theme.mathjax.copy_mathjax",
                             "theme.interface_language.on_builder_inited", "theme.css_bundle.on_builder_inited"]),
    ("builder-inited", 600, ["execution.provenance.on_builder_inited"]),  # after myst-nb's: its output folder
    ("builder-inited", 700, ["execution.stage.on_builder_inited"]),  # after provenance's folder per language
    # read a page: split once (the steps after take it from source.page), figures checked before
    # bilingual blanks the other language's cells, then the provenance cell added
    ("source-read", 500, ["source.page.on_source_read", "source.figures.on_source_read",
                          "source.bilingual.on_source_read", "execution.provenance.on_source_read"]),
    # which pages Sphinx reads again: those that changed, and those whose prepared outputs changed
    ("env-get-outdated", 500, ["execution.provenance.on_env_get_outdated"]),
    ("env-before-read-docs", 500, ["core.pagedata.on_env_before_read_docs"]),
    # before Sphinx's own collectors (500): outcomes resolved, outputs made portable
    ("doctree-read", 300, ["source.outcomes.resolve"]),
    ("doctree-read", 400, ["execution.portable_outputs.on_doctree_read"]),
    ("doctree-read", 500, ["execution.provenance.on_doctree_read", "pages.glossary.on_doctree_read"]),
    ("doctree-read", 600, ["source.lessons.on_doctree_read", "notebooks.builder.on_doctree_read"]),
    # which pages Sphinx writes again besides those it read: pages drawn from other pages
    ("env-get-updated", 500, ["core.pagedata.on_env_get_updated", "pages.glossary_links.on_env_get_updated"]),
    ("doctree-resolved", 500, ["execution.provenance.on_doctree_resolved", "pages.lesson_header.on_doctree_resolved",
                               "pages.catalog.on_doctree_resolved"]),
    ("doctree-resolved", 600, ["pages.glossary_links.on_doctree_resolved"]),  # after the lesson header is filled
    ("html-collect-pages", 500, ["pages.catalog.collect_tag_pages"]),
    # sphinx-notfound-page rewrites the 404's links at 400; the theme's helpers are kept around it
    ("html-page-context", 300, ["web.not_found.keep_relative_helpers"]),
    ("html-page-context", 450, ["web.not_found.restore_relative_helpers",
                                "web.social_cards.on_html_page_context"]),  # before sphinxext-opengraph's
    ("html-page-context", 500, ["theme.language_switch.on_html_page_context", "web.site_url.on_html_page_context",
                                "theme.report_problem.on_html_page_context", "notebooks.builder.on_html_page_context",
                                "theme.css_bundle.on_html_page_context"]),
    ("html-page-context", 600, ["web.not_found.on_html_page_context"]),  # after the language switch's
    ("build-finished", 500, ["execution.provenance.on_build_finished", "search.search_results.write_prose_files",
                             "notebooks.builder.on_build_finished"]),
    ("build-finished", 600, ["web.sitemap.on_build_finished"]),  # after sphinx-sitemap wrote the file
)

STAGES = ("source", "execution", "pages", "notebooks", "theme", "search")  # those with nodes, directives, settings


def handler(path: str):
    """The function ``stage.module.name`` of this package."""
    import importlib

    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


def setup(app) -> dict:
    # Imported here, not at the top: execution's Sphinx-free modules (kernel, runner, outputs) are
    # imported on a GPU machine that has no Sphinx.
    import importlib

    for stage in STAGES:
        importlib.import_module(f"{__name__}.{stage}").setup(app)
    for event, priority, handlers in PIPELINE:
        for path in handlers:
            app.connect(event, handler(path), priority=priority)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
