"""The theme's and the extensions' own interface strings, in the page's language.

Most of them go through gettext, and ``docs/locales/<language>/LC_MESSAGES/`` translates them:

* ``sphinx.po``: the ``sphinx`` catalog, which Sphinx's templates, pydata-sphinx-theme's and this
  site's templates use (``_("...")``); Sphinx reads it before its own catalog.
* ``booktheme.po``: sphinx-book-theme's catalog. Sphinx would consult a project's copy only after the
  theme's own, whose Korean is partly wrong ("Contents" 내용, "Fullscreen mode" 전체 화면으로보기) and
  lacks "Search"; ``use_site_catalog`` compiles ours and puts it first, the theme's behind it.

Three extensions write English that no catalog reaches, and this module replaces it:

* sphinx-copybutton's messages ("Copy", "Copied!") are a table in its script with no Korean;
  ``copybutton_messages`` adds the page's language to that table from the ``sphinx`` catalog, and
  the script translates the titles of the icons, which copybutton.js makes in English as it loads.
* myst-nb labels the summary of a folded cell ``aria-label="Toggle hidden content"``, in English,
  and a screen reader then reads that label instead of the summary's visible text ("풀이 보기");
  ``visit_hidden_cell`` writes the same HTML without the label.
* sphinx-book-theme's templates hard-code a few attributes ("Toggle primary sidebar", the
  navigation's "Main" and "Page"): ``docs/_templates`` overrides those components with ``_()``.
"""

from __future__ import annotations

import gettext
import json
from html import escape
from pathlib import Path

from myst_nb.sphinx_ import HideCodeCellNode, depart_HideCellInput
from sphinx import locale
from sphinx.application import Sphinx
from sphinx.util.i18n import CatalogInfo

BOOK_THEME_CATALOG = "booktheme"

# sphinx-copybutton's English messages (copybutton.js_t, ``messages.en``), translated by the sphinx catalog.
COPYBUTTON_MESSAGES = {
    "copy": "Copy",
    "copy_to_clipboard": "Copy to clipboard",
    "copy_success": "Copied!",
    "copy_failure": "Failed to copy",
}
COPYBUTTON_SCRIPT = """(() => {
  const language = %(language)s, ours = %(messages)s;
  if (document.documentElement.lang !== language) return;
  const adopt = () => {  // copybutton.js's own globals: its table of messages and the language it uses
    if (typeof messages === "undefined") return false;
    messages[language] = messages[language] || ours;
    locale = language;
    return true;
  };
  const english = text => Object.keys(ours).find(key => messages.en[key] === text);
  const translate = button => {  // its icons' titles were made in English when copybutton.js loaded
    for (const title of button.querySelectorAll("svg title")) {
      const key = english(title.textContent);
      if (key) title.textContent = ours[key];
    }
    if (english(button.dataset.tooltip)) button.dataset.tooltip = ours[english(button.dataset.tooltip)];
  };
  adopt();
  document.addEventListener("DOMContentLoaded", () => {
    if (!adopt()) return;
    const swapped = new MutationObserver(records => records.forEach(record => translate(record.target)));
    for (const button of document.querySelectorAll("button.copybtn")) {
      translate(button);
      swapped.observe(button, {childList: true});  // the icon is swapped on every copy
    }
  });
})();"""


def copybutton_messages(translate) -> dict[str, str]:
    """sphinx-copybutton's messages through ``translate``; None when one is left in English."""
    translated = {key: translate(message) for key, message in COPYBUTTON_MESSAGES.items()}
    return translated if all(translated[k] != COPYBUTTON_MESSAGES[k] for k in translated) else None


def locale_dirs(app: Sphinx) -> list[Path]:
    return [Path(app.srcdir, directory) for directory in app.config.locale_dirs]


def use_site_catalog(app: Sphinx, catalog: str) -> bool:
    """Put the project's translation of ``catalog`` in front of the one its package registered."""
    for directory in locale_dirs(app):
        po = directory / app.config.language / "LC_MESSAGES" / f"{catalog}.po"
        if not po.is_file():
            continue
        info = CatalogInfo(str(po.parent), catalog, app.config.source_encoding)
        if info.is_outdated():
            info.write_mo(app.config.language)
        ours = gettext.translation(catalog, localedir=directory, languages=[app.config.language])
        theirs = locale.translators.get(("general", catalog))
        if theirs is not None:
            ours.add_fallback(theirs)
        locale.translators["general", catalog] = ours
        return True
    return False


def on_builder_inited(app: Sphinx) -> None:
    if app.config.language == "en":
        return
    use_site_catalog(app, BOOK_THEME_CATALOG)
    messages = copybutton_messages(locale.get_translation("sphinx"))
    if messages:
        body = COPYBUTTON_SCRIPT % {"language": json.dumps(app.config.language),
                                    "messages": json.dumps(messages, ensure_ascii=False)}
        app.add_js_file(None, body=body, priority=501)  # right after copybutton.js (500)


def visit_hidden_cell(self, node: HideCodeCellNode) -> None:
    """myst-nb's folded cell, its summary named by its visible text (no English ``aria-label``)."""
    self.body.append(f'<details class="admonition hide {" ".join(node["classes"])}">\n<summary>\n'
                     f'<p class="collapsed admonition-title">{escape(node["prompt_show"])}</p>\n'
                     f'<p class="expanded admonition-title">{escape(node["prompt_hide"])}</p>\n</summary>\n')


def setup(app: Sphinx) -> dict:
    app.add_node(HideCodeCellNode, override=True, html=(visit_hidden_cell, depart_HideCellInput))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
