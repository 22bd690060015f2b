"""One source, two languages: keep this build's language, blank the other's lines.

A markdown cell tagged ``{"lang": "ko"}`` or ``{"lang": "en"}`` belongs to one language; untagged
cells and every code cell are shared. At ``source-read`` the other language's cells are replaced
by blank lines (not deleted), so every line number Sphinx or myst-nb reports stays true to the
file. The same pass refuses a page whose two languages do not pair up.
"""

from __future__ import annotations

from itertools import zip_longest

from sphinx.application import Sphinx

from ..core.errors import LessonError, lesson_error, stops_build
from ..core.languages import LANGUAGES, NAMES_IN_ENGLISH
from . import outcomes
from .cells import Cell, Notebook
from .page import current


def check_pairs(notebook: Notebook, path: str, text: str = "") -> None:
    """Raise LessonError unless every run of language cells pairs up, heading for heading.

    A run is a stretch of consecutive language-tagged markdown cells. In each run both languages
    need the same number of cells, the same sequence of heading levels, and (given the page's
    ``text``) the same sentences chosen by an outcome: ``{outcomes}`` blocks of the same names,
    with the same outcomes, and ``{outcome}`` references to the same names.
    """
    for cell in notebook.cells:
        if cell.lang is None:
            continue
        if cell.kind != "markdown":
            raise lesson_error(path, cell.first_line + 1, f"a {cell.kind} cell has \"lang\": {cell.lang!r}",
                               "code cells are shared by both languages; remove \"lang\" from it")
        if cell.lang not in LANGUAGES:
            raise lesson_error(path, cell.first_line + 1, f"unknown language {cell.lang!r} in cell metadata",
                               f"use one of {', '.join(LANGUAGES)}, or no \"lang\" for a shared cell")
    for run in _language_runs(notebook.cells):
        by_lang = {lang: [c for c in run if c.lang == lang] for lang in LANGUAGES}
        _check_counts(by_lang, path)
        _check_headings(by_lang, path)
        if text:
            _check_outcomes(by_lang, text.split("\n"), path)


def _language_runs(cells: list[Cell]) -> list[list[Cell]]:
    runs: list[list[Cell]] = []
    current: list[Cell] = []
    for cell in cells:
        if cell.lang is not None:
            current.append(cell)
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    return runs


def _check_counts(by_lang: dict[str, list[Cell]], path: str) -> None:
    ko, en = by_lang["ko"], by_lang["en"]
    if len(ko) == len(en):
        return
    longer, shorter = ("ko", "en") if len(ko) > len(en) else ("en", "ko")
    lonely = by_lang[longer][len(by_lang[shorter])]
    raise lesson_error(
        path, lonely.first_line + 1,
        f"this {NAMES_IN_ENGLISH[longer]} cell has no {NAMES_IN_ENGLISH[shorter]} counterpart "
        f"({len(by_lang[longer])} {longer} cells against {len(by_lang[shorter])} {shorter} cells "
        "between the same shared cells)",
        f"add a '+++ {{\"lang\": \"{shorter}\"}}' cell that says the same thing next to it",
    )


def _check_headings(by_lang: dict[str, list[Cell]], path: str) -> None:
    ko = [h for cell in by_lang["ko"] for h in cell.headings]
    en = [h for cell in by_lang["en"] for h in cell.headings]
    for ko_heading, en_heading in zip_longest(ko, en):
        if ko_heading and en_heading and ko_heading[1] == en_heading[1]:
            continue
        line = (ko_heading or en_heading)[0]
        raise lesson_error(
            path, line + 1,
            f"the Korean and English cells here have different headings "
            f"(ko levels {[level for _, level in ko]}, en levels {[level for _, level in en]})",
            "give both languages the same headings at the same levels, in the same order",
        )


def _check_outcomes(by_lang: dict[str, list[Cell]], lines: list[str], path: str) -> None:
    found = {}
    for lang, cells in by_lang.items():
        body = "\n".join(line for cell in cells for line in lines[cell.start:cell.end])
        try:
            found[lang] = (outcomes.names_and_cases(body), sorted(set(outcomes.references(body))))
        except outcomes.OutcomeError as error:
            raise lesson_error(path, by_lang[lang][0].start + error.line + 1, error.problem,
                               "write one '- OUTCOME: sentence' item per outcome") from None
    if found["ko"] == found["en"]:
        return
    (ko_blocks, ko_refs), (en_blocks, en_refs) = found["ko"], found["en"]
    raise lesson_error(
        path, by_lang["ko"][0].first_line + 1,
        "the Korean and English cells here choose different sentences by outcome "
        f"(ko: blocks {ko_blocks}, references {ko_refs}; en: blocks {en_blocks}, references {en_refs})",
        "give both languages the same {outcomes} blocks (same names, same outcomes) and the same {outcome} references",
    )


def keep_language(text: str, notebook: Notebook, language: str) -> str:
    """Return ``text`` with the body of every other-language cell blanked, line for line."""
    lines = text.split("\n")
    for cell in notebook.cells:
        if cell.lang is not None and cell.lang != language:
            for index in range(cell.start, min(cell.end, len(lines))):
                lines[index] = ""
    return "\n".join(lines)


@stops_build
def on_source_read(app: Sphinx, docname: str, source: list[str]) -> None:
    language = app.config.language
    if language not in LANGUAGES:
        raise LessonError("conf.py", f"the build language is {language!r}",
                          "build with -D language=ko or -D language=en")
    page = current(app.env)
    path = page.path
    if not path.endswith(".md"):
        return
    notebook = page.notebook
    if notebook is None:
        raise lesson_error(path, 1, "this page is not a MyST notebook, so it cannot hold both languages",
                           "start it with the jupytext front matter every page here uses (see README)")
    check_pairs(notebook, str(path), source[0])
    source[0] = keep_language(source[0], notebook, language)
