"""Plots in the reader's language: each language's figure on its own page, light to load, tap to enlarge.

A lesson's program draws each plot twice from one measurement (``examples/plotting.py``), a hidden
cell glues both (``glue("x_ko", Image("x.ko.png"), display=False)`` and ``x_en``), and each
language's cell shows its own with ``{glue:figure} x_ko`` (or ``x_en``) and an ``:alt:`` text that
says what the plot shows. This module

* refuses, at ``source-read``, a figure shown in the wrong language's cell (a Korean cell showing
  ``x_en``) and a figure one language shows and the other does not, naming the file and line;
* gives every image on a page ``loading="lazy"`` and its width and height in pixels (nothing shifts
  while it loads); with a size set, Sphinx wraps it in a link to the image file, so a tap or Enter
  opens the plot full size (``html_scaled_image_link``). ``learnjax-figures.css`` scales it to the
  column.
"""

from __future__ import annotations

import re
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.images import get_image_size

from ..core.errors import lesson_error, stops_build
from ..core.languages import LANGUAGES, NAMES_IN_ENGLISH
from .cells import Notebook
from .page import current

_FIGURE = re.compile(r"^\s*(`{3,}|:{3,})\{glue:figure\}\s+(\S+)")


def figures(text: str, notebook: Notebook) -> list[tuple[str, str, int]]:
    """``(language, glued name, 0-based line)`` of every ``{glue:figure}`` in a language cell.

    >>> from learnjax_site.source.cells import split_notebook
    >>> text = '+++ {"lang": "ko"}\\n\\n```{glue:figure} plot_ko\\n:alt: 그래프\\n```\\n'
    >>> figures(text, split_notebook(text))
    [('ko', 'plot_ko', 2)]
    """
    lines = text.split("\n")
    found = []
    for cell in notebook.cells:
        if cell.lang is None:
            continue
        for index in range(cell.start, min(cell.end, len(lines))):
            match = _FIGURE.match(lines[index])
            if match:
                found.append((cell.lang, match.group(2), index))
    return found


def check_figures(text: str, notebook: Notebook, path: str) -> None:
    """Raise LessonError unless every figure is shown in its own language's cell (``x_ko`` in a
    Korean cell, ``x_en`` in an English one) and each has its other language's twin on the page.

    >>> from learnjax_site.source.cells import split_notebook
    >>> text = ('+++ {"lang": "ko"}\\n\\n```{glue:figure} plot_ko\\n```\\n\\n'
    ...         '+++ {"lang": "en"}\\n\\n```{glue:figure} plot_en\\n```\\n')
    >>> check_figures(text, split_notebook(text), "page.md")
    """
    shown = figures(text, notebook)
    names = {name for _, name, _ in shown}
    for language, name, line in shown:
        if not name.endswith(f"_{language}"):
            raise lesson_error(path, line + 1, f"a {NAMES_IN_ENGLISH[language]} cell shows the figure {name!r}, "
                               f"whose name does not end in _{language}: its page would show another language's plot",
                               f"glue each language's plot under a name ending in _ko or _en and show "
                               f"the _{language} one here")
        stem = name[:-len(language) - 1]
        for other in LANGUAGES:
            if other != language and f"{stem}_{other}" not in names:
                raise lesson_error(path, line + 1, f"the {NAMES_IN_ENGLISH[language]} cells show the figure {name!r}, "
                                   f"but no {NAMES_IN_ENGLISH[other]} cell shows {stem}_{other}: the {other} page and "
                                   "notebook would lack this plot",
                                   f"draw the plot in both languages, glue {stem}_{other} and show it with "
                                   f"{{glue:figure}} in the {NAMES_IN_ENGLISH[other]} cell beside this one")


@stops_build
def on_source_read(app: Sphinx, docname: str, source: list[str]) -> None:
    page = current(app.env)
    if page.notebook is not None:
        check_figures(page.text, page.notebook, page.path)


class LazySizedImages(SphinxPostTransform):
    """Every raster image: ``loading="lazy"`` and its size in pixels, read from the file (which
    also makes Sphinx link it to itself, full size)."""

    default_priority = 900
    formats = ("html",)

    def run(self, **kwargs) -> None:
        for image in self.document.findall(nodes.image):
            image.setdefault("loading", "lazy")
            if "width" in image or "height" in image or "scale" in image:
                continue
            source = image.get("candidates", {}).get("*") or image["uri"]
            size = get_image_size(Path(self.env.srcdir) / source)
            if size is not None:
                image["width"], image["height"] = str(size[0]), str(size[1])
                image["classes"].append("learnjax-figure-image")


def setup(app: Sphinx) -> dict:
    app.add_post_transform(LazySizedImages)
    app.add_css_file("learnjax-figures.css")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
