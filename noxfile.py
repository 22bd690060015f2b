"""Sessions: ``nox -s docs``, ``docs-live``, ``tests``, ``lint``, ``browser``. See README.md."""

from __future__ import annotations

import os
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


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check over the Python code."""
    install(session, "lint")
    session.run("ruff", "check", ".")
