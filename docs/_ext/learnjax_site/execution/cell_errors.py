"""What is wrong with an executed notebook's cells: an error that is not taught, a plot without its glyphs.

Needs no Sphinx: the runner (``learnjax_site.execution.runner``) reports these for every page it executes, on
any machine, and the build (``provenance``) stops on the first of them at the cell's line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# matplotlib's warnings when a font lacks a character (drawn as a box) or a named font is not found.
_FONT_WARNING = re.compile(r"Glyph \d+ .*? missing from (?:current )?font(?:\(s\))?[^\n]*"
                           r"|findfont: Font family .*? not found[^\n]*")
TAUGHT = "raises-exception"  # the tag of a cell whose error is the lesson


_ANSI = re.compile(r"\x1b\[[0-9;]*m")
TRACEBACK_LINES = 30  # the end of a traceback a report keeps: where it was raised, and the calls just above


@dataclass(frozen=True)
class CellProblem:
    """One problem of one cell: its line in the page's source, what is wrong and what to do, and the end
    of the traceback where the cell raised (for a run on a machine the reader of the report cannot use)."""

    cell: int
    line: int
    problem: str
    fix: str
    traceback: str = ""


def traceback_tail(output: dict, lines: int = TRACEBACK_LINES) -> str:
    """The last ``lines`` lines of an error output's traceback, without the terminal's colour codes.

    >>> coloured = ["\x1b[0;31mValueError\x1b[0m", "  File x.py, line 3", "ValueError: no"]
    >>> tail = traceback_tail({"traceback": coloured}, 2)
    >>> print(tail)
      File x.py, line 3
    ValueError: no
    """
    text = _ANSI.sub("", "\n".join(output.get("traceback", [])))
    return "\n".join(text.splitlines()[-lines:])


def cell_problems(cells: list[dict], source_map: list[int]) -> list[CellProblem]:
    """Every problem in the executed ``cells``, in order; ``source_map`` is each cell's first line.

    ``cells`` include hidden ones (a failing hidden ``assert`` is a problem too). A cell tagged
    ``raises-exception`` may raise: its error is the lesson.

    >>> error = {"output_type": "error", "ename": "ZeroDivisionError", "evalue": "division by zero"}
    >>> cells = [{"metadata": {}, "outputs": []}, {"metadata": {}, "outputs": [error]}]
    >>> [(p.line, p.problem) for p in cell_problems(cells, [3, 9])]
    [(9, 'this code cell raised ZeroDivisionError: division by zero')]
    >>> cells[1]["metadata"]["tags"] = ["raises-exception"]
    >>> cell_problems(cells, [3, 9])  # taught on purpose
    []

    A plot that drew boxes for missing glyphs (matplotlib warns on stderr) is a problem too:

    >>> box = "UserWarning: Glyph 54632 (\\N{HANGUL SYLLABLE HAM}) missing from font(s) DejaVu Sans."
    >>> cells[0]["outputs"] = [{"output_type": "stream", "name": "stderr", "text": box}]
    >>> [(p.line, p.problem) for p in cell_problems(cells, [3, 9])]
    [(3, "this code cell's figure lacks glyphs: Glyph 54632 (함) missing from font(s) DejaVu Sans.")]
    """
    problems = []
    for index, cell in enumerate(cells):
        line = source_map[index] if index < len(source_map) else 1
        for output in cell.get("outputs", []):
            warning = output.get("output_type") == "stream" and _FONT_WARNING.search("".join(output.get("text", "")))
            if warning:
                problems.append(CellProblem(
                    index, line, f"this code cell's figure lacks glyphs: {warning[0]}",
                    "draw Hangul with a font that has it: call plotting.use_hangul_font() before plotting; "
                    "the lessons dependency group installs the font (koreanize-matplotlib)"))
        if TAUGHT in cell.get("metadata", {}).get("tags", []):
            continue
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                message = f"{output.get('ename', 'Error')}: {output.get('evalue', '')}".strip()
                problems.append(CellProblem(
                    index, line, f"this code cell raised {message[:300]}",
                    f"fix the code, or tag the cell '{TAUGHT}' if the error is the lesson", traceback_tail(output)))
    return problems
