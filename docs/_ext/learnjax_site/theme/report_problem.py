"""A "report a problem · 문제 신고" link under every page, opening a GitHub issue about that page.

The issue arrives prefilled with the page's title, its public address and the language the reader
was reading, so a report needs no "which page?" round trip. The link sits at the end of the article
(``article_footer_items`` in ``conf.py``, template ``report-problem.html``), where a reader who has
just read the page finds it, leaving the header's buttons alone.
"""

from __future__ import annotations

from urllib.parse import quote, urlencode

from sphinx.application import Sphinx

from ..core.texts import text
from ..web.site_url import page_url


def issue_url(repository: str, language: str, title: str, url: str) -> str:
    """The new-issue address of ``repository``, prefilled for the page ``title`` at ``url``.

    >>> issue_url("https://github.com/o/r/", "en", "What jit does", "https://o.github.io/r/en/jit.html")
    'https://github.com/o/r/issues/new?title=%5Ben%5D%20What%20jit%20does&body=Page%3A%20What%20jit%20does%0AURL%3A%20https%3A%2F%2Fo.github.io%2Fr%2Fen%2Fjit.html%0ALanguage%3A%20English%20%28en%29%0A%0AWhat%20is%20wrong%3F%0A'
    """
    query = urlencode({"title": f"[{language}] {title}",
                       "body": text(language, "problem_issue_body", title=title, url=url)}, quote_via=quote)
    return f"{repository.rstrip('/')}/issues/new?{query}"


def on_html_page_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    repository = app.config.html_theme_options.get("repository_url")
    title = app.env.titles.get(pagename)
    if not repository or doctree is None or title is None:  # generated pages (search, 404) get none
        return
    language = app.config.language
    url = page_url(app.config.html_baseurl, language, pagename, app.builder.out_suffix)
    context["learnjax_report"] = {
        "href": issue_url(repository, language, title.astext(), url),
        "label": text(language, "problem_link"),
        "title": text(language, "problem_link_title"),
    }


def setup(app: Sphinx) -> dict:
    app.add_css_file("learnjax-report.css")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
