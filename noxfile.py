"""Sessions: ``nox -s docs``, ``docs-live``, ``tests``, ``lint``, ``browser``, ``lighthouse``, ``publish``,
``lock``, ``gpu-prepare``, ``gpu-import``, ``gpu-dryrun``. See README.md.

Every session runs on Python 3.12, with jax 0.11.2: what the GPU machines carry, so that a page that
passes here meets the same JAX there. Where no Python 3.12 is found, each session stops and says how
to get one.

Every session installs its dependency group from the lock: ``requirements/<group>.txt``, exported
with hashes from ``uv.lock`` by ``nox -s lock`` and installed with pip's hash checking. A session
stops, naming ``nox -s lock``, when pyproject.toml's groups changed since the lock was made.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nox

sys.path.insert(0, str(Path(__file__).parent / "docs" / "_ext"))
from learnjax_site.core.flags import GPU, flag  # noqa: E402  (the build's one reading of its switches)

nox.options.sessions = ["docs", "tests", "lint"]
nox.options.default_venv_backend = "venv"


def find_python(version: str = "3.12") -> str | None:
    """A Python ``version`` interpreter that runs: ``python3.12`` on the PATH, else pyenv's, else None.

    A pyenv shim is on the PATH even where its version is not selected, and fails when run: each
    candidate is asked for its version.
    """
    pyenv_root = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    candidates = [shutil.which(f"python{version}"),
                  *sorted(glob.glob(f"{pyenv_root}/versions/{version}.*/bin/python{version}"), reverse=True),
                  f"/usr/bin/python{version}", f"/usr/local/bin/python{version}"]
    for candidate in filter(None, candidates):
        try:
            found = subprocess.run([candidate, "-c", "import sys, venv; print('%d.%d' % sys.version_info[:2])"],
                                   capture_output=True, text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.TimeoutExpired):
            continue
        if found == version:
            return candidate
    return None


PYTHON = find_python()
NO_PYTHON = ("Python 3.12 was not found, and the site runs jax 0.11.2 on Python 3.12 everywhere (what the GPU "
             "machines carry). Install it, then run nox again: on Debian or Ubuntu "
             "'apt-get install python3.12 python3.12-venv'; with pyenv 'pyenv install 3.12'; with uv "
             "'uv python install 3.12' (then put its python3.12 on the PATH).")


def session(*args, **kwargs):
    """``nox.session`` on Python 3.12; where none was found, the session stops saying how to get it."""
    def decorate(function):
        if PYTHON:
            return nox.session(*args, python=PYTHON, **kwargs)(function)

        def refuse(session: nox.Session) -> None:
            session.error(NO_PYTHON)

        refuse.__name__, refuse.__doc__ = function.__name__, function.__doc__
        return nox.session(*args, python=False, **kwargs)(refuse)
    return decorate

ROOT = Path(__file__).parent
PYPROJECT = nox.project.load_toml(ROOT / "pyproject.toml")
SITE_ENV = {"PYTHONPATH": str(ROOT / "docs" / "_ext")}
REQUIREMENTS = ROOT / "requirements"
LOCKED_GROUPS = tuple(PYPROJECT["dependency-groups"])
FINGERPRINT = re.compile(r"^# pyproject\.toml dependency groups: sha256 ([0-9a-f]{64})$", re.MULTILINE)


def groups_fingerprint() -> str:
    """A digest of what the lock is made from: pyproject's requires-python, groups and uv settings."""
    locked = {"requires-python": PYPROJECT["project"]["requires-python"],
              "dependency-groups": PYPROJECT["dependency-groups"], "tool.uv": PYPROJECT["tool"]["uv"]}
    return hashlib.sha256(json.dumps(locked, sort_keys=True).encode()).hexdigest()


def locked_requirements(session: nox.Session, group: str) -> Path:
    """``requirements/<group>.txt``, after checking it was exported from the pyproject.toml of today."""
    path = REQUIREMENTS / f"{group}.txt"
    found = FINGERPRINT.search(path.read_text(encoding="utf8")) if path.is_file() else None
    if not found or found.group(1) != groups_fingerprint():
        session.error(f"{path.relative_to(ROOT)} was not made from this pyproject.toml's dependency groups "
                      "(pyproject.toml and the lock disagree): run nox -s lock, and commit uv.lock and requirements/.")
    return path


