"""The glossary page: its terms, read from its own table, and a stable id on each of its rows.

``glossary.md`` holds one table, ``| English | 한국어 | Definition | 정의 |``, in a cell both
languages share: each term in both languages and a one-line definition in each. It is the only list
of the site's terms: this module reads it once per build (so ``glossary_links`` can link lessons to
it), gives each row of the rendered table an id made from its English term, e.g.
``term-asynchronous-dispatch``, and shows the table in the page's language: the term in that
language first, then the other language's (marked with its ``lang``), then the definition in the
page's language only, rows sorted in that language (가나다 on the Korean page, alphabetical on the
English one: ``collation``), headed 용어 · 영어 · 정의 or Term · Korean · Definition. The id is the
same in both builds, so a link from a Korean lesson and one from an English lesson land on the same
row.

A cell may name more than one form of a term; the forms a page is searched for are:

* ``" / "`` separates alternatives (``tracer / tracing``). In English, a one-word alternative
  after a longer one replaces its last word: ``cache hit / miss`` is "cache hit" and "cache miss".
* English: a parenthetical qualifies the term and is not searched for (``kernel (GPU)``).
* Korean: a parenthetical in Latin letters is the English gloss and is not searched for
  (``자료형(dtype)``); one in Hangul is optional (``(함수) 변환`` is "함수 변환" and "변환").
  A form left bare by dropping a Hangul qualifier ("변환", "고정") is marked ``bare``: as the
  first word of a compound it usually means something else (고정 비용 is a fixed cost, not an
  array committed to a device), so ``glossary_links`` links it only before a particle.

A row that does not follow this (a missing cell, an unbalanced parenthesis, two rows with the same
id or form) stops the build naming its line in ``glossary.md``.
"""

from __future__ import annotations

import dataclasses
import re

from docutils import nodes
from sphinx.application import Sphinx

from ..core import words
from ..core.collation import sort_key
from ..core.errors import lesson_error, stops_build
from ..core.texts import text

GLOSSARY_DOCNAME = "glossary"
HEADER = ("English", "한국어", "Definition", "정의")
DEFINITION_COLUMN = {"en": 2, "ko": 3}  # the column of each language's definition
TERM_COLUMN = {"en": 0, "ko": 1}  # the column of each language's term
HEADINGS = ("glossary_term", "glossary_translation", "glossary_definition")  # keys of texts.TEXTS
TABLE_CLASS = "learnjax-glossary"
ANCHOR_PREFIX = "term-"

_PARENTHETICAL = re.compile(r"\(([^()]*)\)")
_ALTERNATIVES = re.compile(r"\s+/\s+")
_DELIMITER_ROW = re.compile(r"^\|(\s*:?-+:?\s*\|)+\s*$")
_CELL_SPLIT = re.compile(r"(?<!\\)\|")
HEADER_LINE = "| " + " | ".join(HEADER) + " |"


class GlossaryRowError(ValueError):
    """A glossary cell that cannot be read as terms."""


@dataclasses.dataclass(frozen=True)
class Form:
    """One string a page is searched for; ``title`` is the term in the other language."""

    text: str
    title: str
    bare: bool = False


@dataclasses.dataclass(frozen=True)
class Term:
    """One row of the glossary table."""

    line: int  # 1-based line of the row in glossary.md
    english: str
    korean: str
    anchor: str
    forms: dict = dataclasses.field(hash=False, compare=False)  # {"ko": (Form, ...), "en": (Form, ...)}
    definitions: dict = dataclasses.field(default_factory=dict, hash=False, compare=False)  # {"en": ..., "ko": ...}


def _squash(text: str) -> str:
    return " ".join(text.split())


def _check_parentheses(cell: str) -> None:
    depth = 0
    for char in cell:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0 or depth > 1:
            break
    if depth != 0:
        raise GlossaryRowError(f"unbalanced or nested parentheses in {cell!r}")


