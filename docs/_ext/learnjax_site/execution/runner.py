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
  error and the end of its traceback) is collected. A cell that runs past ``--cell-timeout`` fails its
  page, and so does one still running when the budget ends (the run stops inside its budget, naming
  the cell, rather than being killed at the device command's limit with nothing said).
* Each cell that ran for ``SLOW_CELL`` seconds or more is logged and listed in its page's entry
  (``slow_cells``: line and seconds): where a GPU run's time went, for planning the next one.
* With ``--skip-failed``, a page that failed with the same hash in RESULTS (an earlier call of this
  run) is not run again: the same code on the same machine would fail the same way.
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
import textwrap
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from . import kernel
from .cell_errors import cell_problems

MANIFEST, OUTPUTS = "manifest.json", "outputs.zip"
OK, FAILED, LEFT = "ok", "failed", "left"
SLOW_CELL = 10.0  # seconds from which a cell is logged and listed in its page's entry


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

    def done(self, page: str, page_hash: str, statuses=(OK,)) -> bool:
        """Whether ``page`` ran with this hash and ended in one of ``statuses``."""
        entry = self.manifest["pages"].get(page)
        return bool(entry and entry["status"] in statuses and entry["hash"] == page_hash)

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


@dataclass
class Execution:
    """What running one page gave: its seconds, the failing cell and error (None when every cell ran),
    and the seconds of each cell that ran for ``SLOW_CELL`` or more (cell index → seconds)."""

    seconds: float
    cell: int | None = None
    error: str | None = None
    slow: dict[int, float] = field(default_factory=dict)
    fix: str = ("make the cell faster or smaller on this machine (sizes may depend on jax.default_backend()), "
                "or find why the kernel stopped")


def execute_page(notebook, cwd: Path, cell_timeout: float, deadline: float | None = None) -> Execution:
    """Run ``notebook`` in place in a fresh kernel in ``cwd``.

    The failing cell is the one that raised (not tagged ``raises-exception``), timed out or was
    running when the kernel died. ``deadline`` (a ``time.perf_counter()`` reading) is when the run's
    budget ends: the cell running then is stopped, as if it had timed out.
    """
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

    running = {"cell": None, "since": 0.0}
    slow = {}

    def started_cell(cell, cell_index):
        running.update(cell=cell_index, since=time.perf_counter())

    def finished_cell(cell, cell_index, execute_reply):
        seconds = time.perf_counter() - running["since"]
        if seconds >= SLOW_CELL:
            slow[cell_index] = round(seconds, 1)

    def timeout(cell) -> int:
        left = cell_timeout if deadline is None else min(cell_timeout, deadline - time.perf_counter())
        return max(1, int(left))

    client = NotebookClient(
        notebook, timeout_func=timeout, allow_errors=False, record_timing=False,  # no metadata: hashes unchanged
        kernel_name=notebook.metadata.get("kernelspec", {}).get("name", "python3"),
        resources={"metadata": {"path": str(cwd)}}, on_cell_start=started_cell, on_cell_executed=finished_cell)
    started = time.perf_counter()
    try:
        client.execute()
    except CellExecutionError:
        return Execution(time.perf_counter() - started, running["cell"], None, slow)  # the error is in the outputs
    except CellTimeoutError:
        now = time.perf_counter()
        slow[running["cell"]] = round(now - running["since"], 1)
        if deadline is not None and now >= deadline - 1:
            return Execution(now - started, running["cell"],
                             f"the run's budget ended while this cell ran ({now - running['since']:.0f} s so far)",
                             slow, "run the page again with more budget (a second call resumes the run), or make "
                                   "the cell faster on this machine; the traceback shows where it was")
        return Execution(now - started, running["cell"], f"the cell ran past {cell_timeout:g} s (--cell-timeout)", slow)
    except DeadKernelError as error:
        return Execution(time.perf_counter() - started, running["cell"], f"the kernel died: {error}", slow)
    return Execution(time.perf_counter() - started, slow=slow)


def line_of(source_map: list[int], cell: int | None) -> int:
    """The line in the page's source where code cell ``cell`` starts (1 when it is not known)."""
    return source_map[cell] if cell is not None and cell < len(source_map) else 1


def page_errors(notebook, source: str, source_map: list[int], done: Execution) -> list[dict]:
    """Each problem of an executed page as ``{"where": "docs/x.md:12", "problem", "fix"}``, with
    ``traceback`` (its end) where a cell raised."""
    problems = [{"where": f"{source}:{p.line}", "problem": p.problem, "fix": p.fix}
                | ({"traceback": p.traceback} if p.traceback else {})
                for p in cell_problems(notebook.cells, source_map)]
    cell = done.cell
    if done.error is not None:
        where = f"{source}:{line_of(source_map, cell)}"
        stopped = {"where": where, "problem": done.error, "fix": done.fix}
        # nbclient interrupted the cell: its KeyboardInterrupt is not a problem of its own, but its
        # traceback says where the cell was when it was stopped
        for problem in [p for p in problems if p["where"] == where and "raised KeyboardInterrupt" in p["problem"]]:
            problems.remove(problem)
            stopped["traceback"] = problem.get("traceback", "")
        problems.append(stopped)
    if cell is not None and not problems:  # nbclient stopped at a cell whose error was not an output
        line = line_of(source_map, cell)
        problems.append({"where": f"{source}:{line}", "problem": "this code cell stopped the page",
                         "fix": "run the page's notebook and read the cell's traceback"})
    return problems


def run(staged_dir: Path, source_dir: Path, out: Path, budget: float | None = None, kept: Path | None = None,
        pages: list[str] | None = None, cell_timeout: float = 300, expected_default: float = 20,
        machine: dict | None = None, log=print, mirror: Path | None = None, skip_failed: bool = False) -> dict:
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
        if results.done(page, entry["hash"], (OK, FAILED) if skip_failed else (OK,)) or entry["hash"] in already_kept:
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
        deadline = None if budget is None else started + budget
        done = execute_page(notebook, (source_dir / entry["source"]).parent, cell_timeout, deadline)
        errors = page_errors(notebook, source, entry["source_map"], done)
        slow_cells = [{"where": f"{source}:{line_of(entry['source_map'], cell)}", "seconds": seconds}
                      for cell, seconds in sorted(done.slow.items())]
        status = FAILED if errors else OK
        results.record(page, {"status": status, "hash": entry["hash"], "source": source,
                              "seconds": round(done.seconds, 2), "run": results.manifest["started"], "errors": errors,
                              "slow_cells": slow_cells},
                       None if errors else nbformat.writes(notebook).encode("utf8"))
        log(f"{status:6} {page} in {done.seconds:.1f} s"
            + "".join(f"\n         {e['where']}: {e['problem']}" for e in errors)
            + "".join(f"\n         slow cell {c['where']}: {c['seconds']:.0f} s" for c in slow_cells))
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
            if error.get("traceback"):
                lines.append("    The traceback's end:\n" + textwrap.indent(error["traceback"], "      "))
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
    parser.add_argument("--skip-failed", action="store_true",
                        help="do not run again a page that failed with the same hash in --out (an earlier call)")
    parser.add_argument("--mirror", type=Path, help="also keep the results here, and resume from them when --out "
                        "is empty (a second call on a machine that kept its files)")
    args = parser.parse_args(argv)
    manifest = run(args.staged, args.source, args.out, args.budget, args.kept, args.pages, args.cell_timeout,
                   args.expected_default, mirror=args.mirror, skip_failed=args.skip_failed)
    text, status = summary(manifest)
    print(text, flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
