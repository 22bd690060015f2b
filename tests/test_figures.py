"""Plots in the reader's language: the source check (figures.py), the notebook writer's
``{glue:figure}`` (notebook_markdown.py), the programs' two files, and the built site's notebooks."""

from __future__ import annotations

import base64
import os
import re

import nbformat
import pytest
from learnjax_site.core.errors import LessonError
from learnjax_site.notebooks import markdown as notebook_markdown
from learnjax_site.source import figures
from learnjax_site.source.cells import split_notebook
from sitebuild import NO_SITE, NO_SITE_IN_CI, ROOT, missing

PNG = {"ko": base64.b64encode(b"\x89PNG korean").decode(), "en": base64.b64encode(b"\x89PNG english").decode()}
GLUE = {f"plot_{lang}": {"data": {"image/png": data, "text/plain": "<IPython.core.display.Image object>"}}
        for lang, data in PNG.items()}
GLUE["count"] = {"data": {"text/plain": "3"}}


def page(language: str, glue: dict = GLUE) -> notebook_markdown.Page:
    return notebook_markdown.Page("part/first", language, glue, lambda d: f"https://site/{d}.html", str)


DROPDOWN = {
    "ko": ":::{dropdown} 풀이 해설\n```{glue:figure} plot_ko\n:alt: 크기별 시간을 비교한 로그-로그 그래프\n```\n\n"
          "{glue:text}`count`번 쟀습니다.\n:::",
    "en": ":::{dropdown} About the solution\n```{glue:figure} plot_en\n:alt: Log-log plot of time against size\n```\n\n"
          "Measured {glue:text}`count` times.\n:::",
}


@pytest.mark.parametrize("language", ["ko", "en"])
def test_a_figure_in_a_dropdown_becomes_its_own_language_image_in_the_notebook(language):
    [block] = notebook_markdown.convert(page(language), DROPDOWN[language])
    images = re.findall(r"!\[([^\]]*)\]\(data:image/png;base64,([^)]*)\)", block)
    assert [data for _, data in images] == [PNG[language]]  # its own language's plot, and only that one
    alt = images[0][0]
    assert bool(re.search("[가-힣]", alt)) == (language == "ko")  # alt text in the cell's language
    assert "3" in block and "{glue" not in block and ":alt:" not in block


def test_a_figure_caption_follows_the_image():
    source = "```{glue:figure} plot_en\n:alt: A plot\n\nMedians of {glue:text}`count` rounds.\n```"
    [block] = notebook_markdown.convert(page("en"), source)
    assert block == f"![A plot](data:image/png;base64,{PNG['en']})\n\nMedians of 3 rounds."


@pytest.mark.parametrize("source, words", [
    ("```{glue:figure} plot_fr\n:alt: A plot\n```", ["'plot_fr' was never glued", "glue('plot_fr', Image(path)"]),
    ("```{glue:figure} count\n:alt: A plot\n```", ["'count' was glued as text/plain, not as an image"]),
    ("```{glue:figure} plot_en\n```", ["'plot_en' has no :alt: text", "saying what the plot shows"]),
])
def test_a_figure_the_notebook_cannot_show_is_refused(source, words):
    with pytest.raises(notebook_markdown.MarkdownError) as caught:
        notebook_markdown.convert(page("en"), "Text.\n\n" + source)
    message = f"{caught.value.problem} {caught.value.fix}"
    for word in words:
        assert word in message


def lesson(ko_figure: str, en_figure: str | None) -> str:
    en = f"```{{glue:figure}} {en_figure}\n:alt: A plot\n```\n" if en_figure else "No plot.\n"
    return ("---\njupytext:\n  text_representation:\n    format_name: myst\n---\n\n"
            f"+++ {{\"lang\": \"ko\"}}\n\n```{{glue:figure}} {ko_figure}\n:alt: 그래프\n```\n\n"
            f"+++ {{\"lang\": \"en\"}}\n\n{en}")


@pytest.mark.parametrize("ko_figure, en_figure, words", [
    ("plot_ko", None, ["the Korean cells show the figure 'plot_ko', but no English cell shows plot_en",
                       "glue plot_en and show it"]),
    ("plot_en", "plot_en", ["a Korean cell shows the figure 'plot_en', whose name does not end in _ko",
                            "another language's plot"]),
])
def test_a_figure_missing_in_one_language_stops_the_build_at_its_line(ko_figure, en_figure, words):
    text = lesson(ko_figure, en_figure)
    with pytest.raises(LessonError) as caught:
        figures.check_figures(text, split_notebook(text), "docs/part/first.md")
    assert caught.value.where == "docs/part/first.md:9"  # the Korean figure's line
    for word in words:
        assert word in f"{caught.value.problem} {caught.value.fix}"


def test_paired_figures_pass():
    text = lesson("plot_ko", "plot_en")
    figures.check_figures(text, split_notebook(text), "docs/part/first.md")


def test_a_program_draws_both_languages_from_one_measurement(tmp_path, capsys):
    import gradient_check

    gradient_check.main(["--eps", "1e-2", "--steps", "5", "--plot", str(tmp_path / "loss.png")])
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == ["loss.en.png", "loss.ko.png"]
    assert (tmp_path / "loss.ko.png").read_bytes() != (tmp_path / "loss.en.png").read_bytes()
    assert "plots written to" in capsys.readouterr().out


# --- the built site's notebooks -------------------------------------------------------------------

REAL_PLOTS = {"jit/control-flow": "loop_compile", "origins/grad-first-steps": "gradient_check"}


def real_notebook(language: str, docname: str):
    html = os.environ.get("LEARNJAX_SITE_HTML", ROOT / "docs" / "_build" / "html")
    path = os.path.join(html, language, "_notebooks", f"{docname}.ipynb")
    if not os.path.exists(path):
        missing(NO_SITE, NO_SITE_IN_CI)
    return nbformat.read(path, as_version=4)


@pytest.mark.parametrize("docname", sorted(REAL_PLOTS))
def test_real_site_notebooks_carry_their_own_language_plot(docname):
    images = {}
    for language in ("ko", "en"):
        markdown = "\n".join(c.source for c in real_notebook(language, docname).cells if c.cell_type == "markdown")
        found = re.findall(r"!\[([^\]]+)\]\(data:image/png;base64,([A-Za-z0-9+/=]+)\)", markdown)
        assert len(found) == 1, (language, [alt for alt, _ in found])
        alt, images[language] = found[0]
        assert bool(re.search("[가-힣]", alt)) == (language == "ko"), alt
    assert images["ko"] != images["en"]
