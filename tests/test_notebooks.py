"""The lessons' notebooks: one per lesson and language, outputs included, and runnable in a fresh kernel.

The fixture site's notebooks are read from the session's build (``site`` in conftest.py). The real
site's notebooks are run from ``docs/_build/html`` (or ``LEARNJAX_SITE_HTML``), as ``nox -s docs``
leaves it: every lesson of one language, each in a fresh kernel in an empty folder outside the
repository, as in a fresh Colab.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from pathlib import Path

import nbformat
import pytest
from sitebuild import FIXTURES, NO_SITE, NO_SITE_IN_CI, ROOT, build, machine_folders, machine_leaks, missing, page

LESSONS = ["part/first", "part/second"]
NOT_LESSONS = ["index", "part/index", "about/report"]
MARKER = {"ko": "KOONLY", "en": "ENONLY"}
OTHER = {"ko": "en", "en": "ko"}
SITE_ONLY = ("myst_nb", "learnjax_site")  # the build has them; a reader's Colab does not


def notebook_path(site: dict, language: str, name: str) -> Path:
    return site["html"] / language / "_notebooks" / f"{name}.ipynb"


def read(site: dict, language: str, name: str):
    return nbformat.read(notebook_path(site, language, name), as_version=4)


def code_cells(notebook) -> list:
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def output_text(cell) -> str:
    return "".join(output.get("text", "") + output.get("evalue", "") for output in cell.get("outputs", []))


def markdown(notebook) -> str:
    return "\n\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")


def resolves_to(link: str, notebook: Path, page_file: Path, language: str, name: str) -> bool:
    """A link in a notebook leads to a page: absolute (the site's URL) or relative to the notebook."""
    if re.match(r"^https?://", link):
        return link.endswith(f"/{language}/{name}.html")
    return (notebook.parent / link).resolve() == page_file.resolve()


# --- the fixture site's notebooks ---------------------------------------------------------------

@pytest.mark.parametrize("language", ["ko", "en"])
def test_only_lessons_have_notebooks(site, language):
    folder = site["html"] / language / "_notebooks"
    found = {p.relative_to(folder).with_suffix("").as_posix() for p in folder.rglob("*.ipynb")}
    assert found == set(LESSONS)


@pytest.mark.parametrize("language", ["ko", "en"])
@pytest.mark.parametrize("name", LESSONS)
def test_notebook_is_valid_and_in_one_language(site, language, name):
    raw = notebook_path(site, language, name).read_text(encoding="utf8")
    assert MARKER[language] in raw and MARKER[OTHER[language]] not in raw
    notebook = read(site, language, name)
    nbformat.validate(notebook)
    assert notebook.metadata.kernelspec.name == "python3"
    assert notebook.metadata.language_info.name == "python"
    assert notebook.metadata.learnjax.language == language
    assert notebook.metadata.title == page(site, language, name).select_one("h1").get_text().strip("#¶ \n")
    for cell in notebook.cells:
        assert "remove-cell" not in cell.metadata.get("tags", [])
        if cell.cell_type == "markdown":  # no MyST left: plain Markdown only
            assert not re.search(r"\{(glue|doc|program-source|trap|exercise|dropdown)[:}]|^:::|\+\+\+",
                                 cell.source, re.MULTILINE)
        else:
            assert not any(module in cell.source for module in SITE_ONLY)


@pytest.mark.parametrize("language", ["ko", "en"])
@pytest.mark.parametrize("name", LESSONS)
def test_header_cell_says_what_and_where(site, language, name):
    notebook = read(site, language, name)
    header = notebook.cells[0].source
    title = notebook.metadata.title
    assert header.startswith(f"# {title}\n")
    assert markdown(notebook).count(f"# {title}") == 1  # the title moved into the header, not repeated
    assert MARKER[language] in page(site, language, name).select_one(".learnjax-lesson-summary").get_text()
    assert page(site, language, name).select_one(".learnjax-lesson-summary").get_text().strip() in header
    assert ("전체 2강 중" if language == "ko" else "of 2") in header
    provenance = page(site, language, name).select_one(".learnjax-provenance").get_text().strip()
    assert provenance in header.replace("\\", "")
    link = re.search(r"\]\(([^)]+)\)\s*$", header).group(1)
    assert resolves_to(link, notebook_path(site, language, name), site["html"] / language / f"{name}.html",
                       language, name)


@pytest.mark.parametrize("language", ["ko", "en"])
def test_first_lesson_markdown_reads_as_plain_markdown(site, language):
    notebook = read(site, language, "part/first")
    text = markdown(notebook)
    assert ("값은 42입니다" if language == "ko" else "The value is 42.") in text  # glue substituted
    assert ("풀이가 더한 값은 2입니다" if language == "ko" else "the solution adds 2.") in text  # inside a dropdown
    assert ("**풀이 해설**" if language == "ko" else "**About the solution**") in text
    assert ("> **함정**\n>\n> KOONLY" if language == "ko" else "> **Trap**\n>\n> ENONLY") in text
    assert ("> **연습 문제**" if language == "ko" else "> **Exercise**") in text
    link = re.search(r"\[(?:두 번째 강의|the second lesson)\]\(([^)]+)\)", text).group(1)
    assert resolves_to(link, notebook_path(site, language, "part/first"),
                       site["html"] / language / "part" / "second.html", language, "part/second")
    assert ("일부러 예외를" if language == "ko" else "raise an error on purpose") in notebook.cells[0].source


@pytest.mark.parametrize("language", ["ko", "en"])
def test_first_lesson_code_has_outputs_and_the_programs_it_runs(site, language):
    notebook = read(site, language, "part/first")
    cells = code_cells(notebook)
    first = next(c for c in cells if "FIRST-LESSON-OUTPUT" in c.source)
    assert output_text(first) == "FIRST-LESSON-OUTPUT 42\n" and isinstance(first.execution_count, int)
    raising = next(c for c in cells if "raises-exception" in c.metadata.get("tags", []))
    assert raising.outputs[0].output_type == "error" and raising.outputs[0].ename == "ValueError"
    # the hidden cell is gone (its assert and glue stay on the site), and nothing of it is carried
    assert not any("HIDDEN-CHECK" in c.source or "glue(" in c.source or "lesson_kit" in c.source for c in cells)
    # the programs, written beside the notebook before the solution runs them by the rewritten path
    programs = site["source"] / "programs"
    written = {c.source.split("\n", 1)[0]: c.source.split("\n", 1)[1]
               for c in cells if c.source.startswith("%%writefile")}
    assert written == {f"%%writefile programs/{n}": (programs / n).read_text(encoding="utf8")
                       for n in ("hello.py", "helper.py")}
    solution = next(c for c in cells if "solution" in c.metadata.get("tags", []))
    assert solution.source.startswith("%run programs/hello.py\n")
    assert output_text(solution) == "PROGRAM-HELPER-TEXT\nSOLUTION-OUTPUT 2\n"
    assert [c.execution_count for c in (first, raising, solution)] == sorted(c.execution_count for c in
                                                                             (first, raising, solution))


@pytest.mark.parametrize("language", ["ko", "en"])
@pytest.mark.parametrize("name", LESSONS)
def test_lesson_pages_link_to_their_notebook_and_colab(site, language, name):
    soup = page(site, language, name)
    group = soup.select_one(".header-article-items__end .learnjax-notebook-links")
    download, colab = group.select_one("a.learnjax-notebook-download"), group.select_one("a.learnjax-colab")
    here = site["html"] / language / f"{name}.html"
    assert (here.parent / download["href"]).resolve() == notebook_path(site, language, name).resolve()
    assert download.has_attr("download")
    assert download.get_text(strip=True) == ("노트북 내려받기" if language == "ko" else "Download notebook")
    assert colab.get_text(strip=True) == ("Colab에서 열기" if language == "ko" else "Open in Colab")
    branch = os.environ.get("LEARNJAX_COLAB_BRANCH", "notebooks")
    assert re.fullmatch(rf"https://colab\.research\.google\.com/github/[\w.-]+/[\w.-]+/blob/{branch}/"
                        rf"{language}/{name}\.ipynb", colab["href"])
    # before the language switch, in its own group
    items = [a["class"][0] for a in soup.select(".header-article-items__end a")][:3]
    assert items == ["learnjax-notebook-download", "learnjax-colab", "learnjax-language-switch"]


@pytest.mark.parametrize("language", ["ko", "en"])
@pytest.mark.parametrize("name", NOT_LESSONS)
def test_other_pages_have_no_notebook_links(site, language, name):
    assert page(site, language, name).select_one(".learnjax-notebook-links") is None


@pytest.mark.parametrize("language", ["ko", "en"])
def test_no_file_of_the_output_holds_the_other_language(site, language):
    folder = site["html"] / language
    files = [p for p in folder.rglob("*") if p.is_file()]
    assert not [p for p in files if "_sources" in p.relative_to(folder).parts]
    assert any(p.suffix == ".ipynb" for p in files)
    other = MARKER[OTHER[language]].encode()
    assert [p for p in files if other in p.read_bytes()] == []


FAILURES = {
    # fixture: (line the message must name, words it must contain)
    "notebook-hidden-glue": (55, ["this shown code cell reads 'show', which only the hidden (remove-cell) cell at "
                                  "line 49 defines", "would stop here with a NameError",
                                  "define 'show' in a shown code cell"]),
    "notebook-directive": (23, ["the directive {note} has no plain-Markdown form", "teach notebook_markdown.py"]),
}


@pytest.mark.parametrize("case", sorted(FAILURES))
def test_a_lesson_whose_notebook_would_not_run_stops_the_build(case, tmp_path):
    line, words = FAILURES[case]
    result = build(FIXTURES / "broken" / case, tmp_path / "out", "ko")
    output = result.stdout + result.stderr
    assert result.returncode != 0, output[-3000:]
    assert f"broken/{case}/index.md:{line}:" in output, output[-3000:]
    for word in words:
        assert word in output, output[-3000:]


# --- running them, as a reader's fresh Colab would ----------------------------------------------

@contextlib.contextmanager
def fresh_kernel_environment(folder: Path):
    """What a reader's fresh kernel has: not the modules only the site's build has (myst_nb,
    learnjax_site), not the repository's paths. Kernels started inside the block get it."""
    startup = folder / "ipython" / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (startup / "00-no-site-modules.py").write_text(
        "import sys\n" + "".join(f"sys.modules[{m!r}] = None\n" for m in SITE_ONLY), encoding="utf8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("IPYTHONDIR", str(folder / "ipython"))
        for variable in ("PYTHONPATH", "JAX_PLATFORMS"):
            patch.delenv(variable, raising=False)
        yield


def notebook_client(path: Path, workdir: Path):
    """A client that runs the notebook at ``path`` in a new kernel whose working folder is ``workdir``
    (made empty here; a notebook that reads the site's own lessons gets the repository's ``docs/``
    there, as in the clone its page asks for). Its ``nb`` is the notebook, executed in place."""
    from nbclient import NotebookClient

    workdir.mkdir()
    notebook = path.read_text(encoding="utf8")
    if "examples/lesson_corpus.py" in notebook:  # it reads the lessons: run, as the page asks, in a clone
        (workdir / "docs").symlink_to(ROOT / "docs", target_is_directory=True)
    return NotebookClient(nbformat.read(path, as_version=4), timeout=900, kernel_name="python3",
                          resources={"metadata": {"path": str(workdir)}})


@pytest.fixture
def fresh_kernel(tmp_path):
    """Run a notebook in a new kernel, in an empty folder outside the repository, in a reader's
    environment (``fresh_kernel_environment``). Returns the executed notebook and its folder."""
    with fresh_kernel_environment(tmp_path):
        def run(path: Path):
            workdir = tmp_path / f"run-{path.stem}"
            client = notebook_client(path, workdir)
            client.execute()
            return client.nb, workdir

        yield run


# Lesson notebooks run this many at a time: the test checks outputs, never timings, and a lesson
# keeps one core busy for most of its run (tracing, compiling), so two share CI's two cores well.
KERNELS_AT_ONCE = max(1, min(4, os.cpu_count() or 1))


async def run_notebooks(paths: list[Path], folder: Path, at_once: int) -> dict:
    """Run each notebook in its own new kernel, ``at_once`` kernels at a time, each in an empty
    folder under ``folder``. Returns {path: the executed notebook, or the exception its run raised}."""
    gate = asyncio.Semaphore(at_once)

    async def run(number: int, path: Path):
        async with gate:
            client = notebook_client(path, folder / f"run-{number}-{path.stem}")
            try:
                await client.async_execute()
            except Exception as error:  # re-raised by that notebook's own test
                return error
            return client.nb

    return dict(zip(paths, await asyncio.gather(*(run(n, p) for n, p in enumerate(paths))), strict=True))


def test_fresh_kernel_lacks_the_site_modules(fresh_kernel, tmp_path):
    probe = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "import importlib, os, sys\n"
        "for name in ('myst_nb', 'learnjax_site'):\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except ImportError:\n"
        "        print(name, 'missing')\n"
        "print(os.getcwd())")])
    path = tmp_path / "probe.ipynb"
    nbformat.write(probe, path)
    ran, workdir = fresh_kernel(path)
    assert output_text(ran.cells[0]).split("\n")[:3] == ["myst_nb missing", "learnjax_site missing", str(workdir)]


