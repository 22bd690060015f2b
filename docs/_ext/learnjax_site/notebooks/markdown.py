"""A lesson's MyST markdown, as plain Markdown that Jupyter and Colab render.

The reader's notebook (``notebooks``) cannot use Sphinx, so each markdown cell is rewritten:

* call-outs and exercises (``:::{trap}``, ...) become a blockquote under a bold title in the
  page's language, and ``:::{dropdown} Title`` its content under the bold title;
* ``{glue:text}`name``` (and ``{glue}``, ``{glue:md}``) becomes the value the build glued, formatted
  as myst-nb formats it on the page;
* ``{outcome}`name``` becomes the sentence its ``{outcomes}`` block holds for the glued outcome
  (the blocks show nothing);
* ``{glue:figure} name`` becomes the image the build glued, in the cell itself (a ``data:`` URI,
  which Colab and Jupyter both show), with its ``:alt:`` text and its caption; a figure nothing was
  glued for, not an image, or without ``:alt:`` stops the build;
* a link to another page (``[text](other.md)``, ``{doc}``) becomes a link to that page on the site;
* ``{program-source}`` is handed back to the caller, which turns it into cells that write the
  programs (``Programs``);
* MyST targets ``(label)=`` and comments ``% ...`` are dropped.

Anything else MyST-specific stops the build (``MarkdownError``), naming what cannot be shown, rather
than leaving raw MyST in a reader's notebook. Code (fences, code spans, math) is left as it is.
"""

from __future__ import annotations

import dataclasses
import posixpath
import re
from collections.abc import Callable

from markdown_it.renderer import RendererHTML
from myst_parser.config.main import MdParserConfig
from myst_parser.parsers.mdit import create_md_parser

from ..core.texts import text
from ..source import outcomes
from ..source.callouts import CALLOUTS


@dataclasses.dataclass(frozen=True)
class Programs:
    """A ``{program-source}`` directive: the programs' paths, as written, relative to the page."""

    paths: tuple[str, ...]


@dataclasses.dataclass
class Page:
    """What converting one page's markdown needs to know."""

    docname: str
    language: str
    glue: dict[str, dict]  # glued name -> {"data": {mime: value}}, as myst-nb writes <page>.glue.json
    link: Callable[[str], str]  # docname of another page -> its URL from the reader's notebook
    title: Callable[[str], str]  # docname -> its title
    outcomes: dict[str, dict[str, str]] = dataclasses.field(default_factory=dict)  # {outcomes} blocks: name -> cases
    labels: dict[str, dict[str, str]] = dataclasses.field(default_factory=dict)  # {labels} blocks: set -> labels


class MarkdownError(ValueError):
    """MyST that a reader's notebook cannot show; ``line`` is 0-based within the cell."""

    def __init__(self, problem: str, fix: str, line: int = 0):
        super().__init__(problem)
        self.problem, self.fix, self.line = problem, fix, line


_PARSER = None


def _parser():
    global _PARSER
    if _PARSER is None:
        config = MdParserConfig(enable_extensions={"colon_fence", "dollarmath"}, disable_syntax=["inline"])
        _PARSER = create_md_parser(config, RendererHTML)
    return _PARSER


_DIRECTIVE = re.compile(r"^\{([\w:.+-]+)\}\s*(.*)$")
_INLINE = re.compile(
    r"\{(?P<role>[\w:.+-]+)\}`(?P<content>[^`]*)`"  # a role: {glue:text}`name`
    r"|(?P<code>(?<!`)(?P<ticks>`+)(?!`).+?(?<!`)(?P=ticks)(?!`))"  # a code span: left alone
    r"|\]\((?P<target>(?![a-z][a-z0-9+.-]*:)[^)\s#]+\.md)(?P<anchor>#[^)\s]*)?\)",  # a link to a page
    re.DOTALL,
)
_MYST_ONLY_LINE = re.compile(r"^(\([^()\s]+\)=|%.*)\s*$")  # a target (label)= or a comment
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>$|~#])")