def anchor_of(english: str) -> str:
    """The id of a term's row, from its English cell without parentheticals.

    >>> anchor_of("asynchronous dispatch")
    'term-asynchronous-dispatch'
    >>> anchor_of("cache hit / miss"), anchor_of("kernel (GPU)"), anchor_of("PRNG key")
    ('term-cache-hit-miss', 'term-kernel', 'term-prng-key')
    """
    slug = words.slug(_PARENTHETICAL.sub(" ", english))
    if not slug:
        raise GlossaryRowError(f"the English term {english!r} has no Latin letters to make the row's id from")
    return ANCHOR_PREFIX + slug


def english_alternatives(cell: str) -> list[tuple[str, str]]:
    """``(searched, shown)`` for each English alternative: searched without parentheticals.

    >>> english_alternatives("cache hit / miss")
    [('cache hit', 'cache hit'), ('cache miss', 'cache miss')]
    >>> english_alternatives("kernel (GPU)")
    [('kernel', 'kernel (GPU)')]
    >>> english_alternatives("compile / compilation")
    [('compile', 'compile'), ('compilation', 'compilation')]
    """
    _check_parentheses(cell)
    alternatives = []
    for part in _ALTERNATIVES.split(cell.strip()):
        searched = _squash(_PARENTHETICAL.sub(" ", part))
        if not searched:
            raise GlossaryRowError(f"the English cell {cell!r} has an empty alternative")
        first = alternatives[0][0].split() if alternatives else []
        if len(first) > 1 and len(searched.split()) == 1:
            searched = " ".join([*first[:-1], searched])
            part = searched
        alternatives.append((searched, _squash(part)))
    return alternatives


def korean_alternatives(cell: str) -> list[tuple[list[tuple[str, bool]], str]]:
    """``([(searched, bare), ...], shown)`` for each Korean alternative.

    A Latin parenthetical (the English gloss) is dropped; a Hangul one is optional, and the form
    without it is ``bare``. ``shown`` keeps the Hangul parenthetical and drops the gloss.

    >>> korean_alternatives("자료형(dtype)")
    [([('자료형', False)], '자료형')]
    >>> korean_alternatives("(함수) 변환")
    [([('함수 변환', False), ('변환', True)], '(함수) 변환')]
    >>> korean_alternatives("캐시 적중 / 캐시 미스")
    [([('캐시 적중', False)], '캐시 적중'), ([('캐시 미스', False)], '캐시 미스')]
    """
    _check_parentheses(cell)
    alternatives = []
    for part in _ALTERNATIVES.split(cell.strip()):
        shown = _squash(_PARENTHETICAL.sub(lambda m: m[0] if words.HANGUL_SYLLABLE.search(m[1]) else " ", part))
        full = _squash(_PARENTHETICAL.sub(lambda m: f" {m[1]} " if words.HANGUL_SYLLABLE.search(m[1]) else " ", part))
        bare = _squash(_PARENTHETICAL.sub(" ", part))
        if not bare:
            raise GlossaryRowError(f"the Korean cell {cell!r} has an alternative that is only a parenthetical")
        forms = [(full, False)] + ([(bare, True)] if bare != full else [])
        alternatives.append((forms, shown))
    return alternatives


def term_forms(english: str, korean: str) -> dict[str, tuple[Form, ...]]:
    """The forms each language's pages are searched for, each titled with the other language's term.

    Alternatives pair up by position when both cells have as many; otherwise the title is the
    whole other cell.

    >>> forms = term_forms("tracer / tracing", "트레이서 / 트레이싱")
    >>> [(f.text, f.title) for f in forms["ko"]]
    [('트레이서', 'tracer'), ('트레이싱', 'tracing')]
    >>> [(f.text, f.title) for f in term_forms("compile / compilation", "컴파일")["en"]]
    [('compile', '컴파일'), ('compilation', '컴파일')]
    >>> [(f.text, f.title) for f in term_forms("compile / compilation", "컴파일")["ko"]]
    [('컴파일', 'compile / compilation')]
    """
    en, ko = english_alternatives(english), korean_alternatives(korean)
    paired = len(en) == len(ko)
    en_titles = [shown for _, shown in ko] if paired else [" / ".join(shown for _, shown in ko)] * len(en)
    ko_titles = [shown for _, shown in en] if paired else [_squash(english)] * len(ko)
    return {
        "en": tuple(Form(searched, title) for (searched, _), title in zip(en, en_titles, strict=True)),
        "ko": tuple(Form(text, title, bare) for (forms, _), title in zip(ko, ko_titles, strict=True)
                    for text, bare in forms),
    }


