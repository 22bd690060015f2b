"""The lesson template (docs/_lesson-template.md) is a lesson the build accepts as it is: copied into
the fixture site, it builds in both languages, its outcome picks a sentence, and its notebook has
no hidden cell."""

from __future__ import annotations

import json
import re

from bs4 import BeautifulSoup
from sitebuild import ROOT, build, copy_fixture

TEMPLATE = ROOT / "docs" / "_lesson-template.md"


def test_the_template_builds_as_a_lesson(tmp_path):
    site = copy_fixture("site", tmp_path / "pages")
    text = TEMPLATE.read_text(encoding="utf8").replace("tags: [jit, xla]", "tags: [fixture, sorting]")
    (site / "part" / "template.md").write_text(text, encoding="utf8")
    index = site / "part" / "index.md"
    index.write_text(index.read_text(encoding="utf8").replace("second\n```", "second\ntemplate\n```"),
                     encoding="utf8")
    result = build(site, tmp_path / "out")
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    for language, chosen in (("ko", ("정확했습니다", "조금 달랐습니다")), ("en", ("came out exact", "slightly off"))):
        html = (tmp_path / "out" / "html" / language / "part" / "template.html").read_text(encoding="utf8")
        article = BeautifulSoup(html, "html.parser").find("article").get_text(" ")
        # float32's sum is exact or near it, and the outcome says which
        assert re.search(r"332,833,\d{3}", article) and sum(sentence in article for sentence in chosen) == 1, article
        assert ("332,833,500" in article) == (chosen[0] in article), article
        notebook = json.loads((tmp_path / "out" / "html" / language / "_notebooks" / "part" / "template.ipynb")
                              .read_text(encoding="utf8"))
        sources = ["".join(cell["source"]) for cell in notebook["cells"]]
        assert not any("lesson_kit" in source or "glue(" in source for source in sources)
        assert any(re.search(r"332,833,\d{3}", source) for source in sources)