def install(session: nox.Session, group: str) -> None:
    """Install a dependency group from the lock, every file checked against its hash.

    LEARNJAX_GPU=1 turns the docs group into the gpu group: the same, with JAX for CUDA 13 pinned.
    """
    if group == "docs" and flag(GPU):
        group = "gpu"
    session.install("--require-hashes", "-r", str(locked_requirements(session, group)))


@session()
def docs(session: nox.Session) -> None:
    """Build the site in both languages into docs/_build/html (extra args go to sphinx-build)."""
    install(session, "docs")
    session.run("python", "-m", "learnjax_site.commands.build", *session.posargs, env=SITE_ENV)


@session()
def publish(session: nox.Session) -> None:
    """What the publishing workflow runs: both languages, the record, the notebooks for Colab.

    Builds the site into docs/_build/html (extra args go to sphinx-build), then writes
    docs/_build/publish/record/ and docs/_build/publish/colab/<lang>/ (learnjax_site.commands.publish).
    With LEARNJAX_REQUIRE_ACCELERATOR=1 (the GPU runner) a page that ran on the CPU stops it;
    CI runs it without, on the CPU, so a broken publishing step fails CI first.
    """
    install(session, "docs")
    session.run("python", "-m", "learnjax_site.commands.build", *session.posargs, env=SITE_ENV)
    session.run("python", "-m", "learnjax_site.commands.publish", env=SITE_ENV)


@session(name="docs-live")
def docs_live(session: nox.Session) -> None:
    """Rebuild one language on save and serve it: nox -s docs-live -- [ko|en] (default ko)."""
    install(session, "live")
    language = session.posargs[0] if session.posargs else "ko"
    out = ROOT / "docs" / "_build"
    session.run(
        "sphinx-autobuild", "docs", str(out / "html" / language),
        "-d", str(out / "doctrees" / language), "-D", f"language={language}",
        "--watch", "examples", "--watch", "docs/_ext", "--ignore", "docs/_build",
        env=SITE_ENV,
    )


@session()
def tests(session: nox.Session) -> None:
    """Doctests of examples/ and the extensions, unit tests, failure fixtures, fixture-site build."""
    install(session, "test")
    session.run("pytest", *session.posargs)


def missing_browser_packages(chromium: Path) -> list[str]:
    """The Debian packages the browser tests need that this machine lacks: Chromium, a Hangul font."""
    missing = [] if chromium.is_file() else ["chromium"]
    fonts = shutil.which("fc-list")
    has_hangul_font = fonts and subprocess.run([fonts, ":lang=ko", "family"], capture_output=True, text=True).stdout
    return missing + ([] if has_hangul_font else ["fonts-noto-cjk"])


def built_site(session: nox.Session) -> Path:
    """The built site (LEARNJAX_SITE, default docs/_build/html); stops when it has not been built."""
    site = Path(os.environ.get("LEARNJAX_SITE") or ROOT / "docs" / "_build" / "html")
    if not all((site / language / "index.html").is_file() for language in ("ko", "en")):
        session.error(f"No built site in {site}: run nox -s docs first.")
    return site


def install_system_packages(session: nox.Session, missing: list[str], needed_by: str) -> None:
    """Install Debian packages that ``needed_by`` needs when root; otherwise stop, saying what to install."""
    if not missing:
        return
    if os.geteuid() != 0:
        session.error(f"{needed_by} needs {' and '.join(missing)}: install them "
                      f"(Debian/Ubuntu: sudo apt-get install --no-install-recommends {' '.join(missing)}), "
                      "or point LEARNJAX_CHROMIUM at a Chromium or Chrome binary.")
    apt = {"DEBIAN_FRONTEND": "noninteractive"}
    session.run("apt-get", "update", external=True, env=apt)
    session.run("apt-get", "install", "-y", "--no-install-recommends", *missing, external=True, env=apt)


@session()
def browser(session: nox.Session) -> None:
    """The built site in headless Chromium (tests/browser), after nox -s docs; screenshots in docs/_build/screenshots.

    Chromium and a Hangul font come from the system's packages (installed here when root), not from
    ``playwright install``, which downloads a browser of its own: CI reaches package registries only.
    """
    built_site(session)
    missing = missing_browser_packages(Path(os.environ.get("LEARNJAX_CHROMIUM", "/usr/bin/chromium")))
    install_system_packages(session, missing, "nox -s browser")
    # The docs group too: test_korean_ui reads the English interface strings from the installed
    # Sphinx, themes and extensions (their catalogs and templates), the very versions that built the site.
    install(session, "docs")
    install(session, "browser")
    # --confcutdir: the browser tests need neither JAX nor the doctest names of the top conftest.py
    session.run("pytest", "tests/browser", "--confcutdir", "tests/browser", *session.posargs)



