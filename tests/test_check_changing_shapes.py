"""The exercise check of "When shapes change: padding and bucketing"
(``examples/check_changing_shapes.py``): it passes the solution's batches and counts and names what
is wrong with known-wrong answers, in Korean and in English."""

from __future__ import annotations

import jax.numpy as jnp
from check_changing_shapes import check, expected_compiles
from ragged_batches import bucket_sizes, make_batches, train_all
from readers_checks import said


def test_the_solution_passes():
    assert check.batches(make_batches).ok
    results, _, _ = train_all(["ragged", "padded", "bucketed"], dataset_size=10, batch_size=4, epochs=7)
    counts = {way: (r["compiles first epoch"], r["compiles later epochs"]) for way, r in results.items()}
    assert counts == expected_compiles(10, 4, bucket_sizes(4, 4))
    assert check.compiles(counts, 10, 4, bucket_sizes(4, 4)).ok


def test_batches_names_a_missing_mask_a_dropped_batch_and_buckets_that_are_not():
    said(check.batches(lambda x, y, b, s: [(bx, by, jnp.ones(len(bx))) for bx, by, _ in make_batches(x, y, b, s)]),
         "padded:", "more than the dataset's 10", "mask 0", korean="마스크")
    said(check.batches(lambda x, y, b, s: make_batches(x, y, b, s)[:len(x) // b]), "ragged:", "keep the last one",
         korean="버리지")
    said(check.batches(lambda x, y, b, s: make_batches(x, y, b, "padded" if s == "bucketed" else s)),
         "bucketed 1", "which is padding", korean="작은 버킷")
    said(check.batches(lambda x, y, b, s: make_batches(x, y, b, "ragged" if s == "bucketed" else s)),
         "bucketed 16", "one shape per remainder", korean="버킷 크기 몇 개")
    said(check.batches(lambda x, y, b, s: make_batches(x[::-1], y[::-1], b, s)), "in order", korean="차례대로")
    said(check.batches(lambda x, y, b, s: 5), "a list of batches (x, y, mask)", korean="리스트")


def test_compiles_names_a_shared_step_calls_counted_and_recompiling_epochs():
    buckets = bucket_sizes(512, 4)
    said(check.compiles({"ragged": (2, 0), "padded": (0, 0), "bucketed": (1, 0)}, 10000, 512, buckets),
         "padded: 0 compilations", "jit a fresh step for each way", korean="새로")
    said(check.compiles({way: (20, 0) for way in ("ragged", "padded", "bucketed")}, 10000, 512, buckets),
         "count compilations, not calls", korean="호출 횟수")
    said(check.compiles({"ragged": (2, 18), "padded": (1, 0), "bucketed": (2, 0)}, 10000, 512, buckets),
         "18 compilations in later epochs", korean="이후 에포크")
    said(check.compiles({"ragged": (2, 0), "padded": (2, 0), "bucketed": (2, 0)}, 10000, 512, buckets),
         "padded: 2 compilations", "dtypes", korean="자료형")
    said(check.compiles({"ragged": (2, 0)}, 10000, 512, buckets), "give the counts as", korean="딕셔너리")
    said(check.compiles({}, 10000, 512, [128]), "no bucket holds the last batch's 272 rows", korean="272행")
