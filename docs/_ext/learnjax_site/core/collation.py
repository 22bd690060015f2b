"""Sorting words the way a reader of the page's language expects them in a list.

Korean lists go in 가나다 order (the order of Hangul syllables in Unicode is the dictionary's), and
English ones alphabetically, ignoring case. Entries that start in the other script come after those
in the page's own: on a Korean page "JIT 컴파일" and "pytree" follow 흐름; on an English page a term
in Hangul would follow "zero". A parenthetical qualifies a word and is not where a reader looks for
it ("(함수) 변환" sorts as 변환, "kernel (GPU)" as kernel); punctuation does not count, and neither
do spaces in Korean, whose dictionaries ignore them.
"""

from __future__ import annotations

import re
import unicodedata

from .words import HANGUL

_PARENTHETICAL = re.compile(r"\([^()]*\)")


def sort_key(text: str, language: str) -> tuple:
    """The key that puts ``text`` in its place in a list in ``language`` ("ko" or "en").

    >>> sorted(["pytree", "배열", "JIT 컴파일", "(함수) 변환", "가속기", "흐름"], key=lambda t: sort_key(t, "ko"))
    ['가속기', '배열', '(함수) 변환', '흐름', 'JIT 컴파일', 'pytree']
    >>> sorted(["벡터화", "(함수) 변환", "배치", "병렬화"], key=lambda t: sort_key(t, "ko"))
    ['배치', '벡터화', '(함수) 변환', '병렬화']
    >>> sorted(["vmap", "JIT compilation", "array", "배열", "Jacobian"], key=lambda t: sort_key(t, "en"))
    ['array', 'Jacobian', 'JIT compilation', 'vmap', '배열']
    """
    folded = unicodedata.normalize("NFC", _PARENTHETICAL.sub(" ", text)).casefold()
    if not folded.strip():
        folded = unicodedata.normalize("NFC", text).casefold()
    letters = "".join(c for c in folded if c.isalnum() or (c == " " and language != "ko"))
    letters = " ".join(letters.split())
    hangul_first = bool(letters) and bool(HANGUL.match(letters))
    own_script_first = hangul_first if language == "ko" else not hangul_first
    return (0 if own_script_first else 1, letters, text)