LIGHTHOUSE = ROOT / "tools" / "lighthouse"


@session()
def lighthouse(session: nox.Session) -> None:
    """Lighthouse on the built site served as GitHub Pages serves it (after nox -s docs): learnjax_tools.lighthouse.

    nox -s lighthouse [-- --record] [-- --before reports/lighthouse/X.json] [-- --pages home,lesson]

    Installs the Lighthouse that tools/lighthouse/package-lock.json pins (npm ci, from the npm registry)
    and runs it with the system's Chromium (LEARNJAX_CHROMIUM), as ``browser`` does. Accessibility,
    best practices and SEO must be 100; performance is reported. The report: docs/_build/lighthouse/;
    with --record also reports/lighthouse/<date>.md and .json.
    """
    site = built_site(session)
    missing = missing_browser_packages(Path(os.environ.get("LEARNJAX_CHROMIUM", "/usr/bin/chromium")))
    missing = [name for name in missing if name == "chromium"] + ([] if shutil.which("npm") else ["nodejs", "npm"])
    install_system_packages(session, missing, "nox -s lighthouse")
    # --ignore-scripts: nothing downloads a browser of its own; the lock pins every package and its hash
    session.run("npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--prefix", str(LIGHTHOUSE), external=True)
    args = list(session.posargs)
    if "--record" in args:
        args[args.index("--record"):args.index("--record") + 1] = ["--record", str(ROOT / "reports" / "lighthouse")]
    session.run("python", "-m", "learnjax_tools.lighthouse", "--site", str(site),
                "--lighthouse", str(LIGHTHOUSE / "node_modules" / "lighthouse" / "cli" / "index.js"), *args,
                env=SITE_ENV)

# What a GPU run carries (requirements/gpu-carry.txt, exported by nox -s lock): the lessons group, which
# holds what the kernels and the runner need, less the packages the GPU machines' image has (the
# gpu-image group: its JAX is built for CUDA) and less what only Sphinx, the execution cache or an editor
# use. flax and optax come from the lock, so the GPU runs the versions CI runs.
NOT_ON_THE_GPU = ("sphinx", "sphinxcontrib-applehelp", "sphinxcontrib-devhelp", "sphinxcontrib-htmlhelp",
                  "sphinxcontrib-jsmath", "sphinxcontrib-qthelp", "sphinxcontrib-serializinghtml", "alabaster",
                  "babel", "imagesize", "snowballstemmer", "roman-numerals", "myst-parser",
                  "mdit-py-plugins", "jupyter-cache", "sqlalchemy", "greenlet", "jedi", "parso", "debugpy",
                  "appnope", "tzdata", "importlib-metadata")
GPU_CARRY = REQUIREMENTS / "gpu-carry.txt"
# A Linux x86_64 CPython 3.12, for the markers of an export that pip downloads for another machine
LINUX_312 = {"python_version": "3.12", "python_full_version": "3.12.3", "sys_platform": "linux",
             "platform_system": "Linux", "platform_machine": "x86_64", "os_name": "posix",
             "implementation_name": "cpython", "platform_python_implementation": "CPython"}
MANYLINUX_X86_64 = [f"manylinux_2_{n}_x86_64" for n in range(39, 16, -1)] + ["manylinux2014_x86_64"]


def distribution_name(requirement: str) -> str:
    """The normalised project name of a requirement ("ml_dtypes>=0.5" is "ml-dtypes")."""
    return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._-]+", requirement).group()).lower()


def gpu_image_packages() -> list[str]:
    """The names in pyproject.toml's gpu-image group (the GPU machines' image, as far as the kernels use it)."""
    return sorted(distribution_name(requirement) for requirement in PYPROJECT["dependency-groups"]["gpu-image"])


