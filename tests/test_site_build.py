"""Build the fixture site in both languages, as `nox -s docs` does, and read the HTML it made."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from sitebuild import build, built_file, copy_fixture, page

PAGES = ["index", "part/index", "part/first", "part/second", "about/report", "glossary"]
MARKER = {"ko": "KOONLY", "en": "ENONLY"}
OTHER = {"ko": "en", "en": "ko"}


def report(out: Path) -> dict[tuple[str, str], dict]:
    pages = json.loads((out / "html" / "build-report.json").read_text(encoding="utf8"))["pages"]
    return {(p["page"], p["language"]): p for p in pages}


@pytest.mark.parametrize("language", ["ko", "en"])
@pytest.mark.parametrize("name", PAGES)
def test_page_is_in_one_language(site, language, name):
    soup = page(site, language, name)
    assert soup.html["lang"] == language
    text = soup.get_text()
    assert MARKER[OTHER[language]] not in text
    assert MARKER[OTHER[language]] not in str(soup.title)
    if name not in ("part/index", "about/report"):
        assert MARKER[language] in text


@pytest.mark.parametrize("language", ["ko", "en"])
def test_search_index_and_titles_hold_one_language(site, language):
    raw = (site["html"] / language / "searchindex.js").read_text(encoding="utf8")
    index = json.dumps(json.loads(raw[raw.index("(") + 1:raw.rindex(")")]), ensure_ascii=False)
    assert ("시험용 사이트" in index) == (language == "ko")
    assert ("Fixture site" in index) == (language == "en")
    assert page(site, language, "part/first").title.get_text().startswith(
        "첫 강의" if language == "ko" else "First lesson")


@pytest.mark.parametrize("language", ["ko", "en"])
@pytest.mark.parametrize("name", PAGES)
def test_switch_and_hreflang_lead_to_the_counterpart(site, language, name):
    here = site["html"] / language / f"{name}.html"
    switch = page(site, language, name).select_one("a.learnjax-language-switch")
    assert switch is not None and switch["hreflang"] == OTHER[language]
    target = (here.parent / switch["href"]).resolve()
    assert target == (site["html"] / OTHER[language] / f"{name}.html").resolve()
    back = BeautifulSoup(target.read_text(encoding="utf8"), "html.parser").select_one("a.learnjax-language-switch")
    assert (target.parent / back["href"]).resolve() == here.resolve()
    alternates = {link["hreflang"]: link["href"] for link in page(site, language, name).select("link[rel=alternate]")}
    assert set(alternates) == {"ko", "en", "x-default"}
    for lang in ("ko", "en"):
        assert built_file(site, alternates[lang], here) == (site["html"] / lang / f"{name}.html").resolve()
    assert built_file(site, alternates["x-default"], here) == (site["html"] / "index.html").resolve()


def test_root_page_links_to_both_languages_without_javascript(site):
    soup = BeautifulSoup((site["html"] / "index.html").read_text(encoding="utf8"), "html.parser")
    hrefs = {a["href"] for a in soup.select("body a")}
    assert hrefs == {"ko/index.html", "en/index.html"}
    script = soup.script.string
    assert "navigator.languages" in script and "ko/index.html" in script and "en/index.html" in script


def test_code_runs_once_before_either_language_is_rendered(site):
    """The runner executes each page once; both languages render its outputs, and Sphinx executes nothing."""
    records = report(site["out"])
    for name in ("part/first", "part/second"):
        assert records[(name, "ko")]["outputs"] == records[(name, "en")]["outputs"] == "executed"
        assert records[(name, "en")]["ran_at"] == records[(name, "ko")]["ran_at"]
    assert "ok     part/first" in site["log"] and "ok     part/second" in site["log"]
    for language in ("한국어 (ko)", "English (en)"):
        rendering = site["log"].split(f"=== Building {language} ===")[1].split("=== Building")[0]
        assert "Executing notebook" not in rendering
        staged = json.loads((site["out"] / "stage" / "pages.json").read_text(encoding="utf8"))["pages"]
        assert rendering.count("Using cached notebook") == len(staged)  # every page, with code or without


def test_report_records_come_from_the_kernel(site):
    import jax
    import jaxlib

    record = report(site["out"])[("part/first", "ko")]
    assert record["backend"] == "cpu" and record["device_kind"] == "cpu"
    assert record["jax"] == jax.__version__ and record["jaxlib"] == jaxlib.__version__
    assert record["execution_seconds"] > 0
    assert [p.split()[0] for p in record["programs"]] == [
        "../programs/hello.py", "../programs/helper.py"]
    assert {p for p, _ in report(site["out"])} == {"part/first", "part/second"}  # no code, no record


@pytest.mark.parametrize("language", ["ko", "en"])
def test_lesson_header_and_provenance(site, language):
    soup = page(site, language, "part/second")
    facts = soup.select_one(".learnjax-lesson-facts").get_text()
    assert ("전체 2강 중 2강" if language == "ko" else "Lesson 2 of 2") in facts
    assert ("시험 파트" if language == "ko" else "Fixture part") in facts
    assert MARKER[language] in soup.select_one(".learnjax-lesson-summary").get_text()
    provenance = soup.select_one(".learnjax-provenance").get_text()
    assert "CPU" in provenance and "cpu" not in provenance and "JAX" in provenance


def test_outputs_glue_callouts_and_solutions(site):
    for language, trap, solution in (("ko", "함정", "풀이 보기"), ("en", "Trap", "Show the solution")):
        soup = page(site, language, "part/first")
        text = soup.get_text()
        assert "FIRST-LESSON-OUTPUT 42" in text
        glued = "값은 42입니다" if language == "ko" else "The value is 42."
        assert glued in text
        assert "ValueError: taught on purpose" in text  # raises-exception cell kept its traceback
        assert soup.select_one(".learnjax-trap .admonition-title").get_text().strip() == trap
        details = soup.select_one(".learnjax-solution details")
        assert details is not None and solution in details.summary.get_text()
        assert "SOLUTION-OUTPUT" in details.get_text()


@pytest.mark.parametrize("language", ["ko", "en"])
def test_program_sources_are_shown_folded_one_per_file(site, language):
    folds = page(site, language, "part/first").select("details.learnjax-program-source")
    label = "소스 코드" if language == "ko" else "Program source"
    assert [d.summary.get_text() for d in folds] == [f"{label}: hello.py", f"{label}: helper.py"]
    assert "from helper import GREETING" in folds[0].get_text()
    assert "PROGRAM-HELPER-TEXT" in folds[1].get_text()


def test_theme_interface_is_korean_in_the_korean_build(site):
    ko, en = page(site, "ko", "part/first").get_text(), page(site, "en", "part/first").get_text()
    assert "본문으로 건너뛰기" in ko and "Skip to main content" not in ko
    assert "Skip to main content" in en


def read_again(stdout: str) -> tuple[list[str], list[str]]:
    """The pages the build's staging and its (one) render read again, from what the build printed."""
    stdout = re.sub(r"\x1b\[[0-9;]*m", "", stdout)  # Sphinx colours its output where it thinks a terminal is (CI)
    staged = re.search(r"\(read again: ([^)]*)\)", stdout).group(1)
    rendered = re.findall(r"reading sources\.\.\. \[\s*\d+%\] (\S+)", stdout)
    return ([] if staged == "none" else staged.split(", ")), rendered