def escape(value: str) -> str:
    r"""``value`` as literal Markdown text: the glued text of a page is text, never markup.

    >>> escape("jit(sgd_step): 2× *faster*")
    'jit(sgd\\_step): 2× \\*faster\\*'
    """
    return _MARKDOWN_SPECIAL.sub(r"\\\1", value)


def glued_text(page: Page, role: str, content: str, markdown: bool = True) -> str:
    """The value a glue role shows on the page, formatted as myst-nb formats it (escaped as
    Markdown text unless ``markdown`` is False: an outcome's name, compared, not shown).

    >>> glue = {"speedup": {"data": {"text/plain": "'3.14159'"}}, "way": {"data": {"text/plain": "'a_b'"}}}
    >>> page = Page("p", "en", glue, str, str)
    >>> glued_text(page, "glue:text", "speedup"), glued_text(page, "glue:text", "speedup:.2f")
    ('3.14159', '3.14')
    >>> print(glued_text(page, "glue:text", "way"), glued_text(page, "glue:text", "way", markdown=False))
    a\\_b a_b
    """
    from myst_nb.core.variables import format_plain_text

    key, _, spec = content.rpartition(":") if ":" in content else (content, "", "")
    data = page.glue.get(key, {}).get("data")
    if data is None:
        raise MarkdownError(f"nothing was glued as {key!r}", "glue the name in a code cell of this page")
    if role == "glue:md":
        return data.get("text/markdown", "")
    text = format_plain_text(data.get("text/plain", ""), spec or "s")
    if not markdown:
        return text
    try:
        runs = outcomes.with_labels(text, page.labels, page.language == "ko")
    except ValueError as error:
        raise MarkdownError(str(error), "add the label to the page's {labels} block, in both languages") from None
    return "".join(escape(run) if token is None else inline(page, run) for run, token in runs)


def page_docname(page: Page, target: str) -> str:
    """The docname a relative ``.md`` link of ``page`` points to.

    >>> page_docname(Page("jit/timing", "en", {}, str, str), "../origins/jax-numpy.md")
    'origins/jax-numpy'
    """
    path = posixpath.normpath(posixpath.join(posixpath.dirname(page.docname), target))
    return path[:-len(".md")]


def _role(page: Page, role: str, content: str) -> str:
    if role in ("glue", "glue:text", "glue:any", "glue:md"):
        return glued_text(page, role, content)
    if role == "outcome":
        if content not in page.outcomes:
            raise MarkdownError(f"{{outcome}}`{content}` has no {{outcomes}} {content} block in this language",
                                f"list each outcome's sentence in a ':::{{outcomes}} {content}' block")
        try:
            sentence = outcomes.choose(content, page.outcomes[content],
                                       glued_text(page, "glue:text", content, markdown=False))
        except ValueError as error:
            raise MarkdownError(str(error), "add a sentence for that outcome to the block") from None
        return inline(page, sentence)
    if role == "doc":
        match = re.match(r"^(.*?)\s*<([^<>]+)>$", content, re.DOTALL)
        label, target = (match.group(1), match.group(2)) if match else (None, content)
        docname = target.lstrip("/") if target.startswith("/") else page_docname(page, target + ".md")
        return f"[{label or escape(page.title(docname))}]({page.link(docname)})"
    if role == "math":
        return f"${content}$"
    raise MarkdownError(f"the role {{{role}}} has no plain-Markdown form in the reader's notebook",
                        "use a glue, doc or math role or a Markdown link, or teach notebook_markdown.py this role")


