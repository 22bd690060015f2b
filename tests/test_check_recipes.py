"""The exercise check of "Parallelism recipes" (``examples/check_recipes.py``): it passes the factors the
solution's program measures, and names each known-wrong prediction, in Korean and in English."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from check_recipes import AFTER, BEFORE, check
from readers_checks import said

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

# The bytes DP and TP send, measured as the solution measures them: parallel_recipes' steps compiled on a
# mesh of 8 CPU devices, in a fresh interpreter (the device count is fixed when JAX starts).
MEASURE = """
import json, sys
import jax
jax.config.update("jax_num_cpu_devices", 8)
import numpy as np
from collectives import bytes_sent, collectives
from parallel_recipes import mlp_widths, sharded_step

sent = {}
for label, width, batch in (("before", %(before)s), ("after", %(after)s)):
    widths = mlp_widths(width, 2)
    params = [{"w": jax.ShapeDtypeStruct((a, b), np.float32), "b": jax.ShapeDtypeStruct((b,), np.float32)}
              for a, b in zip(widths[:-1], widths[1:])]
    x = jax.ShapeDtypeStruct((batch, width), np.float32)
    for name in ("DP", "TP"):
        step, _, _ = sharded_step(name, 2, (4, 2))
        hlo = step.lower(params, x, x).compile().as_text()
        sent[f"{name} {label}"] = sum(bytes_sent(op) for op in collectives(hlo))
print(json.dumps(sent))
"""


def test_the_check_passes_the_factors_the_solutions_program_measures():
    code = MEASURE % {"before": f"{BEFORE['width']}, {BEFORE['batch']}", "after": f"{AFTER['width']}, {AFTER['batch']}"}
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=EXAMPLES, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(EXAMPLES)})
    assert ran.returncode == 0, ran.stderr[-3000:]
    sent = json.loads(ran.stdout.strip().splitlines()[-1])
    result = check.factors(sent["DP after"] / sent["DP before"], sent["TP after"] / sent["TP before"])
    assert result.ok, (result, sent)
    assert check.factors(16, 1 / 4).ok   # the prediction from the shapes, biases left out


def test_the_check_names_each_wrong_prediction():
    said(check.factors(4, 1 / 16), "DP's factor 4 is wrong", "width squared", "TP's factor 0.0625 is wrong",
         "batch × width", korean="폭의 제곱")
    said(check.factors(1 / 4, 16), "swapped", korean="서로 바뀌었습니다")
    said(check.factors(16, 4), "DP's factor is right", "TP's factor 4 is wrong", "new bytes over old",
         korean="1보다 작습니다")
    said(check.factors(1 / 16, 0.25), "DP's factor 0.0625 is wrong", "whatever the batch", korean="배치 크기와 무관")
    said(check.factors(3, 0.25), "DP's factor 3 is wrong (allowed: ±5%)", korean="허용 범위")
    said(check.factors("16x", 0.25), "two numbers", korean="숫자 두 개")
