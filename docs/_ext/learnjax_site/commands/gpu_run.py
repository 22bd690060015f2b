"""A GPU run that fits the GPU machine: what it carries, what it brings back, within the machine's limits.

    python -m learnjax_site.commands.gpu_run prepare [--carry .gpu-run] [--kept reports/gpu]
        [--local docs/_build/executed]
    python -m learnjax_site.commands.gpu_run carried [--carry .gpu-run] [--copy-to FOLDER]
    python -m learnjax_site.commands.gpu_run results FOLDER

The GPU machines this project is checked on (the device tool: an H100 or H200, no network, JAX
0.11.2 preinstalled) receive a copy of the working tree (tracked files and untracked ones git does
not ignore) plus named ignored folders, at most 64 MiB in all; one command runs at most 10 minutes;
what comes back is one folder of at most 8 files, each at most 16 MiB, at most 2 folders deep.

* ``prepare`` writes the carried folder, ``.gpu-run/``, but for its wheels (``nox -s gpu-prepare``
  downloads them with pip, hashes checked): ``staged/`` (``learnjax_site.execution.stage``, with each page's
  expected seconds from its last run, and the commit) and ``requirements.txt`` (the lock's kernel-side
  packages the image lacks, with hashes: ``requirements/gpu-carry.txt``).
* ``carried`` measures (and optionally copies) the tree as the machine receives it.
* ``results`` checks a returned folder against the limits.

On the machine, ``bash .ci/gpu-run`` installs the wheels with ``pip install --target`` and runs the
runner (``learnjax_site.execution.runner``). ``nox -s gpu-import -- FOLDER`` keeps what came back
(``learnjax_site.execution.outputs``) and renders the site from it.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

from ..core import paths

ROOT = paths.ROOT
CARRY = ROOT / ".gpu-run"
CARRY_LIMIT = 64 * 2**20
RESULT_FILES, RESULT_FILE_BYTES, RESULT_DEPTH = 8, 16 * 2**20, 2
GPU_START_SECONDS = 5  # a fresh kernel's import of JAX and CUDA's start, beyond a page's CPU seconds


def commit(root: Path = ROOT) -> str | None:
    """``git rev-parse HEAD``, with ``+dirty`` when the tree has changes git tracks; None outside git."""
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True)
    if head.returncode != 0:
        return None
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                           capture_output=True, text=True).stdout.strip()
    return head.stdout.strip() + ("+dirty" if dirty else "")


def expected_seconds(staged: dict, kept: Path | None, local: Path | None) -> dict[str, float]:
    """Each page's expected seconds on the GPU: its last GPU run, else its last CPU run plus a kernel's start."""
    from ..execution import outputs, runner

    gpu = outputs.KeptOutputs(kept).pages if kept else {}
    cpu = {}
    for results in sorted(local.glob("*")) if local and local.is_dir() else []:
        manifest = runner.read_manifest(results) or {"pages": {}}
        cpu.update({page: entry["seconds"] for page, entry in manifest["pages"].items() if entry.get("seconds")})
    return {page: gpu[page]["seconds"] if page in gpu else cpu[page] + GPU_START_SECONDS
            for page in staged["pages"] if page in gpu or page in cpu}


def prepare(carry: Path, kept: Path | None, local: Path | None, source: Path) -> dict:
    """Stage the pages into ``carry/staged`` with their expected seconds and the commit; copy the requirements."""
    from ..execution import stage

    staged = stage.stage(source, carry / "staged")
    for page, seconds in expected_seconds(staged, kept, local).items():
        staged["pages"][page]["expected_seconds"] = round(seconds, 1)
    staged["commit"] = commit()
    shutil.rmtree(carry / "staged" / "doctrees", ignore_errors=True)  # Sphinx's, not needed there
    shutil.rmtree(carry / "staged" / "myst-nb", ignore_errors=True)
    (carry / "staged" / stage.PAGES_FILE).write_text(json.dumps(staged, indent=1) + "\n", encoding="utf8")
    shutil.copyfile(ROOT / "requirements" / "gpu-carry.txt", carry / "requirements.txt")
    return staged


def carried_files(root: Path = ROOT, carry: Path = CARRY) -> list[Path]:
    """The files the GPU machine receives: tracked, untracked but not ignored, and the carried folder."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=root,
                            capture_output=True, text=True, check=True).stdout.split("\0")
    files = [root / name for name in listed if name and (root / name).is_file()]
    return files + sorted(path for path in carry.rglob("*") if path.is_file())