def for_target(requirements: str, environment: dict = LINUX_312) -> str:
    """Only the entries of an exported requirements file whose markers hold in ``environment``.

    pip download evaluates markers for the Python that runs it, not the one it downloads for; each
    entry is a requirement line (with `` ; marker``) and the indented ``--hash`` lines under it.
    """
    from packaging.markers import Marker

    kept, keep = [], True
    for line in requirements.splitlines(keepends=True):
        if line[:1].isalnum():  # a requirement; its --hash lines follow, indented
            requirement, _, marker = line.partition(" ; ")
            keep = not marker or Marker(marker.rstrip(" \\\n")).evaluate(environment)
            line = requirement.rstrip() + " \\\n" if marker else line
        if keep or line.startswith("#"):
            kept.append(line)
    return "".join(kept)


def uv_export(session: nox.Session, group: str, out: Path, *options: str) -> None:
    """Export one group of uv.lock as a requirements file with hashes, headed by the groups' fingerprint."""
    exported = session.run("uv", "export", "--frozen", "--format", "requirements.txt", "--no-header",
                           "--no-emit-project", "--only-group", group, *options, silent=True)
    header = (f"# The {group} group of uv.lock, with hashes: made by nox -s lock; do not edit.\n"
              f"# pyproject.toml dependency groups: sha256 {groups_fingerprint()}\n")
    out.write_text(header + exported, encoding="utf8")


def export_gpu_carry(session: nox.Session, out: Path) -> None:
    """requirements/gpu-carry.txt: the lessons group less the image's packages and NOT_ON_THE_GPU, for Linux."""
    uv_export(session, "lessons", out,
              *(f"--no-emit-package={name}" for name in (*gpu_image_packages(), *NOT_ON_THE_GPU)))
    text = for_target(out.read_text(encoding="utf8"))
    out.write_text(text.replace("# The lessons group of uv.lock", "# What a GPU run carries (the lessons group "
                                "less the GPU image's packages and what only Sphinx uses) of uv.lock", 1),
                   encoding="utf8")


def lock_exports(session: nox.Session, folder: Path) -> None:
    for group in LOCKED_GROUPS:
        uv_export(session, group, folder / f"{group}.txt")
    export_gpu_carry(session, folder / GPU_CARRY.name)


@session()
def lock(session: nox.Session) -> None:
    """Make the lock from pyproject.toml's groups: uv.lock, and requirements/<group>.txt with hashes.

    nox -s lock                 re-resolve what pyproject.toml changed, keep every other pin
    nox -s lock -- --upgrade    re-resolve everything to the newest versions the ranges allow
    nox -s lock -- --check      change nothing; fail, naming this session, if the lock is stale (CI)

    Also writes requirements/gpu-carry.txt, the packages a GPU run carries as wheels (nox -s gpu-prepare).
    """
    parser = argparse.ArgumentParser(prog="nox -s lock --")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="fail if uv.lock or requirements/ is out of date")
    mode.add_argument("--upgrade", action="store_true", help="newest versions the ranges allow")
    args = parser.parse_args(session.posargs)
    # uv from the lock as it stands (its fingerprint may be stale: that is why this session runs)
    lock_txt = REQUIREMENTS / "lock.txt"
    session.install(*(["--require-hashes", "-r", str(lock_txt)] if lock_txt.is_file() else ["uv"]))
    session.env.update(UV_PYTHON=PYTHON, UV_PYTHON_DOWNLOADS="never")  # this Python 3.12; uv downloads none
    exports = [f"{group}.txt" for group in LOCKED_GROUPS] + [GPU_CARRY.name]
    if args.check:
        with tempfile.TemporaryDirectory() as folder:
            try:
                session.run("uv", "lock", "--check")
                lock_exports(session, Path(folder))
            except nox.command.CommandFailed:
                session.error("uv.lock does not fit pyproject.toml: run nox -s lock, "
                              "and commit uv.lock and requirements/.")
            stale = [name for name in exports if not (REQUIREMENTS / name).is_file()
                     or (REQUIREMENTS / name).read_text(encoding="utf8")
                     != (Path(folder) / name).read_text(encoding="utf8")]
        if stale:
            session.error(f"requirements/ is not what uv.lock exports ({', '.join(stale)}): run nox -s lock, "
                          "and commit uv.lock and requirements/.")
        session.log(f"uv.lock and requirements/ fit pyproject.toml ({len(LOCKED_GROUPS)} groups)")
        return
    session.run("uv", "lock", *(["--upgrade"] if args.upgrade else []))
    REQUIREMENTS.mkdir(exist_ok=True)
    for stale in set(REQUIREMENTS.glob("*.txt")) - {REQUIREMENTS / name for name in exports}:
        stale.unlink()
    lock_exports(session, REQUIREMENTS)
    sizes = [f"{name} {(REQUIREMENTS / name).stat().st_size / 1024:.0f} KiB" for name in exports]
    session.log(f"uv.lock: {(ROOT / 'uv.lock').stat().st_size / 1024:.0f} KiB; requirements/: {', '.join(sizes)}")


