"""Check your answer to the exercise of "Rematerialization": import its ``check``, then

    from check_remat import check
    check.steps(your_steps, Ws, x)

``your_steps`` maps each of the five names "plain", "everything", "dots", "names" and "nothing" to
that version's step: a jitted function ``step(Ws, x)`` that returns the gradient of the loss
``mean(h ** 2)`` of the ``scan`` model with respect to ``Ws = (W1, W2)``, the weights of every block
stacked (``W1``: depth × width × hidden, ``W2``: depth × hidden × width), ``x`` a batch × width
input. "plain" is the body as it is; the others wrap it in ``jax.checkpoint`` with
``everything_saveable``, ``dots_saveable``, ``save_only_these_names("hidden")`` and
``nothing_saveable``. ``Ws`` and ``x`` are the weights and the input you ran them on (the lesson's
``Ws`` and ``x``): your steps are compiled for them already, so the check finds their programs in
``jax.jit``'s cache instead of compiling five programs again.

The check runs every step and compares its gradient with the backward pass written out by hand (no
``jax.grad``, no ``jax.checkpoint``; its products at the highest precision, so no TF32 on a GPU),
within 1% relative and 0.2% of the largest element absolute (step 1). Then it reads each step's
compiled program, as step 2 does, for what tells the policies apart on any machine: the matrix
multiplications in the optimized program (a policy that recomputes ``h @ W1`` has one more than
"plain") and the temporary memory (what each one keeps). Step times are not graded: they depend on
the machine.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import Result, all_of, checks, close, right, run_reader, same_structure, wrong  # noqa: E402

NAMES = ("plain", "everything", "dots", "names", "nothing")
POLICY = {"everything": "everything_saveable", "dots": "dots_saveable", "names": 'save_only_these_names("hidden")',
          "nothing": "nothing_saveable"}


def _gelu(a):
    """jax.nn.gelu (its default, the tanh approximation) and its derivative, written out."""
    c = np.sqrt(2 / np.pi)
    t = jnp.tanh(c * (a + 0.044715 * a**3))
    return 0.5 * a * (1 + t), 0.5 * (1 + t) + 0.5 * a * (1 - t**2) * c * (1 + 3 * 0.044715 * a**2)


@jax.jit
def reference_gradient(weights, x):
    """The gradient of mean(h ** 2) after the blocks h + gelu(h @ W1) @ W2, by hand: the backward pass
    written out (no jax.grad, no jax.checkpoint), its products at the highest precision (no TF32).

    >>> ws = (jnp.full((2, 3, 4), 0.1), jnp.full((2, 4, 3), 0.1))
    >>> g1, g2 = reference_gradient(ws, jnp.ones((5, 3)))
    >>> g1.shape, g2.shape
    ((2, 3, 4), (2, 4, 3))
    """
    def dot(a, b):
        return jnp.matmul(a, b, precision=jax.lax.Precision.HIGHEST)

    def forward(h, w):
        z, dz_da = _gelu(dot(h, w[0]))
        return h + dot(z, w[1]), (h, z, dz_da)

    h, saved = jax.lax.scan(forward, x, weights)

    def backward(dh, layer):
        (w1, w2), (h_in, z, dz_da) = layer
        da = dot(dh, w2.T) * dz_da
        return dh + dot(da, w1.T), (dot(h_in.T, da), dot(z.T, dh))

    _, grads = jax.lax.scan(backward, 2 * h / h.size, (weights, saved), reverse=True)
    return grads


def _matmuls(hlo_text: str) -> int:
    """dot instructions (inside fusions too) and GEMM library calls (a GPU's cuBLAS) in optimized HLO."""
    return (len(re.findall(r"= \S+ dot\(", hlo_text))
            + len(re.findall(r'custom_call_target="[^"]*(?:gemm|matmul)[^"]*"', hlo_text, re.I)))


def _compiled(step, weights, x) -> dict:
    """The optimized program's matrix multiplications and temporary bytes (after a call, from jit's cache)."""
    jitted = step if hasattr(step, "lower") else jax.jit(step)   # jit again would miss the cache: compile anew
    compiled = jitted.lower(weights, x).compile()
    return {"matmuls": _matmuls(compiled.as_text()), "temp": compiled.memory_analysis().temp_size_in_bytes}


def _gradients(steps: Mapping, weights, x, want):
    """Each step's gradient against ``want``; None, or the first wrong Result."""
    for name in NAMES:
        got, problem = run_reader(steps[name], weights, x)
        if problem is not None:
            return wrong(f"{name}: {problem.ko}", f"{name}: {problem.en}")
        shape = same_structure(got, want, f"{name}의 기울기", f"{name}'s gradient")
        if not shape.ok:
            return wrong(f"{shape.ko}. 스텝은 (W1, W2)에 대한 기울기를 돌려줘야 합니다",
                         f"{shape.en}: a step returns the gradient with respect to (W1, W2)")
        scale = max(float(np.abs(w).max()) for w in want)
        values = close(got, want, f"{name}의 기울기", f"{name}'s gradient", rtol=1e-2, atol=2e-3 * scale)
        if not values.ok:
            size = np.asarray(x).size   # the mean is over every element of h, as many as of x
            total = tuple(w * size for w in want)
            if close(got, total, "값", "the values", rtol=1e-2, atol=2e-3 * scale * size).ok:
                return wrong(f"{values.ko}. 평균이 아니라 합의 기울기입니다. 손실은 jnp.mean(h ** 2)입니다",
                             f"{values.en}; it is the gradient of the sum, not the mean: the loss is jnp.mean(h ** 2)")
            return values
    return None


def _problems(figures: dict):
    """What the matmul counts and the temporary memory say is wrong with a step's policy, first first."""
    plain = figures["plain"]
    for name in ("everything", "dots"):
        if figures[name]["matmuls"] < plain["matmuls"]:
            yield (f"plain 스텝의 행렬 곱이 {name} 스텝보다 많습니다. plain은 jax.checkpoint로 감싸지 않은 "
                   "본문입니다",
                   f"plain has more matrix multiplications than {name}: plain is the body without jax.checkpoint")
        if figures[name]["matmuls"] > plain["matmuls"]:
            yield (f"{name} 스텝이 행렬 곱을 다시 계산합니다. {POLICY[name]}에서는 역방향 패스에 필요한 행렬 곱의 "
                   "출력이 저장되므로 다시 계산할 행렬 곱이 없습니다. 정책을 보세요",
                   f"{name} recomputes a matrix multiplication: under {POLICY[name]} the outputs of matrix "
                   "multiplications the backward pass needs are saved, so none is recomputed; look at its policy")
    for name in ("names", "nothing"):
        if figures[name]["matmuls"] <= plain["matmuls"]:
            yield (f"{name} 스텝이 행렬 곱을 다시 계산하지 않습니다. {POLICY[name]}에서는 h @ W1을 저장하지 "
                   "않으므로 역방향 패스에서 다시 계산해야 합니다. 본문을 그 정책과 함께 jax.checkpoint로 "
                   "감쌌는지 보세요",
                   f"{name} recomputes no matrix multiplication: under {POLICY[name]} h @ W1 is not saved, so "
                   "the backward pass must compute it again; look at whether the body is wrapped in "
                   "jax.checkpoint with that policy")
    if figures["names"]["temp"] <= 1.05 * figures["nothing"]["temp"]:
        yield ("names 스텝이 nothing 스텝만큼 적게 저장합니다. 블록에서 gelu의 출력에 "
               "checkpoint_name(..., \"hidden\")으로 이름을 붙였는지 보세요. 이름 붙은 값이 없으면 "
               "save_only_these_names(\"hidden\")은 아무것도 저장하지 않습니다",
               "names keeps as little as nothing: look at whether the block names gelu's output with "
               "checkpoint_name(..., \"hidden\"); with no value of that name, "
               "save_only_these_names(\"hidden\") saves nothing")
    smallest = min(NAMES, key=lambda n: figures[n]["temp"])
    if smallest != "nothing":
        yield (f"임시 메모리가 가장 적은 것이 nothing이 아니라 {smallest} 스텝입니다. nothing_saveable은 "
               "본문의 입력만 남기므로 가장 적게 써야 합니다. 정책을 보세요",
               f"the least temporary memory is {smallest}'s, not nothing's: nothing_saveable keeps only the "
               "body's inputs, so it should use the least; look at the policies")


def _policies(figures: dict) -> Result:
    """The first problem ``_problems`` finds, or that all five fit their policies; with the figures."""
    shown = ", ".join(f"{n} {figures[n]['matmuls']}·{figures[n]['temp'] / 2**20:,.2f}" for n in NAMES)
    facts_ko = f"스텝마다 행렬 곱 수·임시 메모리(MiB)는 {shown}입니다"
    facts_en = f"per step, matmuls·temporary MiB: {shown}"
    for ko, en in _problems(figures):
        return wrong(f"{ko}. {facts_ko}", f"{en}; {facts_en}")
    return right(f"행렬 곱 수와 임시 메모리도 다섯 스텝 모두 제 정책에 맞습니다. {facts_ko}",
                 f"the matmul counts and the temporary memory fit all five policies; {facts_en}")


def steps(your_steps, Ws, x):
    """Check the five steps' gradients (against the backward pass by hand) and what their compiled
    programs say of their policies, on the weights ``Ws`` and input ``x`` you ran them on."""
    if not isinstance(your_steps, Mapping):
        return wrong(f"스텝은 이름({', '.join(NAMES)})을 키로 하는 딕셔너리로 주세요",
                     f"give the steps as a dict keyed by name ({', '.join(NAMES)})")
    missing = [name for name in NAMES if name not in your_steps]
    if missing:
        return wrong(f"{', '.join(missing)} 스텝이 없습니다. 다섯 가지({', '.join(NAMES)})를 모두 주세요",
                     f"missing: {', '.join(missing)}; give all five ({', '.join(NAMES)})")
    want = jax.tree.map(lambda g: np.asarray(g, np.float64), reference_gradient(Ws, x))
    problem = _gradients(your_steps, Ws, x, want)
    if problem is not None:
        return problem
    figures = {name: _compiled(your_steps[name], Ws, x) for name in NAMES}
    return all_of(right("다섯 스텝의 기울기가 손으로 쓴 역방향 패스의 기울기와 맞습니다",
                        "all five gradients match the backward pass written by hand"),
                  _policies(figures))


check = checks(steps=steps)
