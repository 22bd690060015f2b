"""The prose of this site's own lessons, per language: the corpus of the lesson "Capstone: a small
model end to end".

A lesson is one MyST notebook holding both languages (``docs/<part>/<lesson>.md``): its Korean prose
sits in markdown cells that open with ``+++ {"lang": "ko"}``, its English prose in cells that open
with ``+++ {"lang": "en"}``, and its code in ``{code-cell}`` blocks shared by both. ``prose`` keeps
the text of the language cells only: no front matter, no code cells, no fenced blocks inside the
prose (figures, program listings), no ``:::`` fence lines of the call-outs (their text stays), and
the ``{role}`` prefix of MyST roles dropped (``{glue:text}`name``` becomes ```name```).
``lesson_text`` reads every lesson under ``docs/`` next to this file, in sorted order (the same text on
every machine with the same checkout), and joins them per language. ``CharVocabulary`` turns that
text into token ids, one per character, and ``random_windows`` and ``spread_windows`` cut windows of
ids into a model's inputs and next-character targets; ``generate`` lets a trained model continue a
window of text.

    python examples/lesson_corpus.py            # how many lessons, characters and distinct characters
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

DOCS = Path(__file__).resolve().parents[1] / "docs"
LANGUAGES = ("ko", "en")
_LANG_CELL = re.compile(r'^\+\+\+\s*\{\s*"lang"\s*:\s*"(?P<lang>[a-z]+)"\s*\}\s*$')
_ROLE = re.compile(r"\{[a-z][\w:-]*\}(?=`)")

EXAMPLE = """---
lesson:
  summary: {ko: 요약, en: summary}
---

+++ {"lang": "ko"}

# 제목

`jax.jit`은 {glue:text}`n`번 불렀습니다.

:::{trap}
함정입니다.
:::

```{glue:figure} plot_ko
:alt: 그림
```

+++ {"lang": "en"}

# Title

`jax.jit` was called {glue:text}`n` times.

+++

```{code-cell} ipython3
print("code is not prose")
```
"""


def prose(markdown: str) -> dict[str, str]:
    """The prose of one lesson's source, per language: the lines of its language cells.

    >>> text = prose(EXAMPLE)
    >>> print(text["ko"])
    # 제목
    <BLANKLINE>
    `jax.jit`은 `n`번 불렀습니다.
    <BLANKLINE>
    함정입니다.
    >>> print(text["en"])
    # Title
    <BLANKLINE>
    `jax.jit` was called `n` times.
    """
    kept: dict[str, list[str]] = {language: [] for language in LANGUAGES}
    language, fenced = None, False
    for line in markdown.splitlines():
        if match := _LANG_CELL.match(line):
            language, fenced = match["lang"], False
            continue
        if line.startswith("+++") or line.startswith("```{code-cell}"):
            language, fenced = None, line.startswith("```")
            continue
        if line.startswith("```"):
            fenced = not fenced
            continue
        if language not in kept or fenced or line.startswith(":::"):
            continue
        kept[language].append(_ROLE.sub("", line))
    return {language: "\n".join(lines).strip() for language, lines in kept.items()}


def lesson_files(docs: Path = DOCS) -> list[Path]:
    """The lessons, ``docs/<part>/<lesson>.md`` in sorted order (folders starting with ``_`` skipped).

    >>> files = lesson_files()
    >>> files == sorted(files) and all(f.parent.parent == DOCS for f in files)
    True
    """
    files = sorted(path for path in docs.glob("*/*.md") if not path.parent.name.startswith("_"))
    if not files:
        raise FileNotFoundError(f"no lessons under {docs}: this program reads the site's own lessons, so run it "
                                "in a clone of the repository (examples/ beside docs/)")
    return files


def lesson_text(docs: Path = DOCS) -> dict[str, str]:
    """The prose of every lesson under ``docs``, per language, lessons apart by a blank line.

    >>> text = lesson_text()
    >>> sorted(text), all(len(t) > 10_000 for t in text.values())
    (['en', 'ko'], True)
    """
    parts: dict[str, list[str]] = {language: [] for language in LANGUAGES}
    for path in lesson_files(docs):
        for language, text in prose(path.read_text(encoding="utf-8")).items():
            if text:
                parts[language].append(text)
    return {language: "\n\n".join(texts) for language, texts in parts.items()}


UNKNOWN = "\ufffd"  # the character that id 0, the UNK token, decodes to


class CharVocabulary:
    """A character-level vocabulary: each character seen at least ``min_count`` times in ``texts`` has
    an id of its own, in sorted order after id 0, the UNK token that every rarer character shares.

    >>> vocab = CharVocabulary(["abcab", "가가가"], min_count=2)
    >>> vocab.chars[1:], vocab.size, vocab.rare
    (['a', 'b', '가'], 4, 1)
    >>> vocab.encode("abc가").tolist(), vocab.decode([1, 2, 3])
    ([1, 2, 0, 3], 'ab가')
    """

    def __init__(self, texts: Iterable[str], min_count: int = 3):
        counts = Counter(c for text in texts for c in text)
        self.chars = [UNKNOWN] + sorted(c for c, n in counts.items() if n >= min_count and c != UNKNOWN)
        self.ids = {c: i for i, c in enumerate(self.chars)}
        self.size = len(self.chars)
        self.rare = sum(self.ids.get(c, 0) == 0 for c in counts)  # the characters that share the UNK id

    def encode(self, text: str) -> np.ndarray:
        """The ids of ``text``'s characters, int32; 0 for a character without an id of its own."""
        return np.array([self.ids.get(c, 0) for c in text], dtype=np.int32)

    def decode(self, ids: Iterable[int]) -> str:
        return "".join(self.chars[i] for i in ids)


