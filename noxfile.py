"""Sessions: ``nox -s docs``, ``docs-live``, ``tests``, ``lint``, ``browser``, ``lighthouse``, ``publish``,
``lock``, ``wheelhouse``. See README.md.

Every session installs its dependency group from the lock: ``requirements/<group>.txt``, exported
with hashes from ``uv.lock`` by ``nox -s lock`` and installed with pip's hash checking. A session
stops, naming ``nox -s lock``, when pyproject.toml's groups changed since the lock was made.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import nox

nox.options.sessions = ["docs", "tests", "lint"]
nox.options.default_venv_backend = "venv"

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
    if group == "docs" and os.environ.get("LEARNJAX_GPU") == "1":
        group = "gpu"
    session.install("--require-hashes", "-r", str(locked_requirements(session, group)))


@nox.session
def docs(session: nox.Session) -> None:
    """Build the site in both languages into docs/_build/html (extra args go to sphinx-build)."""
    install(session, "docs")
    session.run("python", "-m", "learnjax_site.build", *session.posargs, env=SITE_ENV)


@nox.session
def publish(session: nox.Session) -> None:
    """What the publishing workflow runs: both languages, the record, the notebooks for Colab.

    Builds the site into docs/_build/html (extra args go to sphinx-build), then writes
    docs/_build/publish/record/ and docs/_build/publish/colab/<lang>/ (learnjax_site.publish).
    With LEARNJAX_REQUIRE_ACCELERATOR=1 (the GPU runner) a page that ran on the CPU stops it;
    CI runs it without, on the CPU, so a broken publishing step fails CI first.
    """
    install(session, "docs")
    session.run("python", "-m", "learnjax_site.build", *session.posargs, env=SITE_ENV)
    session.run("python", "-m", "learnjax_site.publish", env=SITE_ENV)


@nox.session(name="docs-live")
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


@nox.session
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


@nox.session
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


@nox.session
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

# What the GPU machines' image already has among what the docs group needs (README: "Building on a
# GPU machine without network"; the image's list: the device tool's KINDS.md). The wheelhouse leaves
# these out, so a GPU build keeps the image's own JAX (built for its CUDA), NumPy and matplotlib, and
# the wheels fit the 64 MiB a device run carries; pip on the GPU machine checks that they fit.
GPU_IMAGE_HAS = ("jax", "jaxlib", "numpy", "scipy", "ml-dtypes", "opt-einsum", "matplotlib", "contourpy",
                 "cycler", "fonttools", "kiwisolver", "pillow", "pyparsing", "python-dateutil",
                 # leaves many packages need, with wide ranges: any recent version fits
                 "attrs", "certifi", "charset-normalizer", "click", "colorama", "idna", "jinja2", "markupsafe",
                 "packaging", "psutil", "pygments", "pyyaml", "requests", "tabulate", "typing-extensions",
                 "urllib3", "zipp",
                 # what part 4's flax and scikit-learn bring, large wheels the image has (KINDS.md): the
                 # wheelhouse must fit the device tool's 64 MiB carry; flax and optax themselves come from
                 # the lock, so that the GPU build runs the versions the lock pins
                 "scikit-learn", "joblib", "threadpoolctl", "tensorstore", "orbax-checkpoint", "absl-py", "etils",
                 "protobuf", "humanize", "msgpack", "rich", "treescope", "simplejson", "fsspec", "uvloop",
                 "aiofiles", "cloudpickle")
MANYLINUX_X86_64 = [f"manylinux_2_{n}_x86_64" for n in range(39, 16, -1)] + ["manylinux2014_x86_64"]


def distribution_name(requirement_or_wheel: str) -> str:
    """The normalised project name of a requirement ("ml_dtypes>=0.5") or a wheel's file name."""
    return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._]+", requirement_or_wheel).group()).lower()


def for_target(requirements: str, python_version: str) -> str:
    """Only the entries of an exported requirements file whose markers hold on a Linux x86_64 CPython.

    pip download evaluates markers for the Python that runs it, not the one it downloads for; each
    entry is a requirement line (with `` ; marker``) and the indented ``--hash`` lines under it.
    """
    from packaging.markers import Marker

    full_version = python_version if python_version.count(".") == 2 else f"{python_version}.0"
    environment = {"python_version": ".".join(full_version.split(".")[:2]), "python_full_version": full_version,
                   "sys_platform": "linux", "platform_system": "Linux", "platform_machine": "x86_64",
                   "os_name": "posix", "implementation_name": "cpython", "platform_python_implementation": "CPython"}
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


