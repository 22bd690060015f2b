"""Accessible names for the theme's sidebar toggles.

pydata-sphinx-theme folds each part of the sidebar under a ``<summary>`` that holds only an icon,
so a screen reader announces an unnamed control (axe: "summary-name", serious). A small script
names each toggle after the page it folds, in the build's language.
"""

from __future__ import annotations

import json

from sphinx.application import Sphinx

from .texts import text


def add_toggle_names(app: Sphinx) -> None:
    if app.builder.format != "html":
        return
    label = json.dumps(text(app.config.language, "sidebar_toggle", title="{title}"), ensure_ascii=False)
    app.add_js_file(None, body=f"window.LEARNJAX_SIDEBAR_TOGGLE = {label};")
    app.add_js_file("learnjax-sidebar.js", loading_method="defer")


def setup(app: Sphinx) -> dict:
    app.connect("builder-inited", add_toggle_names)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
