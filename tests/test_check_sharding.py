"""The reader's check of the sharding lesson's exercise (``examples/check_sharding.py``): the program's
winner and bytes at M = 256, K = 4096, N = 256 pass, and wrong predictions are named in both languages.

The check needs the lesson's 8 CPU devices, which JAX grants only before its CPU backend starts: the
checks run in a fresh Python process that asks for them (this process keeps its one device).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import jax
import pytest
from check_sharding import check
from exercise_check import Result
from readers_checks import said
from sitebuild import ROOT

SCRIPT = r"""
import json
import jax

jax.config.update("jax_num_cpu_devices", 8)
from check_sharding import check
from matmul_partitionings import fewest_bytes, measure

rows = measure(256, 4096, 256, 8)
sent = {row["key"]: row["sent"] for row in rows if row["fully_sharded"]}
combine = next(row for row in rows if row["key"] == "k_c_rows")["kinds"]
results = {
    "winner": check.least(fewest_bytes(rows)[0]), "matrix": check.least("c"),
    "first shape": check.least("rows_b_rows"), "gather a": check.least("A"), "unknown": check.least("D"),
    "bytes": check.bytes_sent(sent),
    "whole": check.bytes_sent({key: value * 8 / 7 for key, value in sent.items()}),
    "kib": check.bytes_sent({key: value / 1024 for key, value in sent.items()}),
    "other": check.bytes_sent({**sent, "k_b_cols": 5}),
    "keys": check.bytes_sent({"a": 1}),
}
if combine == ["all-reduce"]:
    results["c once"] = check.bytes_sent({**sent, "k_c_rows": sent["k_c_rows"] / 2})
print("RESULTS", json.dumps({"winner": fewest_bytes(rows), "combine": combine,
                             "results": {name: vars(result) for name, result in results.items()}}))
"""


@pytest.fixture(scope="module")
def ran() -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "examples"), "JAX_PLATFORMS": "cpu"}
    process = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=600)
    assert process.returncode == 0, process.stderr[-4000:]
    line = next(line for line in process.stdout.splitlines() if line.startswith("RESULTS "))
    found = json.loads(line.removeprefix("RESULTS "))
    found["results"] = {name: Result(**fields) for name, fields in found["results"].items()}
    return found


def test_the_programs_answer_passes(ran):
    results = ran["results"]
    assert ran["winner"] == ["k_c_rows"], ran["winner"]   # C is the smallest matrix at this shape
    assert results["winner"].ok and results["matrix"].ok and results["bytes"].ok, results
    assert "448 KiB" in results["winner"].en and "448 KiB" in results["winner"].ko


def test_a_wrong_winner_is_named(ran):
    results = ran["results"]
    said(results["first shape"], "not that one", "Gathering B won at the shape above", korean="앞의 형상")
    said(results["gather a"], "the smallest matrix moves least", "A 4.00 MiB, B 4.00 MiB, C 0.25 MiB",
         korean="가장 작은 행렬")
    said(results["unknown"], "the key of a fully sharded partitioning", korean="키")


def test_wrong_bytes_are_named(ran):
    results = ran["results"]
    said(results["whole"], "3 of 3 predictions are wrong", "Whole matrices counted", korean="통째로")
    said(results["kib"], "Give bytes, not KiB", korean="KiB가 아니라")
    said(results["other"], "1 of 3", "k_b_cols (all-gather): 5, where 3,670,016 is right", "in a ring",
         korean="받은 값 5")
    said(results["keys"], "a dict with the keys", korean="딕셔너리여야")
    if "c once" in results:   # this build combines the partial sums with an all-reduce
        said(results["c once"], "C's partial sums counted once", korean="한 번만")


def test_without_eight_devices_the_check_says_how_to_get_them():
    if len(jax.devices("cpu")) >= 8:
        pytest.skip("this process has 8 CPU devices")
    said(check.least("C"), "needs 8 CPU devices", korean="첫 셀")
    said(check.bytes_sent({}), "needs 8 CPU devices", korean="첫 셀")
