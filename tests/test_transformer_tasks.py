"""What the Transformer learns, measured (slow tests; the figures are in the README):

- the Annotated Transformer's copy task, on its budget: vocabulary 11, sequences of 10 symbols
  whose first is the start symbol 1, 2 layers, 10 epochs of 20 batches of 30. Its eval loss
  (per token, on 5 fresh batches) fell from 1.93 to 0.27; ours must reach 0.27 or less, and
  copy sequences it never trained on exactly.
- `python -m seq2seq train --arch transformer --task sort` with every other setting at its
  default reaches 100% exact match on its held-out pairs, through `evaluate`.
"""

import json

import numpy as np
import pytest

import minigrad
from minigrad import no_grad
from minigrad.optim import Adam
from minigrad.optim.lr_scheduler import NoamLR
from seq2seq.commands.cli import main
from seq2seq.models.decoding import greedy
from seq2seq.models.transformer import Transformer

V, LENGTH, START = 11, 10, 1


def copy_batches(rng, batch, n):
    """The Annotated Transformer's data_gen: n batches of `batch` sequences of symbols 1 ... 10
    with the start symbol 1 first; the source and the target are the same sequence."""
    for _ in range(n):
        data = rng.integers(1, V, size=(batch, LENGTH))
        data[:, 0] = START
        yield data


def eval_loss(model, rng):
    model.eval()
    with no_grad():
        losses = [model.loss(data, data).item() for data in copy_batches(rng, 30, 5)]
    model.train()
    return float(np.mean(losses))


def train_copy(seed=0):
    """Our copy run on the Annotated Transformer's budget: 10 epochs of 20 batches of 30.
    Returns the model, the eval loss before training and after each epoch, and the training
    sequences (to keep the test's sequences out of them)."""
    minigrad.manual_seed(seed)
    model = Transformer(V, V, layers=2, padding_idx=0)
    optimizer = Adam(model.parameters(), lr=1.0, betas=(0.9, 0.98), eps=1e-9)
    optimizer.lr = 3e-3 * (64 * 40) ** 0.5          # NoamLR's peak, 3e-3, at update 40
    schedule = NoamLR(optimizer, d_model=64, warmup_steps=40)
    train_rng, eval_rng = np.random.default_rng(seed), np.random.default_rng(seed + 1)
    losses, seen = [eval_loss(model, eval_rng)], set()
    for _ in range(10):
        for data in copy_batches(train_rng, 30, 20):
            seen |= {tuple(row) for row in data}
            loss = model.loss(data, data)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
        losses.append(eval_loss(model, eval_rng))
    return model, losses, seen


@pytest.mark.slow
def test_the_annotated_transformers_copy_task_on_its_budget_reaches_its_eval_loss():
    model, losses, seen = train_copy()
    assert losses[0] > 1.9 and losses[-1] <= 0.27, losses
    model.eval()
    data = next(copy_batches(np.random.default_rng(99), 30, 1))
    assert not {tuple(row) for row in data} & seen                  # held out
    ids, _ = greedy(model, data, START, eos_id=0, max_len=LENGTH - 1)   # 0 (padding) never
    exact = (np.array(ids) == data[:, 1:]).all(axis=1)
    assert exact.sum() >= 29, exact     # 29 or 30 of 30 under SkylakeX, Haswell, Prescott


@pytest.mark.slow
def test_sort_with_the_default_transformer_reaches_every_held_out_pair(tmp_path, capsys):
    out = tmp_path / "sort"
    assert main(["train", "--arch", "transformer", "--task", "sort", "--out", str(out),
                 "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["evaluate", str(out), "--json"]) == 0
    scores = json.loads(capsys.readouterr().out)
    assert scores["seen_in_training"] == 0 and scores["examples"] > 500
    assert scores["exact_match"] == 1.0, scores
