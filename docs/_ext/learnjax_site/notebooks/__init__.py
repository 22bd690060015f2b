"""The reader's notebook of each lesson, per language: ``markdown`` turns MyST into plain
Markdown, ``builder`` assembles the executed cells, the programs and a header into an ``.ipynb``."""


def setup(app) -> None:
    """Register this stage's nodes, directives, roles and settings (its handlers: ``learnjax_site.PIPELINE``)."""
    from . import builder

    for module in (builder,):
        module.setup(app)
