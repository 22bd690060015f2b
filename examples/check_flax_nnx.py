"""Check your answer to the exercise of "Models with Flax NNX": import its ``check``, then

    from check_flax_nnx import check
    check.dropout_mlp(YourMLP)

``YourMLP(rate, *, rngs)`` should make the MLP of step 1: three ``nnx.Linear`` layers, 64 → 128 →
128 → 10 with a ReLU after each hidden one, and an ``nnx.Dropout(rate, rngs=rngs)`` applied after both
hidden layers (if your class takes other arguments, pass ``lambda rate, rngs: YourMLP(..., rngs=rngs)``).
The check makes it with ``nnx.Rngs(params=0, dropout=1)`` and looks at four things: the initial
values (those of the lesson's MLP made with ``nnx.Rngs(0)``, the reason the two runs of step 3 can
agree), the forward pass with dropout off (``nnx.view(model, deterministic=True)``), how many
dropouts each path passes in training mode, and that the masks are new on every call and come from
the ``dropout`` stream. For the last two it sets the weights itself, so that each output is one
hidden unit's path: 0 if a dropout on the way dropped it, else 1 scaled by ``1 / (1 - rate)`` per
dropout.
"""

from __future__ import annotations

import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from exercise_check import all_of, checks, close, right, run_reader, wrong  # noqa: E402

RATE = 0.5             # the check's rate: a kept unit is scaled by 2 per dropout, so the count reads off exactly
SIZES = (64, 128, 128, 10)
PATH_ROWS = 512        # rows of the training-mode input: 5,120 paths, so the dropped share is measured to ±0.02


def _linears(model):
    """The model's ``nnx.Linear`` layers in the order 64 → 128 → 128 → 10, or None."""
    layers = [node for _, node in nnx.iter_graph(model) if isinstance(node, nnx.Linear)]
    shapes = sorted((layer.in_features, layer.out_features) for layer in layers)
    if len(layers) != 3 or shapes != sorted(zip(SIZES[:-1], SIZES[1:], strict=True)):
        return None
    by_input = {layer.in_features: layer for layer in layers if layer.out_features != 10}
    last = next(layer for layer in layers if layer.out_features == 10)
    return [by_input[64], by_input[128], last]


def _lesson_start() -> list[tuple[np.ndarray, np.ndarray]]:
    """The initial (kernel, bias) of the lesson's MLP, made with ``nnx.Rngs(0)``: its three layers in order."""
    rngs = nnx.Rngs(0)
    layers = [nnx.Linear(a, b, rngs=rngs) for a, b in zip(SIZES[:-1], SIZES[1:], strict=True)]
    return [(np.asarray(layer.kernel[...]), np.asarray(layer.bias[...])) for layer in layers]


def _forward64(layers, x) -> np.ndarray:
    """The MLP without dropout in NumPy float64, from the model's own weights."""
    h = np.asarray(x, np.float64)
    for i, layer in enumerate(layers):
        h = h @ np.asarray(layer.kernel[...], np.float64) + np.asarray(layer.bias[...], np.float64)
        if i < 2:
            h = np.maximum(h, 0.0)
    return h


def _route(layers) -> None:
    """Set the weights so that output j (j < 10) is hidden unit j's path: input j → unit j → unit j → logit j."""
    w1 = np.zeros((64, 128), np.float32)
    w1[np.arange(128) % 64, np.arange(128)] = 1.0
    w3 = np.zeros((128, 10), np.float32)
    w3[np.arange(10), np.arange(10)] = 1.0
    for layer, w in zip(layers, (w1, np.eye(128, dtype=np.float32), w3), strict=True):
        layer.kernel[...] = jnp.asarray(w)
        layer.bias[...] = jnp.zeros(layer.out_features, jnp.float32)


def _dropouts_on_a_path(out: np.ndarray):
    """How many dropouts each path passed (from the kept value, 2 per dropout at RATE 0.5), or None."""
    kept = out[out != 0]
    if kept.size == 0:
        return None
    k = int(round(np.log2(float(kept[0]))))
    if k < 0 or not np.allclose(kept, 2.0**k, rtol=1e-6):
        return None
    dropped = float(np.mean(out == 0))
    return k if abs(dropped - (1 - (1 - RATE) ** k)) < 0.05 else None


