"""Read: each page's MyST source, checked and cut to the build's language.

``cells`` splits a page into cells with exact lines; ``bilingual`` keeps one language and refuses
pages whose languages do not pair up; ``figures`` pairs each language's plot; ``outcomes`` puts the
sentence an outcome chose where the prose refers to it; ``callouts`` makes call-outs, exercises,
folded solutions and ``{program-source}``; ``tags`` and ``lessons`` read a lesson's front matter,
refuse a lesson that lacks a required part and leave a placeholder for its header.
"""


def setup(app) -> None:
    """Register this stage's nodes, directives, roles and settings (its handlers: ``learnjax_site.PIPELINE``)."""
    from . import callouts, figures, lessons, outcomes

    for module in (callouts, figures, lessons, outcomes):
        module.setup(app)
