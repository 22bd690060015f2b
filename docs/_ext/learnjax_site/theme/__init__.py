"""The theme's interface: the language switch, the "report a problem" link, sidebar fixes, the
theme's own strings in the page's language, one CSS bundle, and MathJax served by the site."""


def setup(app) -> None:
    """Register this stage's nodes, directives, roles and settings (its handlers: ``learnjax_site.PIPELINE``)."""
    from . import css_bundle, interface_language, report_problem

    for module in (css_bundle, interface_language, report_problem):
        module.setup(app)
