"""Each lesson as a Jupyter notebook in the page's language, and links to it in the page's header.

After the build, every lesson gets ``_notebooks/<docname>.ipynb`` in this language's HTML folder:
what a reader downloads, and what Colab opens (from the branch ``pages.yml`` pushes them to). It
runs top to bottom in a fresh Colab, without this repository:

* a first cell says what the lesson is and where its outputs were made (the provenance line);
* this language's markdown, as plain Markdown (``markdown``); the other language's cells
  were never in it;
* every shown code cell with the outputs the build made (``execution_count`` kept), taken from
  myst-nb's execution cache: myst-nb's own ``jupyter_execute`` copy has outputs only for pages
  executed in this build, not for pages whose outputs came from the cache; the paths of the build
  machine in them are made relative as on the page (``portable_outputs``);
* no hidden (``remove-cell``) cell: those are site checks and need the lesson kit and ``myst_nb``;
  a shown cell that reads a name only a hidden cell defines stops the build (``hidden_cells``);
* where the page shows programs with ``{program-source}``, cells that install what the programs
  need beyond Colab's packages (``learnjax_program_requirements``), set ``LEARNJAX_LANGUAGE`` to the
  notebook's language (an exercise's check answers in it), make their folder, put it on ``sys.path``
  (a page's code imports ``check`` from ``check_<lesson>``, as the site's kernels can) and write each
  file with ``%%writefile``; the code's paths to them are rewritten to those files, which
  sit beside the notebook (``../../examples/x.py`` becomes ``examples/x.py``).

Lesson pages get two links in the article header: download (``a.learnjax-notebook-download``) and
Open in Colab (``a.learnjax-colab``), when the repository is on GitHub.
"""

from __future__ import annotations

import dataclasses
import posixpath
import re
import shutil
from pathlib import Path

import nbformat
from sphinx.application import Sphinx

from ..core.errors import lesson_error, stops_build
from ..core.pagedata import PageData
from ..core.texts import text
from ..execution import provenance
from ..execution.portable_outputs import page_outputs
from ..source import lessons, outcomes
from ..source import page as source_page
from . import hidden_cells
from . import markdown as notebook_markdown
from .markdown import Programs, escape

NOTEBOOKS_DIR = "_notebooks"
COLAB = "https://colab.research.google.com/github/{owner}/{repo}/blob/{branch}/{language}/{docname}.ipynb"
PROGRAM_TAG = "learnjax-program"  # a code cell that writes a program's file
LANGUAGE_VARIABLE = "LEARNJAX_LANGUAGE"  # examples/exercise_check.py reads it: the language its messages use


# --- addresses --------------------------------------------------------------------------------

def github_repository(url: str) -> tuple[str, str] | None:
    """``(owner, repo)`` of a GitHub repository URL, or None for any other host.

    >>> github_repository("https://github.com/learning-jax/learning-jax.git")
    ('learning-jax', 'learning-jax')
    >>> github_repository("https://gitlab.com/a/b") is None
    True
    """
    match = re.match(r"^https?://(?:www\.)?github\.com/([\w.-]+)/([\w.-]+?)(?:\.git)?/?$", url.strip())
    return (match.group(1), match.group(2)) if match else None


def colab_url(repository_url: str, branch: str, language: str, docname: str) -> str | None:
    """The Colab address of a lesson's notebook on the notebooks branch (None off GitHub).

    >>> colab_url("https://github.com/o/r", "notebooks", "ko", "jit/timing")
    'https://colab.research.google.com/github/o/r/blob/notebooks/ko/jit/timing.ipynb'
    """
    repository = github_repository(repository_url)
    if repository is None or not branch:
        return None
    return COLAB.format(owner=repository[0], repo=repository[1], branch=branch, language=language, docname=docname)


def notebook_href(pagename: str) -> str:
    """Relative link from a page to its notebook.

    >>> notebook_href("jit/timing")
    '../_notebooks/jit/timing.ipynb'
    """
    return "../" * pagename.count("/") + f"{NOTEBOOKS_DIR}/{pagename}.ipynb"


