"""The exercise check of "shard_map and collectives" (``examples/check_shard_map.py``): it passes the
solution's ring (and the same ring in a ``fori_loop``), and names each known-wrong ring, in Korean and in
English. The check needs several devices, whose count is fixed when JAX starts: the answers run in a fresh
interpreter with 8 CPU devices, as in the lesson, and come back as JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from check_shard_map import executed_collectives
from exercise_check import Result
from readers_checks import said

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

ANSWERS = '''
import json
import jax
jax.config.update("jax_num_cpu_devices", 8)
from check_shard_map import check
from ring_collectives import ring_all_reduce


def ring_in_loops(block, axis_name="x"):   # the solution's ring, each phase a fori_loop
    n, me = jax.lax.axis_size(axis_name), jax.lax.axis_index(axis_name)
    perm = [(i, (i + 1) % n) for i in range(n)]

    def reduce_scatter(s, chunks):
        sent = jax.lax.dynamic_index_in_dim(chunks, (me - s) % n, keepdims=False)
        return chunks.at[(me - s - 1) % n].add(jax.lax.ppermute(sent, axis_name, perm))

    def all_gather(s, chunks):
        sent = jax.lax.dynamic_index_in_dim(chunks, (me + 1 - s) % n, keepdims=False)
        return chunks.at[(me - s) % n].set(jax.lax.ppermute(sent, axis_name, perm))

    chunks = jax.lax.fori_loop(0, n - 1, reduce_scatter, block.reshape(n, -1))
    return jax.lax.fori_loop(0, n - 1, all_gather, chunks).reshape(block.shape)


def reduce_scatter_only(block, axis_name="x"):   # the first phase without the second
    n, me = jax.lax.axis_size(axis_name), jax.lax.axis_index(axis_name)
    chunks, perm = block.reshape(n, -1), [(i, (i + 1) % n) for i in range(n)]
    for s in range(n - 1):
        sent = jax.lax.dynamic_index_in_dim(chunks, (me - s) % n, keepdims=False)
        chunks = chunks.at[(me - s - 1) % n].add(jax.lax.ppermute(sent, axis_name, perm))
    return chunks.reshape(block.shape)


def whole_blocks(block):   # n - 1 steps, each passing the whole block on
    n = jax.lax.axis_size("x")
    total, passed = block, block
    for _ in range(n - 1):
        passed = jax.lax.ppermute(passed, "x", [(i, (i + 1) % n) for i in range(n)])
        total = total + passed
    return total


answers = {
    "solution": ring_all_reduce,
    "loops": ring_in_loops,
    "psum": lambda block: jax.lax.psum(block, "x"),
    "all_gather": lambda block: jax.lax.all_gather(block, "x").sum(axis=0),
    "reduce_scatter_only": reduce_scatter_only,
    "whole_blocks": whole_blocks,
    "unchanged": lambda block: block,
    "raises": lambda block: block.reshape(3, -1),
}
print(json.dumps({name: vars(check.ring_all_reduce(f)) for name, f in answers.items()}, ensure_ascii=False))
'''


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    ran = subprocess.run([sys.executable, "-c", ANSWERS], capture_output=True, text=True, cwd=EXAMPLES, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(EXAMPLES)})
    assert ran.returncode == 0, ran.stderr[-3000:]
    return {name: Result(**r) for name, r in json.loads(ran.stdout.strip().splitlines()[-1]).items()}


def test_the_check_passes_the_solutions_ring_unrolled_or_in_loops(results):
    for name in ("solution", "loops"):
        assert results[name].ok, results[name]
        assert "14 collective-permute steps, 224 bytes" in results[name].en, results[name].en
        assert "14단계" in results[name].ko, results[name].ko


def test_the_check_names_each_wrong_ring(results):
    said(results["psum"], "holds all-reduce", "ppermute alone", korean="ppermute만으로")
    said(results["all_gather"], "holds all-gather", korean="all-gather")
    said(results["reduce_scatter_only"], "one chunk only", "all-gather phase", korean="all-gather 과정")
    said(results["whole_blocks"], "896 bytes", "the whole block", korean="블록 전체")
    said(results["unchanged"], "its own block unchanged", korean="자기 블록 그대로")
    said(results["raises"], "raised", korean="오류를 냈습니다")


def test_a_collective_in_a_loop_counts_once_per_trip():
    hlo = """
%body (p: (s32[], f32[4])) -> (s32[], f32[4]) {
  %cp = f32[4]{0} collective-permute(%g), channel_id=1, source_target_pairs={{0,1},{1,0}}
}
ENTRY %main (a: f32[4]) -> f32[4] {
  %w = (s32[], f32[4]) while(%t), condition=%cond, body=%body, backend_config={"known_trip_count":{"n":"7"}}
  %w2 = (s32[], f32[4]) while(%t), condition=%cond, body=%body
}
"""
    ops, known = executed_collectives(hlo)
    assert [times for _, times in ops] == [7, 1] and not known
