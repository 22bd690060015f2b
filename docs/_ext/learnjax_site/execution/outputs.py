"""Keep and render: executed notebooks kept in the repository, and the execution cache the render reads.

* **Kept outputs** (``reports/gpu/``): ``outputs.json`` names the one machine (backend, device kind,
  JAX and jaxlib) that made every kept page, and for each page the hash of the code it ran (the
  staged notebook's, ``learnjax_site.execution.stage``), its seconds, when and from which commit and run;
  ``outputs/<page>.ipynb.gz`` is its executed notebook. ``keep`` takes a runner's results folder
  into them; kept outputs that would mix device kinds or JAX versions are refused.
* **The render's cache**: ``fill_cache`` puts the notebook chosen for each page (kept, or executed
  on this machine) into a fresh jupyter-cache folder, as myst-nb itself caches an executed notebook;
  the render (myst-nb in cache mode) then finds every page there by the same hash.

    python -m learnjax_site.execution.outputs keep RESULTS [--kept reports/gpu] [--fresh] [--allow-backend cpu]

Needs no Sphinx; the render's cache needs jupyter-cache (the docs group).
"""

from __future__ import annotations

import argparse
import datetime as dt
import gzip
import json
import shutil
import sys
import zipfile
from pathlib import Path

from . import runner
from .kernel import PROVENANCE_KEY, glued_value

KEPT_INDEX = "outputs.json"
KEPT_FOLDER = "outputs"
RUNS_FOLDER = "runs"
RUN_LOG = "run.log"  # what .ci/gpu-run printed, beside the runner's results
SAME_MACHINE = ("backend", "device_kind", "jax", "jaxlib")  # kept outputs agree on these


class KeptOutputsError(ValueError):
    """Kept outputs that must not be used or written as they are; the message says what to do."""


def notebook_glue(notebook) -> dict:
    """Every value an executed notebook glued (myst-nb's ``glue``), name → value, from its ``text/plain``.

    >>> prefix = "application/papermill.record/"
    >>> output = {"output_type": "display_data", "metadata": {"scrapbook": {"name": "n", "mime_prefix": prefix}},
    ...           "data": {prefix + "text/plain": "'1,024'"}}
    >>> notebook_glue({"cells": [{"cell_type": "code", "outputs": [output]}, {"cell_type": "markdown"}]})
    {'n': '1,024'}
    """
    glue = {}
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []) if cell["cell_type"] == "code" else []:
            glued = output.get("metadata", {}).get("scrapbook", {})
            if "name" in glued:
                glue[glued["name"]] = glued_value(
                    {"data": {"text/plain": output["data"].get(glued.get("mime_prefix", "") + "text/plain", "")}})
    return glue


def glued_record(notebook) -> dict | None:
    """The provenance record the page's hidden last cell glued (``kernel.provenance_cell``), or None.

    >>> import json
    >>> prefix = "application/papermill.record/"
    >>> output = {"output_type": "display_data", "metadata": {"scrapbook": {"name": PROVENANCE_KEY,
    ...           "mime_prefix": prefix}}, "data": {prefix + "text/plain": repr(json.dumps({"backend": "gpu"}))}}
    >>> glued_record({"cells": [{"cell_type": "code", "outputs": [output]}]})
    {'backend': 'gpu'}
    """
    record = notebook_glue(notebook).get(PROVENANCE_KEY)
    return None if record is None else json.loads(record)


def machine_of(record: dict) -> dict:
    """The fields kept outputs must agree on, from a provenance or probe record."""
    return {key: record[key] for key in SAME_MACHINE}


def describe(machine: dict) -> str:
    return f"{machine['device_kind']} ({machine['backend']}), jax {machine['jax']} / jaxlib {machine['jaxlib']}"


