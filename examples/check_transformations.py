"""Check your answer to the exercise of "Composable transformations": import its ``check``, then

    from check_transformations import check
    check.per_example_grads(your_jit_vmap)
    check.per_example_grads(your_vmap_jit)
    check.counts(your_counts)

``per_example_grads``: ``your_function(params, x, y)`` should return the gradient of ``loss_fn``
for every example of the batch, one row per example: ``{"w": (batch, 3), "b": (batch,)}``, as both
compositions of the exercise do. The check calls it on a batch of its own, made of numbers that
float32 holds exactly (so a GPU's matrix units round nothing), and compares with the gradients
written out in NumPy float64.

``counts``: ``your_counts`` is what you counted over ``calls`` calls (3 unless you say) of a freshly
composed function of each order: ``{"jit(vmap)": {"vmap body run": ..., "loss_fn traced": ...},
"vmap(jit)": {...}}``, where "vmap body run" counts the runs of the function ``vmap`` receives and
"loss_fn traced" the runs of ``loss_fn`` (Python runs it only while JAX traces it); a count of XLA
compilations, "compiles", is checked too if you give it. The check counts the same things itself, on
this machine's JAX, and says for each count that differs what runs when.
"""

from __future__ import annotations

import collections
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import all_of, checks, close, right, run_reader, same_structure, wrong  # noqa: E402

# A batch whose every product and sum float32 (and TF32) holds exactly: the gradients are exact anywhere.
PARAMS = {"w": np.array([0.5, -1.0, 2.0]), "b": np.array(0.25)}
X = np.array([[1.0, 2.0, -1.0], [0.0, -2.0, 1.5], [3.0, 1.0, 0.5], [-1.0, 0.0, 2.0]])
Y = np.array([1.0, -2.0, 0.5, 3.0])
ORDERS = ("jit(vmap)", "vmap(jit)")
COUNTED = ("vmap body run", "loss_fn traced")
COMPILES = "compiles"
CALLS = 3
# How each count reads in a message: Korean subject (with its particle) and verb, English subject and verb.
WHAT = {"vmap body run": ("vmap이 받은 함수는", "실행되었습니다", "the function vmap receives", "ran"),
        "loss_fn traced": ("loss_fn 함수의 트레이싱은", "일어났습니다", "loss_fn", "was traced"),
        COMPILES: ("XLA 컴파일은", "일어났습니다", "XLA", "compiled")}


def exact_grads(params, x, y):
    """Per-example gradients of the squared error of ``x @ w + b`` against ``y``, written out in float64.

    >>> exact_grads({"w": np.array([1.0, 0.0]), "b": 0.5}, np.array([[2.0, 3.0]]), np.array([1.0]))
    {'w': array([[6., 9.]]), 'b': array([3.])}
    """
    residual = x @ params["w"] + params["b"] - y
    return {"w": 2 * residual[:, None] * x, "b": 2 * residual}


def per_example_grads(function):
    """Check ``function(params, x, y)`` against the per-example gradients of ``loss_fn``, in float64."""
    params = {name: jnp.asarray(value, jnp.float32) for name, value in PARAMS.items()}
    x, y = jnp.asarray(X, jnp.float32), jnp.asarray(Y, jnp.float32)
    want = exact_grads(PARAMS, X, Y)
    got, problem = run_reader(function, params, x, y)
    if problem is not None:
        if "rank should be at least 1" in problem.en or "in_axes" in problem.en:
            return wrong(f"{problem.ko}. params는 모든 샘플이 함께 쓰므로 나누지 마세요: in_axes=(None, 0, 0)",
                         f"{problem.en}. Every example shares params, so do not map them: in_axes=(None, 0, 0)")
        return problem
    if getattr(got, "shape", None) == x.shape:
        return wrong("x와 형상이 같은 배열 하나가 나왔습니다. x에 대한 기울기로 보입니다. params에 대해 미분하세요"
                     "(jax.grad의 기본 argnums=0)",
                     "one array of x's shape came back: that looks like the gradient with respect to x; "
                     "differentiate with respect to params (jax.grad's default, argnums=0)")
    shape = same_structure(got, want, "기울기", "the gradient")
    if not shape.ok:
        return shape
    if all(np.shape(got[name]) == np.shape(PARAMS[name]) for name in PARAMS):
        return wrong(f"기울기가 배치 전체에 하나뿐입니다(w의 형상 {np.shape(got['w'])}). 배치 평균 손실의 "
                     f"기울기입니다. 샘플마다 하나씩 구하려면 x와 y에 vmap을 씌우세요(w의 형상 {want['w'].shape})",
                     f"one gradient for the whole batch (w of shape {np.shape(got['w'])}): the gradient of the "
                     f"mean loss; vmap over x and y for one per example (w of shape {want['w'].shape})")
    values = close(got, want, "샘플별 기울기", "the per-example gradients", rtol=1e-5, atol=1e-5)
    return all_of(shape, values) if values.ok else values


