"""The site's own stylesheets as one file: every ``docs/_static/learnjax*.css`` in ``_static/learnjax-site.css``.

Each concern keeps its styles in a file of its own (``learnjax-<topic>.css``) and may register it the
usual way (``app.add_css_file`` or ``html_css_files``); a page still loads a single stylesheet of the
site's, one request instead of one per file. A new ``docs/_static/learnjax-<topic>.css`` needs nothing
more than to exist: it is found by its name. The files are joined in name order with ``learnjax.css``,
the site's base, last (where ``html_css_files`` put it: after the extensions' files), each headed
by a comment naming it, and the bundle is linked after every other stylesheet.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx

BUNDLE = "learnjax-site.css"
BASE = "learnjax.css"


def sources(static: Path) -> list[Path]:
    """The stylesheets the bundle is made of: ``learnjax*.css`` in ``static``, ``learnjax.css`` last.

    >>> import tempfile
    >>> static = Path(tempfile.mkdtemp())
    >>> for name in ("learnjax.css", "learnjax-progress.css", "learnjax-catalog.css", "other.css", BUNDLE):
    ...     _ = (static / name).write_text("")
    >>> [path.name for path in sources(static)]
    ['learnjax-catalog.css', 'learnjax-progress.css', 'learnjax.css']
    """
    found = [path for path in static.glob("learnjax*.css") if path.name != BUNDLE]
    return sorted(found, key=lambda path: (path.name == BASE, path.name))


def bundle(files: list[Path]) -> str:
    """The files' text, joined, each after a comment with its name.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "learnjax-a.css").write_text(".a { color: red; }\\n")
    >>> print(bundle([folder / "learnjax-a.css"]))
    /* learnjax-a.css */
    .a { color: red; }
    <BLANKLINE>
    """
    return "".join(f"/* {path.name} */\n{path.read_text(encoding='utf8').rstrip()}\n" for path in files)


def static_folder(app: Sphinx) -> Path:
    return Path(app.confdir) / "_static"


def on_builder_inited(app: Sphinx) -> None:
    """Write the bundle into the output's ``_static`` now, so pages link it with its checksum."""
    if app.builder.format != "html":
        return
    out = Path(app.outdir) / "_static"
    out.mkdir(parents=True, exist_ok=True)
    (out / BUNDLE).write_text(bundle(sources(static_folder(app))), encoding="utf8")


def on_html_page_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Drop the bundled files from the page's stylesheets (the bundle, added at setup, stays)."""
    bundled = {path.name for path in sources(static_folder(app))}
    if "css_files" in context:
        context["css_files"] = [css for css in context["css_files"] if Path(str(css.filename)).name not in bundled]


def setup(app: Sphinx) -> dict:
    app.add_css_file(BUNDLE, priority=900)  # after the theme's, the extensions' and html_css_files (800)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
