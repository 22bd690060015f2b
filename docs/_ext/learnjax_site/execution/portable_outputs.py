"""Cell outputs that name no folder of the machine that built the site.

A traceback (a ``raises-exception`` cell), a warning on stderr or a JAX error message names files
by the build machine's absolute paths: the repository's checkout, the environment's site-packages,
the Python installation, the kernel's temporary cell files (``/tmp/ipykernel_1234/5678.py``), the
home folder. Readers see them on the page and in the lesson's notebook, so both get the same
outputs, rewritten by ``portable_text``:

* ``…/site-packages/jax/_src/core.py`` becomes ``site-packages/jax/_src/core.py`` (what a reader
  needs to find JAX's source), ``…/lib/python3.11/json/decoder.py`` becomes
  ``python3.11/json/decoder.py``;
* a file of the repository becomes relative to it (``examples/timing.py``), a file elsewhere in the
  home folder starts with ``~``;
* ipykernel's file of a cell becomes the cell's name as IPython shows it, ``Cell In[3], line 2``
  (the file's name is a hash of the cell's code, so the notebook says which cell it was).

Paths inside ANSI colour codes are found too. Only what readers get is rewritten: the execution
cache keeps the outputs as the kernel made them (its key does not change). The pages get the
rewrite when they are read (``doctree-read``, over the nodes myst-nb made from outputs and glued
values); the lessons' notebooks read their outputs through ``executed_notebook``.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from collections.abc import Iterable
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx

from ..core.doctree import ancestors

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_STOP = r"\s\"'`<>|:,;()\[\]{}"
# An absolute path (or one under ~) where a path can start, with the ":line" or ":line:column" after it.
_PATH = re.compile(rf"(?<![\w.~/\\:-])(?P<path>~?/[^{_STOP}]*)(?::(?P<line>\d+)(?::(?P<column>\d+))?)?")
_PACKAGES = re.compile(r"/(?=(?:site|dist)-packages/)")
_STDLIB = re.compile(r"/lib(?:64)?/(?=python\d+(?:\.\d+)?/)")
_CELL_FILE = re.compile(r"/ipykernel_\d+/(?P<name>\d+)\.py")


@dataclasses.dataclass(frozen=True)
class Machine:
    """The folders of the building machine that outputs must not name.

    ``roots``: folders whose files become relative to them (the repository, the build folder);
    ``home``: the home folder, which becomes ``~``.
    """

    roots: tuple[str, ...] = ()
    home: str | None = None

    @classmethod
    def of(cls, roots: Iterable[str | Path], home: str | Path | None = None) -> Machine:
        """Each root as given and resolved (a link, /tmp on macOS), longest first; none that is ``/``."""
        folders = {str(p).rstrip("/") for root in roots for p in (Path(root), Path(root).resolve())}
        home = str(home).rstrip("/") if home else None
        return cls(tuple(sorted((f for f in folders if f), key=len, reverse=True)), home or None)


def _cell_name(name: str, cells: dict[str, int]) -> str:
    count = cells.get(name)
    return "<cell>" if count is None else f"Cell In[{count}]"


def portable_path(path: str, machine: Machine, cells: dict[str, int] | None = None,
                  line: str | None = None, column: str | None = None) -> str:
    """``path`` (with its ``:line:column``) as readers see it, or unchanged when it names no build folder.

    >>> m = Machine(roots=("/home/kim/learning-jax",), home="/home/kim")
    >>> portable_path("/home/kim/learning-jax/.nox/docs/lib/python3.11/site-packages/jax/_src/api.py", m)
    'site-packages/jax/_src/api.py'
    >>> portable_path("~/.pyenv/versions/3.11.7/lib/python3.11/json/decoder.py", m, line="337")
    'python3.11/json/decoder.py:337'
    >>> portable_path("/home/kim/learning-jax/examples/timing.py", m), portable_path("~/.cache/jax", m)
    ('examples/timing.py', '~/.cache/jax')
    >>> portable_path("/tmp/ipykernel_4702/2582111946.py", m, {"2582111946": 3}, "4", "2")
    'Cell In[3], line 4, column 2'
    >>> portable_path("/tmp/ipykernel_4702/1.py", m, {}, "4"), portable_path("/usr/bin/env", m)
    ('<cell>, line 4', '/usr/bin/env')
    """
    suffix = "".join(f":{n}" for n in (line, column) if n is not None)
    cell = _CELL_FILE.search(path)
    if cell:
        where = "".join(f", {word} {n}" for word, n in (("line", line), ("column", column)) if n is not None)
        return _cell_name(cell["name"], cells or {}) + where + path[cell.end():]
    full = machine.home + path[1:] if path.startswith("~/") and machine.home else path
    for pattern in (_PACKAGES, _STDLIB):
        found = pattern.search(full)
        if found:
            return full[found.end():] + suffix
    for root in machine.roots:
        if full == root or full.startswith(root + "/"):
            return (full[len(root) + 1:] or ".") + suffix
    if machine.home and full.startswith(machine.home + "/"):
        return "~" + full[len(machine.home):] + suffix
    return path + suffix


def _rewrite_plain(text: str, machine: Machine, cells: dict[str, int]) -> list[tuple[int, int, str]]:
    """(start, end, replacement) of every path in ``text`` (no ANSI codes) that must change."""
    changes = []
    for found in _PATH.finditer(text):
        new = portable_path(found["path"], machine, cells, found["line"], found["column"])
        if new != found[0]:
            changes.append((found.start(), found.end(), new))
    return changes


def portable_text(text: str, machine: Machine, cells: dict[str, int] | None = None) -> str:
    """``text`` with every path of the building machine made portable (see ``portable_path``).

    ANSI colour codes stay; a path they split is still found (the codes inside it are kept after
    the new path, so colours stay balanced).

    >>> m = Machine(roots=("/work/lj",), home="/root")
    >>> tb = ("\\x1b[36mFile \\x1b[39m\\x1b[32m/work/lj/.venv/lib/python3.12/site-packages/jax/_src/core.py:1961"
    ...       "\\x1b[39m, in \\x1b[36merror\\x1b[39m")
    >>> portable_text(tb, m)
    '\\x1b[36mFile \\x1b[39m\\x1b[32msite-packages/jax/_src/core.py:1961\\x1b[39m, in \\x1b[36merror\\x1b[39m'
    >>> portable_text("at /tmp/ipykernel_9/77.py:3 for jit; /wo\\x1b[1mrk/lj/examples/a.py:5", m, {"77": 2})
    'at Cell In[2], line 3 for jit; examples/a.py:5\\x1b[1m'
    >>> portable_text("x = 1/2, see https://docs.jax.dev/en/latest/ and site-packages/jax/api.py", m)
    'x = 1/2, see https://docs.jax.dev/en/latest/ and site-packages/jax/api.py'
    """
    if "/" not in text:
        return text
    if "\x1b" not in text:
        changes = _rewrite_plain(text, machine, cells or {})
        for start, end, new in reversed(changes):
            text = text[:start] + new + text[end:]
        return text
    # Find paths in the text without its codes, then map each change back onto the text with them.
    plain, where, position = [], [], 0
    for code in [*_ANSI.finditer(text), None]:
        stop = code.start() if code else len(text)
        plain.append(text[position:stop])
        where.extend(range(position, stop))
        position = code.end() if code else stop
    where.append(len(text))
    for start, end, new in reversed(_rewrite_plain("".join(plain), machine, cells or {})):
        first, last = where[start], where[end - 1] + 1
        codes = "".join(_ANSI.findall(text[first:last]))
        text = text[:first] + new + codes + text[last:]
    return text


# --- notebooks ---------------------------------------------------------------------------------

def cell_file_name(source: str) -> str:
    """The name of the file ipykernel compiles a cell's code under: a hash of the code.

    >>> cell_file_name("jax.jit(f)(1.0)")
    '3156514916'
    """
    from ipykernel.compiler import get_tmp_hash_seed, murmur2_x86

    return str(murmur2_x86(source, get_tmp_hash_seed()))


class CellFiles:
    """Which cell each of ipykernel's cell files was, as the kernel knew it after each cell ran.

    ``at(index)`` maps file names to execution counts for the outputs of cell ``index`` (a later
    cell with the same code takes the name over, as in IPython).
    """

    def __init__(self, cells: list[dict]):
        self.entries = [(index, cell_file_name(cell.get("source", "")), cell.get("execution_count"))
                        for index, cell in enumerate(cells)
                        if cell.get("cell_type") == "code" and cell.get("execution_count") is not None]

    def at(self, index: int | None = None) -> dict[str, int]:
        return {name: count for i, name, count in self.entries if index is None or i <= index}


def _portable_value(value, machine: Machine, cells: dict[str, int]):
    if isinstance(value, str):
        return portable_text(value, machine, cells)
    if isinstance(value, list):
        return [_portable_value(v, machine, cells) for v in value]
    return value


def portable_output(output: dict, machine: Machine, cells: dict[str, int] | None = None) -> dict:
    """A copy of one output (nbformat) with its texts made portable; images are left as they are.

    >>> m = Machine(roots=("/r",))
    >>> error = {"output_type": "error", "ename": "E", "evalue": "in /r/a.py",
    ...          "traceback": ["File /r/.v/lib/python3.11/site-packages/x.py:1"]}
    >>> portable_output(error, m)["traceback"], portable_output(error, m)["evalue"], error["evalue"]
    (['File site-packages/x.py:1'], 'in a.py', 'in /r/a.py')
    >>> portable_output({"output_type": "display_data", "data": {"text/plain": "/r/b", "image/png": "/r/x"}}, m)
    {'output_type': 'display_data', 'data': {'text/plain': 'b', 'image/png': '/r/x'}}
    """
    output, cells = copy.deepcopy(output), cells or {}
    kind = output.get("output_type")
    if kind == "stream":
        output["text"] = _portable_value(output.get("text", ""), machine, cells)
    elif kind == "error":
        output["evalue"] = _portable_value(output.get("evalue", ""), machine, cells)
        output["traceback"] = _portable_value(output.get("traceback", []), machine, cells)
    for mime, value in output.get("data", {}).items():
        if mime.startswith("text/") or mime.endswith("json") or mime.endswith("+xml"):
            output["data"][mime] = _portable_value(value, machine, cells)
    return output


def portable_notebook(notebook, machine: Machine):
    """A copy of an executed notebook whose cells' outputs are portable (the notebook is not changed)."""
    notebook = copy.deepcopy(notebook)
    files = CellFiles(notebook.cells)
    for index, cell in enumerate(notebook.cells):
        if cell.get("outputs"):
            cell["outputs"] = [type(o)(portable_output(o, machine, files.at(index))) for o in cell["outputs"]]
    return notebook


