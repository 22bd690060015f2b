"""Korean search: a word is indexed, and searched for, without the particle (조사) that follows it.

Korean writes particles and copula endings onto the word they follow: 함수를, 함수의, 트레이싱은,
`jax.jit`은, XLA가. Sphinx has no Korean search language and falls back to English rules, so
함수를 is one term, and searching 함수 does not find a page that only says 함수를 (searchtools.js
matches inside terms only for words longer than two letters). This module registers a search
language for ``ko`` whose stemmer strips those endings, so the index (built here, in Python) and
the query (stemmed in the browser by ``korean_stemmer.js``) meet on the bare word.

The rules are data, kept once: ``RULES`` below. The browser gets them as JSON in front of
``korean_stemmer.js``, which applies them exactly as ``strip_endings`` does; tests run the same
cases through both (tests/korean_search_cases.json) and every word of the lessons through both.

How an ending is stripped (repeatedly, longest ending first, until none applies):

* after a Hangul syllable, an ending must agree with that syllable the way Korean chooses it
  (이/은/을/과/으로 after a final consonant, 가/는/를/와/로 after a vowel; 로 also after ㄹ), which
  already keeps 차이, 효과, 경로 and 증가 whole;
* one-syllable endings that also end common two-syllable nouns (가 추가, 과 결과, 나 하나,
  도 속도/정도, 의 정의/강의, 로 바로, 인 확인, 께 함께, and the one-syllable verb endings) need
  two characters left, so those nouns stay whole; the cost is that 키가 or 값의 keep their
  particle (값을, 값이, 키를 still lose theirs);
* after Latin letters or digits (``jit은``, ``XLA가``, ``vmap으로``) any form is taken, as long as
  a letter is left (``1로`` stays whole: a bare number is never a term);
* a word without Hangul then gets Sphinx's English (snowball) stem, as in the English build,
  identically in the browser (Sphinx's own JavaScript snowball stemmer);
* a word that is a stopword, or whose result would be one, is returned as it was.

These rules were tried on every word of the lessons before they were chosen: of the words they
leave as they are (what a reader types), only endings typed on their own (입니다, 하지만) find
fewer pages than under the English fallback; every noun finds as many or more. Some words end
up as one syllable (길이 -> 길, 풀이 -> 풀); both sides agree on them, so they are found all the same.

Stopwords are Sphinx's English ones plus the endings themselves: a code span followed by its
particle (`` `jax.jit`은 ``) leaves the particle as a word of its own, which means nothing alone.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path
from typing import NamedTuple

import snowballstemmer
import sphinx
from sphinx.application import Sphinx
from sphinx.search import SearchLanguage
from sphinx.search.en import SearchEnglish

from ..core.words import HANGUL


class Rule(NamedTuple):
    """An ending that is stripped: after what kind of syllable, and how much must be left."""

    ending: str
    after: str  # "any", "vowel", "consonant", "vowel-or-l", "consonant-not-l" (the syllable before)
    min_left: int = 1  # characters left before it, when a Hangul syllable precedes


_GUARDED = 2  # two characters left: the ending also ends common two-syllable nouns

_PARTICLES = (
    Rule("이", "consonant"), Rule("가", "vowel", _GUARDED),
    Rule("은", "consonant"), Rule("는", "vowel"),
    Rule("을", "consonant"), Rule("를", "vowel"),
    Rule("의", "any", _GUARDED),
    Rule("에", "any"), Rule("에서", "any"), Rule("에게", "any"), Rule("에게서", "any"),
    Rule("한테", "any"), Rule("께", "any", _GUARDED),
    Rule("으로", "consonant-not-l"), Rule("로", "vowel-or-l", _GUARDED),
    Rule("으로서", "consonant-not-l"), Rule("로서", "vowel-or-l"),
    Rule("으로써", "consonant-not-l"), Rule("로써", "vowel-or-l"),
    Rule("과", "consonant", _GUARDED), Rule("와", "vowel"),
    Rule("이나", "consonant"), Rule("나", "vowel", _GUARDED),
    Rule("이랑", "consonant"), Rule("랑", "vowel"),
    Rule("이든", "consonant"), Rule("든", "vowel"),
    Rule("이라도", "consonant"), Rule("라도", "vowel"),
    Rule("도", "any", _GUARDED), Rule("만", "any"), Rule("뿐", "any"),
    Rule("까지", "any"), Rule("부터", "any"), Rule("보다", "any"), Rule("처럼", "any"),
    Rule("마다", "any"), Rule("만큼", "any"), Rule("조차", "any"), Rule("마저", "any"),
    Rule("밖에", "any"), Rule("대로", "any"),
    Rule("들", "any"),  # plural: 함수들을
)

_COPULA = (  # 이다 after a noun: 함수입니다, 값이며, 함수인지; after a vowel 이 may drop (함수였다)
    Rule("이다", "any"), Rule("입니다", "any"), Rule("입니까", "any"),
    Rule("이며", "any"), Rule("이고", "any"), Rule("이지만", "any"), Rule("이므로", "any"),
    Rule("이면", "any"), Rule("이라", "any"), Rule("이라서", "any"), Rule("이어서", "any"),
    Rule("이라는", "any"), Rule("라는", "vowel"), Rule("이라고", "any"), Rule("라고", "vowel"),
    Rule("이란", "any"), Rule("란", "vowel"),
    Rule("이었다", "any"), Rule("이었습니다", "any"), Rule("이었고", "any"),
    Rule("였다", "vowel"), Rule("였습니다", "vowel"), Rule("였고", "vowel"),
    Rule("인", "any", _GUARDED), Rule("인지", "any"), Rule("인가", "any"), Rule("인데", "any"),
)

_VERB_ENDINGS = (  # 하다/되다 after a verbal noun: 계산합니다, 컴파일된, 트레이싱하는
    Rule("합니다", "any"), Rule("했습니다", "any"), Rule("한다", "any"), Rule("했다", "any"),
    Rule("하는", "any"), Rule("하고", "any"), Rule("하면", "any"), Rule("하여", "any"),
    Rule("해서", "any"), Rule("하지", "any"), Rule("하기", "any"), Rule("하려면", "any"),
    Rule("하세요", "any"), Rule("해야", "any"), Rule("했고", "any"), Rule("하므로", "any"),
    Rule("됩니다", "any"), Rule("되었습니다", "any"), Rule("됐습니다", "any"), Rule("된다", "any"),
    Rule("되는", "any"), Rule("되고", "any"), Rule("되면", "any"), Rule("되어", "any"),
    Rule("되지", "any"), Rule("되기", "any"), Rule("되므로", "any"),
    Rule("한", "any", _GUARDED), Rule("할", "any", _GUARDED), Rule("해", "any", _GUARDED),
    Rule("된", "any", _GUARDED), Rule("될", "any", _GUARDED),
)

# Longest first; among equal lengths, the order above. The browser gets this exact order.
RULES: tuple[Rule, ...] = tuple(sorted(_PARTICLES + _COPULA + _VERB_ENDINGS, key=lambda r: -len(r.ending)))

STOPWORDS = frozenset(SearchEnglish.stopwords) | {rule.ending for rule in RULES}

_LETTER = re.compile("[a-z\uac00-\ud7a3]")
_FIRST_SYLLABLE, _LAST_SYLLABLE = 0xAC00, 0xD7A3
_RIEUL = 8  # ㄹ's index among the final consonants

JS_STEMMER = Path(__file__).with_name("korean_stemmer.js")
_SNOWBALL_JS = Path(sphinx.package_dir, "search", "minified-js")


def _agrees(syllable: str, after: str) -> bool:
    """Whether an ending of kind ``after`` may follow the Hangul ``syllable``.

    >>> _agrees("수", "vowel"), _agrees("값", "vowel"), _agrees("일", "vowel-or-l")
    (True, False, True)
    """
    final = (ord(syllable) - _FIRST_SYLLABLE) % 28
    return {
        "any": True,
        "vowel": final == 0,
        "consonant": final != 0,
        "vowel-or-l": final in (0, _RIEUL),
        "consonant-not-l": final not in (0, _RIEUL),
    }[after]


def _strippable(rest: str, rule: Rule) -> bool:
    last = rest[-1]
    if _FIRST_SYLLABLE <= ord(last) <= _LAST_SYLLABLE:
        return len(rest) >= rule.min_left and _agrees(last, rule.after)
    return _LETTER.search(rest) is not None  # jit은, XLA가; but 1로 stays whole


def strip_endings(word: str) -> str:
    """``word`` (lowercase) without the particles and endings ``RULES`` strip, outermost first.

    >>> [strip_endings(w) for w in ("함수를", "트레이싱은", "함수에서는", "jit은", "추가", "속도가")]
    ['함수', '트레이싱', '함수', 'jit', '추가', '속도']
    """
    while True:
        for rule in RULES:
            if len(word) > len(rule.ending) and word.endswith(rule.ending):
                rest = word[: -len(rule.ending)]
                if _strippable(rest, rule):
                    word = rest
                    break
        else:
            return word


class SearchKorean(SearchLanguage):
    """Sphinx's search language for ``ko``: particles stripped, English words stemmed as in English."""

    lang = "ko"
    language_name = "Korean"
    stopwords = STOPWORDS

    def __init__(self, options: dict[str, str]) -> None:
        super().__init__(options)
        self.english = snowballstemmer.stemmer("english")
        self.js_stemmer_code = js_stemmer_code()

    def stem(self, word: str) -> str:
        """The index term for ``word``; ``korean_stemmer.js`` gives the same for a typed query."""
        word = unicodedata.normalize("NFC", word).lower()
        if word in self.stopwords:
            return word
        stem = strip_endings(word)
        if not HANGUL.search(stem):
            stem = self.english.stemWord(stem)
        return word if stem in self.stopwords else stem