def page_link(target_uri: str, language: str, baseurl: str, notebook_of: str) -> str:
    """A page's address as seen from the notebook of ``notebook_of``: absolute when the site's
    URL is known (a downloaded notebook lives anywhere), else relative to the notebook's place.

    >>> page_link("origins/jax-numpy.html", "ko", "https://example.org/site/", "jit/timing")
    'https://example.org/site/ko/origins/jax-numpy.html'
    >>> page_link("origins/jax-numpy.html", "ko", "", "jit/timing")
    '../../origins/jax-numpy.html'
    """
    if baseurl:
        return f"{baseurl.rstrip('/')}/{language}/{target_uri}"
    return posixpath.relpath(target_uri, posixpath.dirname(f"{NOTEBOOKS_DIR}/{notebook_of}"))


def local_program_path(argument: str) -> str:
    """Where the notebook writes a program it carries: its path with the climb out of the page's
    folder removed, so the file sits beside the notebook.

    >>> local_program_path("../../examples/timing.py"), local_program_path("helper.py")
    ('examples/timing.py', 'helper.py')
    """
    parts = posixpath.normpath(argument).split("/")
    while parts and parts[0] == "..":
        parts.pop(0)
    return "/".join(parts)


# --- the notebook -----------------------------------------------------------------------------

@dataclasses.dataclass
class Lesson:
    """What a lesson's notebook says about the lesson, in one language."""

    docname: str
    title: str
    summary: str
    position: str | None  # "Part · Lesson 2 of 5"
    provenance: str
    url: str  # the page on the site, from the notebook


def _tags(cell) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def _cell_line(file_lines: list[str], marker: int, source: str) -> int:
    """1-based line in the file of a cell's first line (searching from its ``+++`` line)."""
    first = next((line for line in source.split("\n") if line.strip()), "")
    for index in range(max(marker - 1, 0), len(file_lines)):
        if file_lines[index] == first:
            return index + 1
    return marker


NOTEBOOKS = PageData("learnjax_notebooks")  # each lesson's cells, made while its page is read


