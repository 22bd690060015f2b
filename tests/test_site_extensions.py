"""Unit tests of the provenance records, the build report and the lesson header's pieces."""

from __future__ import annotations

import json

import pytest
from docutils import nodes
from learnjax_site.core.errors import LessonError
from learnjax_site.execution import kernel, provenance
from learnjax_site.source import lessons

RECORD = {"backend": "gpu", "device_kind": "NVIDIA H100 80GB HBM3", "device_count": 1, "jax": "0.10.2",
          "jaxlib": "0.10.2", "ran_at": "2026-11-22T09:30:00.123456+00:00", "outputs": "executed",
          "execution_seconds": 12.34}


def test_probe_reports_this_kernels_backend():
    import sys

    record = kernel.probe(sys.executable)
    assert record["backend"] == "cpu" and record["device_count"] >= 1
    assert kernel.machine_key(record) == "cpu-cpu"


def test_glued_record_round_trips():
    glue = json.loads(json.dumps({kernel.PROVENANCE_KEY: {"data": {"text/plain": repr(json.dumps(RECORD))}}}))
    assert kernel.glued_record(glue) == RECORD
    assert kernel.glued_record({"other": {"data": {"text/plain": "1"}}}) is None


@pytest.mark.parametrize(("language", "expected"), [
    ("ko", "2026-11-22 09:30 UTC에 NVIDIA H100 80GB HBM3 GPU에서 실행해 만들었습니다(디바이스 1개, "
           "JAX 0.10.2, jaxlib 0.10.2, 실행 시간 12.3초)."),
    ("en", "made on 2026-11-22 09:30 UTC on NVIDIA H100 80GB HBM3 GPU (1 device) "
           "with JAX 0.10.2 and jaxlib 0.10.2, in 12.3 s"),
])
def test_provenance_line(language, expected):
    assert expected in provenance.provenance_text(RECORD, language)


@pytest.mark.parametrize("language", ["ko", "en"])
def test_provenance_line_on_a_cpu_names_it_once_in_capitals(language):
    line = provenance.provenance_text({**RECORD, "backend": "cpu", "device_kind": "cpu", "device_count": 2}, language)
    assert line.count("CPU") == 1 and "cpu" not in line
    assert ("디바이스 2개" if language == "ko" else "(2 devices)") in line


@pytest.mark.parametrize("language", ["ko", "en"])
def test_provenance_paragraph_keeps_the_date_on_one_line(language):
    line = provenance.provenance_paragraph(RECORD, language)
    assert line.astext() == provenance.provenance_text(RECORD, language)
    [when] = [node for node in line.findall(nodes.inline) if "learnjax-when" in node["classes"]]
    assert when.astext() == "2026-11-22 09:30 UTC"
    assert provenance.provenance_paragraph(None, language).astext() == provenance.provenance_text(None, language)


def test_accelerator_requirement(monkeypatch):
    cpu = {**RECORD, "backend": "cpu", "device_kind": "cpu"}
    monkeypatch.delenv(provenance.REQUIRE_ACCELERATOR, raising=False)
    provenance.check_accelerator(cpu, "page.md:1")
    monkeypatch.setenv(provenance.REQUIRE_ACCELERATOR, "1")
    provenance.check_accelerator(RECORD, "page.md:1")
    with pytest.raises(LessonError) as error:
        provenance.check_accelerator(cpu, "lesson.md:1")
    assert error.value.where == "lesson.md:1" and "'cpu'" in error.value.problem


def test_report_merge_keeps_the_other_language(tmp_path):
    report = tmp_path / "build-report.json"
    provenance.merge_report(report, "ko", [{"page": "a", "language": "ko", "outputs": "executed"}])
    provenance.merge_report(report, "en", [{"page": "a", "language": "en", "outputs": "cache"}])
    provenance.merge_report(report, "ko", [{"page": "a", "language": "ko", "outputs": "cache"}])
    pages = json.loads(report.read_text())["pages"]
    assert [(p["language"], p["outputs"]) for p in pages] == [("en", "cache"), ("ko", "cache")]


def _cell(kind: str, tags: list[str] = (), error: tuple[str, str] | None = None) -> dict:
    """A cell of an executed notebook, as myst-nb writes it."""
    cell = {"cell_type": kind, "metadata": {"tags": list(tags)}}
    if kind == "code":
        cell["outputs"] = [{"output_type": "error", "ename": error[0], "evalue": error[1], "traceback": []}] \
            if error else [{"output_type": "stream", "name": "stdout", "text": "ok\n"}]
    return cell


def test_cell_errors_stop_unless_tagged():
    cells = [_cell("markdown"), _cell("code"), _cell("code", ["raises-exception"], ("ValueError", "taught"))]
    provenance.check_cell_errors(cells, "page.md", [1, 3, 9, 15])
    cells.append(_cell("code", ["remove-cell"], ("KeyError", "'x'")))  # hidden cells count too
    with pytest.raises(LessonError) as error:
        provenance.check_cell_errors(cells, "page.md", [1, 3, 9, 15])
    assert error.value.where == "page.md:15" and "KeyError: 'x'" in error.value.problem


def test_reading_time_counts_each_script():
    korean = "가" * 4500  # ten minutes of Korean at the site's rate
    english = "word " * 2000  # ten minutes of English
    assert lessons.reading_minutes(korean, 0) == 10
    assert lessons.reading_minutes(english, 0) == 10
    assert lessons.reading_minutes("", 0) == 1


@pytest.mark.parametrize(("meta", "problem"), [
    ({"summary": {"ko": "요약"}, "tags": ["a"]}, "summary is missing a language"),
    ({"summary": {"ko": "요약", "en": "Summary"}, "tags": []}, "has no tags"),
    ({"summary": {"ko": "`split`과 `fold_in으로", "en": "Summary"}, "tags": ["a"]},
     "ko summary has an unmatched backtick"),
])
def test_lesson_front_matter_is_validated(meta, problem):
    with pytest.raises(LessonError) as error:
        lessons.lesson_metadata({"lesson": meta}, "page.md", ["---", "lesson:"])
    assert error.value.where == "page.md:2" and problem in error.value.problem


def test_a_summary_shows_api_names_as_code_everywhere():
    summary = "Derive keys with `split` & `fold_in`."
    assert lessons.summary_text(summary) == "Derive keys with split & fold_in."
    assert lessons.summary_html(summary).count("<code") == 2 and "&amp;" in lessons.summary_html(summary)
    paragraph = lessons.summary_paragraph(summary, ["learnjax-lesson-summary"])
    assert [child.astext() for child in paragraph.findall(nodes.literal)] == ["split", "fold_in"]
    assert paragraph.astext() == lessons.summary_text(summary)


def test_pages_without_lesson_front_matter_are_not_lessons():
    assert lessons.lesson_metadata({"jupytext": {}}, "page.md", []) is None
