"""The header under a lesson's title: its place in its part, reading time, tags, summary,
where its outputs were made, and the reader's "done" mark (``source.lessons`` leaves a placeholder)."""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx

from ..core.texts import text
from ..execution import provenance
from ..source.lessons import LESSONS, lesson_header, lesson_position, summary_paragraph, tag_page
from ..source.tags import tag_name
from . import progress


def header_nodes(app: Sphinx, docname: str) -> list[nodes.Node]:
    env, language = app.env, app.config.language
    meta = LESSONS.of(env)[docname]
    facts = []
    position = lesson_position(env, docname)
    if position:
        part, number, total = position
        facts.append(text(language, "lesson_position", part=env.titles[part].astext(), number=number, total=total))
    facts.append(text(language, "reading_time", minutes=meta["minutes"]))
    box = nodes.container(classes=["learnjax-lesson-header"])
    line = nodes.paragraph("", " · ".join(facts) + f" · {text(language, 'tags')}: ", classes=["learnjax-lesson-facts"])
    for i, tag in enumerate(meta["tags"]):
        uri = app.builder.get_relative_uri(docname, tag_page(tag))
        line += [nodes.Text(" ")] if i else []
        line += nodes.reference("", tag_name(app, tag), refuri=uri, classes=["learnjax-tag"])
    box += line
    box += summary_paragraph(meta["summary"][language], ["learnjax-lesson-summary"])
    record = provenance.page_record(env, docname)
    box += provenance.provenance_paragraph(record, language)
    box += nodes.raw("", progress.toggle_button(language, docname), format="html")
    return [box]


def on_doctree_resolved(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    for node in list(doctree.findall(lesson_header)):
        node.replace_self(header_nodes(app, docname))
