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

Verdict sentences (``examples/timing.py``) name the variants they compare. A page's hidden cell
passes the name of a set of labels (``c.glue("jit_numpy", "jit", "numpy", "ways")``), and the
language cells give the labels, each in its language::

    :::{labels} ways
    - jit: jit 함수
    - numpy: NumPy 코드
    :::

The glued sentence holds a token per variant (``⟦ways:jit⟧``, and ``⟦|는/은⟧`` for the particle
after it); on the page and in the notebook each token becomes the label, and the particle the one
its last syllable takes (a Korean label must end in a Hangul syllable). A token whose label is
missing stops the build (a set no verdict of this build uses does not: a verdict may be GPU-only).
"""

from __future__ import annotations

import re

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective, SphinxRole

from ..core.doctree import ancestors
from ..core.errors import lesson_error, stops_build

_BLOCK = re.compile(r"^(?P<fence>:{3,})\{(?P<kind>outcomes|labels)\}[ \t]+(?P<name>\S+)[ \t]*\n(?P<body>.*?)"
                    r"^(?P=fence)[ \t]*$", re.MULTILINE | re.DOTALL)
TOKEN = re.compile(r"⟦(?P<set>[^:⟧]+):(?P<variant>[^⟧]+)⟧(?:⟦\|(?P<after_vowel>[^/⟧]+)/(?P<after_consonant>[^⟧]+)⟧)?")
HANGUL_SYLLABLES = range(0xAC00, 0xD7A4)
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


def blocks(text: str, kind: str = "outcomes") -> list[tuple[str, dict[str, str], int]]:
    """Every ``{outcomes}`` (or ``{labels}``) block in MyST text: (name, items, 0-based line of the fence).

    >>> blocks("Intro {outcome}`x`.\\n\\n:::{outcomes} x\\n- yes: Yes.\\n- no: No.\\n:::\\n")
    [('x', {'yes': 'Yes.', 'no': 'No.'}, 2)]
    >>> blocks(":::{labels} ways\\n- jit: jit 함수\\n:::\\n", "labels")
    [('ways', {'jit': 'jit 함수'}, 0)]
    """
    found = []
    for match in _BLOCK.finditer(text):
        if match.group("kind") != kind:
            continue
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
    """What a language cell defines, for the pairing check: each block's outcomes (or variants), in order.

    >>> names_and_cases(":::{outcomes} x\\n- yes: Yes.\\n- no: No.\\n:::\\n:::{labels} w\\n- a: 가\\n:::\\n")
    {'x': ('yes', 'no'), 'labels w': ('a',)}
    """
    return {**{name: tuple(cases) for name, cases, _ in blocks(text)},
            **{f"labels {name}": tuple(cases) for name, cases, _ in blocks(text, "labels")}}


def particle_after(label: str, after_vowel: str, after_consonant: str) -> str:
    """The particle after a Korean label, by its last syllable: ``after_consonant`` if it has a final consonant.

    >>> particle_after("jit 함수", "는", "은"), particle_after("Python 반복문", "와", "과")
    ('는', '과')
    >>> particle_after("vmap", "는", "은")
    Traceback (most recent call last):
    ...
    ValueError: the Korean label 'vmap' must end in a Hangul syllable (e.g. 'vmap 쪽'), for the particle after it
    """
    plain = label.rstrip("`*_ ")
    if not plain or ord(plain[-1]) not in HANGUL_SYLLABLES:
        raise ValueError(f"the Korean label {label!r} must end in a Hangul syllable (e.g. {label + ' 쪽'!r}), "
                         "for the particle after it")
    return after_consonant if (ord(plain[-1]) - HANGUL_SYLLABLES.start) % 28 else after_vowel


def with_labels(text: str, labels: dict[str, dict[str, str]], korean: bool) -> list[tuple[str, tuple | None]]:
    """``text`` cut into runs: (plain text, None), and (a label's MyST, (set, variant)) where a token stood.

    >>> with_labels("⟦w:jit⟧⟦|는/은⟧ ⟦w:np⟧보다 빨랐습니다", {"w": {"jit": "jit 함수", "np": "NumPy 코드"}}, True)
    [('jit 함수', ('w', 'jit')), ('는 ', None), ('NumPy 코드', ('w', 'np')), ('보다 빨랐습니다', None)]
    >>> with_labels("⟦w:x⟧ won", {"w": {}}, False)
    Traceback (most recent call last):
    ...
    ValueError: the page's {labels} w has no label for the variant 'x'
    """
    runs, position = [], 0
    for match in TOKEN.finditer(text):
        if match.start() > position:
            runs.append((text[position:match.start()], None))
        label = labels.get(match.group("set"), {}).get(match.group("variant"))
        if label is None:
            raise ValueError(f"the page's {{labels}} {match.group('set')} has no label for the variant "
                             f"{match.group('variant')!r}")
        runs.append((label, (match.group("set"), match.group("variant"))))
        if match.group("after_vowel"):
            runs.append((particle_after(label, match.group("after_vowel"), match.group("after_consonant"))
                         if korean else "", None))
        position = match.end()
    if position < len(text):
        runs.append((text[position:], None))
    merged = []
    for run in runs:  # adjacent plain runs as one
        if merged and run[1] is None and merged[-1][1] is None:
            merged[-1] = (merged[-1][0] + run[0], None)
        elif run[0]:
            merged.append(run)
    return merged


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
    kind = "outcomes"

    def run(self) -> list[nodes.Node]:
        path, line = self.env.doc2path(self.env.docname), self.lineno
        try:
            cases = parse_cases("\n".join(self.content))
        except OutcomeError as error:
            raise lesson_error(path, line + 1 + error.line, f"{{{self.kind}}} {self.arguments[0]}: {error.problem}",
                               "write one '- OUTCOME: sentence' item per outcome, continuation lines indented",
                               ) from None
        block = outcome_cases(name=self.arguments[0], line=line, kind=self.kind)
        for case, sentence in cases.items():
            children, messages = self.state.inline_text(sentence, self.lineno)
            block += outcome_case("", "", *children, case=case)
            block += messages
        return [block]


class LabelsDirective(OutcomesDirective):
    kind = "labels"


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
    defined, label_sets = {}, {}
    for block in doctree.findall(outcome_cases):
        if block["kind"] == "labels":
            if block["name"] in label_sets:
                raise lesson_error(path, block["line"], f"{{labels}} {block['name']} is written twice in this "
                                   "language", "keep one block per set of labels and language")
            label_sets[block["name"]] = block
            continue
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
    if not staging:
        put_labels(doctree, label_sets, app.config.language == "ko", path)
    for block in label_sets.values():
        block.parent.remove(block)


def put_labels(doctree: nodes.document, label_sets: dict, korean: bool, path: str) -> None:
    """Replace each label token in the page's text (a verdict's glued sentence) with its label."""
    labels = {name: {case["case"]: case.astext() for case in block.findall(outcome_case)}
              for name, block in label_sets.items()}
    label_nodes = {name: {case["case"]: case for case in block.findall(outcome_case)}
                   for name, block in label_sets.items()}
    # A set that no verdict of this build used is not an error: which verdicts a page glues may depend
    # on the backend (a GPU-only measurement); the pairing check keeps the sets of both languages alike.
    pasted = [t for t in doctree.findall(nodes.Text) if "⟦" in t  # a glued value; never code that shows a token
              and any("pasted-text" in getattr(a, "get", lambda *_: [])("classes", []) for a in ancestors(t))]
    for text_node in pasted:
        where = next((n.line for n in ancestors(text_node) if getattr(n, "line", None)), 1)
        try:
            runs = with_labels(str(text_node), labels, korean)
        except ValueError as error:
            raise lesson_error(path, where, str(error), "add the label to the page's {labels} block, in both "
                               "languages") from None
        replacement = []
        for run, token in runs:
            if token is None:
                replacement.append(nodes.Text(run))
            else:
                replacement += [child.deepcopy() for child in label_nodes[token[0]][token[1]].children]
        text_node.parent.replace(text_node, replacement)



def setup(app: Sphinx) -> dict:
    app.add_node(outcome_cases)
    app.add_node(outcome_case)
    app.add_node(outcome_reference)
    app.add_directive("outcomes", OutcomesDirective)
    app.add_directive("labels", LabelsDirective)
    app.add_role("outcome", OutcomeRole())
    return {"parallel_read_safe": True, "parallel_write_safe": True}
