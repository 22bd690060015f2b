"""Render the site's own parts of pages: each lesson's header, the lesson lists and tag pages
(``catalog``), the reader's "done" marks, the glossary and the links from a term's first use."""


def setup(app) -> None:
    """Register this stage's nodes, directives, roles and settings (its handlers: ``learnjax_site.PIPELINE``)."""
    from . import catalog, glossary_links, progress

    for module in (catalog, glossary_links, progress):
        module.setup(app)
