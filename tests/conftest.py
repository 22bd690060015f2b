"""Fixtures shared by the test modules: one build of the fixture site for the whole session."""

from __future__ import annotations

import pytest
from sitebuild import build, copy_fixture


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The fixture site (tests/fixtures/site) built in both languages, as ``nox -s docs`` builds docs/.

    Returns ``{"source", "out", "html", "log"}``: the copied pages, the build folder, its html/ and
    the build's output. Tests must not change these files; copy them to edit.
    """
    root = tmp_path_factory.mktemp("site")
    source = copy_fixture("site", root / "pages")
    result = build(source, root / "out")
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    return {"source": source, "out": root / "out", "html": root / "out" / "html", "log": result.stdout}
