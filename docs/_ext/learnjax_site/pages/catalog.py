"""The course's catalogue: lesson lists on the home and part pages, and one page per tag.

``:::{lesson-index}`` (no argument, no content) lists lessons as cards: title, one-line summary,
reading time and tags, each tag linking to its tag page. On a part page (a page whose toctree
lists lessons) it lists that part's lessons; on any other page (the home page) it lists every part
its toctree reaches, each with its lessons. Every list carries the hooks the reader's progress
(``progress.js``) fills in: a count per part and overall, a mark per lesson, a reset button.

Tag pages are generated, not written: ``tags/index`` lists every tag by its name in this build's
language (``docs/tags.toml``), sorted in that language, and ``tags/<tag>`` every lesson with that
tag, in reading order. A tag's address is its key, the same in both languages.
"""

from __future__ import annotations

from html import escape

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from ..core.collation import sort_key
from ..core.pagedata import note_summary
from ..core.texts import text
from ..source.lessons import LESSONS, lesson_position, summary_html, tag_page
from ..source.tags import tag_name

TAGS_INDEX = "tags/index"


class lesson_index(nodes.General, nodes.Element):
    """Placeholder for ``{lesson-index}``; filled once every page has been read."""


class LessonIndexDirective(SphinxDirective):
    has_content = False

    def run(self) -> list[nodes.Node]:
        note_summary(self.env)
        node = lesson_index()
        self.set_source_info(node)
        return [node]


def lessons_in_order(env) -> list[str]:
    """Every lesson, in the order a reader meets them walking the toctree from the root page."""
    ordered, seen = [], set()

    def walk(docname: str) -> None:
        for child in env.toctree_includes.get(docname, []):
            if child in seen:
                continue
            seen.add(child)
            if child in LESSONS.of(env):
                ordered.append(child)
            walk(child)

    walk(env.config.root_doc)
    return ordered


def parts(env, docname: str) -> list[tuple[str, list[str]]]:
    """``(part, its lessons)`` that the page ``docname`` lists: itself if it is a part, else the parts below it."""
    lessons = LESSONS.of(env)
    own = [child for child in env.toctree_includes.get(docname, []) if child in lessons]
    if own:
        return [(docname, own)]
    found = []
    for child in env.toctree_includes.get(docname, []):
        found += [(part, its) for part, its in parts(env, child) if its]
    return found


def tagged(env) -> dict[str, list[str]]:
    """``{tag: lessons}`` in reading order, tags sorted by name."""
    by_tag: dict[str, list[str]] = {}
    for docname in lessons_in_order(env):
        for tag in LESSONS.of(env)[docname]["tags"]:
            by_tag.setdefault(tag, []).append(docname)
    return dict(sorted(by_tag.items()))