def portable_glue(glue: dict, machine: Machine) -> dict:
    """A page's glued values (``<page>.glue.json``: name -> output) with portable texts."""
    return {name: portable_output(value, machine) for name, value in glue.items()}


# --- in the build ------------------------------------------------------------------------------

def build_machine(app: Sphinx) -> Machine:
    """This build's folders: the repository (the pages' and conf.py's parent), the build folder, home."""
    build_root = Path(app.outdir).parents[1]
    return Machine.of([Path(app.srcdir).parent, Path(app.confdir).parent, build_root], Path.home())


def _merged_notebook(app: Sphinx, docname: str):
    import nbformat
    from jupyter_cache import get_cache

    path = Path(app.env.mystnb_config.output_folder).joinpath(*f"{docname}.ipynb".split("/"))
    notebook = nbformat.read(path, as_version=4)
    if app.config.nb_execution_mode == "off":  # staging: no outputs, no cache to merge them from
        return notebook
    try:
        _, notebook = get_cache(app.config.nb_execution_cache_path).merge_match_into_notebook(notebook)
    except KeyError:  # not in the cache (execution off): keep what myst-nb wrote
        pass
    return notebook


@dataclasses.dataclass(frozen=True)
class PageOutputs:
    """What myst-nb ran for a page in this language: the notebook with the outputs of that run and the
    values it glued, both portable (``None`` notebook: a page myst-nb did not execute)."""

    notebook: object
    glue: dict


