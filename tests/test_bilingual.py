"""Unit tests of cell splitting, the language filter and the pairing rules."""

from __future__ import annotations

import pytest
from learnjax_site.core.errors import LessonError
from learnjax_site.source.bilingual import check_pairs, keep_language
from learnjax_site.source.cells import CellSyntaxError, split_notebook

FRONT = "---\njupytext:\n  text_representation:\n    format_name: myst\n---\n"

PAGE = FRONT + """
+++ {"lang": "ko"}

# 제목

한국어 문단.

+++ {"lang": "en"}

# Title

English paragraph.

```{code-cell} ipython3
:tags: [hide-input]
x = 1
```

Shared text.
"""


def test_split_gives_each_cell_its_lines_and_metadata():
    notebook = split_notebook(PAGE)
    kinds = [(c.kind, c.lang) for c in notebook.cells]
    assert kinds == [("markdown", "ko"), ("markdown", "en"), ("code", None), ("markdown", None)]
    lines = PAGE.split("\n")
    ko, en, code, shared = notebook.cells
    assert lines[ko.marker_line] == '+++ {"lang": "ko"}'
    assert "한국어 문단." in lines[ko.start:ko.end] and "English paragraph." not in lines[ko.start:ko.end]
    assert ko.headings == [(lines.index("# 제목"), 1)] and en.headings == [(lines.index("# Title"), 1)]
    assert code.metadata == {"tags": ["hide-input"]}
    assert "Shared text." in lines[shared.start:shared.end]


def test_keep_language_blanks_the_other_language_line_for_line():
    notebook = split_notebook(PAGE)
    korean = keep_language(PAGE, notebook, "ko")
    assert korean.count("\n") == PAGE.count("\n")
    assert "한국어 문단." in korean and "English paragraph." not in korean and "# Title" not in korean
    assert "x = 1" in korean and "Shared text." in korean
    english = keep_language(PAGE, notebook, "en")
    assert "English paragraph." in english and "한국어" not in english
    for before, after in zip(PAGE.split("\n"), korean.split("\n"), strict=True):
        assert after in (before, "")


def test_a_paired_page_passes():
    check_pairs(split_notebook(PAGE), "page.md")


@pytest.mark.parametrize(("body", "line", "words"), [
    ('+++ {"lang": "ko"}\n\n# 제목\n\n+++ {"lang": "de"}\n\n# Titel\n', 11, "unknown language 'de'"),
    ('+++ {"lang": "ko"}\n\n# 제목\n\n+++ {"lang": "en"}\n\n# Title\n\n+++ {"lang": "ko"}\n\n덧붙임.\n', 15,
     "Korean cell has no English counterpart"),
    ('+++ {"lang": "en"}\n\n# Title\n\n+++ {"lang": "ko"}\n\n# 제목\n\n+++ {"lang": "en"}\n\nMore.\n', 15,
     "English cell has no Korean counterpart"),
    ('+++ {"lang": "ko"}\n\n# 제목\n\n### 작은 제목\n\n+++ {"lang": "en"}\n\n# Title\n\n## Subtitle\n', 11,
     "different headings"),
    ('```{code-cell} ipython3\n---\nlang: ko\n---\nx = 1\n```\n', 7, "code cell has \"lang\""),
])
def test_pairing_errors_name_the_line(body, line, words):
    with pytest.raises(LessonError) as error:
        check_pairs(split_notebook(FRONT + "\n" + body), "page.md")
    assert error.value.where == f"page.md:{line}"
    assert words in error.value.problem


def test_bad_cell_metadata_is_reported_with_its_line():
    with pytest.raises(CellSyntaxError) as error:
        split_notebook(FRONT + '\n+++ {"lang": ko}\n\ntext\n')
    assert error.value.line == 6


def test_the_languages_choose_by_the_same_outcomes():
    body = """
+++ {"lang": "ko"}

# 제목

{outcome}`copied`.

:::{outcomes} copied
- True: 복사했습니다
- False: 복사하지 않았습니다
:::

+++ {"lang": "en"}

# Title

{outcome}`copied`.

:::{outcomes} copied
- True: it was copied
:::
"""
    text = FRONT + body
    with pytest.raises(LessonError) as stop:
        check_pairs(split_notebook(text), "page.md", text)
    assert stop.value.where == "page.md:7"
    assert "choose different sentences by outcome" in stop.value.problem
    assert "'copied': ('True', 'False')" in stop.value.problem and "'copied': ('True',)" in stop.value.problem
    fixed = text.replace("- True: it was copied\n", "- True: it was copied\n- False: it was not copied\n")
    check_pairs(split_notebook(fixed), "page.md", fixed)
