"""Tell a reader whether their answer to a lesson's exercise is right, in their notebook's language.

Each lesson's checks are in ``examples/check_<lesson>.py``: functions that run the reader's code (or
read their value) on inputs they make, and return a ``Result``: right or not, and what is right or
what to look at, in Korean and in English. Each file defines ``check``, to import (the notebook puts
``examples/`` on the path; ``%run`` would also load the file's helpers, over the reader's own names):

    from check_grad_first_steps import check
    check.central_differences(my_central_differences)

A ``Result`` shows its message in the language ``LEARNJAX_LANGUAGE`` names (the reader's notebook
sets it, "ko" or "en"); unset (as in the site's own build, which runs once for both languages) it
shows both, each marked with its language for the page to show the one it is in. A check never
grades a timing: timings depend on the machine.

Korean messages take the particle their word needs (``timing.particle``); a word they name must end
in Hangul.
"""

from __future__ import annotations

import html
import os
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from timing import particle  # noqa: E402

LANGUAGE_VARIABLE = "LEARNJAX_LANGUAGE"
LANGUAGES = ("ko", "en")
MARKS = {True: "✓", False: "✗"}


@dataclass(frozen=True)
class Result:
    """A check's answer: ``ok``, and the message in Korean (``ko``) and in English (``en``).

    >>> r = Result(False, "형상이 다릅니다", "the shape differs")
    >>> bool(r), r.message("en")
    (False, '✗ the shape differs')
    """

    ok: bool
    ko: str
    en: str

    def __bool__(self) -> bool:
        return self.ok

    def message(self, language: str) -> str:
        return f"{MARKS[self.ok]} {getattr(self, language)}"

    def languages(self) -> tuple[str, ...]:
        """The languages to show: the notebook's, or both when none is set."""
        chosen = os.environ.get(LANGUAGE_VARIABLE, "")
        return (chosen,) if chosen in LANGUAGES else LANGUAGES

    def __repr__(self) -> str:
        return "\n".join(self.message(language) for language in self.languages())

    def _repr_html_(self) -> str:
        state = "right" if self.ok else "wrong"
        return "".join(f'<p class="learnjax-check learnjax-check-{state}" lang="{language}">'
                       f"{html.escape(self.message(language))}</p>" for language in self.languages())


def right(ko: str, en: str) -> Result:
    return Result(True, ko, en)


def wrong(ko: str, en: str) -> Result:
    return Result(False, ko, en)


def all_of(*results: Result) -> Result:
    """The first result that is wrong, or all the right ones' messages together.

    >>> r = all_of(right("가입니다", "a"), right("나입니다", "b"))
    >>> r.ko, r.en
    ('가입니다. 나입니다', 'a; b')
    >>> all_of(right("가", "a"), wrong("다", "c")).en
    'c'
    """
    for result in results:
        if not result.ok:
            return result
    return right(". ".join(r.ko for r in results), "; ".join(r.en for r in results))


def run_reader(function, *args, **kwargs):
    """Call the reader's ``function``; return ``(value, None)``, or ``(None, Result)`` saying what it raised.

    >>> value, problem = run_reader(lambda x: 1 / x, 0)
    >>> value, problem.en
    (None, 'your function raised ZeroDivisionError: division by zero (in <lambda>, line 1 of <doctest ...>)')
    """
    try:
        return function(*args, **kwargs), None
    except Exception as error:  # the reader's code: whatever it raised is what they need to see
        frame = traceback.extract_tb(error.__traceback__)[-1]
        file = os.path.basename(frame.filename)
        name = f"{type(error).__name__}: {error}".strip().rstrip(":")
        return None, wrong(f"함수가 {name} 오류를 냈습니다({file}의 {frame.lineno}번째 줄, {frame.name})",
                           f"your function raised {name} (in {frame.name}, line {frame.lineno} of {file})")


