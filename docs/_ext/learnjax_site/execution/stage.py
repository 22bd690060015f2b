"""Stage: each page's notebook exactly as the build's execution cache looks it up, ready to execute anywhere.

    python -m learnjax_site.execution.stage [--source docs] [--out docs/_build/stage]

Sphinx reads the pages (one language: the code cells, which are all that is executed and all that
the cache hashes, are the same in both) with execution off and the ``learnjax-stage`` builder,
which writes nothing of the site. myst-nb still writes each page's notebook as it would hand it to
the execution cache: its code cells, the hidden provenance cell with the programs' fingerprints,
and the kernelspec. This module copies those notebooks to ``<out>/notebooks/<page>.ipynb`` and
writes ``<out>/pages.json``: for each page, its source file, each cell's line in it (for error
messages), the hash jupyter-cache gives the notebook (which kept outputs must match) and whether it
has code (a page without code is never executed: its notebook goes into the cache as it is, which
spares myst-nb a kernel for it).

The runner (``learnjax_site.execution.runner``) executes these notebooks on any machine; the build then
puts the outputs in the execution cache, where the render finds them by that same hash.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from sphinx.builders.dummy import DummyBuilder

from ..core import paths

CONF_DIR = paths.DOCS  # where conf.py is
PAGES_FILE = "pages.json"
# Sphinx's warnings that only say the outputs are not there yet; the render reports the real ones.
QUIET = "mystnb.glue,myst-nb.lexer,mystnb.unknown_mime_type"


class StageBuilder(DummyBuilder):
    """Reads every page with execution off, writes the staged notebooks and ``pages.json``, nothing else."""

    name = "learnjax-stage"
    epilog = "The staged notebooks are in %(outdir)s."

    def write_documents(self, docnames) -> None:
        pass  # nothing of the site: the read is all staging needs

    def finish(self) -> None:
        write_staged(Path(self.env.mystnb_config.output_folder), Path(self.srcdir), Path(self.outdir),
                     {docname: self.env.metadata[docname].get("source_map", []) for docname in self.env.found_docs},
                     self.env.doc2path, read=getattr(self.app, "learnjax_read", []))


def notebook_hash(notebook) -> str:
    """The hash jupyter-cache keys a notebook by: its kernelspec and its code cells' source and metadata."""
    from jupyter_cache.cache.main import JupyterCacheBase

    return JupyterCacheBase.create_hashed_notebook(None, notebook)[1]  # uses no cache state


def write_staged(written: Path, srcdir: Path, out: Path, source_maps: dict, doc2path, read: list[str]) -> dict:
    """Copy each notebook with code from myst-nb's ``written`` folder to ``out/notebooks``; write pages.json."""
    import nbformat

    pages = {}
    for docname in sorted(source_maps):
        notebook_file = written.joinpath(*f"{docname}.ipynb".split("/"))
        if not notebook_file.is_file():
            continue
        notebook = nbformat.read(notebook_file, as_version=4)
        target = out / "notebooks" / f"{docname}.ipynb"
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(notebook, target)
        pages[docname] = {
            "source": Path(doc2path(docname)).relative_to(srcdir).as_posix(),
            "notebook": target.relative_to(out).as_posix(),
            "hash": notebook_hash(notebook),
            "source_map": source_maps[docname],
            "code": any(cell.cell_type == "code" for cell in notebook.cells),  # without: nothing to execute
        }
    staged = {"made_by": "python -m learnjax_site.execution.stage", "pages": pages,
              "read": sorted(read)}  # the pages Sphinx read this time: those that changed since the last staging
    (out / PAGES_FILE).write_text(json.dumps(staged, indent=1) + "\n", encoding="utf8")
    return staged


def on_builder_inited(app) -> None:
    if app.builder.name == StageBuilder.name:  # keep myst-nb's notebooks inside the staging folder
        folder = Path(app.outdir) / "myst-nb"
        app.env.mystnb_config = app.env.mystnb_config.copy(output_folder=str(folder.resolve()))


def stage(source: Path, out: Path, extra: list[str] | None = None) -> dict:
    """Stage the pages of ``source`` into ``out``; return pages.json's content.

    Sphinx keeps its environment in ``out/doctrees`` and re-reads only the pages that changed since
    the last staging (``learnjax_site.commands.build`` explains when).

    Stops (SystemExit, naming the page and line) where Sphinx cannot read a page. The warnings that
    only say outputs are missing (every glued name, the cells' lexer) are not shown (``QUIET``).
    """
    command = [sys.executable, "-m", "sphinx", "-b", StageBuilder.name, "-q", "-c", str(CONF_DIR),
               "-D", "language=ko", "-D", "nb_execution_mode=off", "-D", f"suppress_warnings={QUIET}",
               "-d", str(out / "doctrees"),
               str(source), str(out), *(extra or [])]
    started = time.perf_counter()
    result = subprocess.run(command)
    if result.returncode != 0:
        sys.exit(f"Staging {source} failed (exit {result.returncode}); see the messages above.")
    staged = json.loads((out / PAGES_FILE).read_text(encoding="utf8"))
    with_code = sum(page["code"] for page in staged["pages"].values())
    print(f"staged {with_code} page(s) with code in {time.perf_counter() - started:.1f} s: {out} "
          f"(read again: {', '.join(staged['read']) or 'none'})", flush=True)
    return staged


def setup(app) -> dict:
    app.add_builder(StageBuilder)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=CONF_DIR, help="folder of the pages (default: docs)")
    parser.add_argument("--out", type=Path, default=CONF_DIR / "_build" / "stage",
                        help="where to write the staged notebooks (default: docs/_build/stage)")
    args, extra = parser.parse_known_args(argv)
    stage(args.source, args.out, extra)


if __name__ == "__main__":
    main()
