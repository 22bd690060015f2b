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
