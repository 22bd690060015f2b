"""The sidebars and the page on any screen: toggles that work, toggles with names, no sideways scroll.

* ``learnjax-sidebar.js``: the article header's ☰ and contents buttons open and close the sidebars
  at every width (the themes bind their handlers to a hidden copy of each button:
  pydata-sphinx-theme#2451, sphinx-book-theme PR #991; the script says when it can go), and each
  of the sidebar's fold toggles, a ``<summary>`` that holds only an icon, is named after the page it
  folds, in the build's language (axe: "summary-name", serious);
* ``learnjax-layout.css``: a page is no wider than a phone (the article header's buttons fit, long
  inline code wraps, tables scroll in their own box), the lesson header's padding, and coloured
  program output at 4.5:1 contrast or more.
"""

from __future__ import annotations

import json

from sphinx.application import Sphinx

from ..core.texts import text


def add_toggle_names(app: Sphinx) -> None:
    if app.builder.format != "html":
        return
    label = json.dumps(text(app.config.language, "sidebar_toggle", title="{title}"), ensure_ascii=False)
    app.add_js_file(None, body=f"window.LEARNJAX_SIDEBAR_TOGGLE = {label};")
    app.add_js_file("learnjax-sidebar.js", loading_method="defer")
    app.add_css_file("learnjax-layout.css")
