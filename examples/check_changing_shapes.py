"""Check your answer to the exercise of "When shapes change: padding and bucketing": import its ``check``, then

    from check_changing_shapes import check
    check.batches(your_make_batches)
    check.compiles(your_counts, dataset_size, batch_size, bucket_sizes)

``your_make_batches(x, y, batch_size, strategy)`` (step 1) should cut the arrays ``x`` (rows of
features) and ``y`` into a list of batches ``(x, y, mask)``, the way ``strategy`` says: ``"ragged"``
(the last batch keeps its size), ``"padded"`` (every batch padded to ``batch_size``) or
``"bucketed"`` (the last batch padded to the smallest of your bucket sizes that holds it); the mask
is 1 on real rows and 0 on padded ones (all ones for ragged batches). The check cuts small datasets
of its own: every example once, in order, under a mask of 1, and padded rows under 0; then, over
datasets of every size from 3 batches and 1 row to 4 batches less 1 row, how many batch shapes
each way makes: the shapes are what the training step compiles for.

``your_counts`` (step 2) is ``{"ragged": (first, later), "padded": (...), "bucketed": (...)}``: the
training step's compilations in the first epoch and in all later epochs together, as you counted
them for ``dataset_size`` examples in batches of ``batch_size``, with ``bucket_sizes`` your list of
bucket sizes. The check works out what they must be, one per batch shape, each way with a step of
its own. No time is measured or graded.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import all_of, checks, right, run_reader, wrong  # noqa: E402

STRATEGIES = ("ragged", "padded", "bucketed")
KO_WAY = {"ragged": "크기 그대로 둔 쪽(ragged)", "padded": "패딩한 쪽(padded)", "bucketed": "버킷팅한 쪽(bucketed)"}
BATCH = 4
SIZES_BATCH = 16   # the batch size of the shapes test: datasets of 3 batches + 1 to 15 rows


def _dataset(rows: int, features: int = 3):
    """Rows numbered 1, 2, ... (row i: features i, i + 0.25, ...; y -i), so that every row can be traced."""
    numbers = np.arange(1, rows + 1, dtype=np.float32)
    return numbers[:, None] + 0.25 * np.arange(features, dtype=np.float32), -numbers


def _cut(make, rows: int, batch_size: int, strategy: str):
    """The reader's batches of a dataset of ``rows``, as NumPy arrays: ``(batches, None)`` or ``(None, Result)``."""
    x, y = _dataset(rows)
    batches, problem = run_reader(make, x, y, batch_size, strategy)
    if problem is not None:
        return None, wrong(f"{KO_WAY[strategy]}: {problem.ko}", f"{strategy}: {problem.en}")
    try:
        batches = [tuple(np.asarray(part) for part in batch) for batch in batches]
        if not batches or any(len(batch) != 3 for batch in batches):
            raise ValueError
    except (TypeError, ValueError):
        return None, wrong(f"{KO_WAY[strategy]}: 함수는 배치 (x, y, mask)의 리스트를 돌려줘야 합니다",
                           f"{strategy}: your function should return a list of batches (x, y, mask)")
    return batches, None


def _rows(batches, strategy: str, x, y):
    """What is wrong with the rows and masks of ``batches`` of the dataset (x, y), or None."""
    name_ko, name_en = KO_WAY[strategy], strategy
    for i, (bx, by, mask) in enumerate(batches, 1):
        if not len(bx) == len(by) == len(mask):
            return (f"{name_ko}: {i}번째 배치의 x, y, mask의 행 수가 {len(bx)}, {len(by)}, {len(mask)}개로 다릅니다",
                    f"{name_en}: batch {i} has {len(bx)} rows of x, {len(by)} of y, {len(mask)} of mask")
        if not np.isin(mask, (0, 1)).all():
            return (f"{name_ko}: {i}번째 배치의 마스크에 0과 1이 아닌 값이 있습니다",
                    f"{name_en}: the mask of batch {i} holds values other than 0 and 1")
    real_x = np.concatenate([bx[np.asarray(mask) == 1] for bx, _, mask in batches])
    real_y = np.concatenate([by[np.asarray(mask) == 1] for _, by, mask in batches])
    if len(real_x) > len(x):
        return (f"{name_ko}: 마스크가 1인 행이 {len(real_x)}개로, 데이터셋의 {len(x)}개보다 많습니다. "
                "패딩한 행의 마스크는 0이어야 손실에 들어가지 않습니다",
                f"{name_en}: {len(real_x)} rows have mask 1, more than the dataset's {len(x)}: padded rows need "
                "mask 0, to count for nothing in the loss")
    if len(real_x) < len(x):
        return (f"{name_ko}: 마스크가 1인 행이 {len(real_x)}개뿐입니다. 데이터셋의 {len(x)}행이 모두 배치에 들어가야 "
                "합니다(마지막 배치를 버리지 마세요)",
                f"{name_en}: only {len(real_x)} rows have mask 1, of the dataset's {len(x)}: every example belongs in "
                "a batch (keep the last one)")
    if not (np.array_equal(real_x, x) and np.array_equal(real_y, y)):
        return (f"{name_ko}: 마스크가 1인 행의 x나 y가 데이터셋의 행과 차례대로 같지 않습니다",
                f"{name_en}: the rows under mask 1 are not the dataset's x and y, in order")
    return None


