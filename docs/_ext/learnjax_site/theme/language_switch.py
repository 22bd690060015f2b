"""Each page links to the same page in the other language, visibly and as hreflang alternates.

The two builds live side by side (``ko/`` and ``en/``), so a page's counterpart is found by
climbing out of this language's folder. With ``html_baseurl`` set, alternates are absolute.
"""

from __future__ import annotations

from html import escape

from sphinx.application import Sphinx

from ..core.languages import LANGUAGE_NAMES, LANGUAGES
from ..core.texts import text


def counterpart_href(pagename: str, language: str, page_suffix: str = ".html") -> str:
    """Relative link from ``pagename`` in one language's build to it in ``language``'s build.

    >>> counterpart_href("origins/xla", "en")
    '../../en/origins/xla.html'
    >>> counterpart_href("index", "ko")
    '../ko/index.html'
    """
    up = "../" * (pagename.count("/") + 1)
    return f"{up}{language}/{pagename}{page_suffix}"


def alternate_links(pagename: str, baseurl: str, page_suffix: str = ".html") -> str:
    """``<link rel="alternate" hreflang=...>`` tags for both languages and the root chooser."""
    def href(language: str | None) -> str:
        if baseurl:
            base = baseurl.rstrip("/") + "/"
            return base + (f"{language}/{pagename}{page_suffix}" if language else "")
        if language is None:
            return "../" * (pagename.count("/") + 1) + "index.html"
        return counterpart_href(pagename, language, page_suffix)

    tags = [f'<link rel="alternate" hreflang="{lang}" href="{escape(href(lang))}">' for lang in LANGUAGES]
    tags.append(f'<link rel="alternate" hreflang="x-default" href="{escape(href(None))}">')
    return "\n".join(tags) + "\n"


def on_html_page_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    language = app.config.language
    other = next(lang for lang in LANGUAGES if lang != language)
    suffix = app.builder.out_suffix
    context["learnjax_switch"] = {
        "href": counterpart_href(pagename, other, suffix),
        "lang": other,
        "label": text(language, "switch_label"),
        "title": text(language, "switch_title"),
        "name": LANGUAGE_NAMES[other],
    }
    context["metatags"] = context.get("metatags", "") + alternate_links(pagename, app.config.html_baseurl, suffix)
