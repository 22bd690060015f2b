"""Wrong pages and wrong builds stop the build with the file, the line and what to do."""

from __future__ import annotations

import pytest
from sitebuild import FIXTURES, build, copy_fixture

CASES = {
    # fixture: (line the message must name, words it must contain)
    "raises": (22, ["this code cell raised ZeroDivisionError: division by zero", "raises-exception"]),
    "hidden-assert": (22, ["this code cell raised AssertionError: the page's claim no longer holds"]),
    "unpaired": (22, ["Korean cell has no English counterpart", "+++ {\"lang\": \"en\"}"]),
    "warning": (14, ["WARNING", "undefined label"]),
    "incomplete": (8, ["this ko lesson lacks an exercise", "a solution", "docs.jax.dev", "README, 'Writing a lesson'"]),
    "outcome": (14, ["the build glued 'neither' as parity, and {outcomes} parity has no sentence for it "
                     "(it has even, odd)", "add a sentence for that outcome to the block"]),
}
# One case per place a build stops (and per kind of rule); the pairing rules' other cases (an unknown
# language, different headings) are tested in process, test_bilingual.py, without a build each.
STAGE = {"raises": "execute", "hidden-assert": "execute", "unpaired": "stage", "warning": "render",
         "incomplete": "stage", "outcome": "render"}


@pytest.mark.parametrize("case", sorted(CASES))
def test_broken_page_stops_the_build(case, tmp_path):
    line, words = CASES[case]
    result = build(FIXTURES / "broken" / case, tmp_path / "out", "ko")
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert f"broken/{case}/index.md:{line}:" in output, output[-3000:]
    for word in words:
        assert word in output, output[-3000:]
    # stopped where the problem shows: reading the pages (staging), executing them, or rendering
    stopped = {"stage": f"Staging {FIXTURES / 'broken' / case} failed", "execute": "The build stopped before rendering",
               "render": "The ko build failed"}
    assert stopped[STAGE[case]] in output, output[-3000:]
    assert not (tmp_path / "out" / "html" / "index.html").exists()


def test_accelerator_required_refuses_a_cpu_kernel(tmp_path):
    source = copy_fixture("site", tmp_path / "site")
    result = build(source, tmp_path / "out", "ko", env={"LEARNJAX_REQUIRE_ACCELERATOR": "1"})
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "LEARNJAX_REQUIRE_ACCELERATOR=1, but the kernel's default JAX backend is 'cpu'" in output
    assert "unset LEARNJAX_REQUIRE_ACCELERATOR for a CPU build" in output
    assert "Executing notebook" not in output  # refused before anything ran
