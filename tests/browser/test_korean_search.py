"""Korean search in the browser: a query finds the pages where its word carries a particle.

The cases are the shared ones in tests/korean_search_cases.json ("searches" that must find their
text; tests/test_korean_search.py checks the stemming rules themselves). Here the whole chain runs
on the real site: the query typed into ko/search.html, stemmed by the page's JavaScript, looked up
in the built index. For a case like 함수 / "함수를 받아", every Korean page whose text has the word
함수를 must be listed, and above all the pages that have only such forms and never the bare 함수.
"""

from __future__ import annotations

import json
import re
from functools import cache
from urllib.parse import quote

import pytest
from bs4 import BeautifulSoup

from .harness import ROOT, SITE, docname_of, has_hangul

CASES_FILE = ROOT / "tests" / "korean_search_cases.json"
ISSUE_CASES = [  # the issue's own examples, used when the shared cases file is absent
    {"query": "함수", "text": "`jax.jit`은 함수를 받아 새 함수를 돌려줍니다.", "finds": True},
    {"query": "트레이싱", "text": "트레이싱은 한 번만 일어납니다.", "finds": True},
]
MUST_OCCUR = {"함수", "트레이싱"}
"""Queries the site itself must exercise (a page with a particle form), or the test proves nothing."""


def words(text: str) -> list[str]:
    """Words as a reader sees them, case-folded.

    >>> words("`jax.jit`은 함수를 받아, XLA가")
    ['jax', 'jit', '은', '함수를', '받아', 'xla가']
    """
    return [word.casefold() for word in re.findall(r"[^\W_]+", text)]


def particle_forms(query: str, text: str) -> set[str]:
    """The words of ``text`` that are ``query`` with something attached (함수 -> 함수를).

    >>> sorted(particle_forms("함수", "`jax.jit`은 함수를 받아 새 함수를 돌려줍니다."))
    ['함수를']
    >>> particle_forms("함수를", "함수가 다시 컴파일됩니다.")
    set()
    """
    query = query.casefold()
    return {word for word in words(text) if word.startswith(query) and word != query}


def search_cases() -> list[dict]:
    """The Korean queries that must find their text, with at least one particle form to look for."""
    if CASES_FILE.is_file():
        cases = json.loads(CASES_FILE.read_text(encoding="utf8"))["searches"]
    else:
        cases = ISSUE_CASES
    return [{**case, "id": f"searches[{number}]"} for number, case in enumerate(cases)
            if case["finds"] and has_hangul(case["query"] + case["text"])
            and particle_forms(case["query"], case["text"])]


def indexed_docnames(folder) -> list[str]:
    """The pages the search index covers (generated pages such as tag lists are not among them)."""
    index = (folder / "searchindex.js").read_text(encoding="utf8")
    return json.loads(re.search(r'"docnames":(\[.*?\])', index).group(1))


@cache
def korean_page_words() -> dict[str, set[str]]:
    """The words of each indexed Korean page's article (what the search index holds), by docname."""
    pages = {}
    folder = SITE / "ko"
    for docname in indexed_docnames(folder):
        soup = BeautifulSoup((folder / f"{docname}.html").read_text(encoding="utf8"), "html.parser")
        article = soup.select_one("article.bd-article") or soup.body
        for element in article(["script", "style"]):
            element.decompose()
        pages[docname] = set(words(article.get_text(" ")))
    return pages


SEARCH_FINISHED = """() => {
  // Sphinx's searchtools.js titles the results "Searching..." until the last result is shown
  const title = document.querySelector("#search-results h2");
  return title !== null && title.textContent === Documentation.gettext("Search Results");
}"""


def search(page, query: str) -> list[str]:
    """Search the Korean site for ``query`` as a reader does; the docnames listed, in order."""
    page.goto(f"ko/search.html?q={quote(query)}")
    page.wait_for_function(SEARCH_FINISHED)
    return [docname_of(href) for href in page.eval_on_selector_all(
        "#search-results ul.search li > a", "links => links.map(a => a.getAttribute('href'))")]


@pytest.mark.parametrize("case", search_cases(), ids=lambda case: case["id"])
def test_query_finds_particle_forms(page, console, site, case):
    query = case["query"]
    forms = particle_forms(query, case["text"])
    pages = korean_page_words()
    with_forms = {name for name, found in pages.items() if found & forms}
    only_forms = {name for name in with_forms if query.casefold() not in pages[name]}
    if query in MUST_OCCUR:
        assert with_forms, f"no Korean page has {sorted(forms)}: the site no longer exercises this case"

    results = search(page, query)
    missing = sorted(with_forms - set(results))
    assert not sorted(only_forms - set(results)), (
        f"{query!r} misses pages that have only its particle forms {sorted(forms)}: "
        f"{sorted(only_forms - set(results))}; listed: {results}")
    assert not missing, f"{query!r} misses pages with {sorted(forms)}: {missing}; listed: {results}"
    assert console.problems == []


@pytest.mark.parametrize("language", ["ko", "en"])
def test_search_says_how_many_pages_it_found(page, console, language):
    page.goto(f"{language}/search.html?q=jax")
    page.wait_for_function(SEARCH_FINISHED)
    found = page.locator("#search-results ul.search li").count()
    summary = page.text_content("#search-results p.search-summary").strip()
    assert found > 1
    assert str(found) in summary, f"the summary should give the {found} pages found: {summary!r}"
    assert console.problems == []


UI_STRINGS = {  # interface text that was glued into snippets, from the theme and the site's controls
    "ko": ["진도 초기화", "다 읽음", "다 읽은 강의로 표시", "진도는 이 브라우저에만", "노트북 내려받기",
           "Colab에서 열기", "읽는 데 약", "이 페이지의 출력은"],
    "en": ["Reset progress", "Mark this lesson as done", "Your progress is kept", "Download notebook",
           "Open in Colab", "min read", "The outputs on this page", "Link to this heading"],
}


@pytest.mark.parametrize(("language", "query"), [("ko", "JAX"), ("ko", "함수를"), ("en", "JAX")])
def test_snippets_are_the_articles_prose(page, console, language, query):
    fetched = []
    page.on("request", lambda request: fetched.append(request.url) if request.resource_type == "fetch" else None)
    page.goto(f"{language}/search.html?q={quote(query)}")
    page.wait_for_function(SEARCH_FINISHED)
    page.wait_for_load_state("networkidle")
    snippets = page.locator("#search-results p.context").all_text_contents()
    assert len(snippets) > 3
    found = [(ui, snippet) for snippet in snippets for ui in UI_STRINGS[language] if ui in snippet]
    assert not found, f"interface text in snippets: {found}"
    glued = [snippet for snippet in snippets if re.search(r"다\.[^\s\d.…)’”]", snippet)]
    assert not glued, f"a sentence glued to the next heading or control: {glued}"
    assert fetched and all(url.endswith(".prose.txt") for url in fetched), (
        f"snippets should come from the small prose files, not whole pages: {fetched}")
    assert console.problems == []
