"""The reader's check of the meshes lesson's exercise (``examples/check_meshes.py``): the program's own
table on the 2 × 4 mesh passes, and wrong predictions are named in both languages.

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
from check_meshes import check
from exercise_check import Result
from readers_checks import said
from sitebuild import ROOT

SCRIPT = r"""
import json
import jax

jax.config.update("jax_num_cpu_devices", 8)
from jax.sharding import PartitionSpec as P
from check_meshes import check, SPECS, _on_paper
from sharding_layouts import run

table = {layout.spec: (layout.shard_shape, layout.bytes_per_device, layout.replication,
                       layout.reductions[0], layout.reductions[1]) for layout in run((2, 4), (1024, 512))["layouts"]}
paper = {spec: _on_paper(spec, {"x": 2, "y": 4}) for spec in SPECS}   # groups as numbers and None
old = {spec: _on_paper(spec, {"x": 4, "y": 2}) for spec in SPECS}   # the lesson's 4 x 2 mesh
shard, nbytes, copies, sum0, sum1 = paper[P("x")]
cases = {
    "table": table, "paper": paper, "old": old,
    "kib": {**paper, P("x"): (shard, nbytes // 1024, copies, sum0, sum1)},
    "copies": {**paper, P("x"): (shard, nbytes, 2, sum0, sum1)},
    "missing": {P("x", None): paper[P("x")]},
    "short": {**paper, P(): (1, 2)},
    "list": [1],
}
print("RESULTS", json.dumps({name: vars(check.predictions(value)) for name, value in cases.items()}))
"""


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "examples"), "JAX_PLATFORMS": "cpu"}
    ran = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=600)
    assert ran.returncode == 0, ran.stderr[-4000:]
    line = next(line for line in ran.stdout.splitlines() if line.startswith("RESULTS "))
    return {name: Result(**fields) for name, fields in json.loads(line.removeprefix("RESULTS ")).items()}


def test_the_programs_table_and_the_predictions_on_paper_pass(results):
    assert results["table"].ok and results["paper"].ok, (results["table"], results["paper"])
    assert "all 30 predictions" in results["paper"].en and "30개가 모두" in results["paper"].ko


def test_the_4_by_2_meshs_values_are_named(results):
    said(results["old"], "14 of 30 predictions are wrong", "P('x') shard shape (256, 512), where (512, 512) is right",
         "the 4 × 2 mesh's values", korean="4 × 2 메시의 값")


def test_a_wrong_value_names_its_rule(results):
    said(results["kib"], "P('x') bytes per device 1,024, where 1,048,576 is right", "given in KiB",
         korean="KiB를 적은")
    said(results["copies"], "1 of 30", "P('x') copies 2, where 4 is right", "mesh axes the spec does not use",
         korean="복제 수")


def test_the_form_of_the_predictions_is_named(results):
    said(results["missing"], "no prediction for P('x', 'y')", korean="예측이 없는 PartitionSpec")
    said(results["short"], "the prediction for P() should be a tuple", korean="튜플이어야")
    said(results["list"], "a dict whose keys are PartitionSpecs", korean="딕셔너리여야")


def test_without_eight_devices_the_check_says_how_to_get_them():
    if len(jax.devices("cpu")) >= 8:
        pytest.skip("this process has 8 CPU devices")
    said(check.predictions({}), "needs 8 CPU devices", "jax_num_cpu_devices", korean="첫 셀")
