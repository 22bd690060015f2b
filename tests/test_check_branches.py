"""The exercise check of "Branches and derivatives under jit" (``examples/check_branches.py``): it
passes the solution's two-level scan and names what is wrong with known-wrong ones, in Korean and in
English."""

from __future__ import annotations

import jax
import jax.numpy as jnp
from check_branches import check
from jax import lax
from readers_checks import said
from scan_memory import make_loss


def two_levels(wrap_outer=True, wrap_inner=False, k=None, restart=False, policy=None):
    """A two-level scan of the lesson's loss, right by default, with the mistakes the check names."""
    def loss(w, xs):
        def body(h, x):
            for _ in range(4):
                h = jnp.sin(w * h + x)
            return h, None

        n = xs.shape[0]
        segment = k or round(n**0.5)
        inner = jax.checkpoint(body) if wrap_inner else body

        def run_segment(h, segment_xs):
            return lax.scan(inner, jnp.zeros_like(h) if restart else h, segment_xs)[0], None

        if wrap_outer:
            run_segment = jax.checkpoint(run_segment, policy=policy)
        return lax.scan(run_segment, jnp.zeros(xs.shape[1:]), xs.reshape(n // segment, segment, -1))[0].sum()
    return loss


def test_the_solution_passes():
    result = check.two_level_scan(make_loss("nested"))
    assert result.ok, result
    assert "about as √n" in result.en and "√n에 비례해" in result.ko
    assert check.two_level_scan(two_levels()).ok


def test_one_level_and_a_checkpoint_in_the_wrong_place_are_named():
    said(check.two_level_scan(make_loss("checkpoint")), "no scan inside a scan", korean="scan 안의 scan")
    said(check.two_level_scan(make_loss("plain")), "no scan inside a scan", korean="scan 안의 scan")
    said(check.two_level_scan(two_levels(wrap_outer=False, wrap_inner=True)), "outer scan's body is not wrapped",
         korean="바깥 scan의 본문")
    said(check.two_level_scan(two_levels(wrap_outer=False)), "outer scan's body is not wrapped",
         korean="바깥 scan의 본문")


def test_segments_far_from_the_square_root_are_named():
    said(check.two_level_scan(two_levels(k=2)), "k = 2", "near √n", korean="√n에 가깝게")
    said(check.two_level_scan(two_levels(k=8)), "n = 1,024", "k = 8", korean="k = 8")


def test_a_wrong_gradient_and_a_carry_that_restarts_are_named():
    said(check.two_level_scan(two_levels(restart=True)), "h starting again from zeros in every segment",
         korean="다시 시작")
    said(check.two_level_scan(lambda w, xs: w * jnp.sum(xs)), "the gradient at w = 1, n = 64 is", korean="기울기")
    said(check.two_level_scan(lambda w, xs: 1 / 0), "raised ZeroDivisionError", korean="ZeroDivisionError")


def test_memory_that_grows_with_n_is_named():
    # the outer body under jax.checkpoint, but told to save everything: the memory of the plain body
    said(check.two_level_scan(two_levels(policy=jax.checkpoint_policies.everything_saveable)),
         "closer to n (16×) than to √n (4×)", korean="n에 가깝게")
