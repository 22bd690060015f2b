"""The extension's folders are the stages of its pipeline, and each imports only the stages below it;
what a GPU machine without Sphinx runs imports no Sphinx."""

from __future__ import annotations

import ast
from pathlib import Path

import learnjax_site

PACKAGE = Path(learnjax_site.__file__).parent
# stage -> the stages it may import (core imports nothing of the site's)
MAY_IMPORT = {
    "core": set(),
    "source": {"core"},
    "execution": {"core", "source"},
    "pages": {"core", "source", "execution"},
    "notebooks": {"core", "source", "execution"},
    "web": {"core", "source"},
    "theme": {"core", "web"},
    "search": {"core"},
    "commands": {"core", "execution", "web"},
}
# run by `python -m learnjax_site.execution.runner` on a GPU machine that has no Sphinx (and by nox)
WITHOUT_SPHINX = ["core/flags.py", "core/paths.py", "core/words.py", "core/languages.py", "execution/kernel.py",
                  "execution/cell_errors.py", "execution/runner.py", "execution/outputs.py"]


def imported_stages(path: Path) -> set[str]:
    """The other stages a module imports (``from ..stage`` or ``from ..stage.module``)."""
    tree = ast.parse(path.read_text(encoding="utf8"))
    return {node.module.split(".")[0] for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.level == 2 and node.module}


def test_every_module_lives_in_a_stage():
    assert sorted(p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__") == sorted(MAY_IMPORT)
    assert [p.name for p in PACKAGE.glob("*.py")] == ["__init__.py"]
    for stage in MAY_IMPORT:
        doc = ast.get_docstring(ast.parse((PACKAGE / stage / "__init__.py").read_text(encoding="utf8")))
        assert doc and len(doc) > 40, f"{stage}/__init__.py says its job in a line or two"


def test_stages_import_only_the_stages_below_them():
    wrong = [f"{path.relative_to(PACKAGE)} imports {sorted(imported_stages(path) - MAY_IMPORT[stage])}"
             for stage in MAY_IMPORT for path in sorted((PACKAGE / stage).glob("*.py"))
             if imported_stages(path) - MAY_IMPORT[stage]]
    assert not wrong, "\n".join(wrong)


def test_the_pipeline_names_existing_handlers():
    for event, priority, handlers in learnjax_site.PIPELINE:
        assert isinstance(priority, int), event
        for path in handlers:
            assert callable(learnjax_site.handler(path)), path


def test_what_a_gpu_machine_runs_imports_no_sphinx():
    for name in WITHOUT_SPHINX:
        tree = ast.parse((PACKAGE / name).read_text(encoding="utf8"))
        top = [node for node in tree.body if isinstance(node, ast.Import | ast.ImportFrom)]
        modules = {alias.name for node in top if isinstance(node, ast.Import) for alias in node.names}
        modules |= {node.module for node in top if isinstance(node, ast.ImportFrom) and node.module and not node.level}
        assert not {m for m in modules if m.split(".")[0] in ("sphinx", "docutils", "myst_nb", "myst_parser")}, name