class Renderer:
    """HTML of the catalogue, for one page of one language's build."""

    def __init__(self, app: Sphinx, here: str):
        self.app, self.env, self.here = app, app.env, here
        self.language = app.config.language

    def href(self, docname: str) -> str:
        return self.app.builder.get_relative_uri(self.here, docname)

    def t(self, key: str, **values) -> str:
        return escape(text(self.language, key, **values))

    def tag_name(self, tag: str) -> str:
        return escape(tag_name(self.app, tag))

    def tag_links(self, tags: list[str]) -> str:
        return " ".join(f'<a class="learnjax-tag" href="{self.href(tag_page(tag))}">{self.tag_name(tag)}</a>'
                         for tag in tags)

    def entry(self, docname: str, with_part: bool = False) -> str:
        meta = LESSONS.of(self.env)[docname]
        title = escape(self.env.titles[docname].astext())
        where = ""
        if with_part and (position := lesson_position(self.env, docname)):
            part, number, total = position
            where = self.t("lesson_position", part=self.env.titles[part].astext(), number=number, total=total) + " · "
        return (
            f'<li class="learnjax-lesson-entry" data-docname="{escape(docname)}">'
            f'<a class="learnjax-lesson-link" href="{self.href(docname)}">{title}</a>'
            f'<span class="learnjax-done-label">{self.t("progress_done_label")}</span>'
            f'<p class="learnjax-lesson-summary">{summary_html(meta["summary"][self.language])}</p>'
            f'<p class="learnjax-lesson-facts">{where}{self.t("reading_time", minutes=meta["minutes"])} · '
            f'{self.t("tags")}: {self.tag_links(meta["tags"])}</p></li>'
        )

    def lesson_list(self, lessons: list[str]) -> str:
        """A part's lessons, numbered as in the part."""
        return '<ol class="learnjax-lesson-list">' + "".join(self.entry(d) for d in lessons) + "</ol>"

    def count(self, scope: str, lessons: list[str]) -> str:
        """Filled by progress.js: "{done} of {total}" for these lessons; hidden without JavaScript."""
        return (f'<p class="learnjax-progress-count" data-scope="{escape(scope)}" '
                f'data-lessons="{escape(" ".join(lessons))}" '
                f'data-format="{self.t("progress_count", done="{done}", total="{total}")}" hidden></p>')

    def progress_bar(self, scope: str, lessons: list[str]) -> str:
        return (
            '<div class="learnjax-progress-bar">' + self.count(scope, lessons)
            + f'<button type="button" class="learnjax-progress-reset" data-confirm="{self.t("progress_confirm")}" '
            f'hidden>{self.t("progress_reset")}</button>'
            f'<p class="learnjax-progress-note" hidden>{self.t("progress_note")}</p></div>'
        )

    def index(self) -> str:
        found = parts(self.env, self.here)
        everything = [d for _, lessons in found for d in lessons]
        if len(found) == 1 and found[0][0] == self.here:  # a part page
            body = self.progress_bar(self.here, everything) + self.lesson_list(everything)
        else:
            body = self.progress_bar("all", everything)
            for part, lessons in found:
                body += (f'<section class="learnjax-part" data-part="{escape(part)}">'
                         f'<h2 class="learnjax-part-title"><a href="{self.href(part)}">'
                         f'{escape(self.env.titles[part].astext())}</a></h2>'
                         + self.count(part, lessons) + self.lesson_list(lessons) + "</section>")
            body += (f'<p class="learnjax-all-tags"><a href="{self.href(TAGS_INDEX)}">'
                     f'{self.t("all_tags")}</a></p>')
        return f'<div class="learnjax-catalog">{body}</div>'

    def tag_page(self, tag: str, lessons: list[str]) -> str:
        entries = "".join(self.entry(d, with_part=True) for d in lessons)
        return (f'<h1>{self.t("tag_page_title", tag=tag_name(self.app, tag))}</h1>'
                f'<p>{self.t("tag_page_intro", count=len(lessons))}</p>'
                '<div class="learnjax-catalog"><ul class="learnjax-lesson-list learnjax-across-parts">'
                f'{entries}</ul></div>'
                f'<p class="learnjax-all-tags"><a href="{self.href(TAGS_INDEX)}">{self.t("all_tags")}</a></p>')

    def tags_index(self, by_tag: dict[str, list[str]]) -> str:
        """Every tag by its name, in the order of the page's language (가나다 on Korean pages)."""
        ordered = sorted(by_tag.items(), key=lambda item: sort_key(tag_name(self.app, item[0]), self.language))
        items = "".join(f'<li><a class="learnjax-tag" href="{self.href(tag_page(tag))}">{self.tag_name(tag)}</a> '
                        f'<span class="learnjax-tag-count">({len(lessons)})</span></li>'
                        for tag, lessons in ordered)
        return f'<h1>{self.t("all_tags")}</h1><ul class="learnjax-tag-list">{items}</ul>'


def on_doctree_resolved(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    for node in list(doctree.findall(lesson_index)):
        node.replace_self(nodes.raw("", Renderer(app, docname).index(), format="html"))


def collect_tag_pages(app: Sphinx):
    """``html-collect-pages``: the tags index and one page per tag."""
    by_tag = tagged(app.env)
    if not by_tag:
        return
    index = Renderer(app, TAGS_INDEX)
    yield TAGS_INDEX, {"title": text(app.config.language, "all_tags"), "body": index.tags_index(by_tag)}, "page.html"
    for tag, lessons in by_tag.items():
        page = tag_page(tag)
        context = {"title": text(app.config.language, "tag_page_title", tag=tag_name(app, tag)),
                   "body": Renderer(app, page).tag_page(tag, lessons)}
        yield page, context, "page.html"


def setup(app: Sphinx) -> dict:
    app.add_node(lesson_index)
    app.add_directive("lesson-index", LessonIndexDirective)
    app.add_css_file("learnjax-catalog.css")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