class NotebookBuilder:
    """Turns the notebook myst-nb executed for a lesson (outputs merged) into the reader's notebook.

    ``path`` and ``file_lines`` are the lesson's source file and its lines (for messages);
    ``read_program(argument)`` returns the text of a program the page shows with {program-source};
    ``requirements`` are what those programs need beyond Colab's packages (pip requirement strings).
    """

    def __init__(self, executed, path: str, file_lines: list[str], page: notebook_markdown.Page, read_program,
                 requirements: list[str]):
        self.executed, self.path, self.page, self.read_program = executed, path, page, read_program
        self.language, self.requirements = page.language, requirements
        self.source_map = executed.metadata.get("source_map", [])
        self.file_lines = file_lines
        self.programs: dict[str, str] = {}  # argument as written -> path in the notebook

    def line(self, index: int, offset: int = 0, source: str = "") -> int:
        marker = self.source_map[index] if index < len(self.source_map) else 1
        return (_cell_line(self.file_lines, marker, source) if source else marker) + offset

    def markdown_blocks(self) -> dict[int, list]:
        for index, cell in enumerate(self.executed.cells):
            if cell.cell_type == "markdown":
                try:
                    self.page.outcomes.update({name: cases for name, cases, _ in outcomes.blocks(cell.source)})
                    self.page.labels.update({name: labels for name, labels, _ in
                                             outcomes.blocks(cell.source, "labels")})
                except outcomes.OutcomeError as error:
                    raise lesson_error(self.path, self.line(index, error.line, cell.source), error.problem,
                                       "write one '- OUTCOME: sentence' item per outcome") from None
        blocks = {}
        for index, cell in enumerate(self.executed.cells):
            if cell.cell_type != "markdown":
                continue
            try:
                blocks[index] = notebook_markdown.convert(self.page, cell.source)
            except notebook_markdown.MarkdownError as error:
                raise lesson_error(self.path, self.line(index, error.line, cell.source), error.problem,
                                   f"{error.fix} (the lesson's notebook is built from it)") from None
            for block in blocks[index]:
                if isinstance(block, Programs):
                    self.note_programs(index, block)
        return blocks

    def note_programs(self, index: int, block: Programs) -> None:
        for argument in block.paths:
            local = local_program_path(argument)
            clash = [a for a, p in self.programs.items() if p == local and a != argument]
            if clash:
                raise lesson_error(self.path, self.line(index), f"the programs {clash[0]} and {argument} "
                                   f"would both be written to {local} in the lesson's notebook",
                                   "give the programs different file names")
            self.programs[argument] = local

    def rewrite(self, code: str) -> str:
        """Point the code at the programs' files beside the notebook."""
        for argument in sorted(self.programs, key=len, reverse=True):
            code = code.replace(argument, self.programs[argument])
        return code

    def check_hidden_reads(self) -> None:
        """Stop the build at a shown cell that reads a name only a hidden cell defines (``hidden_cells``)."""
        code = [(i, c) for i, c in enumerate(self.executed.cells) if c.cell_type == "code"]
        for read in hidden_cells.hidden_reads([(c.source, "remove-cell" in _tags(c)) for _, c in code]):
            reader_index, reader = code[read.reader.cell]
            hidden_index, hidden = code[read.definition.cell]
            raise lesson_error(
                self.path, self.line(reader_index, read.reader.line - 1, reader.source),
                f"this shown code cell reads {read.name!r}, which only the hidden (remove-cell) cell at line "
                f"{self.line(hidden_index, read.definition.line - 1, hidden.source)} defines: the reader's notebook, "
                "which leaves hidden cells out, would stop here with a NameError",
                f"define {read.name!r} in a shown code cell (keep asserts and glue in the hidden one)")

    def program_cells(self, block: Programs) -> list:
        locals_ = [self.programs[argument] for argument in block.paths]
        files = ", ".join(f"`{path}`" for path in locals_)
        cells = [nbformat.v4.new_markdown_cell(text(self.language, "notebook_programs", files=files))]
        setup = []
        if self.requirements:
            setup.append("%pip install --quiet " + " ".join(self.requirements))
        folders = sorted({posixpath.dirname(path) for path in locals_} - {""})
        # the language of the programs' messages (an exercise's check speaks the notebook's language), and
        # the programs' folders on the path, for `from check_<lesson> import check` (as the site's kernels have)
        setup += ["import os", "import sys", "", f"os.environ[{LANGUAGE_VARIABLE!r}] = {self.language!r}"]
        for folder in folders:
            setup += [f"os.makedirs({folder!r}, exist_ok=True)", f"sys.path.insert(0, os.path.abspath({folder!r}))"]
        cells.append(nbformat.v4.new_code_cell("\n".join(setup), metadata={"tags": [PROGRAM_TAG]}))
        for argument, path in zip(block.paths, locals_, strict=True):
            cells.append(nbformat.v4.new_code_cell(f"%%writefile {path}\n{self.read_program(argument)}",
                                                   metadata={"tags": [PROGRAM_TAG]}))
        return cells

    def cells(self) -> tuple[list, str | None]:
        """The notebook's cells but its first (which needs every page read), and the title's line;
        stops the build (naming the line) if the lesson cannot become a notebook that runs."""
        self.check_hidden_reads()
        blocks = self.markdown_blocks()
        cells, title_line = [], None
        first_markdown = min(blocks, default=None)
        for index, cell in enumerate(self.executed.cells):
            if cell.cell_type == "markdown":
                for number, block in enumerate(blocks[index]):
                    if isinstance(block, Programs):
                        cells += self.program_cells(block)
                        continue
                    if (index, number) == (first_markdown, 0) and block.startswith("# "):
                        title_line, _, block = block.partition("\n")  # the title heads the first cell
                    if block.strip():
                        cells.append(nbformat.v4.new_markdown_cell(block.strip("\n")))
            elif "remove-cell" in _tags(cell):
                continue
            elif cell.cell_type == "code":
                cells.append(nbformat.v4.new_code_cell(
                    self.rewrite(cell.source), metadata=dict(cell.metadata),
                    outputs=cell.get("outputs", []), execution_count=cell.get("execution_count")))
        return cells, title_line


def header(lesson: Lesson, title_line: str, raises: bool, language: str) -> str:
    """The notebook's first cell: title, place in its part, summary, provenance, link to the page."""
    lines = [title_line, ""]
    if lesson.position:
        lines += [f"*{escape(lesson.position)}*", ""]
    summary = "".join(f"`{run}`" if code else escape(run) for run, code in lessons.summary_runs(lesson.summary))
    lines += [summary, "",
              f"{escape(lesson.provenance)} {text(language, 'notebook_outputs')}", ""]
    if raises:
        lines += [text(language, "notebook_raises"), ""]
    lines.append(f"[{text(language, 'notebook_page_link')}]({lesson.url})")
    return "\n".join(lines)


