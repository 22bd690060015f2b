"""Per-page data kept in Sphinx's environment, purged and merged the way Sphinx expects."""

from __future__ import annotations

from sphinx.application import Sphinx


class PageData:
    """A ``{docname: value}`` dict stored on the build environment as ``env.<attribute>``."""

    def __init__(self, attribute: str):
        self.attribute = attribute

    def of(self, env) -> dict:
        if not hasattr(env, self.attribute):
            setattr(env, self.attribute, {})
        return getattr(env, self.attribute)

    def connect(self, app: Sphinx) -> None:
        """Forget a page when Sphinx re-reads it; merge what parallel readers collected."""
        app.connect("env-purge-doc", lambda app, env, docname: self.of(env).pop(docname, None))
        app.connect("env-merge-info", lambda app, env, docnames, other: self.of(env).update(
            {d: v for d, v in self.of(other).items() if d in docnames}))


# Pages drawn from other pages (the lesson lists, the build report): Sphinx re-writes a page only
# when it re-reads it, so these are re-written whenever any page was read. A part's lessons are
# re-written with them when a page with a toctree was read (their headers say "lesson 3 of 8").
SUMMARIES = PageData("learnjax_summaries")


def note_summary(env) -> None:
    """Mark the page being read as drawn from other pages (a directive calls this)."""
    SUMMARIES.of(env)[env.docname] = True


def on_env_before_read_docs(app: Sphinx, env, docnames: list[str]) -> None:
    app.learnjax_read = list(docnames)


def on_env_get_updated(app: Sphinx, env) -> list[str]:
    read = getattr(app, "learnjax_read", [])
    if not read:
        return []
    rewrite = set(SUMMARIES.of(env))
    if any(env.toctree_includes.get(docname) for docname in read):
        rewrite |= {child for children in env.toctree_includes.values() for child in children}
    return sorted(rewrite & env.all_docs.keys() - set(read))