def inline(page: Page, source: str) -> str:
    """Replace roles and page links in running text (code spans stay as they are).

    >>> page = Page("jit/timing", "ko", {"n": {"data": {"text/plain": "42"}}},
    ...             lambda d: f"https://site/ko/{d}.html", str)
    >>> inline(page, "값은 {glue:text}`n`이고 `{glue:text}`n`` [앞 강의](what-jit-does.md#stages)에서 봤습니다.")
    '값은 42이고 `{glue:text}`n`` [앞 강의](https://site/ko/jit/what-jit-does.html#stages)에서 봤습니다.'
    """
    def replace(match: re.Match) -> str:
        if match.group("role"):
            try:
                return _role(page, match.group("role"), match.group("content"))
            except MarkdownError as error:
                error.line += source.count("\n", 0, match.start())
                raise
        if match.group("target"):
            url = page.link(page_docname(page, match.group("target")))
            return f"]({url}{match.group('anchor') or ''})"
        return match.group(0)

    return _INLINE.sub(replace, source)


def _options_lines(body: str) -> int:
    """How many lines of a directive's content are its options (``:open:`` lines or a ``---`` block)."""
    lines = body.split("\n")
    if lines and lines[0].strip() == "---" and "---" in lines[1:]:
        return lines.index("---", 1) + 1
    return next((i for i, line in enumerate(lines) if not re.match(r"^:[\w-]+:", line)), len(lines))


def _directive_body(body: str) -> str:
    """A directive's content without its options."""
    return "\n".join(body.split("\n")[_options_lines(body):])


def blockquote(title: str, body: str) -> str:
    """A call-out as Markdown: a blockquote under a bold title.

    >>> print(blockquote("Trap", "First line.\\n\\nSecond."))
    > **Trap**
    >
    > First line.
    >
    > Second.
    """
    lines = [f"**{title}**", "", *body.strip("\n").split("\n")]
    return "\n".join(f"> {line}" if line.strip() else ">" for line in lines)


SHOWN_DIRECTIVES = (*CALLOUTS, "admonition", "dropdown", "program-source", "glue:figure", "outcomes", "labels")
FIGURE_TYPES = ("image/png", "image/jpeg")


def _options(body: str) -> dict[str, str]:
    r"""A directive's ``:name: value`` options.

    >>> _options(":alt: A plot\n:figclass: wide\nCaption.")
    {'alt': 'A plot', 'figclass': 'wide'}
    """
    lines = body.split("\n")[:_options_lines(body)]
    return dict(re.match(r"^:([\w-]+):\s*(.*)$", line).groups() for line in lines if line.startswith(":"))


def figure(page: Page, name: str, body: str) -> str:
    r"""A ``{glue:figure}`` as Markdown: the glued image inline, under its alt text, then its caption.

    >>> page = Page("p", "en", {"plot_en": {"data": {"image/png": "iVBO\nRw==", "text/plain": "<Image>"}}}, str, str)
    >>> figure(page, "plot_en", ":alt: Time against size, log-log\n\nMedians of six rounds.")
    '![Time against size, log-log](data:image/png;base64,iVBORw==)\n\nMedians of six rounds.'
    """
    data = page.glue.get(name, {}).get("data")
    if data is None:
        raise MarkdownError(f"the figure {name!r} was never glued: this language's page and notebook would lack it",
                            f"glue it in a code cell of this page: glue({name!r}, Image(path), display=False)")
    mime = next((kind for kind in FIGURE_TYPES if kind in data), None)
    if mime is None:
        raise MarkdownError(f"{name!r} was glued as {', '.join(sorted(data))}, not as an image",
                            "glue an IPython.display.Image (a PNG or JPEG) for a {glue:figure}")
    alt = _options(body).get("alt", "").strip()
    if not alt:
        raise MarkdownError(f"the figure {name!r} has no :alt: text",
                            "add ':alt:' saying what the plot shows, in this cell's language")
    encoded = "".join("".join(data[mime]).split())  # base64, without nbformat's line breaks
    caption = markdown(page, _directive_body(body)).strip()
    return f"![{escape(alt)}](data:{mime};base64,{encoded})" + (f"\n\n{caption}" if caption else "")


