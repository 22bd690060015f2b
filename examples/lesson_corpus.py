"""The prose of this site's own lessons, per language: the corpus of the lesson "Capstone: a small
model end to end".

A lesson is one MyST notebook holding both languages (``docs/<part>/<lesson>.md``): its Korean prose
sits in markdown cells that open with ``+++ {"lang": "ko"}``, its English prose in cells that open
with ``+++ {"lang": "en"}``, and its code in ``{code-cell}`` blocks shared by both. ``prose`` keeps
the text of the language cells only: no front matter, no code cells, no fenced blocks inside the
prose (figures, program listings), no ``:::`` fence lines of the call-outs (their text stays), and
the ``{role}`` prefix of MyST roles dropped (``{glue:text}`name``` becomes ```name```).
``lesson_text`` reads every lesson under ``docs/`` next to this file, in sorted order (the same text on
every machine with the same checkout), and joins them per language.

    python examples/lesson_corpus.py            # how many lessons, characters and distinct characters
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

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