def table_rows(text: str) -> tuple[int, list[tuple[int, list[str]]]]:
    """(line of the header, [(line, cells), ...]) of the glossary's table; 1-based lines.

    >>> text = "| English | 한국어 | Definition | 정의 |\\n| --- | --- | --- | --- |\\n| a | 가 | A. | 가. |\\n"
    >>> table_rows("# G\\n\\n" + text)
    (3, [(5, ['a', '가', 'A.', '가.'])])
    """
    lines = text.splitlines()
    index = next((i for i, line in enumerate(lines)
                  if [c.strip() for c in _CELL_SPLIT.split(line.strip())[1:-1]] == list(HEADER)), None)
    if index is None:
        raise GlossaryRowError(f"there is no table whose header is '{HEADER_LINE}'")
    if index + 1 >= len(lines) or not _DELIMITER_ROW.match(lines[index + 1].strip()):
        raise GlossaryRowError("the table's header is not followed by its '| --- | --- | --- | --- |' line")
    rows = []
    for number in range(index + 2, len(lines)):
        line = lines[number].strip()
        if not line.startswith("|"):
            break
        if not line.endswith("|") or line.endswith("\\|"):
            rows.append((number + 1, None))
            continue
        rows.append((number + 1, [c.strip().replace("\\|", "|") for c in _CELL_SPLIT.split(line)[1:-1]]))
    return index + 1, rows


def read_terms(text: str, path: str) -> list[Term]:
    """Every term of the glossary page's table; a LessonError names the line of a malformed row."""
    try:
        header_line, rows = table_rows(text)
    except GlossaryRowError as error:
        raise lesson_error(path, 1, str(error), f"keep the glossary as one table: {HEADER_LINE}") from None
    terms: list[Term] = []
    anchors: dict[str, int] = {}
    forms: dict[tuple[str, str], int] = {}
    for line, cells in rows:
        try:
            if cells is None or len(cells) != len(HEADER) or not all(cells):
                raise GlossaryRowError("this row does not have four cells, the term in English and in Korean, "
                                       "then its definition in English and in Korean, all filled in")
            english, korean, english_definition, korean_definition = cells
            term = Term(line, english, korean, anchor_of(english), term_forms(english, korean),
                        {"en": english_definition, "ko": korean_definition})
            if term.anchor in anchors:
                raise GlossaryRowError(f"this row's id {term.anchor!r} is the same as line {anchors[term.anchor]}'s")
            for language, language_forms in term.forms.items():
                for form in language_forms:
                    key = (language, form.text.lower())
                    if key in forms:
                        raise GlossaryRowError(f"{form.text!r} is also a term on line {forms[key]}")
                    forms[key] = line
        except GlossaryRowError as error:
            raise lesson_error(path, line, str(error),
                               "write the row as '| English term | 한국어 용어 | One line. | 한 줄 정의. |'; "
                               "separate alternatives "
                               "with ' / ' and keep parentheses balanced (see the top of glossary.py)") from None
        anchors[term.anchor] = line
        terms.append(term)
    if not terms:
        raise lesson_error(path, header_line, "the glossary table has no rows", "add a row per term")
    return terms


def terms_of(app: Sphinx) -> list[Term]:
    """This build's glossary terms (none when the site has no glossary page)."""
    return getattr(app, "learnjax_glossary", [])


@stops_build
def on_builder_inited(app: Sphinx) -> None:
    path = app.env.doc2path(GLOSSARY_DOCNAME)
    app.learnjax_glossary = read_terms(path.read_text(encoding="utf8"), str(path)) if path.is_file() else []


def _header(table: nodes.table) -> tuple[str, ...]:
    head = next(iter(table.findall(nodes.thead)), None)
    row = next(iter(head.findall(nodes.row)), None) if head else None
    return tuple(entry.astext().strip() for entry in row.children) if row else ()


