"""Topic tags: their names in both languages, read from ``docs/tags.toml``, and the lessons' use of them.

A lesson lists its tags by key in its front matter (``lesson: tags: [jit, xla]``); ``tags.toml``
gives each key its name in every language, one line per tag::

    jit = { ko = "JIT 컴파일", en = "JIT compilation" }

The key is the tag page's address (``tags/jit.html``, the same in both builds); pages show the name
in their language. A line that is not like this, a tag without a name in one language, or a lesson
tag the file does not list stops the build, naming the file and line and what to write.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from sphinx.application import Sphinx

from ..core.errors import lesson_error, stops_build
from ..core.languages import LANGUAGES

TAGS_FILE = "tags.toml"
_KEY = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_KEY_LINE = re.compile(r"^\s*([^\s=#]+)\s*=")
EXAMPLE = 'jit = { ko = "JIT 컴파일", en = "JIT compilation" }'


def read_tags(text: str, path: str) -> dict[str, dict[str, str]]:
    """``{key: {language: name}}`` from the text of ``tags.toml``; a LessonError names a bad line.

    >>> read_tags('jit = { ko = "JIT 컴파일", en = "JIT compilation" }\\n', "tags.toml")
    {'jit': {'ko': 'JIT 컴파일', 'en': 'JIT compilation'}}
    """
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line = re.search(r"line (\d+)", str(error))
        raise lesson_error(path, int(line[1]) if line else 1, f"this is not a TOML line: {error}",
                           f"write one tag per line: {EXAMPLE}") from None
    lines = {match[1]: number for number, line in enumerate(text.splitlines(), 1)
             if (match := _KEY_LINE.match(line))}
    tags = {}
    for key, names in table.items():
        line = lines.get(key, 1)
        if not _KEY.match(key):
            raise lesson_error(path, line, f"the tag key {key!r} is not lowercase words joined by '-'",
                               f"keys are the tag pages' addresses, e.g. 'control-flow': {EXAMPLE}")
        missing = [lang for lang in LANGUAGES
                   if not isinstance(names, dict) or not isinstance(names.get(lang), str) or not names[lang].strip()]
        if missing:
            raise lesson_error(path, line, f"the tag {key!r} has no name in {', '.join(missing)}",
                               f"give it a name in each language: {EXAMPLE}")
        tags[key] = {lang: names[lang].strip() for lang in LANGUAGES}
    return tags


def tags_line(lines: list[str], tag: str) -> int:
    """1-based line of the front matter that lists ``tag`` (of its ``tags:`` key, 1 without one).

    >>> tags_line(["---", "lesson:", "  tags: [jit,", "    xla]", "---"], "xla")
    4
    """
    end = next((i for i, text in enumerate(lines[1:], 1) if text.strip() == "---"), len(lines))
    start = next((i for i in range(end) if lines[i].strip().startswith("tags:")), None)
    if start is None:
        return 1
    found = next((i for i in range(start, end) if re.search(rf"(?<![\w-]){re.escape(tag)}(?![\w-])", lines[i])), start)
    return found + 1


def check_lesson_tags(known: dict, tags: list[str], path: str, lines: list[str]) -> None:
    """Stop on a lesson tag that ``tags.toml`` does not name."""
    for tag in tags:
        if tag not in known:
            raise lesson_error(path, tags_line(lines, tag), f"the tag {tag!r} is not in docs/{TAGS_FILE}, "
                               "so it has no Korean or English name",
                               f"use one of its tags ({', '.join(sorted(known))}), or add a line for it there: "
                               + EXAMPLE.replace("jit", tag, 1))


def known_tags(app: Sphinx) -> dict[str, dict[str, str]]:
    return getattr(app, "learnjax_tags", {})


def tag_name(app: Sphinx, tag: str) -> str:
    """The tag's name in this build's language."""
    return known_tags(app)[tag][app.config.language]


@stops_build
def on_builder_inited(app: Sphinx) -> None:
    path = Path(app.srcdir, TAGS_FILE)
    app.learnjax_tags = read_tags(path.read_text(encoding="utf8"), str(path)) if path.is_file() else {}
