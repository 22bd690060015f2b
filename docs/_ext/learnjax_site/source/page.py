"""Each page read once: at ``source-read`` its text is split into cells a single time, and every
later step of reading it (figures, the language filter, provenance, the lesson's front matter, its
notebook's check) takes that split from here instead of reading or splitting the file again."""

from __future__ import annotations

import dataclasses

from sphinx.application import Sphinx

from ..core.errors import lesson_error, stops_build
from .cells import CellSyntaxError, Notebook, split_notebook

_KEY = "learnjax_page"  # in env.temp_data, which Sphinx empties before it reads the next page


@dataclasses.dataclass(frozen=True)
class Page:
    """A page as written, both languages: its path, text, lines and cells (None: not a MyST notebook)."""

    path: str
    text: str
    notebook: Notebook | None

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")


def split(path: str, text: str) -> Notebook | None:
    """A page's cells, or None when it is not a MyST notebook; a syntax error stops at its line."""
    from myst_nb.core.read import is_myst_markdown_notebook

    if not is_myst_markdown_notebook(text):
        return None
    try:
        return split_notebook(text)
    except CellSyntaxError as error:
        raise lesson_error(path, error.line + 1, str(error), "fix the metadata's syntax") from None


@stops_build
def on_source_read(app: Sphinx, docname: str, source: list[str]) -> None:
    path = str(app.env.doc2path(docname))
    notebook = split(path, source[0]) if path.endswith(".md") else None
    app.env.temp_data[_KEY] = Page(path, source[0], notebook)


def current(env) -> Page | None:
    """The page Sphinx is reading now (from ``source-read`` to ``doctree-read``), as written."""
    return env.temp_data.get(_KEY)