_KEY = "learnjax_outputs"  # in env.temp_data: read once per page, for every step that needs them


def page_outputs(app: Sphinx, docname: str) -> PageOutputs:
    """The page's outputs, read once while the page is read (see ``PageOutputs``).

    myst-nb's own notebook in its output folder has outputs only when the page executed in this
    build, so they are merged from the execution cache (read only: the cache is not changed).
    """
    found = app.env.temp_data.get(_KEY)
    if found is not None and found[0] == docname:
        return found[1]
    machine = build_machine(app)
    folder = Path(app.env.mystnb_config.output_folder)
    try:
        notebook = portable_notebook(_merged_notebook(app, docname), machine)
    except FileNotFoundError:  # not a page myst-nb executed
        notebook = None
    glue_file = folder.joinpath(*f"{docname}.glue.json".split("/"))
    glue = json.loads(glue_file.read_text(encoding="utf8")) if glue_file.is_file() else {}
    outputs = PageOutputs(notebook, portable_glue(glue, machine))
    app.env.temp_data[_KEY] = (docname, outputs)
    return outputs


def _is_output(node: nodes.Node) -> bool:
    return isinstance(node, nodes.Element) and (
        node.get("nb_element") in ("cell_code_output", "mime_bundle")
        or any(c.startswith("pasted-") for c in node.get("classes", [])))


def portable_nodes(root: nodes.Element, machine: Machine, cells: dict[str, int]) -> None:
    """Rewrite the text of the nodes under ``root`` (an output myst-nb rendered), in place."""
    for node in list(root.findall(include_self=True)):
        if isinstance(node, nodes.Text):
            new = portable_text(str(node), machine, cells)
            if new != str(node):
                node.parent.replace(node, nodes.Text(new))
            continue
        if isinstance(node, nodes.FixedTextElement | nodes.inline) and node.rawsource:
            node.rawsource = portable_text(node.rawsource, machine, cells)  # highlighting reads it
        for attribute in ("alt", "title"):
            if isinstance(node.get(attribute), str):
                node[attribute] = portable_text(node[attribute], machine, cells)


def on_doctree_read(app: Sphinx, doctree: nodes.document) -> None:
    """Make the outputs (and glued values) on a page portable, before anything reads its doctree."""
    outputs = [node for node in doctree.findall(_is_output) if not any(_is_output(a) for a in ancestors(node))]
    if not outputs:
        return
    machine, notebook = build_machine(app), page_outputs(app, app.env.docname).notebook
    files = CellFiles(notebook.cells if notebook is not None else [])
    for node in outputs:
        cell = next((a for a in ancestors(node) if a.get("nb_element") == "cell_code"), None)
        index = cell.get("cell_index") if cell is not None else None
        portable_nodes(node, machine, files.at(None if index is None else int(index)))