def as_array(value, what_ko: str, what_en: str):
    """The reader's ``value`` as a float64 NumPy array: ``(array, None)``, or ``(None, Result)`` saying it
    is not an array and what to return instead (``what_ko``, ``what_en``).

    >>> as_array([1, 2], "배열", "an array")[0]
    array([1., 2.])
    >>> print(as_array({"a": 1}, "x와 형상이 같은 배열", "an array shaped like x")[1].en)
    your function returned a value of type dict, not an array: return an array shaped like x
    """
    try:
        return np.asarray(value, dtype=np.float64), None
    except (TypeError, ValueError):
        kind = type(value).__name__
        return None, wrong(f"함수가 배열이 아니라 {kind} 값을 돌려줬습니다. {what_ko}{particle(what_ko, '를', '을')} "
                           "돌려주세요",
                           f"your function returned a value of type {kind}, not an array: return {what_en}")


def same_structure(got, want, what_ko: str, what_en: str) -> Result:
    """Whether ``got`` has the pytree structure of ``want`` (JAX's ``tree.structure``).

    >>> same_structure({"w": 1, "b": 2}, {"w": 0, "b": 0}, "기울기", "the gradient").ok
    True
    >>> print(same_structure([1, 2], {"w": 0, "b": 0}, "기울기", "the gradient").en)
    the gradient: the structure should be PyTreeDef({'b': *, 'w': *}), not PyTreeDef([*, *])
    """
    import jax

    have, need = jax.tree.structure(got), jax.tree.structure(want)
    if have == need:
        return right(f"{what_ko}의 구조가 맞습니다", f"{what_en}: the right structure")
    return wrong(f"{what_ko}의 구조가 다릅니다. 맞는 구조는 {need}, 받은 구조는 {have}입니다",
                 f"{what_en}: the structure should be {need}, not {have}")


def close(got, want, what_ko: str, what_en: str, rtol: float = 1e-5, atol: float = 1e-6) -> Result:
    """Whether the array (or pytree of arrays) ``got`` is ``want`` within ``rtol`` and ``atol``, shape first.

    >>> close(np.ones(3), np.ones(3), "값", "the value").ok
    True
    >>> print(close(np.ones(2), np.ones(3), "값", "the value").en)
    the value: the shape should be (3,), not (2,)
    >>> print(close({"w": np.array([1.0, 2.5])}, {"w": np.array([1.0, 2.0])}, "값", "the value", 0.01, 0).en)
    the value: off by up to 0.5 (at ['w'][1]: 2.5, where 2 is right; allowed: 0.01 relative, 0 absolute)
    """
    import jax

    if jax.tree.structure(got) != jax.tree.structure(want):
        return same_structure(got, want, what_ko, what_en)
    paths = [jax.tree_util.keystr(path) for path, _ in jax.tree_util.tree_flatten_with_path(want)[0]]
    for path, g, w in zip(paths, jax.tree.leaves(got), jax.tree.leaves(want), strict=True):
        g, w = np.asarray(g, dtype=np.float64), np.asarray(w, dtype=np.float64)
        if g.shape != w.shape:
            return wrong(f"{what_ko}{path}의 형상이 다릅니다. 맞는 형상은 {w.shape}, 받은 형상은 {g.shape}입니다",
                         f"{what_en}{path}: the shape should be {w.shape}, not {g.shape}")
        off = np.abs(g - w)
        bad = off > atol + rtol * np.abs(w)
        if bad.any():
            index = np.unravel_index(int(np.argmax(np.where(bad, off, -1))), g.shape)
            at = path + "".join(f"[{i}]" for i in index)
            return wrong(f"{what_ko}{particle(what_ko, '가', '이')} 최대 {off.max():.3g}만큼 다릅니다({at}: 받은 값 "
                         f"{g[index]:.6g}, 맞는 값 {w[index]:.6g}; 허용 범위는 상대 {rtol:g}, 절대 {atol:g}입니다)",
                         f"{what_en}: off by up to {off.max():.3g} (at {at}: {g[index]:.6g}, where {w[index]:.6g} "
                         f"is right; allowed: {rtol:g} relative, {atol:g} absolute)")
    return right(f"{what_ko}{particle(what_ko, '가', '이')} 맞습니다(허용 범위: 상대 {rtol:g}, 절대 {atol:g})",
                 f"{what_en}: right (within {rtol:g} relative, {atol:g} absolute)")


def checks(**functions) -> SimpleNamespace:
    """The ``check`` a lesson's file defines: ``check.<name>(...)`` for each of its checks."""
    return SimpleNamespace(**functions)
