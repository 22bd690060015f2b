"""Search results that read: snippets from the article's prose, results as you type in Ctrl+K.

**Snippets.** Sphinx's search page (searchtools.js) fetches each result's page and cuts its
snippet from the text of ``[role=main]``. On this theme that element also holds the hidden print
table of contents, the article header's buttons and the site's own controls (progress, notebook
links), and ``textContent`` glues headings to the next line: snippets read "진도 초기화진도는…".
After the build, this module writes next to each page a small file, ``<page>.prose.txt``, holding
the article's prose only (section headings, paragraphs, lists, tables, lesson summaries; sections keep
their ids so that a result's anchor finds its section), and points searchtools.js at those files
(``DOCUMENTATION_OPTIONS.FILE_SUFFIX``, which it uses only to fetch snippets; links keep
``LINK_SUFFIX``). Left out: code and outputs, buttons, hidden and ``aria-hidden`` elements,
heading links, and the classes in ``NOT_PROSE`` (any element with class ``learnjax-not-prose``
too). A snippet now costs a fetch of a few kilobytes instead of the whole page.

**Results as you type.** The theme's own option (``search_as_you_type``) needs searchtools.js,
language_data.js and searchindex.js in ``<head>`` of every page; ``layout.html`` no longer puts
them there. ``learnjax-search.js`` loads them when the reader opens the Ctrl+K dialog (or types
in it), then shows the best results under the field as the query changes, with snippets from the
same prose files. Queries go through the language's own stemmer (``language_data.js``), so
Korean particles are handled exactly as on the search page (``korean_search``).
"""

from __future__ import annotations

import json
import re
from html import escape
from html.parser import HTMLParser
from pathlib import Path

from sphinx.application import Sphinx

PROSE_SUFFIX = ".prose.txt"

# Not prose, wherever they are in the article: the site's controls and page furniture.
NOT_PROSE = frozenset({
    "headerlink",  # the "#" after each heading
    "highlight", "cell_input", "cell_output", "output",  # code and what it printed
    "learnjax-lesson-facts", "learnjax-provenance",  # "출발점 · 전체 5강 중 1강 · 읽는 데 약 18분"
    "learnjax-progress-bar", "learnjax-done-label",  # "진도 초기화", "다 읽음"
    "learnjax-notebook-links", "toctree-wrapper", "copybtn",
    "learnjax-not-prose",  # for anything else a template adds: mark it, and it is left out
})
_NOT_PROSE_TAGS = frozenset({"h1",  # the page's title: a result shows it already
                             "script", "style", "button", "nav", "pre", "form", "svg", "template",
                             "noscript", "select", "textarea"})
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                   "source", "track", "wbr"})
_BLOCKS = frozenset({"p", "li", "dt", "dd", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "div",
                     "blockquote", "figcaption", "caption", "tr", "summary", "details", "table",
                     "ul", "ol", "dl", "aside", "figure"})
_ARTICLE = re.compile(r'<article class="bd-article"[^>]*>(.*)</article>', re.S)

TEXTS = {  # the dialog's own strings; {count} and {query} are filled in by the script
    "ko": {
        "count": "검색 결과 {count}개",
        "none": "‘{query}’ 검색 결과가 없습니다.",
        "all": "검색 페이지에서 모든 결과 보기",
        "loading": "검색 색인을 불러오는 중입니다…",
        "label": "검색 결과",
        "failed": "검색 색인을 불러오지 못했습니다. 검색 페이지에서 찾아보세요.",
    },
    "en": {
        "count": "{count} results",
        "none": "No page matches ‘{query}’.",
        "all": "See every result on the search page",
        "loading": "Loading the search index…",
        "label": "Search results",
        "failed": "Could not load the search index. Try the search page.",
    },
}


class _Prose(HTMLParser):
    """Collects the prose of an article's HTML: text, block breaks, and sections with their ids."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0  # depth inside an element that is not prose

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID:
            return
        if self.skipping:
            self.skipping += 1
            return
        attributes = dict(attrs)
        classes = set((attributes.get("class") or "").split())
        if (tag in _NOT_PROSE_TAGS or classes & NOT_PROSE or "hidden" in attributes
                or attributes.get("aria-hidden") == "true"):
            self.skipping = 1
        elif tag == "section":
            ident = attributes.get("id")
            self.parts.append(f'<section id="{escape(ident)}">' if ident else "<section>")
        elif tag in _BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID:
            return
        if self.skipping:
            self.skipping -= 1
        elif tag == "section":
            self.parts.append("</section>")
        elif tag in _BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(escape(re.sub(r"\s+", " ", data), quote=False))


def prose(page_html: str) -> str:
    """The prose of a built page's article, as the HTML that searchtools.js reads snippets from.

    >>> print(prose('<main role="main"><nav>출발점 JAX란 무엇인가</nav><article class="bd-article">'
    ...             '<section id="id1"><h1>함수<a class="headerlink" href="#id1">#</a></h1>'
    ...             '<button hidden>진도 초기화</button><p>함수를 씁니다.</p>'
    ...             '<div class="highlight"><pre>f(x)</pre></div></section></article></main>'))
    <div role="main"><section id="id1">
    함수를 씁니다.
    </section></div>
    """
    found = _ARTICLE.search(page_html)
    parser = _Prose()
    parser.feed(found.group(1) if found else "")
    parser.close()
    text = re.sub(r" *\n[\s]*", "\n", "".join(parser.parts))  # one break between blocks
    return f'<div role="main">{text.strip(" ")}</div>'


def write_prose_files(app: Sphinx, exception: Exception | None) -> None:
    """After an HTML build, ``<page>.prose.txt`` next to every page the documents made (again only
    where the page was written after its prose file: a rebuild re-writes only what changed)."""
    if exception is not None or app.builder.name != "html":
        return
    outdir = Path(app.outdir)
    for docname in sorted(app.env.found_docs):
        page = outdir / f"{docname}{app.builder.out_suffix}"
        target = outdir / f"{docname}{PROSE_SUFFIX}"
        if page.is_file() and (not target.is_file() or target.stat().st_mtime < page.stat().st_mtime):
            target.write_text(prose(page.read_text(encoding="utf-8")), encoding="utf-8")


def add_search_scripts(app: Sphinx) -> None:
    """Snippets from the prose files; the dialog's script and its strings in the page's language."""
    if app.builder.format != "html":
        return
    language = app.config.language if app.config.language in TEXTS else "en"
    app.add_js_file(None, body=f"DOCUMENTATION_OPTIONS.FILE_SUFFIX = {json.dumps(PROSE_SUFFIX)};")
    app.add_js_file(None, body="window.LEARNJAX_SEARCH = "
                    f"{json.dumps(TEXTS[language], ensure_ascii=False)};")
    app.add_js_file("learnjax-search.js", loading_method="defer")
    app.add_css_file("learnjax-search.css")
