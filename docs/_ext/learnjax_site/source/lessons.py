"""Lesson pages: their front matter, and the header under the title.

A lesson is a page whose front matter has a ``lesson`` key::

    lesson:
      summary:
        ko: 한 줄 요약
        en: One-line summary
      tags: [xla, jit]

Tags are keys of ``docs/tags.toml``, which names each in both languages (``tags``).

Under its title the page shows its part and place in it ("Lesson 1 of 4", from the part page's
toctree), the estimated reading time of this language's text, its tags, the summary, and the
provenance line of its outputs.
"""

from __future__ import annotations

import math
import re
from html import escape

from docutils import nodes
from sphinx.application import Sphinx

from ..core.doctree import ancestors
from ..core.errors import lesson_error, stops_build
from ..core.languages import LANGUAGES
from ..core.pagedata import PageData
from ..core.words import HANGUL_SYLLABLE
from . import page
from .tags import check_lesson_tags, known_tags

LESSONS = PageData("learnjax_lessons")

# Reading speeds for technical prose: Korean is read by syllable, English by word; code is read
# line by line and more slowly. Folded material (a program's source, a solution) is not counted.
KOREAN_SYLLABLES_PER_MINUTE = 450
ENGLISH_WORDS_PER_MINUTE = 200
CODE_LINES_PER_MINUTE = 20

_INLINE_CODE = re.compile(r"`([^`\n]+)`")
_LATIN_WORD = re.compile(r"[A-Za-z0-9]+(?:['’.\-_][A-Za-z0-9]+)*")


def reading_minutes(prose: str, code_lines: int) -> int:
    """Estimated minutes to read ``prose`` and ``code_lines`` lines of code, at least one.

    >>> reading_minutes("가" * 900, 0)
    2
    >>> reading_minutes("word " * 400, 40)
    4
    """
    minutes = (len(HANGUL_SYLLABLE.findall(prose)) / KOREAN_SYLLABLES_PER_MINUTE
               + len(_LATIN_WORD.findall(prose)) / ENGLISH_WORDS_PER_MINUTE
               + code_lines / CODE_LINES_PER_MINUTE)
    return max(1, math.ceil(minutes - 0.25))


def summary_runs(summary: str) -> list[tuple[str, bool]]:
    """A summary as runs of ``(text, is_code)``: an API name in backticks is shown as code.

    >>> summary_runs("`split`과 `fold_in`으로 나눕니다")
    [('split', True), ('과 ', False), ('fold_in', True), ('으로 나눕니다', False)]
    """
    runs, end = [], 0
    for match in _INLINE_CODE.finditer(summary):
        runs += [(summary[end:match.start()], False)] if match.start() > end else []
        runs.append((match[1], True))
        end = match.end()
    return runs + ([(summary[end:], False)] if end < len(summary) else [])


def summary_text(summary: str) -> str:
    """The summary without its backticks, for a meta description.

    >>> summary_text("Derive keys with `split`.")
    'Derive keys with split.'
    """
    return "".join(run for run, _ in summary_runs(summary))


def summary_html(summary: str) -> str:
    """The summary as HTML, its API names as ``<code>``, as Sphinx writes inline code.

    >>> summary_html("`a<b` & c")
    '<code class="docutils literal notranslate"><span class="pre">a&lt;b</span></code> &amp; c'
    """
    return "".join(f'<code class="docutils literal notranslate"><span class="pre">{escape(run)}</span></code>'
                   if code else escape(run) for run, code in summary_runs(summary))


def summary_paragraph(summary: str, classes: list[str]) -> nodes.paragraph:
    """The summary as a paragraph node, its API names as inline literals."""
    paragraph = nodes.paragraph(classes=classes)
    for run, code in summary_runs(summary):
        paragraph += nodes.literal(run, run) if code else nodes.Text(run)
    return paragraph


def lesson_key_line(lines: list[str]) -> int:
    """1-based line of the front matter's ``lesson:`` key (1 if there is none).

    >>> lesson_key_line(["---", "kernelspec: {}", "lesson:", "  tags: [jit]", "---"])
    3
    """
    return next((i for i, t in enumerate(lines) if t.startswith("lesson:")), 0) + 1