@pytest.mark.parametrize("language", ["ko", "en"])
def test_fixture_notebooks_run_top_to_bottom(site, fresh_kernel, language):
    ran, workdir = fresh_kernel(notebook_path(site, language, "part/first"))
    solution = next(c for c in code_cells(ran) if "solution" in c.metadata.get("tags", []))
    assert output_text(solution) == "PROGRAM-HELPER-TEXT\nSOLUTION-OUTPUT 2\n"
    assert (workdir / "programs" / "helper.py").is_file()
    ran, _ = fresh_kernel(notebook_path(site, language, "part/second"))
    assert "SECOND-SOLUTION-OUTPUT" in output_text(code_cells(ran)[-1])


def test_notebooks_run_side_by_side_each_with_its_own_outcome(tmp_path):
    """Two kernels at a time: each notebook's result is its own, a failing one's error included, and
    each runs in its own empty folder."""
    sources = {"ok": "import os\nprint(os.listdir('.'))", "fails": "raise ValueError('FAILING-CELL')",
               "slow": "import time\ntime.sleep(1)\nprint('SLOW-DONE')"}
    paths = []
    for name, source in sources.items():
        paths.append(tmp_path / f"{name}.ipynb")
        nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)]), paths[-1])
    folder = tmp_path / "runs"
    folder.mkdir()
    with fresh_kernel_environment(tmp_path / "env"):
        ran = asyncio.run(run_notebooks(paths, folder, at_once=2))
    assert list(ran) == paths
    assert output_text(ran[paths[0]].cells[0]) == "[]\n"
    assert isinstance(ran[paths[1]], Exception) and "FAILING-CELL" in str(ran[paths[1]])
    assert output_text(ran[paths[2]].cells[0]) == "SLOW-DONE\n"
    assert len(list(folder.iterdir())) == 3


