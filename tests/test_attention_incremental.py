"""Decoding one step at a time: a DecoderBlock given a KeyValueCache of the earlier steps'
keys and values gives, for each new step, what it gives that step when run on the whole prefix
with its causal mask (to 1e-12, float64), pre-norm and post-norm, with the sources' padding; a
stack of blocks keeps one cache per block; positions follow the step with `start`."""

import numpy as np
import pytest

from minigrad import Tensor, manual_seed, no_grad
from attention.blocks import DecoderBlock
from attention.cache import KeyValueCache
from attention.masks import padding_mask
from attention.positions import SinusoidalPositions

D, H, FF = 8, 2, 16


def block(norm_first, seed=0):
    manual_seed(seed)
    return DecoderBlock(D, H, FF, dropout=0.1, norm_first=norm_first).double().eval()


@pytest.mark.parametrize("norm_first", [True, False], ids=["pre-norm", "post-norm"])
def test_one_step_with_the_cache_equals_rerunning_the_whole_prefix(norm_first):
    rng = np.random.default_rng(0)
    decoder = block(norm_first)
    B, T, S = 3, 6, 5
    x, memory = rng.standard_normal((B, T, D)), Tensor(rng.standard_normal((B, S, D)))
    memory_mask = padding_mask([5, 2, 4])
    cache = KeyValueCache()
    for t in range(T):
        prefix = decoder(Tensor(x[:, :t + 1]), memory, memory_mask=memory_mask)  # (B, t+1, D)
        step = decoder(Tensor(x[:, t:t + 1]), memory, memory_mask=memory_mask, cache=cache)
        assert step.shape == (B, 1, D) and len(cache) == t + 1
        np.testing.assert_allclose(step.data[:, 0], prefix.data[:, t], rtol=0, atol=1e-12)


def test_a_few_steps_at_once_after_kept_ones_equal_the_whole_sequence():
    rng = np.random.default_rng(1)
    decoder = block(True)
    x, memory = rng.standard_normal((2, 7, D)), Tensor(rng.standard_normal((2, 3, D)))
    whole = decoder(Tensor(x), memory).data
    cache = KeyValueCache()
    first = decoder(Tensor(x[:, :4]), memory, cache=cache)
    rest = decoder(Tensor(x[:, 4:]), memory, cache=cache)              # 3 new after 4 kept
    np.testing.assert_allclose(first.data, whole[:, :4], rtol=0, atol=1e-12)
    np.testing.assert_allclose(rest.data, whole[:, 4:], rtol=0, atol=1e-12)


def test_a_stack_keeps_one_cache_per_block_and_positions_follow_the_step():
    rng = np.random.default_rng(2)
    blocks = [block(True, seed=1), block(False, seed=2)]
    positions = SinusoidalPositions(D, max_len=10)
    T = 5
    x, memory = rng.standard_normal((2, T, D)), Tensor(rng.standard_normal((2, 4, D)))

    def stack(h, caches=(None, None), start=0):
        h = positions(h, start=start)
        for layer, cache in zip(blocks, caches):
            h = layer(h, memory, cache=cache)
        return h

    with no_grad():
        whole = stack(Tensor(x)).data
        caches = [KeyValueCache(), KeyValueCache()]
        steps = [stack(Tensor(x[:, t:t + 1]), caches, start=t).data for t in range(T)]
    np.testing.assert_allclose(np.concatenate(steps, axis=1), whole, rtol=0, atol=1e-12)
    assert [len(c) for c in caches] == [T, T]