def batches(make):
    """Check ``make(x, y, batch_size, strategy)``: the rows and masks of each way, then how many shapes each makes."""
    rows = 2 * BATCH + 2
    x, y = _dataset(rows)
    for strategy in STRATEGIES:
        cut, problem = _cut(make, rows, BATCH, strategy)
        if problem is not None:
            return problem
        found = _rows(cut, strategy, x, y)
        if found is not None:
            return wrong(*found)
        sizes = [len(batch[0]) for batch in cut]
        full = sizes[:-1]
        if any(size != BATCH for size in full):
            return wrong(f"{KO_WAY[strategy]}: 배치 크기가 {sizes}입니다. 마지막 배치 말고는 모두 "
                         f"{BATCH}행이어야 합니다",
                         f"{strategy}: batch sizes {sizes}; every batch but the last should have {BATCH} rows")
        last, expected = sizes[-1], {"ragged": [2], "padded": [BATCH], "bucketed": list(range(2, BATCH + 1))}[strategy]
        if last not in expected:
            ko = {"ragged": f"마지막 배치가 남은 2행 그대로여야 하는데 {last}행입니다",
                  "padded": f"마지막 배치가 {BATCH}행으로 패딩되어야 하는데 {last}행입니다",
                  "bucketed": f"마지막 배치가 남은 2행 이상, 배치 크기 {BATCH}행 이하인 버킷이어야 하는데 "
                              f"{last}행입니다"}
            en = {"ragged": f"the last batch should keep its 2 rows, not {last}",
                  "padded": f"the last batch should be padded to {BATCH} rows, not {last}",
                  "bucketed": f"the last batch should be padded to a bucket of 2 to {BATCH} rows, not {last}"}
            return wrong(f"{KO_WAY[strategy]}: {ko[strategy]}", f"{strategy}: {en[strategy]}")
    shapes = {}
    for strategy in STRATEGIES:
        seen = set()
        for rest in range(1, SIZES_BATCH):
            cut, problem = _cut(make, 3 * SIZES_BATCH + rest, SIZES_BATCH, strategy)
            if problem is not None:
                return problem
            seen |= {len(batch[0]) for batch in cut}
        shapes[strategy] = seen
    many, remainders = len(shapes["bucketed"]), SIZES_BATCH - 1
    counts_ko = (f"배치 크기 {SIZES_BATCH}, 남는 행이 1에서 {remainders}개까지인 데이터셋 {remainders}개에서 "
                 f"배치 형상이 ragged {len(shapes['ragged'])}가지, padded {len(shapes['padded'])}가지, "
                 f"bucketed {many}가지였습니다")
    counts_en = (f"over {remainders} datasets, batches of {SIZES_BATCH} and 1 to {remainders} rows left over, the "
                 f"batch shapes were ragged {len(shapes['ragged'])}, padded {len(shapes['padded'])}, bucketed {many}")
    if len(shapes["padded"]) != 1:
        return wrong(f"{counts_ko}. 패딩한 배치는 형상이 하나뿐이어야 합니다",
                     f"{counts_en}: padded batches should have one shape")
    if shapes["bucketed"] == shapes["padded"]:
        return wrong(f"{counts_ko}. 버킷팅한 쪽이 마지막 배치를 언제나 배치 크기로 패딩했습니다. "
                     "그러면 패딩한 쪽과 같습니다. "
                     "배치 크기보다 작은 버킷도 두세요",
                     f"{counts_en}: bucketed always padded the last batch to the batch size, which is padding: "
                     "have buckets below the batch size too")
    if many > remainders // 2:
        return wrong(f"{counts_ko}. 버킷팅한 쪽의 형상이 거의 남는 행 수만큼 많습니다. 버킷 크기 몇 개만 두고 마지막 "
                     "배치를 그 가운데 하나로 패딩하세요",
                     f"{counts_en}: bucketed made nearly one shape per remainder; keep a few bucket sizes, and pad the "
                     "last batch to one of them")
    return all_of(right("세 방법 모두 데이터셋의 모든 행을 차례대로 마스크 1로 담았고, 패딩한 행은 마스크가 0입니다",
                        "all three ways hold every example once, in order, under mask 1, and padded rows under mask 0"),
                  right(counts_ko, counts_en))