def carried_bytes(files: list[Path]) -> int:
    return sum(path.stat().st_size for path in files)


def copy_carried(files: list[Path], destination: Path, root: Path = ROOT) -> None:
    """Copy the carried files to ``destination`` as the machine receives them (a tree without .git)."""
    for path in files:
        target = destination / path.relative_to(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)


def result_problems(folder: Path) -> list[str]:
    """What in a returned folder would not come back from the machine (empty when all of it would).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "manifest.json").write_text("{}")
    >>> result_problems(folder)
    []
    >>> (folder / "a" / "b" / "c").mkdir(parents=True)
    >>> _ = (folder / "a" / "b" / "c" / "x.txt").write_text("")
    >>> result_problems(folder)
    ['a/b/c/x.txt: 3 folders deep (at most 2)']
    """
    files = sorted(path for path in folder.rglob("*") if path.is_file())
    problems = [f"{len(files)} files (at most {RESULT_FILES})"] if len(files) > RESULT_FILES else []
    for path in files:
        name = path.relative_to(folder).as_posix()
        if path.stat().st_size > RESULT_FILE_BYTES:
            problems.append(f"{name}: {path.stat().st_size / 2**20:.1f} MiB (at most 16 MiB)")
        if len(path.relative_to(folder).parts) - 1 > RESULT_DEPTH:
            problems.append(f"{name}: {len(path.relative_to(folder).parts) - 1} folders deep (at most {RESULT_DEPTH})")
    return problems


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    prepare_command = commands.add_parser("prepare", help="stage the pages into the carried folder")
    prepare_command.add_argument("--carry", type=Path, default=CARRY)
    prepare_command.add_argument("--source", type=Path, default=ROOT / "docs")
    prepare_command.add_argument("--kept", type=Path, default=ROOT / "reports" / "gpu")
    prepare_command.add_argument("--local", type=Path, default=ROOT / "docs" / "_build" / "executed",
                                 help="this machine's earlier runs, for the pages' expected seconds")
    carried_command = commands.add_parser("carried", help="the size of what the GPU machine receives")
    carried_command.add_argument("--carry", type=Path, default=CARRY)
    carried_command.add_argument("--copy-to", type=Path, help="also copy it there, as the machine receives it")
    results_command = commands.add_parser("results", help="check a returned folder against the limits")
    results_command.add_argument("folder", type=Path)
    args = parser.parse_args(argv)
    if args.command == "prepare":
        staged = prepare(args.carry, args.kept, args.local, args.source)
        print(f"{len(staged['pages'])} page(s) staged in {args.carry / 'staged'} from {staged['commit']}")
    elif args.command == "carried":
        files = carried_files(carry=args.carry)
        size = carried_bytes(files)
        if args.copy_to:
            copy_carried(files, args.copy_to)
        print(f"carried: {len(files)} files, {size / 2**20:.2f} MiB (limit {CARRY_LIMIT / 2**20:.0f} MiB)")
        if size > CARRY_LIMIT:
            sys.exit(f"what the GPU machine would receive is {size / 2**20:.2f} MiB, over its 64 MiB: carry less")
    else:
        problems = result_problems(args.folder)
        if problems:
            sys.exit(f"{args.folder} would not come back whole from the GPU machine:\n  " + "\n  ".join(problems))
        print(f"{args.folder}: within the limits of what comes back")


if __name__ == "__main__":
    main()