_compiles = collections.Counter()


def _listen_for_compiles():
    """Count XLA compilations into ``_compiles`` (once per session: JAX keeps its listeners)."""
    if _compiles["listening"]:
        return

    def on_event(name, _seconds, **_kwargs):
        if name == "/jax/core/compile/backend_compile_duration":
            _compiles[COMPILES] += 1

    jax.monitoring.register_event_duration_secs_listener(on_event)
    _compiles["listening"] = 1


def measure(order: str, calls: int = CALLS, batch_size: int = 8) -> dict[str, int]:
    """Call a freshly composed ``order`` ``calls`` times; count what ran (the check's own counters)."""
    counts = collections.Counter()

    def loss(params, x, y):  # the lesson's loss_fn, counting its runs in Python
        counts["loss_fn traced"] += 1
        return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)

    def counted(fn):
        def body(*args):
            counts["vmap body run"] += 1
            return fn(*args)
        return body

    grad = jax.grad(loss)
    fn = (jax.jit(jax.vmap(counted(grad), in_axes=(None, 0, 0))) if order == "jit(vmap)"
          else jax.vmap(counted(jax.jit(grad)), in_axes=(None, 0, 0)))
    params = {"w": jnp.ones(3), "b": jnp.zeros(())}
    x, y = jnp.ones((batch_size, 3)), jnp.ones(batch_size)
    _listen_for_compiles()
    before = _compiles[COMPILES]
    for _ in range(calls):
        jax.block_until_ready(fn(params, x, y))
    return {**{key: counts[key] for key in COUNTED}, COMPILES: _compiles[COMPILES] - before}


def _when(count: int, calls: int) -> tuple[str, str]:
    if count == 1:
        return "첫 호출에서 한 번만", "once, on the first call"
    if count == calls:
        return "호출마다", "on every call"
    return f"{count}번", f"{count} times"


def _why(order: str, key: str, count: int, calls: int) -> tuple[str, str]:
    """Why ``count`` is what it is, where the lesson explains it: a clause to end a message's sentence."""
    if count == 1 and calls > 1 and key != COMPILES:
        return ". 뒤의 호출은 jit이 캐시해 둔 프로그램을 다시 씁니다", ", as later calls reuse the program jit cached"
    if count == calls > 1 and key == "vmap body run" and order == "vmap(jit)":
        return (". jit 바깥에 있는 vmap은 호출마다 Python에서 다시 실행됩니다",
                ", as vmap, outside jit, runs again in Python on every call")
    return "", ""


def counts(counted, calls: int = CALLS):
    """Check ``{order: {count: n}}`` against what this JAX runs over ``calls`` calls of each order."""
    try:
        given = {order: {key: int(value) for key, value in counted[order].items()} for order in ORDERS}
        missing = [(order, key) for order in ORDERS for key in COUNTED if key not in given[order]]
    except (TypeError, KeyError, AttributeError, ValueError):
        missing = [("", "")]
    if missing:
        return wrong('센 값은 {"jit(vmap)": {"vmap body run": 정수, "loss_fn traced": 정수}, "vmap(jit)": {...}} '
                     "꼴의 딕셔너리여야 합니다",
                     'the counts should be a dict {"jit(vmap)": {"vmap body run": int, "loss_fn traced": int}, '
                     '"vmap(jit)": {...}}')
    misses_ko, misses_en, checked = [], [], 0
    for order in ORDERS:
        actual = measure(order, calls)
        for key in (*COUNTED, COMPILES):
            if key not in given[order]:
                continue
            checked += 1
            if given[order][key] != actual[key]:
                when_ko, when_en = _when(actual[key], calls)
                subject_ko, verb_ko, subject_en, verb_en = WHAT[key]
                why_ko, why_en = _why(order, key, actual[key], calls)
                misses_ko.append(f"{order} 순서에서 {subject_ko} {when_ko} {verb_ko}(센 값 {given[order][key]}, "
                                 f"이 JAX에서 잰 값 {actual[key]}){why_ko}")
                misses_en.append(f"under {order}, {subject_en} {verb_en} {when_en} "
                                 f"(you counted {given[order][key]}, the check {actual[key]}){why_en}")
    if misses_ko:
        differ = "differs" if len(misses_en) == 1 else "differ"
        return wrong(f"{calls}번 호출하는 동안 센 값 가운데 {len(misses_ko)}개가 다릅니다. " + ". ".join(misses_ko),
                     f"{len(misses_en)} of the counts over {calls} calls {differ}: " + "; ".join(misses_en))
    return right(f"{calls}번 호출하는 동안 센 값 {checked}개가 모두 이 JAX에서 잰 값과 같습니다",
                 f"all {checked} counts over {calls} calls match what this JAX does")


check = checks(per_example_grads=per_example_grads, counts=counts)