def expected_compiles(dataset_size: int, batch_size: int, bucket_sizes) -> dict[str, tuple[int, int]]:
    """Each way's (first epoch, later epochs) compilations: one per batch shape, none after the first epoch.

    >>> expected_compiles(10_000, 512, [128, 256, 384, 512])
    {'ragged': (2, 0), 'padded': (1, 0), 'bucketed': (2, 0)}
    """
    full, last = divmod(dataset_size, batch_size)
    ragged = {batch_size} if full else set()
    bucket = min((b for b in bucket_sizes if b >= last), default=None) if last else None
    shapes = {"ragged": ragged | ({last} if last else set()), "padded": {batch_size},
              "bucketed": ragged | ({bucket} if bucket else set())}
    return {way: (len(found), 0) for way, found in shapes.items()}


def compiles(counts, dataset_size: int, batch_size: int, bucket_sizes):
    """Check the counted compilations ``{way: (first epoch, later epochs)}`` against one per batch shape."""
    full, last = divmod(dataset_size, batch_size)
    if last and not any(b >= last for b in bucket_sizes):
        return wrong(f"마지막 배치의 {last}행을 담을 버킷이 없습니다. 가장 큰 버킷은 배치 크기여야 합니다",
                     f"no bucket holds the last batch's {last} rows: make the largest bucket the batch size")
    want = expected_compiles(dataset_size, batch_size, bucket_sizes)
    try:
        got = {way: tuple(int(n) for n in counts[way]) for way in STRATEGIES}
        if any(len(pair) != 2 for pair in got.values()):
            raise ValueError
    except (KeyError, TypeError, ValueError):
        return wrong("횟수는 {'ragged': (첫 에포크, 이후 에포크), 'padded': (...), 'bucketed': (...)} 꼴의 "
                     "딕셔너리로 주세요",
                     "give the counts as {'ragged': (first epoch, later epochs), 'padded': (...), 'bucketed': (...)}")
    batches_per_epoch = full + (1 if last else 0)
    for way in STRATEGIES:
        (first, later), (right_first, _) = got[way], want[way]
        name_ko = KO_WAY[way]
        if later:
            return wrong(f"{name_ko}: 이후 에포크에서 컴파일이 {later}번 있었습니다. 컴파일은 첫 에포크에서 "
                         "끝나야 합니다. 에포크마다 jax.jit을 새로 부르지 않았는지 보세요",
                         f"{way}: {later} compilations in later epochs, where there should be none: is jax.jit called "
                         "again every epoch?")
        if first == right_first:
            continue
        ko = f"{name_ko}: 첫 에포크의 컴파일이 {first}번입니다. 배치 형상마다 한 번씩, {right_first}번이어야 합니다"
        en = f"{way}: {first} compilations in the first epoch, where {right_first} is right, one per batch shape"
        if first == batches_per_epoch and batches_per_epoch != right_first:
            return wrong(f"{ko}. 에포크의 배치 수와 같습니다. 호출 횟수가 아니라 컴파일 횟수를 세세요",
                         f"{en}; it is the number of batches in an epoch: count compilations, not calls")
        if first < right_first:
            return wrong(f"{ko}. 앞에서 잰 방법과 학습 스텝 함수를 함께 쓰면 그 캐시를 다시 씁니다. 방법마다 jax.jit을 "
                         "새로 부르세요",
                         f"{en}; a step shared with a way measured before reuses its cache: jit a fresh step for "
                         "each way")
        return wrong(f"{ko}. 배치마다 x, y, mask의 자료형이 같은지 보세요",
                     f"{en}: check that every batch's x, y and mask have the same dtypes")
    described = ", ".join(f"{way} {want[way][0]}" for way in STRATEGIES)
    return right(f"컴파일 횟수가 모두 맞습니다. 첫 에포크에서 ragged {want['ragged'][0]}번, "
                 f"padded {want['padded'][0]}번, bucketed {want['bucketed'][0]}번이고, 이후 에포크에서는 없습니다",
                 f"every count is right: in the first epoch {described}; none later")


check = checks(batches=batches, compiles=compiles)