def js_stemmer_code() -> str:
    """The browser's stemmer as it goes into language_data.js: rules, snowball English, Korean.

    It defines ``Stemmer`` (what searchtools.js calls) and uses the page's ``stopwords``.
    """
    rules = json.dumps([list(rule) for rule in RULES], ensure_ascii=False)
    return "\n".join((
        f"var KOREAN_SEARCH_RULES = {rules};",
        (_SNOWBALL_JS / "base-stemmer.js").read_text(encoding="utf-8"),
        (_SNOWBALL_JS / "english-stemmer.js").read_text(encoding="utf-8"),
        JS_STEMMER.read_text(encoding="utf-8"),
    ))


# Sphinx's Korean catalogue leaves the search page's result line empty ("Search finished, found N
# pages..."), so Korean readers saw no count; this fills it in after translations.js has loaded.
SEARCH_STATUS_KO = {
    "Search finished, found one page matching the search query.":
        ["검색을 마쳤습니다. 검색어와 일치하는 페이지를 ${resultCount}개 찾았습니다."],
}


def add_korean_search_status(app: Sphinx) -> None:
    if app.config.language == "ko" and app.builder.format == "html":
        catalog = {"locale": "ko", "plural_expr": "0", "messages": SEARCH_STATUS_KO}
        app.add_js_file(None, body=f"Documentation.addTranslations({json.dumps(catalog, ensure_ascii=False)});")


def setup(app: Sphinx) -> dict:
    app.add_search_language(SearchKorean)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
