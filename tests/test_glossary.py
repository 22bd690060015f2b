"""The glossary: terms read from the glossary page, ids on its rows, first uses linked from lessons."""

from __future__ import annotations

from pathlib import Path

import pytest
from learnjax_site.core.collation import sort_key
from learnjax_site.core.errors import LessonError
from learnjax_site.pages.glossary import read_terms, sorted_terms
from sitebuild import build, copy_fixture, page

GLOSSARY = """# Glossary

| English | 한국어 | Definition | 정의 |
| --- | --- | --- | --- |
| array | 배열 | Numbers in a grid. | 격자 모양의 수입니다. |
{row}
| device | 디바이스 | A chip that computes. | 계산하는 칩입니다. |
"""


def test_every_row_becomes_a_term_with_its_line():
    row = "| cache hit / miss | 캐시 적중 / 캐시 미스 | Found or not. | 찾았는지입니다. |"
    terms = read_terms(GLOSSARY.format(row=row), "glossary.md")
    assert [(t.line, t.anchor) for t in terms] == [(5, "term-array"), (6, "term-cache-hit-miss"), (7, "term-device")]
    cache = terms[1].forms
    assert [(f.text, f.title) for f in cache["ko"]] == [("캐시 적중", "cache hit"), ("캐시 미스", "cache miss")]
    assert [(f.text, f.title) for f in cache["en"]] == [("cache hit", "캐시 적중"), ("cache miss", "캐시 미스")]
    assert terms[1].definitions == {"en": "Found or not.", "ko": "찾았는지입니다."}


@pytest.mark.parametrize(("row", "words"), [
    ("| shape |", "four cells"),
    ("| shape | 형상 |", "four cells"),
    ("| shape | 형상 | A size. |", "four cells"),
    ("| shape | 형상 | A size. |  |", "four cells"),
    ("| shape | 형상 | A size. | 크기입니다. | extra |", "four cells"),
    ("| fusion (operator fusion | 연산 융합 | One. | 하나. |", "unbalanced"),
    ("| Array | 어레이 | Again. | 또. |", "same as line 5"),
    ("| vector | 배열 | A list. | 목록. |", "'배열' is also a term on line 5"),
    ("| 형상 | shape | A size. | 크기. |", "no Latin letters"),
])
def test_a_malformed_row_is_named_by_its_line(row, words):
    with pytest.raises(LessonError) as error:
        read_terms(GLOSSARY.format(row=row), "docs/glossary.md")
    assert error.value.where == "docs/glossary.md:6"
    assert words in error.value.problem


@pytest.mark.parametrize(("language", "words", "expected"), [
    ("ko", ["캐시", "가속기", "까다로움", "JIT 컴파일", "나", "pytree", "(함수) 변환", "배열"],
     ["가속기", "까다로움", "나", "배열", "(함수) 변환", "캐시", "JIT 컴파일", "pytree"]),  # ㄱ ㄲ ㄴ …, then Latin
    ("en", ["vmap", "배열", "jaxpr", "Array", "kernel (GPU)", "JIT compilation", "array b"],
     ["Array", "array b", "jaxpr", "JIT compilation", "kernel (GPU)", "vmap", "배열"]),  # case ignored, then Hangul
])
def test_words_sort_in_the_order_of_the_language(language, words, expected):
    assert sorted(words, key=lambda word: sort_key(word, language)) == expected


def test_the_sites_glossary_sorts_by_the_term_in_each_language():
    path = Path(__file__).resolve().parents[1] / "docs" / "glossary.md"
    terms = read_terms(path.read_text(encoding="utf8"), str(path))
    korean = [term.korean for term in sorted_terms(terms, "ko")]
    starts = ["hangul" if "\uac00" <= sort_key(k, "ko")[1][:1] <= "\ud7a3" else "latin" for k in korean]
    assert starts == sorted(starts), korean  # every Hangul term before the Latin ones (JIT 컴파일, pytree)
    assert korean[:2] == ["가상 디바이스", "가속기"]
    assert korean.index("배열") < korean.index("배치") < korean.index("벡터화")
    english = [term.english for term in sorted_terms(terms, "en")]
    assert english == sorted(english, key=lambda e: sort_key(e, "en"))
    assert english.index("abstract type") < english.index("accelerator")
    assert english.index("Jacobian") < english.index("JIT compilation") < english.index("kernel (GPU)")


def test_a_glossary_without_its_table_is_refused():
    with pytest.raises(LessonError) as error:
        read_terms("# Glossary\n\n| English | 한국어 |\n| --- | --- |\n| array | 배열 |\n", "glossary.md")
    assert "| English | 한국어 | Definition | 정의 |" in error.value.problem


def links(site, language: str, name: str) -> list:
    return page(site, language, name).select("a.learnjax-glossary-link")