def real_site_html() -> Path:
    return Path(os.environ.get("LEARNJAX_SITE_HTML", ROOT / "docs" / "_build" / "html"))


def real_site_notebooks(language: str = "ko") -> list[Path]:
    return sorted((real_site_html() / language / "_notebooks").rglob("*.ipynb"))


CHECK_PROGRAM = re.compile(r"examples/(check_\w+)\.py")


def lessons_with_checks() -> dict[str, str]:
    """Each lesson whose exercise has a reader's check (its page shows ``examples/check_<lesson>.py``):
    lesson (``part/name``) → the check's program."""
    found = {}
    for source in sorted((ROOT / "docs").glob("*/*.md")):
        shown = CHECK_PROGRAM.search(source.read_text(encoding="utf8"))
        if shown:
            found[source.relative_to(ROOT / "docs").with_suffix("").as_posix()] = shown[1]
    return found


def lesson_of(notebook: Path) -> str:
    return notebook.relative_to(notebook.parents[1]).with_suffix("").as_posix()


# Lessons from three parts whose English notebooks run too, to show each check answering in English;
# every Korean notebook runs anyway (running every English one as well would double the tests' time).
ENGLISH_CHECKED = ("origins/grad-first-steps", "jit/what-jit-does", "programs/pytrees")


