"""Korean search: the same rules make the index (Python) and stem the typed query (JavaScript).

Every case of korean_search_cases.json goes through korean_search.py and, in Node.js, through the
stemmer the browser gets (korean_search.js_stemmer_code(): the rules, Sphinx's snowball English
stemmer and korean_stemmer.js); both must give the expected stem. The built fixture site (the
session's ``site``) shows the rules at work in the real searchindex.js and language_data.js.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest
from learnjax_site.search.korean_search import STOPWORDS, SearchKorean, js_stemmer_code, strip_endings
from sitebuild import missing

ROOT = Path(__file__).resolve().parents[1]
CASES = json.loads((ROOT / "tests" / "korean_search_cases.json").read_text(encoding="utf8"))
KOREAN = SearchKorean({})

# What searchtools.js does to a query word before looking it up: lowercase, then stemWord.
HARNESS = """
const stemmer = new Stemmer();
const words = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify({
  stem: words.map((w) => stemmer.stemWord(w.toLowerCase())),
  strip: words.map((w) => stemmer.stripEndings(w.normalize("NFC").toLowerCase())),
}));
"""


def run_node(script: str, words: list[str]) -> dict[str, list[str]]:
    """Run ``script`` in Node.js with ``words`` as JSON on its standard input; its JSON output."""
    node = shutil.which("node")
    if node is None:
        missing("Node.js (node) is needed to test the browser's half of Korean search")
    result = subprocess.run([node, "-e", script], input=json.dumps(words), capture_output=True,
                            text=True, encoding="utf8", timeout=60)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout)


def lesson_words() -> list[str]:
    """Every word with Hangul in the course's pages, as Sphinx's splitter finds them."""
    words = set()
    for source in (ROOT / "docs").rglob("*.md"):
        if "_build" not in source.parts:
            words.update(w for w in KOREAN.split(source.read_text(encoding="utf8")) if re.search("[가-힣]", w))
    return sorted(words)


def index_terms(text: str) -> set[str]:
    """The terms Sphinx's index builder makes of ``text`` in the Korean build."""
    stems = (KOREAN.stem(word) for word in KOREAN.split(text))
    return {stem for stem in stems if KOREAN.word_filter(stem)}


@pytest.fixture(scope="module")
def javascript() -> dict[str, dict[str, str]]:
    """The browser stemmer's ``stem`` and ``strip`` of every word these tests ask about."""
    words = sorted({c["word"] for c in CASES["stems"]} | {c["query"] for c in CASES["searches"]}
                   | set(lesson_words()))
    script = f"const stopwords = new Set({json.dumps(sorted(STOPWORDS))});\n{js_stemmer_code()}\n{HARNESS}"
    out = run_node(script, words)
    return {kind: dict(zip(words, out[kind], strict=True)) for kind in ("stem", "strip")}


def case_id(case: dict) -> str:
    return unicodedata.normalize("NFC", case.get("word") or case["query"])


def test_the_shared_cases_cover_the_issue():
    stems = {c["word"]: c["stem"] for c in CASES["stems"]}
    assert len(stems) >= 30
    assert stems["함수를"] == stems["함수의"] == stems["함수"] == "함수"
    assert stems["트레이싱은"] == "트레이싱"


@pytest.mark.parametrize("case", CASES["stems"], ids=case_id)
def test_python_index_side(case):
    assert KOREAN.stem(case["word"]) == case["stem"], case["why"]


@pytest.mark.parametrize("case", CASES["stems"], ids=case_id)
def test_javascript_query_side(case, javascript):
    assert javascript["stem"][case["word"]] == case["stem"], case["why"]


@pytest.mark.parametrize("case", CASES["searches"], ids=case_id)
def test_a_query_finds_the_text_or_not(case, javascript):
    query = javascript["stem"][case["query"]]
    assert (query in index_terms(case["text"])) is case["finds"], case["why"]


def test_both_sides_strip_every_word_of_the_lessons_alike(javascript):
    words = lesson_words()
    assert len(words) > 1000  # the course's pages were found
    python = {w: strip_endings(unicodedata.normalize("NFC", w).lower()) for w in words}
    differ = {w: (python[w], javascript["strip"][w]) for w in words if python[w] != javascript["strip"][w]}
    assert not differ


def test_a_stem_is_never_empty_a_number_or_a_stopword():
    for word in lesson_words():
        stem = KOREAN.stem(word)
        lowered = unicodedata.normalize("NFC", word).lower()
        assert stem
        assert stem == lowered or (not stem.isdigit() and stem not in STOPWORDS), word


def built_index(site: dict, language: str) -> set[str]:
    raw = (site["html"] / language / "searchindex.js").read_text(encoding="utf8")
    index = json.loads(raw[raw.index("(") + 1:raw.rindex(")")])
    return set(index["terms"]) | set(index["titleterms"])


def test_the_korean_index_holds_words_without_their_particles(site):
    terms = built_index(site, "ko")
    assert {"함수", "xla", "결과", "캐시"} <= terms  # 함수를, XLA가, 결과를, 캐시에 on part/first
    assert not {"함수를", "xla가", "결과를", "캐시에", "결"} & terms
    assert not {"은", "를", "에서"} & terms  # a particle left alone by a code span is no term


def test_the_english_index_keeps_english_stemming(site):
    terms = built_index(site, "en")
    assert {"function", "result", "trace"} <= terms  # functions, results, traces
    assert not {"functions", "results", "traces"} & terms
    data = (site["html"] / "en" / "_static" / "language_data.js").read_text(encoding="utf8")
    assert "window.Stemmer = EnglishStemmer;" in data and "KoreanStemmer" not in data


def test_the_built_language_data_stems_queries_to_indexed_terms(site):
    data = (site["html"] / "ko" / "_static" / "language_data.js").read_text(encoding="utf8")
    assert "var Stemmer = KoreanStemmer;" in data
    queries = ["함수", "함수의", "XLA", "결과", "캐시는", "트레이싱"]
    script = "var window = globalThis;\n" + data + "\n" + HARNESS  # language_data.js exports to window
    stems = run_node(script, queries)["stem"]
    assert stems == ["함수", "함수", "xla", "결과", "캐시", "트레이싱"]
    assert set(stems) <= built_index(site, "ko")


def test_the_korean_search_page_says_how_many_pages_it_found(site):
    """Sphinx's Korean catalogue leaves the result line empty; the ko build fills it in, the en build does not."""
    def scripts(language):
        html = (site["html"] / language / "search.html").read_text(encoding="utf8")
        tags = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
        return [(body, (re.findall(r'src="([^"?]+)', attributes) or [""])[0]) for attributes, body in tags]

    ko = scripts("ko")
    sources = [src for _, src in ko]
    fix = next(i for i, (body, _) in enumerate(ko) if "addTranslations" in body)
    assert sources.index("_static/translations.js") < fix  # runs after Sphinx's catalogue
    assert "${resultCount}개 찾았습니다" in ko[fix][0]
    assert not any("addTranslations" in body for body, _ in scripts("en"))
