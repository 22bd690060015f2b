"""Numbers that claim no more than they measured: the lessons' rules that a build cannot check.

A comparison's verdict ("A was N× faster than B", "A는 B보다 N배 빨랐습니다", "about the same") is
made in one place, ``examples/timing.py`` (``Comparison.sentences``, ``Comparison.glue``), under
its one rule for when measurements separate; an outcome-dependent sentence is chosen by the outcome
(``timing.glue_sentence``). So a lesson may not write such a phrase itself:

* no string in a lesson's code (shown or hidden) says "faster", "slower", "빨랐", "느렸", …:
  a printed or glued verdict made by hand;
* no sentence of its prose puts a glued value beside a comparative ("faster", "빨랐습니다", …) or
  right before "×" / "배": a ratio glued into a sentence that is written once for every outcome
  (a ratio that code asserts exactly, not a measurement, is glued under a name ending in ``_exact``;
  a ratio of counts or sizes, bytes, FLOPs or memory, never of times, under one ending in ``_counted``).

A sentence in an ``{outcomes}`` block is written for one outcome and chosen by it, so it may say
"faster" (the outcome says whether it was); its glued ratios are held to the rule all the same. A
string that is one word (an outcome's name, ``"slower"``) is not a sentence.
"""

from __future__ import annotations

import io
import re
import token
import tokenize
from pathlib import Path

import pytest
from learnjax_site.source.cells import split_notebook
from learnjax_site.source.outcomes import without_blocks

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted(p for p in (ROOT / "docs").rglob("*.md")
                 if "_build" not in p.parts and "\nlesson:" in p.read_text(encoding="utf8"))

# A verdict written by hand: comparative words, English and Korean.
COMPARATIVE = re.compile(
    r"\b(?:faster|slower|quicker|as fast as|as long as|about the same)\b"
    r"|빨랐|느렸|빠릅니다|느립니다|빨라졌|느려졌|짧았|길었|높았|낮았|분의 1이었|거의 같았|차이가 거의 없"
    r"|구별되지 않았|times (?:higher|lower)")
GLUE = re.compile(r"\{glue(?::\w+)?\}`[^`]+`")
# A ratio glued by hand: a glued value right before × or 배. A ratio that code asserts exactly (the
# flops of a matmul over 2n³, say) is not a measurement's verdict: glue it under a name ending in _exact.
RATIO_AFTER_GLUE = re.compile(r"\{glue(?::\w+)?\}`(?![^`]*_(?:exact|counted)`)[^`]+`\s*(?:×|배)")
ONE_WORD = re.compile(r"^[rbfRBF]*(['\"])\s*\w+\s*\1$")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n\s*\n")
MAGIC = re.compile(r"^\s*[%!]")
STRING_TOKENS = {token.STRING} | {getattr(token, "FSTRING_MIDDLE", token.STRING)}


def code_strings(code: str):
    """``(line, text)`` of each string literal in a cell's code (IPython magic lines skipped)."""
    python = "\n".join("" if MAGIC.match(line) else line for line in code.splitlines())
    for tok in tokenize.generate_tokens(io.StringIO(python).readline):
        if tok.type in STRING_TOKENS:
            yield tok.start[0] - 1, tok.string


def hand_made_verdicts(path: Path) -> list[str]:
    """``file:line: what`` for each verdict or ratio the lesson at ``path`` writes by hand."""
    lines = path.read_text(encoding="utf8").splitlines()
    name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
    found = []
    for cell in split_notebook("\n".join(lines)).cells:
        body = "\n".join(lines[cell.start:cell.end])
        if cell.kind == "code":
            for offset, string in code_strings(body):
                if COMPARATIVE.search(string) and not ONE_WORD.match(string):
                    found.append(f"{name}:{cell.start + offset + 1}: a verdict in code: {string.strip()[:80]}")
        elif cell.kind == "markdown":
            written_once = without_blocks(body)  # an {outcomes} block's sentences are chosen by the outcome
            for sentence in SENTENCE_END.split(body):
                line = cell.start + body[:body.find(sentence)].count("\n") + 1
                if RATIO_AFTER_GLUE.search(sentence):
                    found.append(f"{name}:{line}: a ratio glued into prose: {RATIO_AFTER_GLUE.search(sentence)[0]}")
                elif sentence in written_once and GLUE.search(sentence) and COMPARATIVE.search(GLUE.sub("", sentence)):
                    found.append(f"{name}:{line}: a glued number beside a comparative written once: "
                                 f"{' '.join(sentence.split())[:100]}")
    return found


def test_the_rule_finds_what_it_should(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "---\nlesson: {}\n---\n\n+++ {\"lang\": \"en\"}\n\n"
        "The jit call took {glue:text}`t` ms, faster than NumPy.\n\n"
        "It was {glue:text}`speedup`× the time. Exactly {glue:text}`flops_exact`× 2n³.\n\n"
        "Fine: {glue:text}`verdict_en`. Also fine: jit is usually faster.\n\n"
        "```{code-cell} ipython3\n%timeit f()\nprint(f\"{r:.1f}x faster\")\nglue('v', '2배 빨랐습니다')\n```\n",
        encoding="utf8")
    found = [f.split(": ", 1)[1] for f in hand_made_verdicts(page)]
    assert [f.split(":")[0] for f in found] == [
        "a glued number beside a comparative written once", "a ratio glued into prose",
        "a verdict in code", "a verdict in code"]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: str(p.relative_to(ROOT / "docs")))
def test_a_lesson_writes_no_verdict_by_hand(lesson):
    found = hand_made_verdicts(lesson)
    assert not found, ("verdicts and ratios come from examples/timing.py (Comparison.glue), or are chosen by an "
                       "outcome ({outcomes}):\n"
                       + "\n".join(found))
