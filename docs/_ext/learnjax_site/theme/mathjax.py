"""The site's own MathJax: pages load it from their build's ``_static/mathjax/``, not from a CDN.

Sphinx loads MathJax from jsDelivr by default, at a floating major version: the one request a page
made to another host, formulas shown as raw TeX offline, and a MathJax that changed with no commit
(Sphinx 9 moved it from 3 to 4). Here MathJax comes from the ``django-static-mathjax`` package
(MathJax 3.2.2's distribution as it is published, and nothing of Django), which pyproject.toml's docs
group pins and the lock hashes: its version changes only with a commit, and nothing leaves the site.

Each build copies what a page needs, in MathJax's own layout so that it finds its parts next to
itself: the ``tex-mml-chtml.js`` component, the TeX extensions it loads when a formula uses one
(``\\boldsymbol``, ``\\cancel``, ...), the fonts of its CHTML output, and MathJax's licence.

MyST's MathJax options (process only the math Sphinx wrote, not every ``$`` on a page) land in
``mathjax4_config`` under Sphinx 9; Sphinx writes them as ``window.MathJax = {...}``, which
MathJax 3 reads the same way.
"""

from __future__ import annotations

import importlib.metadata
import shutil
from pathlib import Path

from sphinx.application import Sphinx

from ..core.errors import LessonError, stops_build

DISTRIBUTION = "django-static-mathjax"
"""The package that holds MathJax's files (pinned in pyproject.toml's docs group)."""

IN_PACKAGE = "mathjax/static/mathjax"
"""Where MathJax's distribution lies inside that package (``LICENSE``, ``es5/``)."""

COMPONENT = "tex-mml-chtml.js"
"""The MathJax component pages load: TeX and MathML input, HTML (CHTML) output."""

PARTS = ("LICENSE", f"es5/{COMPONENT}", "es5/input/tex/extensions", "es5/output/chtml/fonts/woff-v2")
"""What a build copies, as paths in MathJax's distribution; files of ``es5/`` go to ``_static/mathjax/``."""


def target_of(part: str) -> str:
    """Where ``part`` of MathJax's distribution goes under ``_static/mathjax/``.

    >>> target_of("es5/tex-mml-chtml.js"), target_of("es5/output/chtml/fonts/woff-v2"), target_of("LICENSE")
    ('tex-mml-chtml.js', 'output/chtml/fonts/woff-v2', 'LICENSE')
    """
    return part.removeprefix("es5/")


def distribution_root() -> Path:
    """MathJax's distribution in the installed package, found without importing anything of it."""
    fix = f"install {DISTRIBUTION}, pinned in pyproject.toml's docs group (nox -s docs installs that group)"
    try:
        root = Path(importlib.metadata.distribution(DISTRIBUTION).locate_file(IN_PACKAGE))
    except importlib.metadata.PackageNotFoundError:
        raise LessonError("MathJax", f"{DISTRIBUTION} is not installed, and the site serves MathJax itself",
                          fix) from None
    missing = [part for part in PARTS if not (root / part).exists()]
    if missing:
        raise LessonError("MathJax", f"{DISTRIBUTION} at {root} lacks {', '.join(missing)}", fix)
    return root


@stops_build
def copy_mathjax(app: Sphinx) -> None:
    """Copy MathJax into the build's ``_static/mathjax/`` (before pages are written: Sphinx then adds
    the file's checksum to its URL, so a reader's browser never keeps an old MathJax)."""
    if app.builder.format != "html":
        return
    root = distribution_root()
    static = Path(app.outdir) / "_static" / "mathjax"
    for part in PARTS:
        source, target = root / part, static / target_of(part)
        if source.is_dir():
            shutil.copytree(source, target, dirs_exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