def dropout_mlp(make):
    """Check ``make(rate, rngs=...)``: the dropout MLP of step 1 (see the module's docstring)."""
    model, problem = run_reader(make, RATE, rngs=nnx.Rngs(params=0, dropout=1))
    if problem is not None:
        return problem
    layers = _linears(model)
    if layers is None:
        found = [f"{n.in_features}→{n.out_features}" for _, n in nnx.iter_graph(model) if isinstance(n, nnx.Linear)]
        return wrong(f"모델에는 nnx.Linear 층이 64→128, 128→128, 128→10으로 세 개 있어야 합니다. 찾은 층은 "
                     f"{', '.join(found) or '없음'}입니다",
                     f"the model should hold three nnx.Linear layers, 64→128, 128→128 and 128→10; found: "
                     f"{', '.join(found) or 'none'}")
    drops = [node for _, node in nnx.iter_graph(model) if isinstance(node, nnx.Dropout)]
    if not drops:
        return wrong("모델에 nnx.Dropout 모듈이 없습니다. __init__에서 nnx.Dropout(rate, rngs=rngs)를 만들어 두세요",
                     "the model holds no nnx.Dropout: make one in __init__, nnx.Dropout(rate, rngs=rngs)")
    rates = sorted({float(d.rate) for d in drops})
    if rates != [RATE]:
        return wrong(f"모델을 비율 {RATE:g}로 만들었는데 드롭아웃의 비율은 {', '.join(f'{r:g}' for r in rates)}입니다. "
                     "받은 rate를 nnx.Dropout에 넘기세요",
                     f"the model was made with rate {RATE:g}, but its dropout rate is "
                     f"{', '.join(f'{r:g}' for r in rates)}: pass the rate it takes to nnx.Dropout")

    start = all_of(*(close({"kernel": np.asarray(layer.kernel[...]), "bias": np.asarray(layer.bias[...])},
                           {"kernel": kernel, "bias": bias}, f"{layer.in_features}→{layer.out_features} 층의 초깃값",
                           f"the initial values of the {layer.in_features}→{layer.out_features} layer", rtol=0, atol=0)
                     for layer, (kernel, bias) in zip(layers, _lesson_start(), strict=True)))
    if not start.ok:
        return wrong(f"{start.ko}. 초깃값이 강의의 MLP를 nnx.Rngs(0)으로 만든 것과 달라, 3번에서 두 모델을 견줄 수 "
                     "없습니다. 세 층을 강의와 같은 순서로 같은 rngs에서 만드세요",
                     f"{start.en}. The initial values differ from those of the lesson's MLP made with nnx.Rngs(0), "
                     "so step 3 cannot compare the two models: make the three layers in the lesson's order from the "
                     "same rngs")
    start = right("초깃값이 nnx.Rngs(0)으로 만든 강의의 MLP와 같습니다",
                  "the initial values are those of the lesson's MLP made with nnx.Rngs(0)")

    x = np.asarray(jax.random.uniform(jax.random.key(3), (8, 64)), np.float32)
    evaluated, problem = run_reader(nnx.view(model, deterministic=True), jnp.asarray(x))
    if problem is not None:
        return problem
    # A GPU may round float32 matrix products to TF32 (about 1e-3 relative); a misplaced ReLU or layer is off by 0.1s.
    forward = close(evaluated, _forward64(layers, x), "드롭아웃을 끈 출력", "the output with dropout off",
                    rtol=1e-2, atol=1e-2)
    if not forward.ok:
        again = np.asarray(nnx.view(model, deterministic=True)(jnp.asarray(x)))
        if not np.array_equal(again, np.asarray(evaluated)):
            return wrong(f"{forward.ko}. 같은 입력에 두 번 부른 결과가 달라, nnx.view(model, deterministic=True)에서도 "
                         "드롭아웃이 켜져 있습니다. 드롭아웃은 nnx.Dropout 모듈로 적용하세요",
                         f"{forward.en}; two calls on the same input differ, so dropout is still on in "
                         "nnx.view(model, deterministic=True): drop units with an nnx.Dropout module")
        return wrong(f"{forward.ko}. Linear 64→128, ReLU, Linear 128→128, ReLU, Linear 128→10의 순서를 보세요",
                     f"{forward.en}: look at the order Linear 64→128, ReLU, Linear 128→128, ReLU, Linear 128→10")

    _route(layers)
    ones = jnp.ones((PATH_ROWS, 64), jnp.float32)
    first, problem = run_reader(model, ones)
    if problem is not None:
        return problem
    first, second = np.asarray(first), np.asarray(model(ones))
    k = _dropouts_on_a_path(first)
    kept = 1 / (1 - RATE) ** 2
    if k is None:
        return wrong(f"드롭아웃을 켠 출력이 드롭아웃 몇 번으로도 설명되지 않습니다. 비율 {RATE:g}인 드롭아웃 두 "
                     f"번이면 출력의 {1 - (1 - RATE) ** 2:.0%}가 0이고 나머지는 {kept:g}여야 하는데, 0인 값은 "
                     f"{np.mean(first == 0):.0%}, 0이 아닌 값은 "
                     f"{', '.join(f'{v:g}' for v in np.unique(first[first != 0])[:4])}입니다",
                     f"the output with dropout on is not that of any number of dropouts: two at rate {RATE:g} make "
                     f"{1 - (1 - RATE) ** 2:.0%} of it 0 and the rest {kept:g}, but {np.mean(first == 0):.0%} is 0 and "
                     f"the rest is {', '.join(f'{v:g}' for v in np.unique(first[first != 0])[:4])}")
    if k != 2:
        hint_ko, hint_en = {
            0: ("꺼진 유닛이 하나도 없습니다. __call__에서 드롭아웃을 부르는지, 드롭아웃을 deterministic=True로 "
                "만들지 않았는지 보세요",
                "no unit was dropped: does __call__ call the dropout, and was it made without "
                "deterministic=True?"),
            1: ("드롭아웃을 두 은닉층 뒤에서 각각 부르세요",
                "apply the dropout after each of the two hidden layers"),
        }.get(k, ("은닉층 두 개 뒤에서만 부르고, 입력이나 로짓에는 부르지 마세요",
                  "apply it after the two hidden layers only, not to the input or the logits"))
        return wrong(f"드롭아웃을 켠 상태에서는 유닛 하나의 경로가 드롭아웃을 {k}번 지납니다(맞는 횟수는 2번). "
                     f"{hint_ko}",
                     f"with dropout on, each path passes {k} dropout{'' if k == 1 else 's'}, where 2 is right: "
                     f"{hint_en}")
    paths = right(f"드롭아웃을 켠 상태에서는 유닛 하나의 경로가 드롭아웃을 2번 지납니다(비율 {RATE:g}: 출력의 "
                  f"{np.mean(first == 0):.0%}가 0, "
                  f"나머지는 {kept:g}). 드롭아웃을 끄면 출력이 맞습니다",
                  f"with dropout on, each path passes 2 dropouts (rate {RATE:g}: {np.mean(first == 0):.0%} of the "
                  f"output is 0, the rest {kept:g}); with dropout off the output is right")
    if np.array_equal(first == 0, second == 0):
        return wrong("드롭아웃을 켜고 두 번 불렀더니 같은 유닛이 꺼졌습니다. 마스크는 호출마다 nnx.Dropout이 가진 "
                     "흐름에서 새로 뽑혀야 합니다",
                     "two calls with dropout on dropped the same units: each call should draw a new mask from the "
                     "nnx.Dropout's stream")
    other, problem = run_reader(make, RATE, rngs=nnx.Rngs(params=0, dropout=2))
    if problem is not None:
        return problem
    _route(_linears(other))
    if np.array_equal(np.asarray(other(ones)) == 0, first == 0):
        return wrong("dropout 흐름의 시드를 바꿔도(1 → 2) 마스크가 그대로입니다. nnx.Dropout(rate, rngs=rngs)처럼 "
                     "모델이 받은 rngs를 넘겨 dropout 흐름에서 뽑게 하세요",
                     "the masks stay the same when the dropout stream's seed changes (1 → 2): pass the model's rngs, "
                     "nnx.Dropout(rate, rngs=rngs), so that they come from the dropout stream")
    return all_of(start, paths, right("마스크는 호출마다 새로 뽑히고 dropout 흐름에서 나옵니다",
                                      "the masks are new on every call and come from the dropout stream"))


check = checks(dropout_mlp=dropout_mlp)