def check_notebooks() -> list[Path]:
    """The notebooks whose reader's check is tested: every Korean lesson's, and ENGLISH_CHECKED's English."""
    checked = lessons_with_checks()
    return [p for p in real_site_notebooks("ko") if lesson_of(p) in checked] + \
        [p for p in real_site_notebooks("en") if lesson_of(p) in checked and lesson_of(p) in ENGLISH_CHECKED]


REAL_SITE_RUN = "test_real_site_notebooks_run_in_a_fresh_kernel"


@pytest.fixture(scope="module")
def real_site_runs(request, tmp_path_factory) -> dict:
    """The real site's notebooks this session's tests ask for, run KERNELS_AT_ONCE at a time, each in
    its own fresh kernel and empty folder (as ``fresh_kernel``): {path: executed notebook or error}."""
    paths = [item.callspec.params["path"] for item in request.session.items
             if getattr(item, "originalname", None) == REAL_SITE_RUN and item.callspec.params["path"]]
    folder = tmp_path_factory.mktemp("fresh-kernels")
    with fresh_kernel_environment(folder):
        return asyncio.run(run_notebooks(paths, folder, KERNELS_AT_ONCE))


@pytest.mark.parametrize("path", sorted({*real_site_notebooks(), *check_notebooks()}) or [None],
                         ids=lambda p: p.relative_to(p.parents[2]).as_posix() if p else "no-build")
