"""The reader's check of the exercise of "Models with Flax NNX" (``examples/check_flax_nnx.py``)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
from check_flax_nnx import check
from flax import nnx
from nnx_digits import MLP
from readers_checks import said


class AfterOneLayer(MLP):
    def __call__(self, x):
        x = self.dropout(jax.nn.relu(self.linear1(x)))
        return self.linear3(jax.nn.relu(self.linear2(x)))


class OnTheLogitsToo(MLP):
    def __call__(self, x):
        return self.dropout(super().__call__(x))


class WithoutReLU(MLP):
    def __call__(self, x):
        x = self.dropout(self.linear1(x))
        return self.linear3(self.dropout(self.linear2(x)))


class LastLayerFirst(nnx.Module):
    def __init__(self, rate, *, rngs):
        self.linear3 = nnx.Linear(128, 10, rngs=rngs)
        self.linear1 = nnx.Linear(64, 128, rngs=rngs)
        self.linear2 = nnx.Linear(128, 128, rngs=rngs)
        self.dropout = nnx.Dropout(rate, rngs=rngs)

    __call__ = MLP.__call__


class OwnStream(MLP):
    def __init__(self, rate, *, rngs):
        super().__init__(rate, rngs=rngs)
        self.dropout = nnx.Dropout(rate, rngs=nnx.Rngs(dropout=5))


class MasksByHand(MLP):
    """Dropout by jax.random, which nnx.view(..., deterministic=True) cannot switch off."""

    def __init__(self, rate, *, rngs):
        super().__init__(rate, rngs=rngs)
        self.rngs, self.rate = rngs, rate

    def __call__(self, x):
        def drop(h):
            keep = jax.random.bernoulli(self.rngs.dropout(), 1 - self.rate, h.shape)
            return jnp.where(keep, h / (1 - self.rate), 0)

        return self.linear3(drop(jax.nn.relu(self.linear2(drop(jax.nn.relu(self.linear1(x)))))))


class AlwaysOff(MLP):
    def __init__(self, rate, *, rngs):
        super().__init__(rate, rngs=rngs)
        self.dropout = nnx.Dropout(rate, deterministic=True, rngs=rngs)


def test_the_solution_passes():
    result = check.dropout_mlp(MLP)
    assert result.ok, result
    assert "2 dropouts" in result.en and "nnx.Rngs(0)" in result.en and "2번" in result.ko


def test_where_the_dropouts_act():
    said(check.dropout_mlp(AfterOneLayer), "passes 1 dropout,", "after each of the two hidden layers", korean="1번")
    said(check.dropout_mlp(OnTheLogitsToo), "passes 3 dropouts", "not to the input or the logits", korean="로짓")
    said(check.dropout_mlp(AlwaysOff), "passes 0 dropouts", "deterministic=True", korean="deterministic=True")


def test_the_forward_pass_and_the_view():
    said(check.dropout_mlp(WithoutReLU), "the output with dropout off: off by", "ReLU", korean="ReLU")
    said(check.dropout_mlp(MasksByHand), "dropout is still on in nnx.view", korean="nnx.view")


def test_the_initial_values_and_the_stream():
    said(check.dropout_mlp(LastLayerFirst), "initial values of the 64→128 layer", "lesson's order",
         korean="초깃값")
    said(check.dropout_mlp(OwnStream), "the dropout stream's seed", korean="dropout 흐름")


def test_the_rate_the_structure_and_errors():
    said(check.dropout_mlp(lambda rate, rngs: MLP(0.0, rngs=rngs)), "dropout rate is 0", korean="비율")
    said(check.dropout_mlp(lambda rate, rngs: nnx.Linear(64, 10, rngs=rngs)), "three nnx.Linear layers",
         korean="세 개")
    said(check.dropout_mlp(lambda rate: MLP(rate, rngs=nnx.Rngs(0))), "raised TypeError", korean="TypeError")
