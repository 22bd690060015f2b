"""Link the first use of each glossary term in a lesson to the term's row on the glossary page.

A reader meets a term in running prose and can look it up in one click, in either language: the
Korean build searches for the Korean forms of the glossary's terms, the English build for the
English ones (see ``glossary`` for how a cell becomes forms). Each row is linked once per lesson,
at its first use in running prose: a heading, a title, code, an existing link, a table, a code
cell's output, the lesson header and a folded solution are not prose, so a term there is left
alone and its first use in prose is linked instead. Only lessons are linked (pages with
``lesson:`` front matter): they are where a reader meets terms; the glossary, the parts' pages
and the build report are not taught prose.

Matching, one regular expression per language, longest form first, so "JIT 컴파일" wins over
"컴파일" and "JIT compilation" over "compilation":

* Korean: a form starts a word (재배열 holds no 배열) and is followed by a particle or a verb
  ending (트레이싱은, 컴파일합니다, 고정된), by a space or by punctuation; the particle stays
  outside the link. A syllable that makes another word is no particle: 컴파일러 (compiler) and
  메시지 (message) are not 컴파일 and 메시. A ``bare`` form (a Hangul qualifier dropped: 고정,
  변환) needs a particle or punctuation after it, not a space.
* English: case-insensitive, at word boundaries (a hyphen joins words), with a simple plural
  (arrays, batches); a hyphen in a term also matches a space ("warm-up", "warm up").

A link is ``<a class="reference internal learnjax-glossary-link" href="…glossary.html#term-…"
title="the term in the other language">``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx

from ..core.doctree import ancestors
from ..source.lessons import LESSONS
from .glossary import GLOSSARY_DOCNAME, Form, Term, terms_of

LINK_CLASS = "learnjax-glossary-link"
CSS_FILE = "learnjax-glossary.css"

# What may follow a Korean term inside the same word: particles, the copula, and the endings of
# 하다/되다 verbs. Syllables that start other words (러 in 컴파일러, 지 in 메시지, 기, 화) are absent.
KOREAN_PARTICLE = (r"(?:대로|[은는이가을를의에엔와과도만로으까부보처마라란랑나든뿐끼여였인일입임들별용"
                   r"하한할함합해했되된될됨됩돼됐])")

# Homonyms: words spelled like a term that mean something else, passed over and never linked.
# 배치하다 is "to place" (배치, batch, is a noun); "in place of" is not an in-place update.
NOT_TERMS = {
    "ko": [r"(?<!\w)배치(?=[하한할함합해했되된될됨됩돼됐])"],
    "en": [r"(?<![\w-])in\s+place\s+of(?![\w-])"],
}

# Where a term is not in running prose. A text must also be inside a paragraph.
SKIPPED_NODES = (nodes.title, nodes.subtitle, nodes.rubric, nodes.caption, nodes.FixedTextElement,
                 nodes.literal, nodes.reference, nodes.raw, nodes.math, nodes.table, nodes.image,
                 nodes.target, nodes.comment, nodes.term, addnodes.pending_xref)
SKIPPED_CLASSES = {"learnjax-lesson-header", "learnjax-solution", "tag_solution", "learnjax-program-source"}


@dataclasses.dataclass(frozen=True)
class Match:
    start: int
    end: int
    term: Term
    title: str


def form_pattern(form: Form, language: str) -> str:
    """The regular expression of one form, with one capturing group: the text to link."""
    words = r"\s+".join(re.escape(word) for word in form.text.split())
    if language == "en":
        words = words.replace(r"\-", r"[-\s]")
        return rf"(?<![\w-])({words}(?:es|s)?)(?![\w-])"
    after = rf"(?={KOREAN_PARTICLE}|[^\w\s])" if form.bare else rf"(?:(?={KOREAN_PARTICLE})|(?!\w))"
    return rf"(?<!\w)({words}){after}"


class TermFinder:
    """Finds the glossary's terms in one language's text, longest form first.

    >>> from learnjax_site.pages.glossary import Term, anchor_of, term_forms
    >>> rows = [("array", "배열"), ("tracer / tracing", "트레이서 / 트레이싱"), ("JIT compilation", "JIT 컴파일"),
    ...         ("compile / compilation", "컴파일"), ("transformation (of functions)", "(함수) 변환"),
    ...         ("sharding / mesh", "샤딩 / 메시(mesh)"), ("batch", "배치"), ("in place (update)", "제자리 (갱신)")]
    >>> terms = [Term(n, en, ko, anchor_of(en), term_forms(en, ko)) for n, (en, ko) in enumerate(rows)]
    >>> def found(text, language):
    ...     for m in TermFinder(terms, language).find(text):
    ...         print(text[m.start:m.end], m.term.anchor, m.title, sep=" | ")
    >>> found("트레이싱은 배열을 재배열하고 JIT 컴파일합니다. 컴파일러는 메시지를 씁니다.", "ko")
    트레이싱 | term-tracer-tracing | tracing
    배열 | term-array | array
    JIT 컴파일 | term-jit-compilation | JIT compilation
    >>> found("함수 변환과 변환은 같지만 변환 세 개의 변환 비용은 아닙니다", "ko")
    함수 변환 | term-transformation | transformation (of functions)
    변환 | term-transformation | transformation (of functions)
    >>> found("디바이스에 배치하고 배치마다 제자리 갱신을", "ko")
    배치 | term-batch | batch
    제자리 갱신 | term-in-place | in place (update)
    >>> found("Arguments in place of batches, updated in place.", "en")
    batches | term-batch | 배치
    in place | term-in-place | 제자리 (갱신)
    >>> found("Arrays and JIT compilation: compilation traces a tracer; rearrays, jit-compiled.", "en")
    Arrays | term-array | 배열
    JIT compilation | term-jit-compilation | JIT 컴파일
    compilation | term-compile-compilation | 컴파일
    tracer | term-tracer-tracing | 트레이서
    """

    def __init__(self, terms: list[Term], language: str):
        forms = sorted(((form, term) for term in terms for form in term.forms[language]),
                       key=lambda pair: len(pair[0].text), reverse=True)
        self.forms = forms
        alternatives = [*NOT_TERMS[language], *(form_pattern(form, language) for form, _ in forms)]
        self.pattern = re.compile("|".join(alternatives), re.IGNORECASE)

    def find(self, text: str) -> Iterator[Match]:
        if not self.forms:
            return
        for found in self.pattern.finditer(text):
            if found.lastindex is None:  # one of NOT_TERMS
                continue
            form, term = self.forms[found.lastindex - 1]
            yield Match(found.start(found.lastindex), found.end(found.lastindex), term, form.title)


def in_running_prose(node: nodes.Node) -> bool:
    """Whether a text node is running prose a term may be linked in (see the module's docstring)."""
    in_paragraph = False
    for ancestor in ancestors(node):
        if isinstance(ancestor, SKIPPED_NODES):
            return False
        if isinstance(ancestor, nodes.Element):
            if SKIPPED_CLASSES & set(ancestor.get("classes", [])) or ancestor.get("nb_element") == "cell_code":
                return False
        in_paragraph = in_paragraph or isinstance(ancestor, nodes.paragraph)
    return in_paragraph




def link_first_uses(doctree: nodes.document, finder: TermFinder, href) -> list[str]:
    """Link each term's first use in running prose to ``href(term)``; return the anchors linked.

    A later use of a linked term is passed over whole, so "JIT compilation" used again does not
    link the "compilation" inside it.
    """
    linked: list[str] = []
    for text_node in list(doctree.findall(nodes.Text)):
        if not in_running_prose(text_node):
            continue
        text, pieces, position = str(text_node), [], 0
        for match in finder.find(text):
            if match.term.anchor in linked:
                continue
            linked.append(match.term.anchor)
            pieces.append(nodes.Text(text[position:match.start]))
            words = text[match.start:match.end]
            pieces.append(nodes.reference(words, words, internal=True, refuri=href(match.term),
                                          reftitle=match.title, classes=[LINK_CLASS]))
            position = match.end
        if pieces:
            pieces.append(nodes.Text(text[position:]))
            text_node.parent.replace(text_node, [piece for piece in pieces if piece.astext()])
    return linked


def on_doctree_resolved(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    terms = terms_of(app)
    if not terms or app.builder.format != "html" or docname not in LESSONS.of(app.env):
        return
    finder = getattr(app, "learnjax_term_finder", None)
    if finder is None:
        finder = app.learnjax_term_finder = TermFinder(terms, app.config.language)
    glossary = app.builder.get_relative_uri(docname, GLOSSARY_DOCNAME)
    link_first_uses(doctree, finder, lambda term: f"{glossary}#{term.anchor}")


def on_env_get_updated(app: Sphinx, env) -> list[str]:
    """Rewrite every lesson when the glossary's terms changed since the last build (docs-live)."""
    terms = [(term.anchor, term.english, term.korean) for term in terms_of(app)]
    if getattr(env, "learnjax_glossary_terms", None) == terms:
        return []
    env.learnjax_glossary_terms = terms
    return sorted(LESSONS.of(env))


def setup(app: Sphinx) -> dict:
    app.add_css_file(CSS_FILE)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