class KeptOutputs:
    """The kept outputs in one folder (``reports/gpu``): read, checked, written."""

    def __init__(self, folder: Path, check: bool = True):
        self.folder = folder
        index_file = folder / KEPT_INDEX
        self.index = json.loads(index_file.read_text(encoding="utf8")) if index_file.is_file() else None
        if self.index is not None and check:
            self.check()

    @property
    def machine(self) -> dict | None:
        return self.index["machine"] if self.index else None

    @property
    def pages(self) -> dict:
        return self.index["pages"] if self.index else {}

    def notebook_file(self, page: str) -> Path:
        return self.folder / KEPT_FOLDER / f"{page}.ipynb.gz"

    def notebook(self, page: str):
        import nbformat

        with gzip.open(self.notebook_file(page), "rt", encoding="utf8") as handle:
            return nbformat.read(handle, as_version=4)

    def check(self) -> None:
        """Refuse an index whose pages' notebooks are missing or were made on another machine or JAX."""
        where = self.folder / KEPT_INDEX
        for page in self.pages:
            if not self.notebook_file(page).is_file():
                raise KeptOutputsError(f"{where}: {page} is listed, but {self.notebook_file(page)} is missing: "
                                       "restore it from git, or take the page out of the index")
            record = glued_record(self.notebook(page))
            if record is None or machine_of(record) != self.machine:
                made = describe(record) if record else "no provenance record"
                raise KeptOutputsError(f"{where}: {page} was made on {made}, not on {describe(self.machine)} "
                                       "like the rest: kept outputs may not mix device kinds or JAX versions; "
                                       "run the page again on the same kind (or keep a fresh set: --fresh)")

    def keep(self, results: Path, fresh: bool = False, allow_backends=("gpu",), today=None) -> dict:
        """Take a runner's results folder into the kept outputs; return ``{"kept", "failed", "left"}``."""
        manifest = runner.read_manifest(results)
        if manifest is None:
            raise KeptOutputsError(f"{results}: no {runner.MANIFEST}: not a runner's results folder")
        machine = machine_of(manifest["machine"])
        if machine["backend"] not in allow_backends:
            raise KeptOutputsError(f"{results}: its pages ran on {describe(machine)}; only outputs made on "
                                   f"{' or '.join(allow_backends)} are kept (the published site shows a GPU's)")
        if fresh:
            shutil.rmtree(self.folder / KEPT_FOLDER, ignore_errors=True)
            self.index = None
        if self.index is not None and machine != self.machine:
            raise KeptOutputsError(f"{results}: made on {describe(machine)}, but {self.folder / KEPT_INDEX} holds "
                                   f"outputs of {describe(self.machine)}: kept outputs may not mix device kinds or "
                                   "JAX versions. Run on the same kind, or replace every kept page (--fresh)")
        import nbformat

        found, notebooks = {status: [] for status in ("kept", "failed", "left")}, {}
        with zipfile.ZipFile(results / runner.OUTPUTS) as archive:
            for page, entry in sorted(manifest["pages"].items()):
                if entry["status"] != runner.OK:
                    found["failed" if entry["status"] == runner.FAILED else "left"].append(page)
                    continue
                notebook = nbformat.reads(archive.read(f"{page}.ipynb").decode("utf8"), as_version=4)
                record = glued_record(notebook)
                if record is None or machine_of(record) != machine:
                    raise KeptOutputsError(f"{results}: {page}'s notebook was made on "
                                           f"{describe(record) if record else 'no known machine'}, not on the "
                                           f"manifest's {describe(machine)}")
                notebooks[page] = (notebook, record)
                found["kept"].append(page)
        # every page checked: now write
        run_name = self.record_run(manifest, today, results / RUN_LOG)
        index = self.index or {"made_by": "python -m learnjax_site.execution.outputs keep", "machine": machine,
                               "pages": {}}
        for page, (notebook, record) in notebooks.items():
            entry = manifest["pages"][page]
            target = self.notebook_file(page)
            target.parent.mkdir(parents=True, exist_ok=True)
            with gzip.GzipFile(target, "wb", compresslevel=9, mtime=0) as handle:  # same bytes, same file
                handle.write(nbformat.writes(notebook).encode("utf8"))
            index["pages"][page] = {"hash": entry["hash"], "seconds": entry["seconds"], "ran_at": record["ran_at"],
                                    "commit": manifest.get("commit"), "run": run_name}
        self.folder.mkdir(parents=True, exist_ok=True)
        index["pages"] = dict(sorted(index["pages"].items()))
        (self.folder / KEPT_INDEX).write_text(json.dumps(index, indent=1, ensure_ascii=False) + "\n", encoding="utf8")
        self.index = index
        return found

    def record_run(self, manifest: dict, today=None, log: Path | None = None) -> str:
        """Write the run's manifest to ``runs/<date>-<n>.json`` (every run is kept: failures included), and
        its log, where the results hold one (``.ci/gpu-run`` writes ``run.log``), to ``runs/<date>-<n>.log``."""
        folder = self.folder / RUNS_FOLDER
        folder.mkdir(parents=True, exist_ok=True)
        date = (today or dt.datetime.now(dt.UTC).date()).isoformat()
        number = 1 + sum(1 for _ in folder.glob(f"{date}-*.json"))
        name = f"{date}-{number}"
        (folder / f"{name}.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n",
                                              encoding="utf8")
        if log is not None and log.is_file():
            shutil.copyfile(log, folder / f"{name}.log")
        return name

    def size(self) -> int:
        """Bytes of the kept notebooks (compressed), the index and the runs' records."""
        return sum(path.stat().st_size for path in self.folder.rglob("*") if path.is_file()
                   and (path.suffix == ".gz" or path.name == KEPT_INDEX or path.parent.name == RUNS_FOLDER))


