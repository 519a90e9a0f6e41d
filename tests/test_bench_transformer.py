"""bench/transformer.py races the same model in both frameworks: at dropout 0 its minigrad
Transformer and its PyTorch one (the same layers, weights copied) agree in the loss and every
gradient, and a short run prints the table."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "transformer.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("bench_transformer", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_two_transformers_agree_in_loss_and_every_gradient():
    pytest.importorskip("torch")
    bench = load_bench()
    config = bench.Config(batch=4)
    model, ours = bench.minigrad_contender(config, 0.0)
    _, theirs = bench.torch_contender(config, 0.0, model)
    loss, grads = ours(check=True)
    their_loss, their_grads = theirs(check=True)
    assert set(grads) == set(their_grads) and len(grads) == len(list(model.parameters()))
    np.testing.assert_allclose(loss, their_loss, rtol=1e-5)
    for name, grad in grads.items():
        np.testing.assert_allclose(grad, their_grads[name], rtol=1e-3, atol=1e-5, err_msg=name)
    bench.check_agreement(ours, theirs)                 # what the benchmark checks before timing


@pytest.mark.slow
def test_a_short_run_prints_both_dropouts(capsys):
    load_bench().main(["--rounds", "1", "--iterations", "1"])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in lines[-2:]] == [["dropout", "0.1"], ["dropout", "0.0"]]
