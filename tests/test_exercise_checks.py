"""The readers' exercise checks (``examples/check_<lesson>.py``, on ``examples/exercise_check.py``).

* each check passes the lesson's own solution and fails a known-wrong answer, saying what to look at,
  in Korean and in English;
* a result shows the notebook's language alone when ``LEARNJAX_LANGUAGE`` is set, and both, marked,
  when it is not (the site's build);
* every check program is shown by the page whose exercise it checks, and that page's solution calls it
  (so every build runs it on the known-good answer).
"""

from __future__ import annotations

import re
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from check_grad_first_steps import check as grad_check
from check_pytrees import check as pytrees_check
from check_what_jit_does import check as jit_check
from exercise_check import LANGUAGE_VARIABLE
from gradient_check import central_difference_grad
from readers_checks import HANGUL, said
from sitebuild import ROOT
from trace_counts import run
from tree_update import LEARNING_RATE, sgd_per_leaf, sgd_whole_tree


def forward_differences(f, params, eps):
    """The wrong answer a reader often gives: (f(x + eps) - f(x)) / eps."""
    leaves, tree = jax.tree.flatten(params)
    grads = []
    for i, leaf in enumerate(leaves):
        flat = np.array(leaf, dtype=np.float64).reshape(-1)
        g = np.empty_like(flat)
        for j in range(flat.size):
            moved = flat.copy()
            moved[j] += eps
            changed = [*leaves[:i], jnp.asarray(moved.reshape(np.shape(leaf)), jnp.float32), *leaves[i + 1:]]
            g[j] = (float(f(jax.tree.unflatten(tree, changed))) - float(f(params))) / eps
        grads.append(g.reshape(np.shape(leaf)))
    return jax.tree.unflatten(tree, grads)


def test_grad_check_passes_the_solution_and_names_a_forward_difference():
    assert grad_check.central_differences(central_difference_grad).ok
    said(grad_check.central_differences(forward_differences), "forward difference", korean="전진 차분")
    said(grad_check.central_differences(lambda f, params, eps: jax.grad(f)(params)), "exact derivative",
         korean="도함수")
    said(grad_check.central_differences(lambda f, params, eps: [0.0, 0.0]), "structure", korean="구조")
    said(grad_check.central_differences(lambda f, params, eps: 1 / 0), "raised ZeroDivisionError",
         korean="ZeroDivisionError")


def test_jit_check_passes_the_counts_and_names_each_wrong_call():
    truth = [(row.traced > 0, row.compiled > 0) for row in run()]
    assert jit_check.predictions(truth).ok
    guess = list(truth)
    guess[1] = (not truth[1][0], truth[1][1])   # call 2: the same shape and dtype as call 1
    said(jit_check.predictions(guess), "1 of 10 predictions are wrong: call 2", "only the values differ",
         korean="2번은")
    said(jit_check.predictions(truth[:3]), "3 predictions", korean="3개")
    said(jit_check.predictions(7), "a list of ten pairs", korean="쌍 10개")


def test_pytrees_check_passes_both_ways_and_names_the_wrong_sign_and_dtype():
    assert pytrees_check.tree_update(sgd_whole_tree).ok and pytrees_check.tree_update(sgd_per_leaf).ok
    said(pytrees_check.tree_update(lambda p, g: jax.tree.map(lambda a, b: a + LEARNING_RATE * b, p, g)),
         "p + lr * g", korean="반대 방향")
    said(pytrees_check.tree_update(lambda p, g: jax.tree.map(lambda a, b: (a - LEARNING_RATE * b).astype(jnp.float16),
                                                             p, g)), "float16", korean="float32")
    said(pytrees_check.tree_update(lambda p, g: jax.tree.leaves(p)), "structure", korean="구조")


@pytest.mark.parametrize("language", ["ko", "en"])
def test_a_result_speaks_the_notebooks_language(language, monkeypatch):
    monkeypatch.setenv(LANGUAGE_VARIABLE, language)
    result = grad_check.central_differences(forward_differences)
    assert repr(result) == result.message(language) and repr(result).startswith("✗ ")
    assert result._repr_html_().count("<p ") == 1 and f'lang="{language}"' in result._repr_html_()


def test_a_result_without_a_language_shows_both_marked(monkeypatch):
    monkeypatch.delenv(LANGUAGE_VARIABLE, raising=False)
    shown = grad_check.central_differences(central_difference_grad)._repr_html_()
    assert re.findall(r'<p class="learnjax-check learnjax-check-right" lang="(\w+)">✓ ', shown) == ["ko", "en"]


def test_every_check_is_shown_and_run_by_its_lessons_solution():
    programs = {path.stem for path in (ROOT / "examples").glob("check_*.py")}
    assert programs, "no exercise checks"
    shown = {}
    for page in sorted((ROOT / "docs").glob("*/*.md")):
        text = page.read_text(encoding="utf8")
        for program in set(re.findall(r"examples/(check_\w+)\.py", text)):
            shown.setdefault(program, []).append(page.name)
            assert "../../examples/exercise_check.py" in text, f"{page}: shows {program} without exercise_check.py"
            solution = re.search(r":tags: \[solution\]\n\nfrom " + program + r" import check\n\n.*check\.", text)
            assert solution, f"{page}: no solution cell imports check from {program} and calls it"
    assert sorted(shown) == sorted(programs), "a check no lesson shows, or shown twice"
    assert all(len(pages) == 1 for pages in shown.values()), shown


def test_check_programs_say_how_to_call_them():
    for path in sorted(Path(ROOT / "examples").glob("check_*.py")):
        doc = path.read_text(encoding="utf8").split('"""')[1]
        assert f"from {path.stem} import check" in doc and "check." in doc, path


def test_every_lessons_exercise_has_a_readers_check():
    lessons = [page for page in sorted((ROOT / "docs").glob("*/*.md")) if ":::{exercise}" in page.read_text("utf8")]
    assert len(lessons) >= 30, lessons
    unchecked = [page.relative_to(ROOT).as_posix() for page in lessons
                 if not re.search(r"examples/check_\w+\.py", page.read_text(encoding="utf8"))]
    assert not unchecked, f"exercises without a reader's check (README: A check the reader can call): {unchecked}"


def test_both_languages_exercises_say_how_to_call_the_check():
    """Each language's {exercise} block tells the reader the check exists and how to import it."""
    for page in sorted((ROOT / "docs").glob("*/*.md")):
        text = page.read_text(encoding="utf8")
        shown = re.search(r"examples/(check_\w+)\.py", text)
        if not shown:
            continue
        blocks = re.findall(r"^:::\{exercise\}\n(.*?)^:::$", text, flags=re.MULTILINE | re.DOTALL)
        telling = [block for block in blocks if f"from {shown[1]} import check" in block]
        assert len(blocks) == 2 and len(telling) == 2, f"{page}: {len(telling)} of {len(blocks)} exercises say it"
        assert HANGUL.search(telling[0]) and not HANGUL.search(telling[1]), page   # Korean first, then English