def assemble(cells: list, title_line: str | None, lesson: Lesson, language: str, language_info: dict):
    """The reader's notebook: a first cell about the lesson (``lesson``), then ``cells``."""
    cells = [nbformat.from_dict(cell) for cell in cells]
    raises = any("raises-exception" in _tags(c) for c in cells)
    cells.insert(0, nbformat.v4.new_markdown_cell(
        header(lesson, title_line or f"# {escape(lesson.title)}", raises, language)))
    for number, cell in enumerate(cells):
        cell["id"] = f"cell-{number}"
    notebook = nbformat.v4.new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": language_info,
        "title": lesson.title,
        "learnjax": {"language": language, "page": lesson.docname, "url": lesson.url},
    })
    nbformat.validate(notebook)
    return notebook


# --- in the build -----------------------------------------------------------------------------

def _link(app: Sphinx, docname: str):
    def link(target: str) -> str:
        return page_link(app.builder.get_target_uri(target), app.config.language, app.config.html_baseurl, docname)

    return link


def notebook_builder(app: Sphinx, docname: str) -> NotebookBuilder:
    env = app.env
    page = notebook_markdown.Page(docname, app.config.language, page_outputs(app, docname).glue, _link(app, docname),
                                  lambda d: env.titles[d].astext() if d in env.titles else d)

    def read_program(argument: str) -> str:
        return Path(env.relfn2path(argument, docname)[1]).read_text(encoding="utf8")

    read = page_outputs(app, docname)
    written = source_page.current(env)
    return NotebookBuilder(read.notebook, written.path, written.lines, page, read_program,
                           list(app.config.learnjax_program_requirements))


def lesson_facts(app: Sphinx, docname: str) -> Lesson:
    """What the notebook's first cell says, once every page has been read (place in its part, provenance)."""
    env, language = app.env, app.config.language
    position = lessons.lesson_position(env, docname)
    return Lesson(
        docname=docname, title=env.titles[docname].astext(),
        summary=lessons.LESSONS.of(env)[docname]["summary"][language],
        position=text(language, "lesson_position", part=env.titles[position[0]].astext(), number=position[1],
                      total=position[2]) if position else None,
        provenance=provenance.provenance_text(provenance.page_record(env, docname), language),
        url=_link(app, docname)(docname),
    )


@stops_build
def on_doctree_read(app: Sphinx, doctree) -> None:
    """Make a lesson's notebook while its page is read (a lesson that cannot become one stops the
    build here, at its line); kept with the page, so a later build that does not read the page
    again still writes its notebook."""
    docname = app.env.docname
    NOTEBOOKS.of(app.env).pop(docname, None)
    if app.config.nb_execution_mode == "off":  # staging (learnjax_site.execution.stage): no outputs yet
        return
    if docname in lessons.LESSONS.of(app.env):
        builder = notebook_builder(app, docname)
        cells, title_line = builder.cells()
        NOTEBOOKS.of(app.env)[docname] = {"cells": cells, "title_line": title_line,
                                          "language_info": builder.executed.metadata.get("language_info",
                                                                                         {"name": "python"})}


@stops_build
def on_build_finished(app: Sphinx, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    folder = Path(app.outdir) / NOTEBOOKS_DIR
    shutil.rmtree(folder, ignore_errors=True)  # no notebook of a page that is gone
    for docname in sorted(lessons.LESSONS.of(app.env)):
        path = folder.joinpath(*f"{docname}.ipynb".split("/"))
        path.parent.mkdir(parents=True, exist_ok=True)
        made = NOTEBOOKS.of(app.env)[docname]
        notebook = assemble(made["cells"], made["title_line"], lesson_facts(app, docname), app.config.language,
                            made["language_info"])
        nbformat.write(notebook, str(path))


def on_html_page_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if pagename not in lessons.LESSONS.of(app.env):
        return
    language = app.config.language
    repository = app.config.html_theme_options.get("repository_url", "")
    context["learnjax_notebook"] = {
        "group_label": text(language, "notebook_links_label"),
        "download_href": notebook_href(pagename),
        "download_name": f"{posixpath.basename(pagename)}.{language}.ipynb",
        "download_label": text(language, "notebook_download"),
        "download_title": text(language, "notebook_download_title"),
        "colab_href": colab_url(repository, app.config.learnjax_colab_branch, language, pagename),
        "colab_label": text(language, "notebook_colab"),
        "colab_title": text(language, "notebook_colab_title"),
    }


def setup(app: Sphinx) -> dict:
    app.add_config_value("learnjax_colab_branch", "notebooks", "html", types=[str])
    app.add_config_value("learnjax_program_requirements", [], "html", types=[list])
    app.add_css_file("learnjax-notebooks.css")
    NOTEBOOKS.connect(app)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
