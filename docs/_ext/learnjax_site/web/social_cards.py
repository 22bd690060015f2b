"""What a link to a page shows when shared: Open Graph metadata and a preview card (sphinxext-opengraph).

Each page gets ``og:title``, ``og:description``, ``og:url`` (its address in its own language's
folder), ``og:locale`` (``ko_KR`` or ``en_US``, the other as ``og:locale:alternate``) and a
generated PNG card with the page's title. A lesson is described by its one-line summary: left
alone, the extension would take the page's first words, which are the lesson header's facts
and provenance line. The extension draws cards with matplotlib in Roboto
Flex, which has no Hangul: Korean titles would come out as empty boxes. So the cards are drawn in
NanumGothic, the font the koreanize-matplotlib package ships for the lessons' plots. All four of
its weights are registered, because the card's title asks for bold (700), which only
NanumGothic ExtraBold carries; with fewer, matplotlib warns and substitutes a weight.
Drawing the cards cost 1.2 s of a 16 s English build of the whole site (15 cards, 0.08 s each).
"""

from __future__ import annotations

import importlib.util
from html import escape
from pathlib import Path

from docutils import nodes
from docutils.utils import new_document
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinxext import opengraph

from ..core.languages import LANGUAGES
from ..core.texts import text
from ..source.lessons import LESSONS, summary_text

OG_LOCALES = {"ko": "ko_KR", "en": "en_US"}
CARD_FONT = "NanumGothic"


def register_card_font() -> str:
    """Register the NanumGothic files of koreanize-matplotlib with matplotlib; return the family."""
    from matplotlib import font_manager

    spec = importlib.util.find_spec("koreanize_matplotlib")
    if spec is None:
        raise RuntimeError("Social cards need the koreanize-matplotlib package for their Hangul font: "
                           "pip install koreanize-matplotlib (it is in the docs dependency group).")
    for ttf in sorted((Path(spec.submodule_search_locations[0]) / "fonts").glob(f"{CARD_FONT}*.ttf")):
        font_manager.fontManager.addfont(str(ttf))
    return CARD_FONT


def locale_tags(language: str) -> list[str]:
    """``og:locale`` of ``language`` and ``og:locale:alternate`` of the other languages.

    >>> locale_tags("ko")
    ['<meta property="og:locale" content="ko_KR" />', '<meta property="og:locale:alternate" content="en_US" />']
    """
    tags = [f'<meta property="og:locale" content="{OG_LOCALES[language]}" />']
    tags += [f'<meta property="og:locale:alternate" content="{OG_LOCALES[other]}" />'
             for other in LANGUAGES if other != language]
    return tags


def on_config_inited(app: Sphinx, config: Config) -> None:
    config.ogp_site_url = f"{config.html_baseurl}{config.language}/"
    config.ogp_custom_meta_tags = [*config.ogp_custom_meta_tags, *locale_tags(config.language)]
    config.ogp_social_cards = {"font": register_card_font(), **(config.ogp_social_cards or {})}


def on_html_page_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Describe a lesson by its summary: the extension's tags from a document holding only that.

    The search page, which has no text of its own to describe it, gets a line of the site's.
    """
    if pagename == "search":
        description = escape(text(app.config.language, "search_description"))
        context["metatags"] = context.get("metatags", "") + f'\n<meta name="description" content="{description}" />'
    lesson = LESSONS.of(app.env).get(pagename)
    if doctree is None or lesson is None:
        return
    description = new_document("summary", doctree.settings)
    description += nodes.paragraph(text=summary_text(lesson["summary"][app.config.language]))
    context["metatags"] += opengraph.get_tags(context, description, srcdir=app.srcdir, outdir=app.outdir,
                                              config=app.config, builder=app.builder, env=app.env)
    context["meta"] = {**(context.get("meta") or {}), "ogp_disable": True}  # no second set from the page