def test_real_site_notebooks_run_in_a_fresh_kernel(path, request):
    """Every Korean lesson notebook of the built site runs top to bottom (the English ones hold the same
    code), and so do the English ones of lessons with a reader's check (it answers in their language)."""
    if path is None:
        missing(NO_SITE, NO_SITE_IN_CI)
    ran = request.getfixturevalue("real_site_runs")[path]
    if isinstance(ran, Exception):
        raise ran
    for cell in code_cells(ran):
        if "raises-exception" not in cell.metadata.get("tags", []):
            assert not [o for o in cell.get("outputs", []) if o.output_type == "error"], cell.source[:200]


@pytest.mark.parametrize("path", check_notebooks() or [None],
                         ids=lambda p: p.relative_to(p.parents[2]).as_posix() if p else "no-build")
def test_a_notebooks_exercise_check_answers_in_its_language(path, request):
    """In a fresh kernel, the downloaded notebook's solution calls the exercise's check, which says the
    answer is right in the notebook's language alone (the notebook sets LEARNJAX_LANGUAGE)."""
    if path is None:
        missing(NO_SITE, NO_SITE_IN_CI)
    ran = request.getfixturevalue("real_site_runs")[path]
    if isinstance(ran, Exception):
        raise ran
    language = path.relative_to(real_site_html()).parts[0]
    program = lessons_with_checks()[lesson_of(path)]
    calls = [c for c in code_cells(ran) if f"from {program} import check" in c.source and "check." in c.source
             and not c.source.startswith("%%writefile")]   # not the cell that writes the check's file
    assert calls, f"{path}: no cell imports check from {program} and calls it"
    for cell in calls:
        answers = [o for o in cell.outputs if o.output_type in ("execute_result", "display_data")]
        assert answers, cell.source
        for answer in answers:
            shown, plain = answer.data["text/html"], answer.data["text/plain"]
            assert f'lang="{language}"' in shown and 'lang="' + ("en" if language == "ko" else "ko") not in shown
            assert plain.startswith("✓ ") and "\n" not in plain.strip(), plain
            assert bool(re.search("[가-힣]", plain)) == (language == "ko"), plain


def test_english_checked_lessons_have_checks():
    """The lessons whose English notebooks show a check answering in English have a check, in three parts."""
    assert set(ENGLISH_CHECKED) <= set(lessons_with_checks())
    assert len({lesson.split("/")[0] for lesson in ENGLISH_CHECKED}) == 3


def test_real_site_names_no_build_folder():
    """No page, notebook, search index or report of the built site names the machine that built it
    (the repository's checkout, the build folder, Python's folders, the home folder, ipykernel's
    cell files): tracebacks show paths relative to the repository or site-packages."""
    html = real_site_html()
    if not real_site_notebooks():
        missing(NO_SITE, NO_SITE_IN_CI)
    leaks = machine_leaks(html, machine_folders(ROOT, html.parent))
    assert not leaks, "built files name the build machine's folders:\n" + "\n".join(leaks)


def test_real_site_shows_every_label_and_no_block():
    """No page or notebook of the built site shows a verdict's label token (``⟦set:variant⟧``: each became
    the page's label) or the MyST of an ``{outcomes}`` or ``{labels}`` block (they show nothing)."""
    html = real_site_html()
    if not real_site_notebooks():
        missing(NO_SITE, NO_SITE_IN_CI)
    marks = ("⟦", "{outcomes}", "{labels}", "{outcome}")  # (a page's code may show them: examples/timing.py)
    prose = {path: path.read_text(encoding="utf8") for path in sorted(html.rglob("*.prose.txt"))}
    prose |= {path: "\n".join(cell.source for cell in nbformat.read(path, as_version=4).cells
                              if cell.cell_type == "markdown") for path in sorted(html.rglob("*.ipynb"))}
    shown = [str(path) for path, text in prose.items() if any(mark in text for mark in marks)]
    assert len(prose) > 60 and not shown, "label tokens or outcome blocks left in:\n" + "\n".join(shown)
