"""Sentences chosen by what the build measured, written in the language cells, not in Python.

A hidden code cell glues an outcome (``glue("rc_changed", least != wide_least)``); the prose says
``{outcome}`rc_changed``` where the sentence goes, and the same language cell lists each outcome's
sentence, with glued values inside::

    :::{outcomes} rc_changed
    - True: 가장 적게 보내는 설계가 {glue:text}`rc_least`에서 {glue:text}`rc_wide_least`로 바뀌었습니다
    - False: 가장 적게 보내는 설계는 그대로 {glue:text}`rc_wide_least`였습니다
    :::

The ``{outcomes}`` block shows nothing; each ``{outcome}`` reference becomes the sentence of the
glued outcome (its ``text/plain``, as ``{glue:text}`` shows it). An item may run over several lines
(indented); an empty item is an outcome that says nothing. The pairing check (``bilingual``) asks
the other language's cell for the same names and outcomes, so a translator sees every sentence,
and the reader's notebook (``notebook_markdown``) shows the same choice.

A reference to an outcome that has no sentence, or to a name nothing was glued as, and a block
nothing refers to, stop the build at the line.
"""

from __future__ import annotations

import re

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective, SphinxRole

from ..core.errors import lesson_error, stops_build

_BLOCK = re.compile(r"^(?P<fence>:{3,})\{outcomes\}[ \t]+(?P<name>\S+)[ \t]*\n(?P<body>.*?)^(?P=fence)[ \t]*$",
                    re.MULTILINE | re.DOTALL)
_ITEM = re.compile(r"^- (?P<case>[^:\n]+?):(?: (?P<text>.*))?$")
REFERENCE = re.compile(r"\{outcome\}`(?P<name>[^`]+)`")


class OutcomeError(ValueError):
    """A malformed ``{outcomes}`` block; ``line`` is 0-based within the block's body."""

    def __init__(self, problem: str, line: int = 0):
        super().__init__(problem)
        self.problem, self.line = problem, line


def parse_cases(body: str) -> dict[str, str]:
    """The sentence of each outcome in an ``{outcomes}`` block's body, continuation lines joined.

    >>> parse_cases("- True: it changed\\n  from A to B\\n- False:\\n")
    {'True': 'it changed\\nfrom A to B', 'False': ''}
    >>> try:
    ...     parse_cases("True: it changed")
    ... except OutcomeError as error:
    ...     print(error)
    line 1 is not '- OUTCOME: sentence' nor an indented continuation
    """
    cases: dict[str, list[str]] = {}
    current = None
    for index, line in enumerate(body.split("\n")):
        item = _ITEM.match(line)
        if item:
            current = item.group("case").strip()
            if current in cases:
                raise OutcomeError(f"the outcome {current!r} has two sentences", index)
            cases[current] = [item.group("text") or ""]
        elif line.strip() and line.startswith((" ", "\t")) and current is not None:
            cases[current].append(line.strip())
        elif line.strip():
            raise OutcomeError(f"line {index + 1} is not '- OUTCOME: sentence' nor an indented continuation", index)
    if not cases:
        raise OutcomeError("the block lists no outcome")
    return {case: "\n".join(part for part in parts if part) for case, parts in cases.items()}


def blocks(text: str) -> list[tuple[str, dict[str, str], int]]:
    """Every ``{outcomes}`` block in MyST text: (name, cases, 0-based line of the fence).

    >>> blocks("Intro {outcome}`x`.\\n\\n:::{outcomes} x\\n- yes: Yes.\\n- no: No.\\n:::\\n")
    [('x', {'yes': 'Yes.', 'no': 'No.'}, 2)]
    """
    found = []
    for match in _BLOCK.finditer(text):
        line = text.count("\n", 0, match.start())
        try:
            found.append((match.group("name"), parse_cases(match.group("body")), line))
        except OutcomeError as error:
            error.line += line + 1
            raise
    return found


def choose(name: str, cases: dict[str, str], outcome: str) -> str:
    """The sentence ``cases`` holds for ``outcome``; ValueError naming the outcomes there are.

    >>> choose("x", {"True": "Yes.", "False": "No."}, "False")
    'No.'
    >>> choose("x", {"True": "Yes."}, "None")
    Traceback (most recent call last):
    ...
    ValueError: the build glued 'None' as x, and {outcomes} x has no sentence for it (it has True)
    """
    if outcome not in cases:
        raise ValueError(f"the build glued {outcome!r} as {name}, and {{outcomes}} {name} has no sentence for it "
                         f"(it has {', '.join(cases)})")
    return cases[outcome]