def lesson_metadata(front_matter: dict, path: str, lines: list[str]) -> dict | None:
    """Validate the ``lesson`` front matter; None for a page that is not a lesson."""
    meta = front_matter.get("lesson")
    if meta is None:
        return None
    line = lesson_key_line(lines)
    summary = meta.get("summary") if isinstance(meta, dict) else None
    if not isinstance(summary, dict) or any(not str(summary.get(lang, "")).strip() for lang in LANGUAGES):
        raise lesson_error(path, line, "the lesson's summary is missing a language",
                           "give 'lesson: summary:' a one-line 'ko:' and 'en:' entry")
    for lang in LANGUAGES:
        if str(summary[lang]).count("`") % 2:
            raise lesson_error(path, line, f"the lesson's {lang} summary has an unmatched backtick",
                               "put each API name between two backticks, e.g. `jax.random.split`")
    tags = meta.get("tags")
    if not isinstance(tags, list) or not tags or not all(isinstance(t, str) for t in tags):
        raise lesson_error(path, line, "the lesson has no tags",
                           "give 'lesson: tags:' a list of short topic names, e.g. [jit, xla]")
    return {"summary": {lang: summary[lang] for lang in LANGUAGES}, "tags": tags}


def tag_page(tag: str) -> str:
    """The page that lists every lesson with ``tag`` (made by ``catalog``).

    >>> tag_page("jit")
    'tags/jit'
    """
    return f"tags/{tag}"


CALLOUT_CLASSES = {"learnjax-mental-model", "learnjax-trap", "learnjax-why-it-matters"}
JAX_DOCS = "docs.jax.dev"


def missing_parts(doctree: nodes.document) -> list[str]:
    """What a lesson page lacks of the parts every lesson has (README, "Writing a lesson")."""
    classes = {c for node in doctree.findall(nodes.Element) for c in node.get("classes", [])}
    solution = any(cell.get("nb_element") == "cell_code" and "solution" in cell.get("cell_metadata", {}).get("tags", [])
                   for cell in doctree.findall(nodes.container))
    docs_link = any(JAX_DOCS in ref.get("refuri", "") for ref in doctree.findall(nodes.reference))
    wanted = {
        "a call-out (mental-model, trap or why-it-matters)": bool(CALLOUT_CLASSES & classes),
        "an exercise (:::{exercise})": "learnjax-exercise" in classes,
        "a solution (a code cell tagged 'solution')": solution,
        f"a link to the JAX documentation ({JAX_DOCS}) under further reading": docs_link,
    }
    return [part for part, present in wanted.items() if not present]


class lesson_header(nodes.General, nodes.Element):
    """Placeholder under a lesson's title; filled once every page has been read."""


FOLDED_CLASSES = {"learnjax-program-source", "tag_solution"}


def _folded(node: nodes.Node) -> bool:
    return any(FOLDED_CLASSES & set(getattr(a, "get", lambda *_: [])("classes", []))
               for a in ancestors(node, include_self=True))


def _text_and_code(doctree: nodes.document) -> tuple[str, int]:
    prose, code_lines = [], 0
    for node in doctree.findall(nodes.Text):
        parent = node.parent
        if _folded(parent):
            continue
        inside_cell = any(isinstance(a, nodes.container) and a.get("nb_element") == "cell_code"
                          for a in ancestors(parent, include_self=True))
        if isinstance(parent, nodes.literal_block):
            if inside_cell and parent.parent.get("nb_element") == "cell_code_source":
                code_lines += len(node.astext().splitlines())
            elif not inside_cell:
                code_lines += len(node.astext().splitlines())
        elif not inside_cell:
            prose.append(node.astext())
    return " ".join(prose), code_lines




@stops_build
def on_doctree_read(app: Sphinx, doctree: nodes.document) -> None:
    env = app.env
    docname = env.docname
    lessons = LESSONS.of(env)
    lessons.pop(docname, None)
    written = page.current(env)
    if written is None or written.notebook is None:
        return
    path, lines = written.path, written.lines
    meta = lesson_metadata(written.notebook.front_matter, path, lines)
    if meta is None:
        return
    check_lesson_tags(known_tags(app), meta["tags"], path, lines)
    missing = missing_parts(doctree)
    if missing:
        problem = f"this {app.config.language} lesson lacks " + "; ".join(missing)
        raise lesson_error(path, lesson_key_line(lines), problem,
                           "every lesson has these (README, 'Writing a lesson'): add them in both languages, "
                           "or remove 'lesson:' from the front matter if the page is not a lesson")
    prose, code_lines = _text_and_code(doctree)
    meta["minutes"] = reading_minutes(prose, code_lines)
    lessons[docname] = meta
    section = next(iter(doctree.findall(nodes.section)), None)
    if section is None:
        raise lesson_error(path, 1, "the lesson has no title", "start the lesson with a '# Title' in both languages")
    section.insert(1, lesson_header())


def lesson_position(env, docname: str) -> tuple[str, int, int] | None:
    """(part docname, number, total) of a lesson in the toctree of the page that lists it."""
    for parent, children in env.toctree_includes.items():
        lessons = [c for c in children if c in LESSONS.of(env)]
        if docname in lessons:
            return parent, lessons.index(docname) + 1, len(lessons)
    return None


def setup(app: Sphinx) -> dict:
    app.add_node(lesson_header)
    LESSONS.connect(app)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