# --- a GPU run on a machine without network (README: "Running the lessons on a GPU machine without network")

CARRY = ROOT / ".gpu-run"
DRYRUN = ROOT / "docs" / "_build" / "gpu-dryrun"


def load_gpu_run():
    """learnjax_site.commands.gpu_run, for what the GPU machine receives (it and the packages' __init__
    need no Sphinx)."""
    import importlib
    import sys

    if str(ROOT / "docs" / "_ext") not in sys.path:
        sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    return importlib.import_module("learnjax_site.commands.gpu_run")


def download_carried_wheels(session: nox.Session, carry: Path) -> list[Path]:
    """The wheels of requirements/gpu-carry.txt for CPython 3.12 on Linux x86_64, hashes checked, into carry/wheels."""
    wheels = carry / "wheels"
    shutil.rmtree(wheels, ignore_errors=True)
    wheels.mkdir(parents=True)
    platforms = [option for tag in MANYLINUX_X86_64 for option in ("--platform", tag)]
    session.run("python", "-m", "pip", "download", "--quiet", "--dest", str(wheels), "--only-binary=:all:",
                "--no-deps", "--require-hashes", "--implementation", "cp", "--python-version", "3.12", *platforms,
                "-r", str(GPU_CARRY))
    return sorted(wheels.glob("*.whl"))


def gpu_prepare_carry(session: nox.Session, carry: Path = CARRY) -> None:
    locked_requirements(session, "lessons")  # stops if the lock is stale
    session.run("python", "-m", "learnjax_site.commands.gpu_run", "prepare", "--carry", str(carry), env=SITE_ENV)
    wheels = download_carried_wheels(session, carry)
    session.log(f"{len(wheels)} wheels, {sum(w.stat().st_size for w in wheels) / 2**20:.1f} MiB, in {carry}/wheels")
    session.run("python", "-m", "learnjax_site.commands.gpu_run", "carried", "--carry", str(carry), env=SITE_ENV)


@session(name="gpu-prepare")
def gpu_prepare(session: nox.Session) -> None:
    """Write .gpu-run/, what a GPU machine without network needs beside the repository (README).

    The staged notebooks (learnjax_site.execution.stage, with each page's expected seconds and the commit) and
    the wheels of requirements/gpu-carry.txt for CPython 3.12 on Linux, hashes checked; then prints
    what the machine would receive (at most 64 MiB). On the machine: bash .ci/gpu-run.
    """
    install(session, "docs")
    gpu_prepare_carry(session)


@session(name="gpu-import")
def gpu_import(session: nox.Session) -> None:
    """Keep what a GPU run brought back, then render the site from it: nox -s gpu-import -- FOLDER [--fresh].

    FOLDER holds the runner's manifest.json and outputs.zip. They go into reports/gpu/ (outputs.json,
    outputs/<page>.ipynb.gz, runs/<date>-<n>.json; learnjax_site.execution.outputs); then both languages are built
    (pages without kept outputs execute here), the record is written to reports/gpu/, and the per-lesson
    table of reports/gpu/README.md (learnjax_site.commands.gpu_table).
    """
    if not session.posargs:
        session.error("nox -s gpu-import -- FOLDER: the folder a GPU run brought back (manifest.json, outputs.zip)")
    install(session, "docs")
    session.run("python", "-m", "learnjax_site.execution.outputs", "keep", *session.posargs, env=SITE_ENV)
    session.run("python", "-m", "learnjax_site.commands.build", env=SITE_ENV)
    session.run("python", "-m", "learnjax_site.commands.record", "--out", str(ROOT / "reports" / "gpu"), env=SITE_ENV)
    session.run("python", "-m", "learnjax_site.commands.gpu_table", env=SITE_ENV)


