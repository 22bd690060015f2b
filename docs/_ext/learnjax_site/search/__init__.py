"""Search: a Korean search language that ignores particles, and results that quote the prose."""


def setup(app) -> None:
    """Register this stage's nodes, directives, roles and settings (its handlers: ``learnjax_site.PIPELINE``)."""
    from . import korean_search

    for module in (korean_search,):
        module.setup(app)
