"""What publishing needs from a finished build, beside the site: the record and the notebooks for Colab.

    python -m learnjax_site.commands.publish [--build docs/_build] [--out docs/_build/publish]

``nox -s publish`` runs it after building both languages, on CI's CPU and on the GPU runner alike,
so a broken publishing step fails CI first. It writes, under ``--out``:

* ``record/<device kind>-<date>.json``: the record of the build (``learnjax_site.commands.record``); when the
  build was told to require an accelerator (``LEARNJAX_REQUIRE_ACCELERATOR=1``), every page must have
  run on the GPU, or this stops;
* ``colab/<lang>/<page>.ipynb``: each lesson's notebook per language, the tree that the publishing
  workflow pushes to the Colab branch (``LEARNJAX_COLAB_BRANCH``). Only ``.ipynb`` files are taken,
  and a dotfile anywhere in the notebooks' folders stops it: nothing else may reach that branch.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from ..core import paths
from ..core.languages import LANGUAGES
from ..execution import kernel
from . import record

DEFAULT_BUILD = paths.BUILD


def notebooks_tree(html: Path, out: Path) -> list[Path]:
    """Copy ``html/<lang>/_notebooks/**/*.ipynb`` to ``out/<lang>/**``; return the files written.

    >>> import tempfile
    >>> html, out = Path(tempfile.mkdtemp()), Path(tempfile.mkdtemp()) / "colab"
    >>> for lang in LANGUAGES:
    ...     (html / lang / "_notebooks" / "jit").mkdir(parents=True)
    ...     _ = (html / lang / "_notebooks" / "jit" / "timing.ipynb").write_text("{}")
    >>> [path.relative_to(out).as_posix() for path in notebooks_tree(html, out)]
    ['en/jit/timing.ipynb', 'ko/jit/timing.ipynb']
    >>> _ = (html / "ko" / "_notebooks" / ".git").mkdir()
    >>> notebooks_tree(html, out)
    Traceback (most recent call last):
    ...
    ValueError: ko/_notebooks/.git: a dotfile among the notebooks; the Colab branch takes only .ipynb files
    """
    folders = {language: html / language / "_notebooks" for language in LANGUAGES}
    for language, folder in folders.items():
        if not folder.is_dir():
            raise ValueError(f"{folder}: no notebooks for {language}; build the site first (nox -s docs)")
        dotfiles = sorted(folder.rglob(".*"))
        if dotfiles:
            raise ValueError(f"{dotfiles[0].relative_to(html).as_posix()}: a dotfile among the notebooks; "
                             "the Colab branch takes only .ipynb files")
    if out.exists():
        shutil.rmtree(out)
    written = []
    for language, folder in sorted(folders.items()):
        for notebook in sorted(folder.rglob("*.ipynb")):
            target = out / language / notebook.relative_to(folder)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(notebook, target)
            written.append(target)
    if not written:
        raise ValueError(f"{html}: the build wrote no notebooks")
    return written


def main(argv: list[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", type=Path, default=DEFAULT_BUILD, help="the build folder (default: docs/_build)")
    parser.add_argument("--out", type=Path, help="where to write record/ and colab/ (default: BUILD/publish)")
    args = parser.parse_args(argv)
    out = args.out or args.build / "publish"
    require_gpu = kernel.accelerator_required()  # the build's own reading: 1, true or yes
    record.main(["--build", str(args.build), "--out", str(out / "record"),
                 *(["--require-backend", "gpu"] if require_gpu else [])])
    try:
        notebooks = notebooks_tree(args.build / "html", out / "colab")
    except ValueError as error:
        sys.exit(f"publish: {error}")
    print(f"{len(notebooks)} notebooks laid out for the Colab branch in {out / 'colab'}")
    return out


if __name__ == "__main__":
    main()
