"""Sessions: ``nox -s docs``, ``docs-live``, ``tests``, ``lint``. See README.md."""

from __future__ import annotations

import os
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


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check over the Python code."""
    install(session, "lint")
    session.run("ruff", "check", ".")
