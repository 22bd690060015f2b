"""Execute: the staged lessons, each in a fresh kernel, within a time budget, on any machine.

    python -m learnjax_site.execution.runner --staged docs/_build/stage --out RESULTS [--budget SECONDS]
        [--kept reports/gpu] [--pages a/b c/d] [--cell-timeout 300]

Needs no Sphinx and no jupyter-cache: nbclient (the executor myst-nb and jupyter-cache use), the
kernel, and the staged notebooks (``learnjax_site.execution.stage``). So it runs as it is on a GPU machine
without network that has only the lessons' own packages (README: "Running the lessons on a GPU
machine without network"), and it is how ``nox -s docs`` executes pages on the machine at hand.

* A page whose hash is already done in RESULTS, or kept in ``--kept`` (``reports/gpu``), is skipped.
* Pages run one after another, in their order, each in a fresh kernel in its source's folder (as
  myst-nb runs them). A page is started only if its expected seconds (``expected_seconds`` in
  pages.json) still fit in the budget; the others are left for the next run.
* A failing page never stops the others: every failure (the cell's line in the page's source, the
  error) is collected. A cell that runs past ``--cell-timeout`` fails its page.
* With ``--mirror DIR`` the results are also kept in DIR, and a run whose RESULTS is empty starts
  from DIR's: a second command on a GPU machine that keeps ignored folders between calls (but gives
  each call an empty results folder) resumes where the first stopped.
* After every page, RESULTS/manifest.json (the machine, the versions, the commit, each page's
  status and seconds, every error) and RESULTS/outputs.zip (the executed notebooks of the pages that
  succeeded) are rewritten whole, by replacing the old files: a run killed at its limit keeps every
  page it finished.

Exit status: 0 when every staged page is done, 1 when a page failed, 3 when pages were left for
the next run (none failed).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
import time
import zipfile
from pathlib import Path

from . import kernel
from .cell_errors import cell_problems

MANIFEST, OUTPUTS = "manifest.json", "outputs.zip"
OK, FAILED, LEFT = "ok", "failed", "left"


class Results:
    """A results folder: ``manifest.json`` and ``outputs.zip``, read on start and rewritten after each page."""

    def __init__(self, folder: Path, machine: dict, staged: dict, mirror: Path | None = None):
        self.folder, self.mirror = folder, mirror
        folder.mkdir(parents=True, exist_ok=True)
        if mirror is not None:
            mirror.mkdir(parents=True, exist_ok=True)
            if read_manifest(folder) is None and read_manifest(mirror) is not None:  # resume an earlier call's run
                for name in (MANIFEST, OUTPUTS):
                    if (mirror / name).is_file():
                        (folder / name).write_bytes((mirror / name).read_bytes())
        old = read_manifest(folder)
        if old and old["machine"].get("device_kind") != machine.get("device_kind"):
            raise SystemExit(f"{folder}: holds outputs made on {old['machine'].get('device_kind')}, not on this "
                             f"machine's {machine.get('device_kind')}: use another results folder")
        self.manifest = {
            "made_by": "python -m learnjax_site.execution.runner",
            "machine": machine,
            "commit": staged.get("commit"),
            "started": dt.datetime.now(dt.UTC).isoformat(),
            "budget_seconds": None,
            "pages": old["pages"] if old else {},
        }
        self.notebooks = {}
        if (folder / OUTPUTS).is_file():
            with zipfile.ZipFile(folder / OUTPUTS) as archive:
                self.notebooks = {name: archive.read(name) for name in archive.namelist()}

    def done(self, page: str, page_hash: str) -> bool:
        entry = self.manifest["pages"].get(page)
        return bool(entry and entry["status"] == OK and entry["hash"] == page_hash)

    def record(self, page: str, entry: dict, notebook: bytes | None) -> None:
        self.manifest["pages"][page] = entry
        name = f"{page}.ipynb"
        if notebook is None:
            self.notebooks.pop(name, None)
        else:
            self.notebooks[name] = notebook
        self.flush()

    def flush(self) -> None:
        """Write both files anew beside the old ones, then replace them (a kill leaves the last whole pair)."""
        self.manifest["finished"] = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        archive_file = self.folder / (OUTPUTS + ".new")
        with zipfile.ZipFile(archive_file, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
            for name, data in sorted(self.notebooks.items()):
                archive.writestr(name, data)
        manifest_file = self.folder / (MANIFEST + ".new")
        manifest_file.write_text(json.dumps(self.manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf8")
        os.replace(archive_file, self.folder / OUTPUTS)
        os.replace(manifest_file, self.folder / MANIFEST)
        if self.mirror is not None:  # a copy that outlives the results folder (the next call on a warm machine)
            for name in (OUTPUTS, MANIFEST):
                (self.mirror / (name + ".new")).write_bytes((self.folder / name).read_bytes())
                os.replace(self.mirror / (name + ".new"), self.mirror / name)


def read_manifest(folder: Path) -> dict | None:
    path = folder / MANIFEST
    return json.loads(path.read_text(encoding="utf8")) if path.is_file() else None


def kept_hashes(kept: Path | None) -> set[str]:
    """The hashes of the pages whose outputs are kept in ``kept`` (``reports/gpu``: its outputs.json)."""
    index = kept / "outputs.json" if kept else None
    if index is None or not index.is_file():
        return set()
    return {entry["hash"] for entry in json.loads(index.read_text(encoding="utf8"))["pages"].values()}


def execute_page(notebook, cwd: Path, cell_timeout: float) -> tuple[float, int | None, str | None]:
    """Run ``notebook`` in place in a fresh kernel in ``cwd``; return (seconds, failing cell, error).

    The failing cell is the one that raised (not tagged ``raises-exception``), timed out or was
    running when the kernel died; None when every cell ran.
    """
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

    running = {"cell": None}
    client = NotebookClient(
        notebook, timeout=cell_timeout, allow_errors=False, record_timing=False,  # no metadata: hashes unchanged
        kernel_name=notebook.metadata.get("kernelspec", {}).get("name", "python3"),
        resources={"metadata": {"path": str(cwd)}},
        on_cell_start=lambda cell, cell_index: running.update(cell=cell_index))
    started = time.perf_counter()
    try:
        client.execute()
    except CellExecutionError:
        return time.perf_counter() - started, running["cell"], None  # the error is in the cell's outputs
    except CellTimeoutError:
        return time.perf_counter() - started, running["cell"], f"the cell ran past {cell_timeout:g} s (--cell-timeout)"
    except DeadKernelError as error:
        return time.perf_counter() - started, running["cell"], f"the kernel died: {error}"
    return time.perf_counter() - started, None, None


def page_errors(notebook, source: str, source_map: list[int], cell: int | None, error: str | None) -> list[dict]:
    """Each problem of an executed page as ``{"where": "docs/x.md:12", "problem", "fix"}``."""
    problems = [{"where": f"{source}:{p.line}", "problem": p.problem, "fix": p.fix}
                for p in cell_problems(notebook.cells, source_map)]
    if error is not None:
        line = source_map[cell] if cell is not None and cell < len(source_map) else 1
        problems.append({"where": f"{source}:{line}", "problem": error,
                         "fix": "make the cell faster or smaller on this machine (sizes may depend on "
                                "jax.default_backend()), or find why the kernel stopped"})
    if cell is not None and not problems:  # nbclient stopped at a cell whose error was not an output
        line = source_map[cell] if cell < len(source_map) else 1
        problems.append({"where": f"{source}:{line}", "problem": "this code cell stopped the page",
                         "fix": "run the page's notebook and read the cell's traceback"})
    return problems


def run(staged_dir: Path, source_dir: Path, out: Path, budget: float | None = None, kept: Path | None = None,
        pages: list[str] | None = None, cell_timeout: float = 300, expected_default: float = 20,
        machine: dict | None = None, log=print, mirror: Path | None = None) -> dict:
    """Execute the staged pages into ``out``; return the manifest (see the module's docstring)."""
    import nbformat

    staged = json.loads((staged_dir / "pages.json").read_text(encoding="utf8"))
    unknown = sorted(set(pages or []) - set(staged["pages"]))
    if unknown:
        raise SystemExit(f"--pages names pages that were not staged: {', '.join(unknown)}")
    memory = kernel.set_kernel_memory_settings()
    if machine is None:
        machine = kernel.probe(kernel.kernel_python())
    log(f"kernel: {machine['backend']} / {machine['device_kind']} × {machine['device_count']}, "
        f"jax {machine['jax']} / jaxlib {machine['jaxlib']}; memory: {memory or 'defaults'}")
    results = Results(out, machine, staged, mirror)
    results.manifest["budget_seconds"] = budget
    already_kept = kept_hashes(kept)
    started = time.perf_counter()
    for page, entry in staged["pages"].items():
        if (pages and page not in pages) or not entry["code"]:
            continue
        if results.done(page, entry["hash"]) or entry["hash"] in already_kept:
            continue
        source = (source_dir / entry["source"]).as_posix()
        elapsed = time.perf_counter() - started
        expected = entry.get("expected_seconds") or expected_default
        if budget is not None and elapsed + expected > budget:
            results.record(page, {"status": LEFT, "hash": entry["hash"], "source": source,
                                  "expected_seconds": expected}, None)
            log(f"left   {page}: expected {expected:.0f} s, {max(budget - elapsed, 0):.0f} s of the budget left")
            continue
        notebook = nbformat.read(staged_dir / entry["notebook"], as_version=4)
        seconds, cell, error = execute_page(notebook, (source_dir / entry["source"]).parent, cell_timeout)
        errors = page_errors(notebook, source, entry["source_map"], cell, error)
        status = FAILED if errors else OK
        results.record(page, {"status": status, "hash": entry["hash"], "source": source,
                              "seconds": round(seconds, 2), "run": results.manifest["started"], "errors": errors},
                       None if errors else nbformat.writes(notebook).encode("utf8"))
        log(f"{status:6} {page} in {seconds:.1f} s" + "".join(f"\n         {e['where']}: {e['problem']}"
                                                            for e in errors))
    return results.manifest


def summary(manifest: dict) -> tuple[str, int]:
    """The lines to print after a run, and its exit status (see the module's docstring)."""
    by_status = {status: sorted(p for p, e in manifest["pages"].items() if e["status"] == status)
                 for status in (OK, FAILED, LEFT)}
    lines = [f"{len(by_status[OK])} page(s) done, {len(by_status[FAILED])} failed, "
             f"{len(by_status[LEFT])} left for the next run"]
    for page in by_status[FAILED]:
        for error in manifest["pages"][page]["errors"]:
            lines.append(f"{error['where']}: {error['problem']}\n    What to do: {error['fix']}")
    if by_status[LEFT]:
        lines.append("left: " + ", ".join(by_status[LEFT]))
    return "\n".join(lines), 1 if by_status[FAILED] else 3 if by_status[LEFT] else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--staged", type=Path, required=True, help="the staging folder (learnjax_site.execution.stage)")
    parser.add_argument("--source", type=Path, default=Path("docs"), help="the pages' folder (default: docs)")
    parser.add_argument("--out", type=Path, required=True, help="the results folder (kept between runs)")
    parser.add_argument("--budget", type=float, help="seconds: start no page that would not end within them")
    parser.add_argument("--kept", type=Path, help="skip the pages whose outputs are kept here (reports/gpu)")
    parser.add_argument("--pages", nargs="+", help="only these pages (e.g. jit/timing)")
    parser.add_argument("--cell-timeout", type=float, default=300, help="seconds a cell may run (default 300)")
    parser.add_argument("--expected-default", type=float, default=20,
                        help="seconds expected of a page with no earlier run (default 20)")
    parser.add_argument("--mirror", type=Path, help="also keep the results here, and resume from them when --out "
                        "is empty (a second call on a machine that kept its files)")
    args = parser.parse_args(argv)
    manifest = run(args.staged, args.source, args.out, args.budget, args.kept, args.pages, args.cell_timeout,
                   args.expected_default, mirror=args.mirror)
    text, status = summary(manifest)
    print(text, flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
