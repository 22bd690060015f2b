"""Sessions: ``nox -s docs``, ``docs-live``, ``tests``, ``lint``, ``browser``. See README.md."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
from pathlib import Path

import nox

nox.options.sessions = ["docs", "tests", "lint"]
nox.options.default_venv_backend = "venv"

ROOT = Path(__file__).parent
PYPROJECT = nox.project.load_toml(ROOT / "pyproject.toml")
SITE_ENV = {"PYTHONPATH": str(ROOT / "docs" / "_ext")}


def install(session: nox.Session, group: str) -> None:
    """Install a dependency group; LEARNJAX_JAX_PACKAGE (e.g. "jax[cuda13]") swaps in a GPU JAX."""
    session.install("--upgrade", "pip")
    session.install(*nox.project.dependency_groups(PYPROJECT, group))
    jax_package = os.environ.get("LEARNJAX_JAX_PACKAGE")
    if jax_package:
        session.install(jax_package)


@nox.session
def docs(session: nox.Session) -> None:
    """Build the site in both languages into docs/_build/html (extra args go to sphinx-build)."""
    install(session, "docs")
    session.run("python", "-m", "learnjax_site.build", *session.posargs, env=SITE_ENV)


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


@nox.session
def browser(session: nox.Session) -> None:
    """The built site in headless Chromium (tests/browser), after nox -s docs; screenshots in docs/_build/screenshots.

    Chromium and a Hangul font come from the system's packages (installed here when root), not from
    ``playwright install``, which downloads a browser of its own: CI reaches package registries only.
    """
    site = Path(os.environ.get("LEARNJAX_SITE") or ROOT / "docs" / "_build" / "html")
    if not all((site / language / "index.html").is_file() for language in ("ko", "en")):
        session.error(f"No built site in {site}: run nox -s docs first.")
    missing = missing_browser_packages(Path(os.environ.get("LEARNJAX_CHROMIUM", "/usr/bin/chromium")))
    if missing:
        if os.geteuid() != 0:
            session.error(f"The browser tests need {' and '.join(missing)}: install them "
                          f"(Debian/Ubuntu: sudo apt-get install --no-install-recommends {' '.join(missing)}), "
                          "or point LEARNJAX_CHROMIUM at a Chromium or Chrome binary.")
        apt = {"DEBIAN_FRONTEND": "noninteractive"}
        session.run("apt-get", "update", external=True, env=apt)
        session.run("apt-get", "install", "-y", "--no-install-recommends", *missing, external=True, env=apt)
    session.install("--upgrade", "pip")
    session.install(*nox.project.dependency_groups(PYPROJECT, "browser"))
    # --confcutdir: the browser tests need neither JAX nor the doctest names of the top conftest.py
    session.run("pytest", "tests/browser", "--confcutdir", "tests/browser", *session.posargs)


# What the GPU machines' image already has among what the docs group needs (README: "Building on a
# GPU machine without network"). The wheelhouse leaves these out, so a GPU build keeps the image's own
# JAX (built for its CUDA), NumPy and matplotlib; pip on the GPU machine checks that they fit.
GPU_IMAGE_HAS = ("jax", "jaxlib", "numpy", "scipy", "ml-dtypes", "opt-einsum", "matplotlib", "contourpy",
                 "cycler", "fonttools", "kiwisolver", "pillow", "pyparsing", "python-dateutil")
MANYLINUX_X86_64 = [f"manylinux_2_{n}_x86_64" for n in range(39, 16, -1)] + ["manylinux2014_x86_64"]


def distribution_name(requirement_or_wheel: str) -> str:
    """The normalised project name of a requirement ("ml_dtypes>=0.5") or a wheel's file name."""
    return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._]+", requirement_or_wheel).group()).lower()


@nox.session
def wheelhouse(session: nox.Session) -> None:
    """Download, on a machine with network, the wheels an offline GPU machine with JAX needs.

    nox -s wheelhouse -- [--dest wheelhouse] [--python-version 3.12] [--group docs] [--platform TAG ...]

    Writes DEST/requirements.txt (the group, JAX included) and the wheels of everything it needs
    except GPU_IMAGE_HAS. On the GPU machine (no nox needed): bash .ci/gpu-build DEST.
    """
    parser = argparse.ArgumentParser(prog="nox -s wheelhouse --")
    parser.add_argument("--dest", type=Path, default=ROOT / "wheelhouse")
    parser.add_argument("--python-version", default="3.12", help="the GPU machine's Python (default: 3.12)")
    parser.add_argument("--group", default="docs", help="dependency group (default: docs; test adds pytest, bs4)")
    parser.add_argument("--platform", action="append", help=f"wheel platform tags (default: {MANYLINUX_X86_64[-1]} "
                        "and every manylinux_2_N_x86_64 up to N = 39)")
    args = parser.parse_args(session.posargs)
    requirements = nox.project.dependency_groups(PYPROJECT, args.group)
    args.dest.mkdir(parents=True, exist_ok=True)
    (args.dest / "requirements.txt").write_text("\n".join(requirements) + "\n", encoding="utf8")
    session.install("--upgrade", "pip")
    platforms = [option for tag in args.platform or MANYLINUX_X86_64 for option in ("--platform", tag)]
    session.run("python", "-m", "pip", "download", "--dest", str(args.dest), "--only-binary=:all:",
                "--implementation", "cp", "--python-version", args.python_version, *platforms,
                *(r for r in requirements if distribution_name(r) not in GPU_IMAGE_HAS))
    for wheel in args.dest.glob("*.whl"):
        if distribution_name(wheel.name) in GPU_IMAGE_HAS:  # pulled in by a package that needs it
            wheel.unlink()
    wheels = sorted(args.dest.glob("*.whl"))
    session.log(f"{len(wheels)} wheels, {sum(w.stat().st_size for w in wheels) / 2**20:.1f} MiB, in {args.dest}")


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check over the Python code."""
    install(session, "lint")
    session.run("ruff", "check", ".")
