"""Call-outs, exercises and solutions, titled in the build's language.

``:::{mental-model}``, ``:::{trap}``, ``:::{why-it-matters}`` and ``:::{exercise}`` make
admonitions with one class each (styled alike on every page) and a title in the page's
language; an optional argument is added to the title. A code cell tagged ``solution`` is folded
away under "Show the solution" with its executed output. ``{program-source}`` shows a file from
``examples/`` folded away under its name, so a solution shows the program it runs, not a copy.
"""

from __future__ import annotations

import hashlib
import re
from html import escape
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective

from ..core.texts import text

CALLOUTS = ("mental-model", "trap", "why-it-matters", "exercise")

_PROGRAM_SOURCE = re.compile(r"^```\{program-source\}[ \t]+(.+)$", re.MULTILINE)


def program_fingerprints(text: str, page_dir: Path) -> list[str]:
    """``name sha256`` of each file a page shows with ``{program-source}`` (the programs its solution runs).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.py").write_text("print(1)\\n")
    >>> program_fingerprints("```{program-source} a.py b.py\\n```", folder)
    ['a.py cc42155088fca5730758db72b2a5bca33112a941dfaa2d43098ec422ce4ea213', 'b.py missing']
    """
    fingerprints = []
    for arguments in _PROGRAM_SOURCE.findall(text):
        for argument in arguments.split():
            path = page_dir / argument
            digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "missing"
            fingerprints.append(f"{argument} {digest}")
    return fingerprints


class CalloutDirective(SphinxDirective):
    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    kind = ""

    def run(self) -> list[nodes.Node]:
        title = text(self.config.language, self.kind)
        if self.arguments:
            title = f"{title}: {self.arguments[0]}"
        node = nodes.admonition(classes=["learnjax-callout", f"learnjax-{self.kind}"])
        self.set_source_info(node)
        title_nodes, messages = self.state.inline_text(title, self.lineno)
        node += nodes.title(title, "", *title_nodes)
        self.state.nested_parse(self.content, self.content_offset, node)
        return [node, *messages]


def callout_directive(kind: str) -> type[CalloutDirective]:
    return type(f"Callout_{kind.replace('-', '_')}", (CalloutDirective,), {"kind": kind})


class ProgramSourceDirective(SphinxDirective):
    """Show programs' sources, each folded, e.g. ``{program-source} ../../examples/a.py ../../examples/b.py``."""

    required_arguments = 1
    optional_arguments = 8
    option_spec = {"open": directives.flag}

    def run(self) -> list[nodes.Node]:
        shown = []
        for argument in self.arguments:
            rel, path = self.env.relfn2path(argument)
            self.env.note_dependency(rel)
            code = Path(path).read_text(encoding="utf8")
            block = nodes.literal_block(code, code, language="python", classes=["learnjax-program-source"])
            self.set_source_info(block)
            summary = text(self.config.language, "source_of", name=Path(path).name)
            html_open = f'<details class="learnjax-program-source"><summary>{escape(summary)}</summary>'
            shown += [nodes.raw("", html_open, format="html"), block, nodes.raw("", "</details>", format="html")]
        return shown


class FoldSolutions(SphinxPostTransform):
    """Fold every code cell tagged ``solution`` (before myst-nb folds hidden cells)."""

    default_priority = 198
    formats = ("html",)

    def run(self, **kwargs) -> None:
        language = self.config.language
        for cell in self.document.findall(nodes.container):
            if cell.get("nb_element") != "cell_code":
                continue
            if "solution" not in cell.get("cell_metadata", {}).get("tags", []):
                continue
            cell["hide_mode"] = "all"
            cell["prompt_show"] = text(language, "solution_show")
            cell["prompt_hide"] = text(language, "solution_hide")
            cell["classes"].append("learnjax-solution")


def setup(app: Sphinx) -> dict:
    for kind in CALLOUTS:
        app.add_directive(kind, callout_directive(kind))
    app.add_directive("program-source", ProgramSourceDirective)
    app.add_post_transform(FoldSolutions)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
