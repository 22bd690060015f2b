"""Search snippets come from the article's prose; search scripts load only where they are used."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from learnjax_site.search.search_results import PROSE_SUFFIX, prose
from sitebuild import page

LESSON = """<html><body><main role="main">
<div id="jb-print-docs-body"><h2>내용</h2><nav><ul><li><a href="#id1">한 문장으로 말하면</a></li></ul></nav></div>
<div class="bd-header-article"><button>Toggle primary sidebar</button></div>
<article class="bd-article"><section id="jax"><h1>JAX란 무엇인가<a class="headerlink" href="#jax">#</a></h1>
<div class="learnjax-lesson-header docutils container">
<p class="learnjax-lesson-facts">출발점 · 전체 5강 중 1강 · 읽는 데 약 18분</p>
<p class="learnjax-lesson-summary">JAX는 함수 변환을 더합니다.</p>
<p class="learnjax-provenance">이 페이지의 출력은 CPU에서 실행해 만들었습니다.</p>
<button type="button" class="learnjax-progress-toggle" hidden>다 읽은 강의로 표시</button></div>
<div class="learnjax-catalog"><div class="learnjax-progress-bar"><button hidden>진도 초기화</button>
<p class="learnjax-progress-note" hidden>진도는 이 브라우저에만 저장됩니다.</p></div>
<ol><li><a href="a.html">출발점</a><span class="learnjax-done-label">다 읽음</span></li></ol></div>
<section id="id1"><h2>한 문장으로 말하면<a class="headerlink" href="#id1">#</a></h2>
<p>배열 계산은 <code class="docutils literal"><span class="pre">jax.numpy</span></code>로 씁니다.</p>
<div class="cell docutils container"><div class="cell_input">
<div class="highlight"><pre>&gt;&gt;&gt; jnp.ones(3)</pre></div></div>
<div class="cell_output"><pre>Array([1., 1., 1.])</pre></div></div>
<div class="learnjax-not-prose">Open in Colab</div><img alt="plot" src="p.png"><p>끝 &amp; 마침.</p>
</section></section></article></main></body></html>"""


def test_prose_leaves_out_print_toc_ui_and_code():
    text = BeautifulSoup(prose(LESSON), "html.parser").get_text()
    for not_prose in ("내용", "Toggle", "진도", "다 읽", "5강 중", "CPU에서", "#", ">>>", "jnp.ones",
                      "Array([", "Open in Colab", "JAX란 무엇인가"):
        assert not_prose not in text, f"{not_prose!r} is not prose: {text!r}"
    for kept in ("JAX는 함수 변환을 더합니다.", "한 문장으로 말하면", "배열 계산은 jax.numpy로 씁니다.",
                 "끝 & 마침.", "출발점"):
        assert kept in text


def test_prose_keeps_blocks_apart_and_sections_findable():
    soup = BeautifulSoup(prose(LESSON), "html.parser")
    assert soup.select_one('[role="main"] #id1').get_text().split("\n")[1:3] == [
        "한 문장으로 말하면", "배열 계산은 jax.numpy로 씁니다."]  # heading, then its paragraph: not glued
    assert soup.select_one("#jax") is not None


def test_prose_of_a_page_without_article_is_empty():
    assert prose("<html><body><p>no article</p></body></html>") == '<div role="main"></div>'


@pytest.mark.parametrize("language", ["ko", "en"])
def test_every_page_has_its_prose_file_and_no_search_scripts_in_head(site, language):
    folder = site["html"] / language
    for name in ("index", "part/first", "glossary"):
        assert (folder / f"{name}{PROSE_SUFFIX}").is_file(), f"{language}/{name}{PROSE_SUFFIX} missing"
        head = str(page(site, language, name).head)
        for script in ("searchtools.js", "language_data.js", "searchindex.js"):
            assert script not in head, f"{language}/{name}.html loads {script} in <head>"
        assert "learnjax-search.js" in head
        assert f'DOCUMENTATION_OPTIONS.FILE_SUFFIX = "{PROSE_SUFFIX}"' in head
    search_page = (folder / "search.html").read_text(encoding="utf8")
    for script in ("searchtools.js", "language_data.js", "searchindex.js"):
        assert script in search_page, f"the search page must still load {script}"