@nox.session
def lock(session: nox.Session) -> None:
    """Make the lock from pyproject.toml's groups: uv.lock, and requirements/<group>.txt with hashes.

    nox -s lock                 re-resolve what pyproject.toml changed, keep every other pin
    nox -s lock -- --upgrade    re-resolve everything to the newest versions the ranges allow
    nox -s lock -- --check      change nothing; fail, naming this session, if the lock is stale (CI)
    """
    parser = argparse.ArgumentParser(prog="nox -s lock --")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="fail if uv.lock or requirements/ is out of date")
    mode.add_argument("--upgrade", action="store_true", help="newest versions the ranges allow")
    args = parser.parse_args(session.posargs)
    # uv from the lock as it stands (its fingerprint may be stale: that is why this session runs)
    lock_txt = REQUIREMENTS / "lock.txt"
    session.install(*(["--require-hashes", "-r", str(lock_txt)] if lock_txt.is_file() else ["uv"]))
    if args.check:
        with tempfile.TemporaryDirectory() as folder:
            try:
                session.run("uv", "lock", "--check")
                for group in LOCKED_GROUPS:
                    uv_export(session, group, Path(folder) / f"{group}.txt")
            except nox.command.CommandFailed:
                session.error("uv.lock does not fit pyproject.toml: run nox -s lock, "
                              "and commit uv.lock and requirements/.")
            stale = [group for group in LOCKED_GROUPS if not (REQUIREMENTS / f"{group}.txt").is_file()
                     or (REQUIREMENTS / f"{group}.txt").read_text(encoding="utf8")
                     != (Path(folder) / f"{group}.txt").read_text(encoding="utf8")]
        if stale:
            session.error(f"requirements/ is not what uv.lock exports ({', '.join(stale)}): run nox -s lock, "
                          "and commit uv.lock and requirements/.")
        session.log(f"uv.lock and requirements/ fit pyproject.toml ({len(LOCKED_GROUPS)} groups)")
        return
    session.run("uv", "lock", *(["--upgrade"] if args.upgrade else []))
    REQUIREMENTS.mkdir(exist_ok=True)
    for stale in set(REQUIREMENTS.glob("*.txt")) - {REQUIREMENTS / f"{group}.txt" for group in LOCKED_GROUPS}:
        stale.unlink()
    for group in LOCKED_GROUPS:
        uv_export(session, group, REQUIREMENTS / f"{group}.txt")
    sizes = [f"{group}.txt {(REQUIREMENTS / f'{group}.txt').stat().st_size / 1024:.0f} KiB" for group in LOCKED_GROUPS]
    session.log(f"uv.lock: {(ROOT / 'uv.lock').stat().st_size / 1024:.0f} KiB; requirements/: {', '.join(sizes)}")


@nox.session
def wheelhouse(session: nox.Session) -> None:
    """Download, on a machine with network, the wheels an offline GPU machine with JAX needs.

    nox -s wheelhouse -- [--dest wheelhouse] [--python-version 3.12] [--group docs] [--platform TAG ...]

    Writes DEST/requirements.txt (the group from the lock, with hashes, less what the GPU image has:
    GPU_IMAGE_HAS) and the wheels it names. On the GPU machine (no nox needed): bash .ci/gpu-build DEST.
    """
    parser = argparse.ArgumentParser(prog="nox -s wheelhouse --")
    parser.add_argument("--dest", type=Path, default=ROOT / "wheelhouse")
    parser.add_argument("--python-version", default="3.12", help="the GPU machine's Python (default: 3.12)")
    parser.add_argument("--group", default="docs", help="dependency group (default: docs; test adds pytest, bs4)")
    parser.add_argument("--platform", action="append", help=f"wheel platform tags (default: {MANYLINUX_X86_64[-1]} "
                        "and every manylinux_2_N_x86_64 up to N = 39)")
    args = parser.parse_args(session.posargs)
    install(session, "lock")
    locked_requirements(session, args.group)  # stops if the lock is stale
    if args.dest.exists():
        shutil.rmtree(args.dest)
    args.dest.mkdir(parents=True)
    requirements = args.dest / "requirements.txt"
    uv_export(session, args.group, requirements, *(f"--no-emit-package={name}" for name in GPU_IMAGE_HAS))
    requirements.write_text(for_target(requirements.read_text(encoding="utf8"), args.python_version), encoding="utf8")
    platforms = [option for tag in args.platform or MANYLINUX_X86_64 for option in ("--platform", tag)]
    session.run("python", "-m", "pip", "download", "--dest", str(args.dest), "--only-binary=:all:", "--no-deps",
                "--require-hashes", "--implementation", "cp", "--python-version", args.python_version, *platforms,
                "-r", str(requirements))
    wheels = sorted(args.dest.glob("*.whl"))
    session.log(f"{len(wheels)} wheels, {sum(w.stat().st_size for w in wheels) / 2**20:.1f} MiB, in {args.dest}")


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check over the Python code."""
    install(session, "lint")
    session.run("ruff", "check", ".")