def windows_at(ids: np.ndarray, starts: Iterable[int], context: int) -> tuple[np.ndarray, np.ndarray]:
    """Windows of ``context + 1`` ids starting at ``starts``: the inputs (their first ``context`` ids)
    and the targets, the same windows shifted by one.

    >>> x, y = windows_at(np.arange(10), [0, 5], 3)
    >>> x.tolist(), y.tolist()
    ([[0, 1, 2], [5, 6, 7]], [[1, 2, 3], [6, 7, 8]])
    """
    rows = np.stack([ids[s:s + context + 1] for s in starts])
    return rows[:, :-1], rows[:, 1:]


def random_windows(rng: np.random.Generator, sources: Sequence[np.ndarray], size: int,
                   context: int) -> tuple[np.ndarray, np.ndarray]:
    """A training batch: ``size`` windows at random places, row i from ``sources[i % len(sources)]``
    (half Korean, half English, when the sources are the two languages' ids).

    >>> x, y = random_windows(np.random.default_rng(0), [np.arange(100), -np.arange(100)], 4, 8)
    >>> x.shape, bool((x[0] >= 0).all() and (x[1] <= 0).all()), bool((y[:, :-1] == x[:, 1:]).all())
    ((4, 8), True, True)
    """
    rows = []
    for i in range(size):
        ids = sources[i % len(sources)]
        start = rng.integers(0, len(ids) - context - 1)
        rows.append(ids[start:start + context + 1])
    rows = np.stack(rows)
    return rows[:, :-1], rows[:, 1:]


def spread_windows(ids: np.ndarray, n: int, context: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` windows spread evenly from the start to the end of ``ids`` (the same on every run).

    >>> x, y = spread_windows(np.arange(20), 3, 4)
    >>> x[:, 0].tolist(), y[-1].tolist()
    ([0, 7, 15], [16, 17, 18, 19])
    """
    return windows_at(ids, np.linspace(0, len(ids) - context - 1, n).astype(int), context)


def generate(model, prompt: jax.Array, key: jax.Array, n: int, temperature: float = 0.8) -> jax.Array:
    """The ``n`` ids that ``model`` writes after ``prompt``, a window of ids. ``model`` maps a batch of windows
    (1, window) to logits (1, window, vocabulary); each next id is sampled from the logits at the last
    position divided by ``temperature``, and the window moves on by one. The loop is one
    ``jax.lax.fori_loop``: jit the caller with ``n`` fixed.

    >>> counting = lambda w: 100.0 * jax.nn.one_hot((w + 1) % 5, 5)   # the next id: the last one plus 1
    >>> generate(counting, jnp.array([0, 1, 2]), jax.random.key(0), 4).tolist()
    [3, 4, 0, 1]
    """
    context = prompt.shape[0]
    text = jnp.concatenate([prompt, jnp.zeros(n, prompt.dtype)])

    def next_id(i, carry):
        text, key = carry
        window = jax.lax.dynamic_slice(text, (i,), (context,))
        logits = model(window[None])[0, -1]
        key, sample_key = jax.random.split(key)
        return text.at[i + context].set(jax.random.categorical(sample_key, logits / temperature)), key

    text, _ = jax.lax.fori_loop(0, n, next_id, (text, key))
    return text[context:]


def main(argv: list[str] | None = None) -> dict[str, str]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=Path, default=DOCS, help="the site's docs folder (default: beside this file)")
    args = parser.parse_args(argv)
    text = lesson_text(args.docs)
    print(f"{len(lesson_files(args.docs))} lesson files under {args.docs}")
    for language, t in text.items():
        print(f"{language}: {len(t):,} characters, {len(set(t)):,} distinct")
    return text


if __name__ == "__main__":
    main()