def _directive(page: Page, name: str, argument: str, body: str) -> str | Programs:
    if name == "program-source":
        return Programs(tuple(argument.split()))
    if name == "glue:figure":
        return figure(page, argument, body)
    if name in ("outcomes", "labels"):  # they stand where {outcome} or a verdict's label token refers to them
        return ""
    content = markdown(page, _directive_body(body))
    if name in CALLOUTS:
        title = text(page.language, name) + (f": {inline(page, argument)}" if argument else "")
        return blockquote(title, content)
    if name == "admonition":
        return blockquote(inline(page, argument), content)
    return f"**{inline(page, argument)}**\n\n{content}" if argument else content  # dropdown


def markdown(page: Page, source: str) -> str:
    """Convert MyST markdown that holds no ``{program-source}`` (a directive's content)."""
    blocks = convert(page, source)
    if any(isinstance(block, Programs) for block in blocks):
        raise MarkdownError("{program-source} is nested in another directive",
                            "put {program-source} at the top level of a shared '+++' cell")
    return "\n\n".join(blocks)


def convert(page: Page, source: str) -> list[str | Programs]:
    """Convert one markdown cell: Markdown text, with each ``{program-source}`` where it stood.

    >>> page = Page("part/first", "en", {}, lambda d: f"../{d}.html", str)
    >>> convert(page, "(intro)=\\n:::{trap}\\n:class: wide\\nSee [this](second.md).\\n:::\\n\\n"
    ...               "```{program-source} ../programs/a.py\\n```")
    ['> **Trap**\\n>\\n> See [this](../part/second.html).', Programs(paths=('../programs/a.py',))]
    """
    lines = source.split("\n")
    raw: set[int] = set()  # lines of code fences and math: copied as they are
    directives = []
    for token in _parser().parse(source):
        if token.map is None or token.type not in ("fence", "colon_fence", "math_block"):
            continue
        match = _DIRECTIVE.match(token.info.strip()) if token.type != "math_block" else None
        if match is None:
            raw.update(range(*token.map))
        elif token.level != 0:
            raise MarkdownError(f"the directive {{{match.group(1)}}} is nested in a list or quote",
                                "put directives at the top level of a language cell", token.map[0])
        else:
            directives.append((token, match.group(1), match.group(2).strip()))

    def prose(run: list[int]) -> str:
        try:
            return inline(page, "\n".join(lines[index] for index in run))
        except MarkdownError as error:
            error.line += run[0]
            raise

    def text_between(start: int, end: int) -> str:
        parts, run = [], []
        for index in range(start, end):
            if index in raw:
                parts += [prose(run), lines[index]] if run else [lines[index]]
                run = []
            elif not _MYST_ONLY_LINE.match(lines[index]):
                run.append(index)
        if run:
            parts.append(prose(run))
        return "\n".join(parts)

    pieces: list[str | Programs] = []
    position = 0
    for token, name, argument in directives:
        pieces.append(text_between(position, token.map[0]))
        if name not in SHOWN_DIRECTIVES:
            raise MarkdownError(f"the directive {{{name}}} has no plain-Markdown form in the reader's notebook",
                                f"use one of {', '.join(SHOWN_DIRECTIVES)}, or teach notebook_markdown.py "
                                "this directive", token.map[0])
        try:
            pieces.append(_directive(page, name, argument, token.content))
        except MarkdownError as error:
            error.line += token.map[0] + 1 + _options_lines(token.content)
            raise
        position = token.map[1]
    pieces.append(text_between(position, len(lines)))

    blocks: list[str | Programs] = []
    for piece in pieces:
        if isinstance(piece, Programs):
            blocks.append(piece)
        elif piece.strip():
            piece = piece.strip("\n")
            if blocks and isinstance(blocks[-1], str):
                blocks[-1] = f"{blocks[-1]}\n\n{piece}"
            else:
                blocks.append(piece)
    return blocks