def names_and_cases(text: str) -> dict[str, tuple[str, ...]]:
    """What a language cell defines, for the pairing check: each name's outcomes, in order.

    >>> names_and_cases(":::{outcomes} x\\n- yes: Yes.\\n- no: No.\\n:::\\n")
    {'x': ('yes', 'no')}
    """
    return {name: tuple(cases) for name, cases, _ in blocks(text)}


def references(text: str) -> list[str]:
    """The names a text refers to with ``{outcome}``, in order.

    >>> references("{outcome}`a` and {outcome}`b`")
    ['a', 'b']
    """
    return REFERENCE.findall(text)


def without_blocks(text: str) -> str:
    """The text with its ``{outcomes}`` blocks blanked line for line (they show nothing)."""
    return _BLOCK.sub(lambda match: "\n" * match.group(0).count("\n"), text)


# --- on the page -------------------------------------------------------------------------------

class outcome_cases(nodes.Element):  # noqa: N801 (docutils names nodes in lower case)
    """An ``{outcomes}`` block while the page is read: one ``outcome_case`` child per outcome."""


class outcome_case(nodes.Inline, nodes.TextElement):  # noqa: N801
    """One outcome's sentence, as inline nodes (glued values already pasted); a text element, so
    that Sphinx's smart quotes curl its quotes and apostrophes as they curl the prose's."""


class outcome_reference(nodes.Element):  # noqa: N801
    """Where ``{outcome}`name``` stood, with the outcome the build glued as ``name`` (or None)."""


class OutcomesDirective(SphinxDirective):
    required_arguments = 1
    has_content = True

    def run(self) -> list[nodes.Node]:
        path, line = self.env.doc2path(self.env.docname), self.lineno
        try:
            cases = parse_cases("\n".join(self.content))
        except OutcomeError as error:
            raise lesson_error(path, line + 1 + error.line, f"{{outcomes}} {self.arguments[0]}: {error.problem}",
                               "write one '- OUTCOME: sentence' item per outcome, continuation lines indented",
                               ) from None
        block = outcome_cases(name=self.arguments[0], line=line)
        for case, sentence in cases.items():
            children, messages = self.state.inline_text(sentence, self.lineno)
            block += outcome_case("", *children, case=case)
            block += messages
        return [block]


class OutcomeRole(SphinxRole):
    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        from myst_nb.core.variables import format_plain_text
        from myst_nb.ext.glue.utils import RetrievalError, retrieve_glue_data

        try:
            glued = format_plain_text(retrieve_glue_data(self.inliner.document, self.text).data["text/plain"], "s")
        except (RetrievalError, KeyError):
            glued = None
        return [outcome_reference(name=self.text, outcome=glued, line=self.lineno)], []


@stops_build
def resolve(app: Sphinx, doctree: nodes.document) -> None:
    """Put each outcome's sentence where it is referred to; drop the blocks; refuse what does not match."""
    path = app.env.doc2path(app.env.docname)
    staging = app.config.nb_execution_mode == "off"  # learnjax_site.execution.stage: nothing glued yet
    defined = {}
    for block in doctree.findall(outcome_cases):
        if block["name"] in defined:
            raise lesson_error(path, block["line"], f"{{outcomes}} {block['name']} is written twice in this language",
                               "keep one block per name and language; refer to it as often as needed")
        defined[block["name"]] = block
    used = set()
    for reference in list(doctree.findall(outcome_reference)):
        name, line = reference["name"], reference["line"]
        if name not in defined:
            raise lesson_error(path, line, f"{{outcome}}`{name}` has no {{outcomes}} {name} block in this language",
                               f"list each outcome's sentence in a ':::{{outcomes}} {name}' block in the same cell")
        if staging:
            reference.parent.remove(reference)
            used.add(name)
            continue
        if reference["outcome"] is None:
            raise lesson_error(path, line, f"{{outcome}}`{name}`: nothing was glued as {name!r}",
                               f"glue the outcome in a hidden code cell: glue({name!r}, outcome)")
        cases = {case["case"]: case for case in defined[name].findall(outcome_case)}
        try:
            choose(name, dict.fromkeys(cases, ""), reference["outcome"])
        except ValueError as error:
            raise lesson_error(path, line, str(error), "add a sentence for that outcome to the block") from None
        reference.replace_self([child.deepcopy() for child in cases[reference["outcome"]].children])
        used.add(name)
    for name, block in defined.items():
        if name not in used:
            raise lesson_error(path, block["line"], f"nothing refers to {{outcomes}} {name}",
                               f"put {{outcome}}`{name}` where the sentence goes, or delete the block")
        block.parent.remove(block)


def setup(app: Sphinx) -> dict:
    app.add_node(outcome_cases)
    app.add_node(outcome_case)
    app.add_node(outcome_reference)
    app.add_directive("outcomes", OutcomesDirective)
    app.add_role("outcome", OutcomeRole())
    return {"parallel_read_safe": True, "parallel_write_safe": True}
