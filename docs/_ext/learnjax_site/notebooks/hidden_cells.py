"""The rule that keeps a reader's notebook runnable: a shown cell reads no name only hidden cells define.

A cell tagged ``remove-cell`` is a site check: it asserts what the prose claims and glues numbers
for it, with the lesson kit and ``myst_nb``, which a reader's Colab does not have. The reader's
notebook leaves such cells out, so a name that a shown cell reads must be defined in a shown cell
(or a program the page runs): a name bound last by a hidden cell would stop the reader's notebook
with a ``NameError``. ``hidden_reads`` finds each such read; the notebook builder stops the build at
the shown cell's line.

Names are found statically: the cell's IPython syntax is turned into Python, and ``symtable``
gives the names each top-level statement reads and binds, nested functions and lambdas included.
Names a ``%run`` program defines are not seen; the notebook tests run every notebook to catch
what static reading misses.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import re
import symtable
from collections.abc import Sequence

_IPYTHON_NAMES = {"get_ipython", "display", "In", "Out", "_", "__", "___", "exit", "quit"}
_KNOWN = set(dir(builtins)) | _IPYTHON_NAMES
_MAGIC_CALLS = {"run_line_magic", "run_cell_magic", "system", "getoutput"}
_MAGIC_NAME = re.compile(r"\{\s*([A-Za-z_]\w*)|\$([A-Za-z_]\w*)")
_COMPOUND = (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith, ast.Try,
             ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Match)


@dataclasses.dataclass(frozen=True)
class Statement:
    """One top-level statement of a code cell."""

    cell: int  # the cell's index, as given to ``hidden_reads``
    line: int  # first line in the cell (1-based)
    source: str
    binds: frozenset[str]
    reads: frozenset[str]
    packages: frozenset[str]  # names bound only as ``a`` of ``import a.b``: a no-op once ``a`` exists


@dataclasses.dataclass(frozen=True)
class HiddenRead:
    """A shown cell's statement that reads ``name``, which a hidden statement bound last."""

    name: str
    reader: Statement
    definition: Statement


def python_source(cell_source: str) -> str:
    """The cell's code with IPython syntax (``%run``, ``!ls``) turned into plain Python.

    >>> python_source("%run prog.py --n {N}")
    "get_ipython().run_line_magic('run', 'prog.py --n {N}')\\n"
    """
    from IPython.core.inputtransformer2 import TransformerManager

    return TransformerManager().transform_cell(cell_source)


def _scope_reads(table: symtable.SymbolTable, top: bool) -> set[str]:
    names = set()
    for symbol in table.get_symbols():
        if symbol.is_referenced() and (top or symbol.is_global()):
            names.add(symbol.get_name())
    for child in table.get_children():
        names |= _scope_reads(child, top=False)
    return names


def _magic_reads(node: ast.AST) -> set[str]:
    """Names that IPython expands in a magic's arguments: ``{name}`` and ``$name``."""
    names = set()
    for call in ast.walk(node):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in _MAGIC_CALLS:
            for argument in call.args:
                if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                    names |= {a or b for a, b in _MAGIC_NAME.findall(argument.value)}
    return names


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _comprehension_only(node: ast.AST) -> set[str]:
    """Names bound only as a comprehension's variables, which are local to it: Python 3.12's symtable
    (PEP 709 inlines comprehensions) lists them in the enclosing scope, as if the statement bound them.

    >>> sorted(_comprehension_only(ast.parse("d = {k: v for k, v in items}")))
    ['k', 'v']
    >>> sorted(_comprehension_only(ast.parse("f(k, [k for k in ks])")))  # k is read outside too
    []
    """
    inside, outside = set(), set()

    def visit(inner: ast.AST, in_comprehension: bool) -> None:
        if isinstance(inner, _COMPREHENSIONS):
            for generator in inner.generators:
                inside.update(name.id for name in ast.walk(generator.target) if isinstance(name, ast.Name))
            in_comprehension = True
        elif isinstance(inner, ast.Name) and not in_comprehension:
            outside.add(inner.id)
        for child in ast.iter_child_nodes(inner):
            visit(child, in_comprehension)

    visit(node, False)
    return inside - outside


def statements(cell: int, cell_source: str) -> list[Statement]:
    """The top-level statements of a code cell, each with the names it binds and reads.

    A compound statement (``for``, ``def``, ...) does not read the names it binds itself; a simple
    one does (``x = x + 1`` reads the ``x`` before it).

    >>> [(s.line, sorted(s.binds), sorted(s.reads)) for s in statements(0, "x = y + 1\\nfor v in xs:\\n    print(v)")]
    [(1, ['x'], ['y']), (2, ['v'], ['xs'])]
    >>> [sorted(s.reads) for s in statements(0, "f = jax.jit(lambda v: v * k)\\ntotal += 1")]
    [['jax', 'k'], ['total']]
    >>> [(sorted(s.binds), sorted(s.reads)) for s in statements(0, "d = {n: [] for n in names}")]
    [(['d'], ['names'])]
    """
    code = python_source(cell_source)
    code_lines = code.splitlines()
    found = []
    for node in ast.parse(code).body:
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        if first < node.lineno:  # a decorated definition: its decorators belong to it
            segment = "\n".join(code_lines[first - 1:node.end_lineno])
        else:
            segment = ast.get_source_segment(code, node) or ""
        table = symtable.symtable(segment, "<cell>", "exec")
        local_to_comprehensions = _comprehension_only(node)
        binds = {s.get_name() for s in table.get_symbols() if s.is_assigned() or s.is_imported()}
        binds -= local_to_comprehensions
        reads = (_scope_reads(table, top=True) - local_to_comprehensions) | _magic_reads(node)
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            reads.add(node.target.id)
        if isinstance(node, _COMPOUND):
            reads -= binds
        packages = {alias.name.split(".")[0] for alias in getattr(node, "names", [])
                    if isinstance(node, ast.Import) and "." in alias.name and alias.asname is None}
        found.append(Statement(cell, first, segment, frozenset(binds), frozenset(reads - _KNOWN),
                               frozenset(packages)))
    return found


def hidden_reads(cells: Sequence[tuple[str, bool]]) -> list[HiddenRead]:
    """Every read, by a shown cell, of a name that a hidden cell bound last.

    ``cells`` are the page's code cells in order, as ``(source, hidden)``.

    >>> cells = [("n = 3", False), ("from lesson_kit import glue\\nrows = n * 2\\nglue('rows', rows)", True),
    ...          ("print(rows, n)", False)]
    >>> [(r.name, r.reader.cell, r.definition.line) for r in hidden_reads(cells)]
    [('rows', 2, 2)]
    >>> cells[1] = ("import numpy.linalg\\nassert n == 3", True)  # import a.b rebinds no shown a
    >>> cells[0] = ("import numpy\\nn, rows = 3, 6", False)
    >>> cells[2] = ("print(numpy.linalg.norm([rows]))", False)
    >>> hidden_reads(cells)
    []
    """
    binder: dict[str, Statement | None] = {}  # name -> the hidden statement that bound it last, None if shown
    found = []
    for index, (source, hidden) in enumerate(cells):
        for statement in statements(index, source):
            if not hidden:
                found += [HiddenRead(name, statement, binder[name]) for name in sorted(statement.reads)
                          if binder.get(name) is not None]
            for name in statement.binds:
                if not (name in statement.packages and name in binder):
                    binder[name] = statement if hidden else None
    return found