@stops_build
def on_doctree_read(app: Sphinx, doctree: nodes.document) -> None:
    """Give each row of the glossary page's table the id of its term."""
    if app.env.docname != GLOSSARY_DOCNAME or not terms_of(app):
        return
    path = str(app.env.doc2path(GLOSSARY_DOCNAME))
    table = next((t for t in doctree.findall(nodes.table) if _header(t) == HEADER), None)
    rows = [row for body in (table.findall(nodes.tbody) if table else []) for row in body.findall(nodes.row)]
    terms = terms_of(app)
    if len(rows) != len(terms):
        raise lesson_error(path, terms[0].line, f"the page shows {len(rows)} glossary rows but its table has "
                           f"{len(terms)}", "keep the glossary as one plain Markdown table, one term per row, "
                           "each row starting and ending with '|'")
    table["classes"].append(TABLE_CLASS)
    for row, term in zip(rows, terms, strict=True):
        shown = _squash(row.children[0].astext())
        if shown != _squash(term.english):
            raise lesson_error(path, term.line, f"this row shows {shown!r} where its source says {term.english!r}",
                               "write the English term as plain text, without Markdown markup")
        row["ids"].append(term.anchor)
    keep_one_definition(table, app.config.language)
    arrange_for(table, terms, app.config.language)


def keep_one_definition(table: nodes.table, language: str) -> None:
    """Remove the column of the other language's definition from the glossary's table."""
    other = DEFINITION_COLUMN["ko" if language == "en" else "en"]
    group = next(iter(table.findall(nodes.tgroup)))
    colspecs = [c for c in group.children if isinstance(c, nodes.colspec)]
    group.remove(colspecs[other])
    group["cols"] = len(colspecs) - 1
    for row in group.findall(nodes.row):
        row.remove(row.children[other])


def term_in(term: Term, language: str) -> str:
    return term.english if language == "en" else term.korean


def sorted_terms(terms: list[Term], language: str) -> list[Term]:
    """The terms in the order of ``language``'s dictionaries, by the term in that language.

    >>> terms = [Term(1, "array", "배열", "a", {}), Term(2, "JIT compilation", "JIT 컴파일", "j", {}),
    ...          Term(3, "device", "디바이스", "d", {}),
    ...          Term(4, "transformation (of functions)", "(함수) 변환", "t", {})]
    >>> [t.korean for t in sorted_terms(terms, "ko")]
    ['디바이스', '배열', '(함수) 변환', 'JIT 컴파일']
    >>> [t.english for t in sorted_terms(terms, "en")]
    ['array', 'device', 'JIT compilation', 'transformation (of functions)']
    """
    return sorted(terms, key=lambda term: sort_key(term_in(term, language), language))


def arrange_for(table: nodes.table, terms: list[Term], language: str) -> None:
    """The table with one definition left, in ``language``: its term first, headings, rows sorted."""
    group = next(iter(table.findall(nodes.tgroup)))
    if TERM_COLUMN[language] != 0:  # the page's term first
        colspecs = [c for c in group.children if isinstance(c, nodes.colspec)]
        group.children[group.index(colspecs[0])], group.children[group.index(colspecs[1])] = colspecs[1], colspecs[0]
        for row in group.findall(nodes.row):
            row.children[0], row.children[1] = row.children[1], row.children[0]
    other = "ko" if language == "en" else "en"
    for row in group.findall(nodes.row):
        row.children[1]["classes"].append(f"language-{other}")  # the HTML writer makes it lang="..."
    head = next(iter(group.findall(nodes.thead)))
    for entry, key in zip(next(iter(head.findall(nodes.row))).children, HEADINGS, strict=True):
        entry.children = []
        entry += nodes.paragraph("", text(language, key))
    head.children[0].children[1]["classes"].remove(f"language-{other}")  # a heading in the page's language
    body = next(iter(group.findall(nodes.tbody)))
    rows = {row["ids"][0]: row for row in body.children}
    body.children = []
    for term in sorted_terms(terms, language):
        body += rows[term.anchor]
