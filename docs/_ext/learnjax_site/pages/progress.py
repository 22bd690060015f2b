"""The reader's progress, kept in the browser only: a "done" toggle on every lesson.

The lesson header gets a toggle button; ``learnjax-progress.js`` keeps the done lessons in
``localStorage["learnjax-progress"]`` (a JSON list of docnames, shared by both languages since they
are served from one origin), fills in the counts and marks the catalogue lists
(``catalog.py``) and the sidebar, and offers a reset. Nothing leaves the browser. Without
JavaScript (or storage) the controls stay hidden.
"""

from __future__ import annotations

from html import escape

from sphinx.application import Sphinx

from ..core.texts import text

STORAGE_KEY = "learnjax-progress"


def toggle_button(language: str, docname: str) -> str:
    """The lesson header's "done" toggle (hidden until the script shows it).

    >>> print(toggle_button("en", "origins/what-is-jax").replace(" data-", "\\n data-"))
    <button type="button" class="learnjax-progress-toggle" aria-pressed="false"
     data-docname="origins/what-is-jax" hidden>Mark this lesson as done</button>
    """
    return (f'<button type="button" class="learnjax-progress-toggle" aria-pressed="false" '
            f'data-docname="{escape(docname)}" hidden>{escape(text(language, "progress_toggle"))}</button>')


def setup(app: Sphinx) -> dict:
    app.add_js_file("learnjax-progress.js", loading_method="defer")
    app.add_css_file("learnjax-progress.css")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
