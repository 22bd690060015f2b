"""Run the site's build driver on a fixture, as ``nox -s docs`` runs it on docs/."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"


def copy_fixture(name: str, destination: Path) -> Path:
    """Copy a fixture's pages to ``destination`` (so tests may edit them) and return it."""
    shutil.copytree(FIXTURES / name, destination)
    return destination


def build(source: Path, out: Path, *languages: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """Build ``source`` into ``out``; returns the finished process, output in ``.stdout``."""
    command = [sys.executable, "-m", "learnjax_site.build", "--source", str(source), "--out", str(out)]
    if languages:
        command += ["--lang", *languages]
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "docs" / "_ext"), **(env or {})}
    environment.pop("JAX_PLATFORMS", None)  # the kernel sees what a contributor's build sees
    return subprocess.run(command, capture_output=True, text=True, env=environment,
                          stdin=subprocess.DEVNULL, timeout=900)


def built_file(site: dict, href: str, on_page: Path) -> Path:
    """The file of a built site (the ``site`` fixture) that ``href``, a link on ``on_page``, leads to.

    Links are relative, or absolute under the public base URL (``LEARNJAX_BASE_URL`` or its default),
    which stands for the site's ``html/`` folder; a link to a folder means its ``index.html``.
    """
    from learnjax_site.site_url import base_url

    base = base_url()
    target = site["html"] / href.removeprefix(base) if href.startswith(base) else on_page.parent / href
    return (target / "index.html" if href.endswith("/") else target).resolve()


def page(site: dict, language: str, name: str):
    """The built page ``name`` of ``language`` in a built site (the ``site`` fixture), parsed."""
    from bs4 import BeautifulSoup

    return BeautifulSoup((site["html"] / language / f"{name}.html").read_text(encoding="utf8"), "html.parser")