@pytest.mark.parametrize(("language", "expected"), [
    ("ko", [("트레이싱", "term-tracer-tracing", "tracing"), ("배열", "term-array", "array"),
            ("JIT 컴파일", "term-jit-compilation", "JIT compilation"),
            ("컴파일", "term-compile-compilation", "compile / compilation")]),
    ("en", [("Tracing", "term-tracer-tracing", "트레이싱"), ("array", "term-array", "배열"),
            ("JIT compilation", "term-jit-compilation", "JIT 컴파일"),
            ("compilation", "term-compile-compilation", "컴파일")]),
])
def test_a_lesson_links_the_first_use_of_each_term_in_prose(site, language, expected):
    found = links(site, language, "part/second")
    assert [(a.get_text(), a["href"].split("#")[1], a["title"]) for a in found] == expected
    for a in found:
        assert a.find_parent("p") is not None
        assert a.find_parent(["h1", "h2", "code", "pre"]) is None
    first = found[0]
    assert first.next_sibling.startswith("(tracing)은" if language == "ko" else " follows")  # particle outside
    paragraph = first.find_parent("p").get_text()
    assert paragraph.count("트레이싱" if language == "ko" else "Tracing") == 2  # the second use is not linked
    heading = page(site, language, "part/second").select_one(".bd-article h2").get_text()
    assert ("배열" if language == "ko" else "arrays") in heading  # used in the heading, not linked there
    assert not page(site, language, "part/second").select(".learnjax-lesson-header a.learnjax-glossary-link")


@pytest.mark.parametrize("language", ["ko", "en"])
def test_each_link_lands_on_its_row_with_the_same_id_in_both_languages(site, language):
    here = site["html"] / language / "part" / "second.html"
    rows = {tr["id"]: tr for tr in page(site, language, "glossary").select("table.learnjax-glossary tbody tr")}
    assert sorted(rows) == ["term-array", "term-compile-compilation", "term-jit-compilation", "term-tracer-tracing"]
    for a in links(site, language, "part/second"):
        path, anchor = a["href"].split("#")
        assert (here.parent / path).resolve() == (site["html"] / language / "glossary.html").resolve()
        assert anchor in rows


@pytest.mark.parametrize(("language", "order", "cells", "header"), [
    ("ko", ["term-array", "term-compile-compilation", "term-tracer-tracing", "term-jit-compilation"],
     ["트레이서 / 트레이싱", "tracer / tracing", "KODEF 함수가 하는 연산을 기록하는 일입니다."],
     ["용어", "영어", "정의"]),
    ("en", ["term-array", "term-compile-compilation", "term-jit-compilation", "term-tracer-tracing"],
     ["tracer / tracing", "트레이서 / 트레이싱", "ENDEF recording the operations a function applies."],
     ["Term", "Korean", "Definition"]),
])
def test_the_glossary_reads_in_the_pages_language(site, language, order, cells, header):
    """The page's term first, then the other language's (marked), its definition; sorted in its language."""
    soup = page(site, language, "glossary")
    rows = soup.select("table.learnjax-glossary tbody tr")
    assert [tr["id"] for tr in rows] == order  # 가나다 (Latin after Hangul) on ko, alphabetical on en
    row = next(tr for tr in rows if tr["id"] == "term-tracer-tracing")
    assert [td.get_text() for td in row.select("td")] == cells
    other = {"ko": "en", "en": "ko"}[language]
    assert [td.get("lang") for td in row.select("td")] == [None, other, None]
    assert [th.get_text() for th in soup.select("table.learnjax-glossary thead th")] == header
    assert not soup.select("table.learnjax-glossary thead th[lang]")


def test_pages_that_are_not_lessons_have_no_glossary_links(site):
    for language in ("ko", "en"):
        for name in ("index", "part/index", "glossary"):
            assert not links(site, language, name)


def test_the_link_style_is_on_every_lesson(site):
    for language in ("ko", "en"):
        styles = [link["href"] for link in page(site, language, "part/second").select("link[rel=stylesheet]")]
        # in the site's one stylesheet (learnjax_site.theme.css_bundle)
        assert any("learnjax-site.css" in href for href in styles)
        bundle = (site["html"] / language / "_static" / "learnjax-site.css").read_text(encoding="utf8")
        assert "/* learnjax-glossary.css */" in bundle


def test_a_malformed_glossary_row_stops_the_build_naming_its_line(tmp_path):
    source = copy_fixture("site", tmp_path / "pages")
    glossary = source / "glossary.md"
    lines = glossary.read_text(encoding="utf8").splitlines()
    number = next(i for i, line in enumerate(lines) if line.startswith("| array | 배열 |")) + 1
    lines[number - 1] = lines[number - 1].replace("| array |", "| array (of numbers |")
    glossary.write_text("\n".join(lines) + "\n", encoding="utf8")
    result = build(source, tmp_path / "out", "ko")
    output = result.stdout + result.stderr
    assert result.returncode != 0, output[-3000:]
    assert f"glossary.md:{number}:" in output and "unbalanced or nested parentheses" in output, output[-3000:]
    assert "Executing notebook" not in output  # stopped before reading any page
