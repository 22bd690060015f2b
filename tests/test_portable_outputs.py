"""Outputs name no folder of the machine that built the site (``learnjax_site.execution.portable_outputs``).

Unit tests of the rewriting, then every built file of the fixture site (both languages: pages,
notebooks, search index, build report) grepped for the build's folders. The same grep over the
real site is in test_notebooks.py.
"""

from __future__ import annotations

import re

import nbformat
import pytest
from learnjax_site.execution.portable_outputs import Machine, cell_file_name, portable_notebook, portable_text
from sitebuild import ROOT, machine_folders, machine_leaks, page

MACHINE = Machine.of(["/home/kim/learning-jax"], "/home/kim")
VENV = "/home/kim/learning-jax/.nox/docs/lib/python3.12/site-packages"

# A traceback as IPython colours it: every path inside ANSI codes, one split by a code.
TRACEBACK = (
    "\x1b[31mTracerBoolConversionError\x1b[39m                 Traceback (most recent call last)\n"
    "\x1b[36mCell\x1b[39m\x1b[36m \x1b[39m\x1b[32mIn[2]\x1b[39m\x1b[32m, line 1\x1b[39m\n"
    f"\x1b[36mFile \x1b[39m\x1b[32m{VENV}/jax/_src/core.py:1961\x1b[39m, in \x1b[36merror\x1b[39m\n"
    "\x1b[36mFile \x1b[39m\x1b[32m/home/kim/learning-jax/exam\x1b[1mples/timing.py:12\x1b[39m, in "
    "\x1b[36mmedian\x1b[39m\n"
    "\x1b[36mFile \x1b[39m\x1b[32m~/.pyenv/versions/3.12.7/lib/python3.12/json/decoder.py:337\x1b[39m\n"
    "\x1b[31mTracerBoolConversionError\x1b[39m: The error occurred while tracing the function f at "
    "/tmp/ipykernel_4702/2582111946.py:3 for jit."
)


def plain(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def test_traceback_paths_become_relative_and_colours_stay():
    rewritten = portable_text(TRACEBACK, MACHINE, {"2582111946": 1})
    assert plain(rewritten).splitlines() == [
        "TracerBoolConversionError                 Traceback (most recent call last)",
        "Cell In[2], line 1",
        "File site-packages/jax/_src/core.py:1961, in error",
        "File examples/timing.py:12, in median",
        "File python3.12/json/decoder.py:337",
        "TracerBoolConversionError: The error occurred while tracing the function f at Cell In[1], line 3 for jit.",
    ]
    assert rewritten.count("\x1b[") == TRACEBACK.count("\x1b[")  # no colour code lost
    assert "/home/kim" not in rewritten and "ipykernel" not in rewritten
    assert portable_text(rewritten, MACHINE) == rewritten  # what is portable stays as it is


@pytest.mark.parametrize("text", [
    "no paths here, 1/2 of them",
    "see https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerBoolConversionError",
    "File site-packages/jax/_src/api.py:558, in _check_scalar(x)",
    "\x1b[31mValueError\x1b[39m: taught on purpose",
    "/usr/bin/env is no folder of the build",
])
def test_text_without_build_paths_is_unchanged(text):
    assert portable_text(text, MACHINE) == text


def test_warnings_and_cache_miss_lines_name_the_cell():
    cells = {"77": 5}
    assert portable_text("/tmp/ipykernel_12/77.py:2: UserWarning: careful\n", MACHINE, cells) == (
        "Cell In[5], line 2: UserWarning: careful\n")
    assert portable_text("TRACING CACHE MISS at /tmp/ipykernel_12/77.py:22:4 (<module>):", MACHINE, cells) == (
        "TRACING CACHE MISS at Cell In[5], line 22, column 4 (<module>):")
    assert portable_text('File "/var/tmp/ipykernel_3/99.py", line 4', MACHINE, cells) == 'File "<cell>", line 4'


def test_notebook_outputs_name_cells_by_their_count_and_the_original_is_kept():
    define = "def f(x):\n    return x.boom()"
    error = nbformat.v4.new_output(
        "error", ename="AttributeError", evalue="boom",
        traceback=[f"File {VENV}/jax/_src/api.py:558", f"/tmp/ipykernel_9/{cell_file_name(define)}.py:2"])
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell(define, execution_count=1),
        nbformat.v4.new_code_cell("f(1)", execution_count=2, outputs=[
            error, nbformat.v4.new_output("stream", name="stdout", text=f"{VENV}/x.py\n")]),
    ])
    portable = portable_notebook(notebook, MACHINE)
    outputs = portable.cells[1].outputs
    assert outputs[0].traceback == ["File site-packages/jax/_src/api.py:558", "Cell In[1], line 2"]
    assert outputs[1].text == "site-packages/x.py\n"
    assert notebook.cells[1].outputs[0].traceback[0].startswith(f"File {VENV}")  # the cache's copy untouched
    nbformat.validate(portable)


# --- the fixture site: nothing built names the build machine -------------------------------------

def test_no_built_file_names_the_build_machine(site):
    folders = machine_folders(site["source"].parent, site["out"], ROOT)
    leaks = machine_leaks(site["html"], folders)
    assert not leaks, "built files name the build machine's folders:\n" + "\n".join(leaks)


@pytest.mark.parametrize("language", ["ko", "en"])
def test_library_traceback_keeps_its_relative_paths(site, language):
    """The raises-exception cell that fails inside JAX still shows where, relative to site-packages."""
    shown = page(site, language, "part/first").get_text()
    assert "site-packages/jax/_src/" in shown
    assert "The error occurred while tracing the function positive at Cell In[" in shown
    assert "FIXTURE-WARNING" in shown
    notebook = nbformat.read(site["html"] / language / "_notebooks" / "part" / "first.ipynb", as_version=4)
    cell = next(c for c in notebook.cells if "jax.jit(positive)" in c.source)
    error = next(o for o in cell.outputs if o.output_type == "error")
    assert f"function positive at Cell In[{cell.execution_count}], line 6" in error.evalue
    assert any("site-packages/jax/_src/" in plain(line) for line in error.traceback)
    warning = next(o for o in cell.outputs if o.output_type == "stream")
    assert f"Cell In[{cell.execution_count}], line 12: UserWarning: FIXTURE-WARNING" in warning.text
