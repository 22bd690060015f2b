"""Check your answer to the exercise of "Automatic and explicit sharding": import its ``check``, then

    from check_sharding import check
    check.least(your_answer)
    check.bytes_sent(your_bytes)

For C = A @ B with M = 256, K = 4096, N = 256 in float32 on the lesson's 8 CPU devices (step 1):
``your_answer`` names the fully sharded partitioning you predict moves least, by its key in
``matmul_partitionings.PARTITIONINGS`` (``"rows_b_rows"``, ``"k_b_cols"`` or ``"k_c_rows"``) or by
the matrix it moves whole (``"B"``, ``"A"`` or ``"C"``, its partial sums). ``your_bytes`` maps each of
those three keys to the bytes you predict each device sends, as the lesson counts them (a ring).

The check compiles the three partitionings with this machine's compiler, reads their collectives
from the HLO (``collectives.py``) and compares. It recognises a prediction that counts C's partial
sums once where this build combines them with an ``all-reduce``, one that moves whole matrices
instead of (n − 1)/n of them, and bytes given in KiB.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helpers beside this file, run from anywhere
from collectives import bytes_sent as sent_by  # noqa: E402
from collectives import collectives  # noqa: E402
from exercise_check import checks, right, wrong  # noqa: E402
from matmul_partitionings import PARTITIONINGS  # noqa: E402

SHAPE = {"M": 256, "K": 4096, "N": 256}
DEVICES = 8
FLOAT32 = 4
FULLY_SHARDED = {p.key: p for p in PARTITIONINGS if p.fully_sharded}
MOVES = {"rows_b_rows": "B", "k_b_cols": "A", "k_c_rows": "C"}  # the matrix each moves whole (C: its partial sums)
DOES = {"rows_b_rows": ("B를 모음", "gathers B"), "k_b_cols": ("A를 모음", "gathers A"),
        "k_c_rows": ("C의 부분합을 합침", "combines C's partial sums")}


def _named(key: str) -> tuple[str, str]:
    """A partitioning as the messages name it: its key, and what it moves."""
    return f"{key}({DOES[key][0]})", f"{key} ({DOES[key][1]})"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _matrix_bytes() -> dict[str, int]:
    m, k, n = SHAPE["M"], SHAPE["K"], SHAPE["N"]
    return {"A": m * k * FLOAT32, "B": k * n * FLOAT32, "C": m * n * FLOAT32}


def _compiled() -> dict[str, list]:
    """key → the collectives of that partitioning, compiled for 8 CPU devices (nothing is run)."""
    mesh = jax.make_mesh((DEVICES,), ("x",), (AxisType.Auto,), devices=jax.devices("cpu")[:DEVICES])
    m, k, n = SHAPE["M"], SHAPE["K"], SHAPE["N"]
    found = {}
    for key, part in FULLY_SHARDED.items():
        sharding = {name: NamedSharding(mesh, P(*getattr(part, name))) for name in "abc"}
        product = jax.jit(jnp.matmul, in_shardings=(sharding["a"], sharding["b"]), out_shardings=sharding["c"])
        a = jax.ShapeDtypeStruct((m, k), jnp.float32, sharding=sharding["a"])
        b = jax.ShapeDtypeStruct((k, n), jnp.float32, sharding=sharding["b"])
        found[key] = collectives(product.lower(a, b).compile().as_text())
    return found


def _devices_problem():
    have = len(jax.devices("cpu"))
    if have >= DEVICES:
        return None
    return wrong(f"이 검사에는 CPU 디바이스 {DEVICES}개가 필요한데 지금은 {have}개입니다. 런타임을 다시 시작하고 "
                 "강의의 첫 셀(jax_num_cpu_devices)부터 실행하세요",
                 f"the check needs {DEVICES} CPU devices and JAX has {have}: restart the runtime and run the "
                 "lesson's first cell (jax_num_cpu_devices) first")


def _kib(n: float) -> str:
    return f"{n / 2**10:,.0f} KiB"


def _sizes() -> tuple[str, str]:
    sizes = _matrix_bytes()
    ko = ", ".join(f"{name} {size / 2**20:,.2f} MiB" for name, size in sizes.items())
    return f"행렬의 크기는 {ko}입니다", f"the matrices are {ko}"


def least(answer):
    """Check the predicted partitioning (a key, or the matrix it moves) against the compiled bytes."""
    problem = _devices_problem()
    if problem is not None:
        return problem
    text = str(answer).strip()
    key = next((k for k, matrix in MOVES.items() if text.upper() == matrix), text)
    if key not in FULLY_SHARDED:
        return wrong("답은 완전 샤딩인 분할의 키(\"rows_b_rows\", \"k_b_cols\", \"k_c_rows\")나 그 분할이 옮기는 "
                     "행렬(\"B\", \"A\", \"C\")이어야 합니다",
                     "the answer should be the key of a fully sharded partitioning (\"rows_b_rows\", \"k_b_cols\", "
                     "\"k_c_rows\") or the matrix it moves (\"B\", \"A\", \"C\")")
    sent = {k: sum(sent_by(op) for op in ops) for k, ops in _compiled().items()}
    fewest = min(sent.values())
    winners = [k for k, s in sent.items() if s == fewest]
    sizes_ko, sizes_en = _sizes()
    table_ko = ", ".join(f"{_named(k)[0]} {_kib(s)}" for k, s in sent.items())
    table_en = "; ".join(f"{_named(k)[1]} {_kib(s)}" for k, s in sent.items())
    if key in winners:
        return right(f"예측이 맞습니다. 가장 적게 옮기는 분할은 {_named(key)[0]}입니다. 가장 작은 행렬 "
                     f"{MOVES[key]}를 옮기므로, 디바이스마다 보내는 바이트는 {_kib(fewest)}입니다",
                     f"right: {_named(key)[1]} moves least, {_kib(fewest)} per device, because it moves "
                     f"{MOVES[key]}, the smallest matrix")
    best = winners[0]
    ko = (f"예측이 다릅니다. 가장 적게 옮기는 분할은 {_named(best)[0]}입니다. {sizes_ko}. 디바이스마다 보내는 "
          f"바이트는 {table_ko}입니다")
    en = f"not that one: {_named(best)[1]} moves least. {_capital(sizes_en)}; each device sends: {table_en}"
    if key == "rows_b_rows":
        return wrong(f"{ko}. B를 모으는 분할은 앞의 형상(M = 1024, K = 512, N = 256)에서 이겼습니다. 여기서는 C가 "
                     "가장 작으므로, all-reduce로 두 배를 보내더라도 C의 부분합을 합치는 쪽이 적게 옮깁니다",
                     f"{en}. Gathering B won at the shape above (M = 1024, K = 512, N = 256); here C is the smallest, "
                     "so combining its partial sums moves less, even twice over in an all-reduce")
    return wrong(f"{ko}. 가장 작은 행렬을 옮기는 분할이 가장 적게 옮깁니다",
                 f"{en}. The partitioning that moves the smallest matrix moves least")


def bytes_sent(predicted):
    """Check the predicted bytes each device sends, for the three fully sharded partitionings."""
    problem = _devices_problem()
    if problem is not None:
        return problem
    keys = list(FULLY_SHARDED)
    if not isinstance(predicted, dict) or sorted(predicted) != sorted(keys):
        return wrong(f"예측은 키가 {', '.join(keys)}인 딕셔너리여야 합니다(값은 디바이스마다 보내는 바이트)",
                     f"the prediction should be a dict with the keys {', '.join(keys)} (values: bytes sent per device)")
    try:
        guess = {k: float(v) for k, v in predicted.items()}
    except (TypeError, ValueError):
        return wrong("예측의 값은 바이트 수여야 합니다", "the predicted values should be numbers of bytes")
    compiled = _compiled()
    truth = {k: float(sum(sent_by(op) for op in ops)) for k, ops in compiled.items()}
    kinds = {k: ", ".join(op.kind for op in ops) for k, ops in compiled.items()}
    misses = [k for k in keys if not math.isclose(guess[k], truth[k], rel_tol=1e-6)]
    if not misses:
        return right("세 분할 모두 디바이스마다 보내는 바이트가 맞습니다("
                     + ", ".join(f"{_named(k)[0]} {truth[k]:,.0f}바이트" for k in keys) + ")",
                     "the bytes each device sends are right for all three ("
                     + "; ".join(f"{_named(k)[1]}: {truth[k]:,.0f}" for k in keys) + ")")
    ko = [f"{k}({kinds[k] or '집합 통신 없음'}): 받은 값 {guess[k]:,.0f}, 맞는 값 {truth[k]:,.0f}" for k in misses]
    en = [f"{k} ({kinds[k] or 'no collective'}): {guess[k]:,.0f}, where {truth[k]:,.0f} is right" for k in misses]
    hints = []
    n = DEVICES
    if any(math.isclose(guess[k] * 2**10, truth[k], rel_tol=1e-6) for k in misses):
        hints.append(("KiB가 아니라 바이트로 적으세요", "give bytes, not KiB"))
    if any(math.isclose(guess[k], truth[k] * n / (n - 1), rel_tol=1e-6) for k in misses):
        hints.append(((f"행렬을 통째로 셌습니다. 각 디바이스에는 이미 1/{n}이 있으므로 ({n} − 1)/{n}만 옮깁니다"),
                      f"whole matrices counted: each device already holds 1/{n}, so ({n} − 1)/{n} moves"))
    if ("k_c_rows" in misses and kinds["k_c_rows"] == "all-reduce"
            and math.isclose(guess["k_c_rows"], truth["k_c_rows"] / 2, rel_tol=1e-6)):
        hints.append(("C의 부분합을 한 번만 셌습니다. 이 빌드는 부분합을 all-reduce로 합치므로, 디바이스마다 "
                      f"2({n} − 1)/{n} × C를 보냅니다",
                      f"C's partial sums counted once: this build combines them with an all-reduce, which sends "
                      f"2({n} − 1)/{n} × C per device"))
    if ("k_c_rows" in misses and kinds["k_c_rows"] == "reduce-scatter"
            and math.isclose(guess["k_c_rows"], truth["k_c_rows"] * 2, rel_tol=1e-6)):
        hints.append(("C의 부분합을 두 번 셌습니다. 이 빌드는 부분합을 reduce-scatter로 합치므로, 디바이스마다 "
                      f"({n} − 1)/{n} × C만 보냅니다",
                      f"C's partial sums counted twice: this build combines them with a reduce-scatter, which sends "
                      f"({n} − 1)/{n} × C per device"))
    if not hints:
        hints.append((f"{_sizes()[0]}. 링에서 S바이트로 모으는 all-gather는 디바이스마다 ({n} − 1)/{n} × S, "
                      f"S바이트의 all-reduce는 2({n} − 1)/{n} × S를 보냅니다",
                      f"{_sizes()[1]}; in a ring an all-gather to S bytes sends ({n} − 1)/{n} × S per device, an "
                      f"all-reduce of S bytes 2({n} − 1)/{n} × S"))
    return wrong(f"예측 {len(keys)}개 가운데 {len(misses)}개가 틀렸습니다. {'; '.join(ko)}. "
                 f"{'. '.join(h for h, _ in hints)}",
                 f"{len(misses)} of {len(keys)} predictions are wrong: {'; '.join(en)}. "
                 f"{_capital('; '.join(h for _, h in hints))}")


check = checks(least=least, bytes_sent=bytes_sent)
