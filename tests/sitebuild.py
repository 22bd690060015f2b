"""Run the site's build driver on a fixture, as ``nox -s docs`` runs it on docs/."""

from __future__ import annotations

import html as html_module
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"


def missing(message: str, ci_note: str = "") -> None:
    """Skip a test whose input this machine lacks; fail it under CI, which must have it."""
    if os.environ.get("CI"):
        pytest.fail(message + ci_note)
    pytest.skip(message)


NO_SITE = "no lesson notebooks in docs/_build/html: run nox -s docs first"
NO_SITE_IN_CI = " (CI builds the site before the tests)"


def copy_fixture(name: str, destination: Path) -> Path:
    """Copy a fixture's pages to ``destination`` (so tests may edit them) and return it."""
    shutil.copytree(FIXTURES / name, destination)
    return destination


def build(source: Path, out: Path, *languages: str, env: dict | None = None,
          kept: Path | None = None) -> subprocess.CompletedProcess:
    """Build ``source`` into ``out`` (with kept GPU outputs from ``kept``); returns the finished process,
    output in ``.stdout``."""
    command = [sys.executable, "-m", "learnjax_site.commands.build", "--source", str(source), "--out", str(out)]
    if kept:
        command += ["--kept", str(kept)]
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
    from learnjax_site.web.site_url import base_url

    base = base_url()
    target = site["html"] / href.removeprefix(base) if href.startswith(base) else on_page.parent / href
    return (target / "index.html" if href.endswith("/") else target).resolve()


def page(site: dict, language: str, name: str):
    """The built page ``name`` of ``language`` in a built site (the ``site`` fixture), parsed."""
    from bs4 import BeautifulSoup

    return BeautifulSoup((site["html"] / language / f"{name}.html").read_text(encoding="utf8"), "html.parser")


# --- what a built site must not name: the machine that built it ---------------------------------

BUILT_TEXT = (".html", ".ipynb", ".json", ".js", ".txt")
_MARKUP = re.compile(r"<[^>]*>")
_ANSI = re.compile(r"(?:\x1b|\\u001b|\\x1b)\[[0-9;?]*[A-Za-z]")
_CELL_FILE = re.compile(r"ipykernel_\d+")  # the kernel's folder of cell files, in the temp folder


def machine_folders(*folders: Path | str) -> list[str]:
    """The folders a built file must not name: ``folders`` (the repository, the build folder), this
    interpreter's prefixes and the home folder, each as given, resolved and as IPython writes it
    under the home folder (``~/...``)."""
    home = Path.home()
    found = set()
    for folder in [*folders, sys.prefix, sys.base_prefix, home]:
        for path in (Path(folder), Path(folder).resolve()):
            if str(path) not in ("/", ""):
                found.add(str(path))
                if path != home and path.is_relative_to(home):
                    found.add("~/" + path.relative_to(home).as_posix())
    return sorted(found, key=len, reverse=True)


def machine_leaks(html: Path, folders: list[str]) -> list[str]:
    """``file: line`` for the first line of each built text file under ``html`` that names one of
    ``folders`` or one of ipykernel's cell files (``/tmp/ipykernel_1234/...``).

    A line is read as a reader sees it: without HTML tags (highlighting splits a path into spans),
    entities decoded, ANSI colour codes removed (raw or JSON-escaped, as in notebooks).
    """
    needle = re.compile("|".join([rf"(?<![\w.~-]){re.escape(f)}(?![\w.-])" for f in folders]
                                 + [_CELL_FILE.pattern]))
    leaks = []
    for path in sorted(p for p in html.rglob("*") if p.suffix in BUILT_TEXT and p.is_file()):
        for line in path.read_text(encoding="utf8", errors="replace").splitlines():
            seen = _ANSI.sub("", line)
            if path.suffix == ".html":
                seen = html_module.unescape(_MARKUP.sub("", seen))
            found = needle.search(seen)
            if found:
                excerpt = seen[max(found.start() - 80, 0):found.end() + 80].strip()
                leaks.append(f"{path.relative_to(html)}: …{excerpt}…")
                break
    return leaks
