"""Check your answer to the exercise of "Device memory": import its ``check``, then

    from check_device_memory import check
    check.largest_batch(your_answers, BUDGET, step_memory)

``your_answers`` is ``{False: batch, True: batch}``: for each value of ``remat`` (without and with
``jax.checkpoint``) the largest batch, a multiple of 64, whose ``step_memory(batch, remat=...)["peak"]``
is within ``BUDGET`` bytes. A pair ``(batch, compiles)`` in place of each batch is fine too: the check
then shows your count of compiles beside the answer, without grading it. ``step_memory`` is the
lesson's function, the definition of "fits"; the check compiles the answer and the batch 64 larger with
it (nothing runs), so it needs no search of its own. JAX keeps each compiled program, so batches your
search compiled cost nothing again.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import all_of, checks, right, wrong  # noqa: E402

STEP = 64
WAYS = {False: ("jax.checkpoint 없이", "without jax.checkpoint"),
        True: ("jax.checkpoint를 써서", "with jax.checkpoint")}


@functools.cache
def _peak(step_memory, batch: int, remat: bool) -> int:
    return int(step_memory(batch, remat=remat)["peak"])


def _mib(nbytes: float) -> str:
    return f"{nbytes / 2**20:,.1f} MiB"


def _batches(answers):
    """``{False: batch, True: batch}`` and the compile counts given, from the reader's answers; or None."""
    try:
        if sorted(answers) != [False, True]:
            return None
        pairs = {remat: answer if isinstance(answer, tuple | list) else (answer, None)
                 for remat, answer in answers.items()}
        batches = {remat: int(pair[0]) for remat, pair in pairs.items()}
        if any(batches[remat] != pair[0] for remat, pair in pairs.items()):
            return None
        return batches, {remat: pair[1] if len(pair) > 1 else None for remat, pair in pairs.items()}
    except (AttributeError, TypeError, ValueError, IndexError):
        return None


def _one(batch: int, remat: bool, budget: float, step_memory, compiles):
    """Whether ``batch`` is the largest multiple of STEP that fits, for this ``remat``."""
    way_ko, way_en = WAYS[remat]
    if batch < STEP or batch % STEP:
        return wrong(f"{way_ko} 구한 답은 배치 크기 {batch:,}입니다. 배치 크기는 {STEP}의 배수(최소 {STEP})로만 "
                     f"봅니다. 직선이 예산과 만나는 크기를 {STEP}의 배수로 내림하세요",
                     f"{way_en}, the answer is the batch {batch:,}: look at multiples of {STEP} only "
                     f"(at least {STEP}); round the batch where the line meets the budget down to one")
    need, larger = _peak(step_memory, batch, remat), _peak(step_memory, batch + STEP, remat)
    if need > budget:
        return wrong(f"{way_ko} 구한 답인 배치 크기 {batch:,}에는 {_mib(need)}가 필요해 예산 {_mib(budget)}를 "
                     "넘습니다. 직선이 예산과 만나는 크기는 올림이 아니라 내림하고, 답은 컴파일해서 확인하세요",
                     f"{way_en} the batch {batch:,} needs {_mib(need)}, over the budget of {_mib(budget)}: round "
                     "the batch where the line meets the budget down, not up, and confirm the answer with a compile")
    if larger <= budget:
        return wrong(f"{way_ko} 구한 답보다 {STEP}만큼 큰 배치 크기 {batch + STEP:,}도 들어갑니다({_mib(larger)}, "
                     f"예산 {_mib(budget)}). 답은 더 큽니다. 3번처럼 {STEP}만큼 더 큰 크기가 들어가지 않는지 "
                     "컴파일해서 확인하세요",
                     f"{way_en} the batch {batch + STEP:,} fits too ({_mib(larger)} of {_mib(budget)}), so the answer "
                     f"is larger: check with a compile, as in step 3, that the batch {STEP} larger does not fit")
    counted = "" if compiles is None else f"(찾는 동안 컴파일 {compiles}번)"
    counted_en = "" if compiles is None else f" (your search: {compiles} compiles)"
    return right(f"{way_ko} 구한 답이 맞습니다. 배치 크기 {batch:,}에는 {_mib(need)}, {batch + STEP:,}에는 "
                 f"{_mib(larger)}가 필요합니다{counted}",
                 f"{way_en} the batch {batch:,} is right: it needs {_mib(need)}, and {batch + STEP:,} needs "
                 f"{_mib(larger)}{counted_en}")


def largest_batch(answers, budget, step_memory):
    """Check the largest batch within ``budget`` bytes, without and with ``jax.checkpoint``."""
    read = _batches(answers)
    if read is None:
        return wrong("답은 {False: 배치 크기, True: 배치 크기}처럼 remat 값마다 배치 크기를 담은 딕셔너리여야 합니다"
                     "((배치 크기, 컴파일 횟수) 쌍도 됩니다)",
                     "the answers should be a dict {False: batch, True: batch}, a batch for each value of remat "
                     "(or a pair (batch, compiles) for each)")
    batches, compiles = read
    results = {remat: _one(batches[remat], remat, budget, step_memory, compiles[remat]) for remat in (False, True)}
    if not all(results.values()) and batches[True] < batches[False]:   # remat stores less: its batch is the larger
        swapped = {remat: _one(batches[not remat], remat, budget, step_memory, None) for remat in (False, True)}
        if all(swapped.values()):
            return wrong("두 답이 뒤바뀌었습니다. jax.checkpoint 없이 들어가는 가장 큰 배치 크기는 "
                         f"{batches[True]:,}, 쓸 때는 {batches[False]:,}입니다. remat 값을 보세요",
                         f"the two answers are swapped: the largest batch is {batches[True]:,} without "
                         f"jax.checkpoint and {batches[False]:,} with it; look at the value of remat")
    return all_of(*results.values())


check = checks(largest_batch=largest_batch)