def test_edits_reexecute_only_what_changed(site, tmp_path):
    out = tmp_path / "out"
    source = copy_fixture("site", tmp_path / "pages")
    assert build(source, out, "ko").returncode == 0

    unchanged = build(source, out, "ko")
    assert {r["outputs"] for r in report(out).values()} == {"cache"}, unchanged.stdout[-2000:]
    assert read_again(unchanged.stdout) == ([], []), unchanged.stdout[-3000:]  # neither staged nor rendered

    first = source / "part" / "first.md"
    first.write_text(first.read_text(encoding="utf8").replace("ENONLY body.", "ENONLY edited body."), encoding="utf8")
    prose_edit = build(source, out, "ko")
    assert prose_edit.returncode == 0
    assert {r["outputs"] for r in report(out).values()} == {"cache"}
    assert read_again(prose_edit.stdout) == (["part/first"], ["part/first"]), prose_edit.stdout[-3000:]

    second = source / "part" / "second.md"
    second.write_text(second.read_text(encoding="utf8").replace("SECOND-LESSON-OUTPUT", "SECOND-EDITED"),
                      encoding="utf8")
    code_edit = build(source, out, "ko")
    assert code_edit.returncode == 0
    records = report(out)
    assert records[("part/second", "ko")]["outputs"] == "executed"
    assert records[("part/first", "ko")]["outputs"] == "cache"

    helper = source / "programs" / "helper.py"  # shown by first.md's {program-source}
    helper.write_text(helper.read_text(encoding="utf8").replace("TEXT", "EDITED"), encoding="utf8")
    program_edit = build(source, out, "ko")
    assert program_edit.returncode == 0
    records = report(out)
    assert records[("part/first", "ko")]["outputs"] == "executed"
    assert records[("part/second", "ko")]["outputs"] == "cache"

    # outputs made again with no source changed (as after importing a GPU run): those pages are read again
    shutil.rmtree(out / "executed")
    outputs_only = build(source, out, "ko")
    assert outputs_only.returncode == 0
    assert {r["outputs"] for r in report(out).values()} == {"executed"}
    assert read_again(outputs_only.stdout) == ([], ["part/first", "part/second"]), outputs_only.stdout[-3000:]


@pytest.mark.parametrize("language", ["ko", "en"])
def test_build_report_page_links_every_lesson(site, language):
    here = site["html"] / language / "about" / "report.html"
    rows = page(site, language, "about/report").select("table.learnjax-build-report tbody tr")
    assert len(rows) == 2
    for row in rows:
        target = (here.parent / row.a["href"]).resolve()
        assert target.exists() and target.parent.name == "part"
    outputs = {row.select("td")[1].get_text(strip=True) for row in rows}
    assert outputs == ({"이번 빌드에서 실행"} if language == "ko" else {"executed in this build"})