def results_notebooks(results: Path) -> dict:
    """The executed notebooks of a results folder, by page."""
    import nbformat

    if not (results / runner.OUTPUTS).is_file():
        return {}
    with zipfile.ZipFile(results / runner.OUTPUTS) as archive:
        return {name.removesuffix(".ipynb"): nbformat.reads(archive.read(name).decode("utf8"), as_version=4)
                for name in archive.namelist()}


def fill_cache(cache_path: Path, chosen: dict, sources: dict) -> dict:
    """A fresh jupyter-cache folder holding the notebook chosen for each page; returns each page's hash there.

    ``chosen`` maps a page to ``(notebook, seconds)``; ``sources`` to its source file (the cache's uri).
    """
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    shutil.rmtree(cache_path, ignore_errors=True)
    cache = get_cache(str(cache_path))
    hashes = {}
    for page, (notebook, seconds) in sorted(chosen.items()):
        record = cache.cache_notebook_bundle(CacheBundleIn(notebook, str(sources[page]),
                                                           data={"execution_seconds": seconds}),
                                             check_validity=False, overwrite=True)
        hashes[page] = record.hashkey
    return hashes


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    keep = commands.add_parser("keep", help="take a runner's results folder into the kept outputs")
    keep.add_argument("results", type=Path, help="the folder the runner wrote (manifest.json, outputs.zip)")
    keep.add_argument("--kept", type=Path, default=Path("reports") / "gpu", help="default: reports/gpu")
    keep.add_argument("--fresh", action="store_true", help="replace every kept page (another device kind or JAX)")
    keep.add_argument("--allow-backend", action="append", default=["gpu"], help="also keep outputs of this backend")
    args = parser.parse_args(argv)
    try:
        kept = KeptOutputs(args.kept)
        found = kept.keep(args.results, args.fresh, tuple(args.allow_backend))
    except KeptOutputsError as error:
        sys.exit(f"outputs keep: {error}")
    print(f"kept {len(found['kept'])} page(s) in {args.kept} ({kept.size() / 2**20:.2f} MiB kept in all); "
          f"failed: {', '.join(found['failed']) or 'none'}; left: {', '.join(found['left']) or 'none'}")


if __name__ == "__main__":
    main()
