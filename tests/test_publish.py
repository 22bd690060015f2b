"""What nox -s publish adds to a build (learnjax_site.commands.publish): the record and the notebooks for Colab."""

from __future__ import annotations

import json
import shutil

import pytest
from learnjax_site.commands import publish


def test_publishing_the_fixture_build(site, tmp_path, monkeypatch):
    monkeypatch.delenv("LEARNJAX_REQUIRE_ACCELERATOR", raising=False)
    out = publish.main(["--build", str(site["out"]), "--out", str(tmp_path / "publish")])
    (record_file,) = (out / "record").glob("*.json")
    assert json.loads(record_file.read_text(encoding="utf8"))["checks"]["backends"] == ["cpu"]
    colab = out / "colab"
    laid_out = sorted(path.relative_to(colab).as_posix() for path in colab.rglob("*") if path.is_file())
    built = sorted(f"{lang}/{path.relative_to(site['html'] / lang / '_notebooks').as_posix()}"
                   for lang in ("ko", "en") for path in (site["html"] / lang / "_notebooks").rglob("*.ipynb"))
    assert laid_out == built and "ko/part/first.ipynb" in laid_out


def test_publishing_refuses_cpu_pages_when_an_accelerator_is_required(site, tmp_path, monkeypatch):
    monkeypatch.setenv("LEARNJAX_REQUIRE_ACCELERATOR", "1")
    with pytest.raises(SystemExit, match="not only on 'gpu'"):
        publish.main(["--build", str(site["out"]), "--out", str(tmp_path / "publish")])


def test_publishing_refuses_a_dotfile_among_the_notebooks(site, tmp_path, monkeypatch):
    monkeypatch.delenv("LEARNJAX_REQUIRE_ACCELERATOR", raising=False)
    build = tmp_path / "build"
    shutil.copytree(site["out"] / "html", build / "html", ignore=shutil.ignore_patterns("*.html", "_static", "_images"))
    shutil.copytree(site["out"] / "jupyter_execute", build / "jupyter_execute")
    (build / "html" / "en" / "_notebooks" / ".git").mkdir()
    with pytest.raises(SystemExit, match=r"en/_notebooks/\.git: a dotfile among the notebooks"):
        publish.main(["--build", str(build), "--out", str(tmp_path / "publish")])
    assert not (tmp_path / "publish" / "colab").exists()