@session(name="gpu-dryrun")
def gpu_dryrun(session: nox.Session) -> None:
    """The GPU run on this CPU, exactly as it runs there; then the import and a render that executes nothing.

    nox -s gpu-dryrun [-- --pages a/b c/d] [-- --budget SECONDS]

    A venv holding the GPU machine's packages (the gpu-image group, jax 0.11.2 for the CPU) stands for its
    image; the tree is copied as the machine receives it (what git tracks or does not ignore, and .gpu-run/);
    bash .ci/gpu-run runs there with a scratch results folder. The results are checked against what comes
    back from the machine, kept in a scratch folder (not reports/gpu) and rendered into docs/_build, where
    the pages not run here come from this machine's earlier build. Writes docs/_build/gpu-dryrun/summary.json.
    """
    parser = argparse.ArgumentParser(prog="nox -s gpu-dryrun --")
    parser.add_argument("--pages", nargs="+", help="only these pages (CI runs a few; default: every page)")
    parser.add_argument("--budget", type=float, default=500, help="the run's budget in seconds (default 500)")
    args = parser.parse_args(session.posargs)
    install(session, "docs")
    shutil.rmtree(DRYRUN, ignore_errors=True)
    DRYRUN.mkdir(parents=True)
    timings = {}
    started = time.perf_counter()
    gpu_prepare_carry(session)
    timings["prepare"] = time.perf_counter() - started
    tree, results, kept = DRYRUN / "tree", DRYRUN / "results", DRYRUN / "kept"
    gpu_run = load_gpu_run()
    carried_files = gpu_run.carried_files(ROOT, CARRY)
    carried = gpu_run.carried_bytes(carried_files)
    if carried > gpu_run.CARRY_LIMIT:
        session.error(f"the GPU machine would receive {carried / 2**20:.2f} MiB, over its 64 MiB: carry less")
    gpu_run.copy_carried(carried_files, tree, ROOT)  # as the machine receives it
    # the image: a venv of its own with the gpu-image group only, as the machine's python3
    image = DRYRUN / "image"
    session.run(PYTHON, "-m", "venv", str(image), external=True)
    session.run(str(image / "bin" / "python"), "-m", "pip", "install", "--quiet", "--require-hashes",
                "-r", str(locked_requirements(session, "gpu-image")), external=True)
    results.mkdir()
    command = ["bash", ".ci/gpu-run", "--budget", str(args.budget), *(["--pages", *args.pages] if args.pages else [])]
    started = time.perf_counter()
    status = subprocess.run(command, cwd=tree, env={**os.environ, "OUT": str(results),
                                                    "PYTHON": str(image / "bin" / "python")}).returncode
    timings["run"] = time.perf_counter() - started
    session.run("python", "-m", "learnjax_site.commands.gpu_run", "results", str(results), env=SITE_ENV)
    manifest = json.loads((results / "manifest.json").read_text(encoding="utf8"))
    by_status = {state: sorted(p for p, e in manifest["pages"].items() if e["status"] == state)
                 for state in ("ok", "failed", "left")}
    started = time.perf_counter()
    session.run("python", "-m", "learnjax_site.execution.outputs", "keep", str(results), "--kept", str(kept),
                "--allow-backend", "cpu", env=SITE_ENV)
    session.run("python", "-m", "learnjax_site.commands.build", "--kept", str(kept), env=SITE_ENV)
    timings["import_and_render"] = time.perf_counter() - started
    rendered = json.loads((ROOT / "docs" / "_build" / "outputs.json").read_text(encoding="utf8"))["pages"]
    files = sorted(path for path in results.rglob("*") if path.is_file())
    summary = {
        "carried_bytes": carried, "result_files": [p.relative_to(results).as_posix() for p in files],
        "largest_result_bytes": max(p.stat().st_size for p in files), "pages_ok": len(by_status["ok"]),
        "pages_failed": by_status["failed"], "pages_left": by_status["left"],
        "render_executions": sum(page["outputs"] == "executed" for page in rendered.values()),
        "render_from_dryrun": sum(page["outputs"] == "kept" for page in rendered.values()),
        "run_exit_status": status, "seconds": {step: round(s, 1) for step, s in timings.items()},
    }
    (DRYRUN / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf8")
    session.log(json.dumps(summary))
    if summary["pages_failed"] or summary["pages_left"] or summary["render_executions"] or status != 0:
        session.error(f"the dry run is not clean: {DRYRUN / 'summary.json'}")


@session()
def lint(session: nox.Session) -> None:
    """ruff check over the Python code."""
    install(session, "lint")
    session.run("ruff", "check", ".")
