"""The English interface strings of the theme and the extensions, read from what they ship.

A Korean page must show none of them untranslated. The list is not typed by hand: it is read, each
time the tests run, from the installed packages, so a new release that adds a string is covered:

* gettext catalogs: pydata-sphinx-theme's ``sphinx.pot``; sphinx-book-theme's source strings
  (``assets/translations/jsons``); the entries of Sphinx's own ``sphinx.pot`` that its HTML
  templates and scripts and its HTML writer use (plus the admonition labels and the index's);
* strings the themes' templates write without a catalog (``title="Toggle primary sidebar"``), and
  the HTML myst-nb writes (``aria-label="Toggle hidden content"``, "Show code cell source");
* sphinx-copybutton's English messages ("Copy", "Copied!");
* the English texts of the site's own extensions (``learnjax_site.core.texts``).

``UiStrings.find(text)`` says which of them a piece of page text is (the whole text, placeholders
standing for anything, trailing punctuation and "..." ignored), or None.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import re
import sys
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

from .harness import ROOT

# Names that read the same in Korean, and catalog entries that are not words.
NOT_ENGLISH_UI = frozenset({
    "GitHub", "GitLab", "Bitbucket", "Colab", "Binder", "JupyterHub", "Jupyter", "Deepnote", "LiveCode",
    "Python", "JavaScript", "PyData", "Sphinx", "reStructuredText", "LaTeX", "HTML", "PDF", "Twitter",
    "Mastodon", "JAX / jaxlib", "English", "Ctrl", "K",
})
# Sphinx's catalog holds every console message too; these are the sources of what an HTML page shows:
# the templates and scripts of its basic theme, the HTML writer, admonition labels, the index.
SPHINX_HTML_SOURCES = re.compile(r"^(themes/basic/|writers/html|locale/__init__\.py|environment/adapters/indexentries)")
_PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]|%[sd]|\{[a-z_0-9]*\}")
_HARD_CODED = re.compile(r'\b(?:title|aria-label|placeholder|alt|aria-description)="([^"{}%<>]*[A-Za-z][^"{}%<>]*)"')
_TRAILING = re.compile(r"[\s.…:!?]+$")


def normalize(text: str) -> str:
    """Whitespace collapsed, trailing punctuation and ellipses dropped.

    >>> normalize("  Search... "), normalize("Copied!"), normalize("© Copyright 2026,\\n  me.")
    ('Search', 'Copied', '© Copyright 2026, me')
    """
    return _TRAILING.sub("", " ".join(text.split()))


@dataclasses.dataclass(frozen=True)
class UiString:
    text: str
    source: str  # where it was read: the file (and catalog) it comes from

    @property
    def pattern(self) -> re.Pattern:
        parts = _PLACEHOLDER.split(normalize(self.text))
        return re.compile(".+?".join(re.escape(part) for part in parts))


def is_english_ui(text: str) -> bool:
    """Whether a catalog entry is English words a page could show (not a placeholder, not a name).

    >>> is_english_ui("Link to this heading"), is_english_ui("%s"), is_english_ui("GitHub"), is_english_ui("X")
    (True, False, False, False)
    """
    words = _PLACEHOLDER.sub(" ", text)
    return bool(re.search(r"[A-Za-z]{2,}", words)) and normalize(text) not in NOT_ENGLISH_UI


def _package(name: str) -> Path:
    return Path(__import__(name).__file__).parent


def _from_po(path: Path, keep=lambda locations: True) -> list[UiString]:
    with path.open("rb") as file:
        catalog = read_po(file)
    return [UiString(message.id, f"{path.name} of {path.parent.name}") for message in catalog
            if isinstance(message.id, str) and message.id and keep([file for file, _ in message.locations])]


def catalog_strings() -> list[UiString]:
    """The gettext catalogs of the themes, and Sphinx's entries for HTML pages."""
    strings = _from_po(_package("pydata_sphinx_theme") / "locale" / "sphinx.pot")
    strings += _from_po(_package("sphinx") / "locale" / "sphinx.pot",
                        keep=lambda files: any(SPHINX_HTML_SOURCES.match(file) for file in files))
    for path in sorted((_package("sphinx_book_theme") / "assets" / "translations" / "jsons").glob("*.json")):
        english = json.loads(path.read_text(encoding="utf8"))[0]
        strings.append(UiString(english["text"], f"sphinx_book_theme/{path.name}"))
    return strings


def hard_coded_strings() -> list[UiString]:
    """Attributes the themes' templates write in English without a catalog, and myst-nb's HTML."""
    strings = []
    for package in ("pydata_sphinx_theme", "sphinx_book_theme"):
        for path in sorted((_package(package) / "theme").rglob("*.html")):
            strings += [UiString(text, f"{package}/{path.name}")
                        for text in _HARD_CODED.findall(path.read_text(encoding="utf8"))]
    myst_nb = _package("myst_nb")
    strings += [UiString(text, "myst_nb/sphinx_.py") for text in _HARD_CODED.findall(
        (myst_nb / "sphinx_.py").read_text(encoding="utf8"))]
    from myst_nb.core.config import NbParserConfig

    for field in dataclasses.fields(NbParserConfig):
        if field.name.startswith("code_prompt_"):
            strings.append(UiString(field.default, f"myst_nb config {field.name}"))
    return strings


def copybutton_strings() -> list[UiString]:
    """sphinx-copybutton's English messages, from its script's ``messages`` table."""
    script = (_package("sphinx_copybutton") / "_static" / "copybutton.js_t").read_text(encoding="utf8")
    english = re.search(r"'en':\s*\{(.*?)\}", script, re.DOTALL).group(1)
    return [UiString(ast.literal_eval(value), "sphinx_copybutton/copybutton.js_t")
            for value in re.findall(r":\s*('[^']*')", english)]


def site_strings() -> list[UiString]:
    """The English texts of the site's own extensions."""
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    from learnjax_site.core.texts import TEXTS

    return [UiString(text, "learnjax_site/core/texts.py") for text in TEXTS["en"].values()]


class UiStrings:
    """Every English interface string, and a lookup from page text to the one it is."""

    def __init__(self, strings: list[UiString]):
        kept = {}
        for string in strings:
            if is_english_ui(string.text):
                kept.setdefault(normalize(string.text), string)
        self.strings = list(kept.values())
        self._exact = {normalize(s.text): s for s in self.strings if not _PLACEHOLDER.search(s.text)}
        self._patterns = [s for s in self.strings if _PLACEHOLDER.search(s.text)]

    def find(self, text: str) -> UiString | None:
        shown = normalize(text)
        if not shown:
            return None
        found = self._exact.get(shown)
        return found or next((s for s in self._patterns if s.pattern.fullmatch(shown)), None)


@cache
def ui_strings() -> UiStrings:
    return UiStrings(catalog_strings() + hard_coded_strings() + copybutton_strings() + site_strings())
