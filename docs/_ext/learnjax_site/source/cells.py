"""Split a MyST notebook's text into cells, with exact line ranges.

myst-nb's reader gives each cell's first line but drops empty cells and does not say where a
cell ends. The bilingual filter needs both, so this module walks the same block-level tokens
(``+++`` block breaks and ``{code-cell}``/``{raw-cell}`` fences at the top level) and keeps every
cell's range. Line numbers are 0-based here; messages add 1.
"""

from __future__ import annotations

import dataclasses
import json

import yaml
from markdown_it.renderer import RendererHTML
from myst_parser.config.main import MdParserConfig
from myst_parser.parsers.mdit import create_md_parser


@dataclasses.dataclass
class Cell:
    """One notebook cell of a MyST text notebook."""

    kind: str  # "markdown", "code" or "raw"
    start: int  # first line of the cell's body (0-based)
    end: int  # one past the last line of the body
    metadata: dict
    marker_line: int | None = None  # the "+++" line (markdown) or the opening fence (code)
    headings: list[tuple[int, int]] = dataclasses.field(default_factory=list)  # (line, level)

    @property
    def lang(self) -> str | None:
        return self.metadata.get("lang")

    @property
    def first_line(self) -> int:
        """The line a reader should be pointed at (0-based)."""
        return self.marker_line if self.marker_line is not None else self.start


@dataclasses.dataclass
class Notebook:
    front_matter: dict
    front_matter_end: int  # first line after the front matter
    cells: list[Cell]


class CellSyntaxError(ValueError):
    """Cell metadata or front matter that cannot be read; ``line`` is 0-based."""

    def __init__(self, message: str, line: int):
        super().__init__(message)
        self.line = line


_PARSER = None


def _parser():
    global _PARSER
    if _PARSER is None:
        config = MdParserConfig(disable_syntax=["inline"])
        _PARSER = create_md_parser(config, RendererHTML)
    return _PARSER


def _is_cell_fence(token) -> bool:
    return token.type == "fence" and token.info.strip().startswith(("{code-cell}", "{raw-cell}"))


def _block_break_metadata(token) -> dict:
    text = token.content.strip()
    if not text:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise CellSyntaxError(
            f"cell metadata after '+++' is not valid JSON ({error.msg}): {text}", token.map[0]
        ) from None
    if not isinstance(value, dict):
        raise CellSyntaxError(f"cell metadata after '+++' must be a JSON object: {text}", token.map[0])
    return value


def _fence_metadata(token) -> dict:
    """The options of a code-cell fence: ``:tags: [a]`` lines or a ``---`` YAML block."""
    body = token.content.splitlines()
    if body and body[0].strip() == "---":
        try:
            closing = body.index("---", 1)
        except ValueError:
            return {}
        return yaml.safe_load("\n".join(body[1:closing])) or {}
    options = {}
    for line in body:
        if not line.startswith(":"):
            break
        key, _, value = line[1:].partition(":")
        options[key.strip()] = yaml.safe_load(value.strip()) if value.strip() else None
    return options


def split_notebook(text: str) -> Notebook:
    """Split MyST notebook text into its front matter and cells."""
    lines = text.splitlines()
    tokens = _parser().parse(text + "\n")
    front_matter: dict = {}
    body_start = 0
    if tokens and tokens[0].type == "front_matter":
        token = tokens.pop(0)
        try:
            front_matter = yaml.safe_load(token.content) or {}
        except yaml.YAMLError as error:
            raise CellSyntaxError(f"front matter is not valid YAML: {error}", 0) from None
        body_start = token.map[1]

    cells: list[Cell] = []
    pending = Cell("markdown", body_start, len(lines), {})

    def close(at: int) -> None:
        pending.end = at
        if pending.kind != "markdown" or pending.marker_line is not None or _has_text(lines, pending):
            cells.append(pending)

    for token in tokens:
        if token.level != 0 or token.map is None:  # only top-level blocks start cells
            continue
        if token.type == "heading_open":
            pending.headings.append((token.map[0], int(token.tag[1])))
        elif token.type == "myst_block_break":
            close(token.map[0])
            pending = Cell("markdown", token.map[1], len(lines), _block_break_metadata(token),
                           marker_line=token.map[0])
        elif _is_cell_fence(token):
            close(token.map[0])
            kind = "code" if token.info.strip().startswith("{code-cell}") else "raw"
            cells.append(Cell(kind, token.map[0] + 1, token.map[1], _fence_metadata(token),
                              marker_line=token.map[0]))
            pending = Cell("markdown", token.map[1], len(lines), {})
    close(len(lines))
    return Notebook(front_matter, body_start, cells)


def _has_text(lines: list[str], cell: Cell) -> bool:
    return any(line.strip() for line in lines[cell.start:cell.end])
