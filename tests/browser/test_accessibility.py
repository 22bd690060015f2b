"""axe-core finds no serious or critical accessibility violation on the home page and a lesson.

axe-core comes from the axe-playwright-python package (its bundled ``axe.min.js``); minor and
moderate findings are printed (``pytest -s`` shows them) but do not fail.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from .harness import LESSON, color_mode_script

FAILING_IMPACTS = ("serious", "critical")


def describe(violation: dict) -> str:
    targets = ", ".join(" ".join(node["target"]) for node in violation["nodes"][:5])
    more = len(violation["nodes"]) - 5
    return (f"[{violation['impact']}] {violation['id']}: {violation['help']} "
            f"({len(violation['nodes'])} element(s): {targets}{f' and {more} more' if more > 0 else ''})")


@pytest.mark.parametrize("mode", ["light", "dark"])
@pytest.mark.parametrize("docname", ["index", LESSON])
@pytest.mark.parametrize("language", ["ko", "en"])
def test_no_serious_violations(open_context, language, docname, mode):
    context, console = open_context()
    context.add_init_script(color_mode_script(mode))
    page = context.new_page()
    page.goto(f"{language}/{docname}.html")
    page.wait_for_load_state("networkidle")
    assert page.get_attribute("html", "data-theme") == mode

    violations = Axe().run(page).response["violations"]
    for violation in violations:
        print(f"axe {language}/{docname} {mode}: {describe(violation)}")
    serious = [describe(v) for v in violations if v["impact"] in FAILING_IMPACTS]
    assert not serious, "\n".join(serious)
