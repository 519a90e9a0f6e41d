"""Why the soft mixture can be trained and the hard choice cannot: one retrieval task, one
initial projection, trained twice.

The task. Each example has n candidates: random keys (n, d) and random values (n, dv). One
candidate t is the target. The model sees a noisy copy of its key, x = k_t + noise, passes it
through a learnable projection W (d, d) to get the query q = W x, attends over the candidates,
and should output the target's value v_t. The loss is the squared error |context - v_t|^2.

The best W is a large multiple of the identity: then q points along k_t and k_t scores highest.
W starts as a random rotation, so q points somewhere else and the right candidate wins only by
chance. Soft attention (softmax weights) moves W towards the identity; hard attention (argmax,
one-hot) gives W no gradient at all and it never moves: its loss, as a function of the scores
or of W, is flat (piecewise constant), and its derivative is exactly zero.
"""

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from minigrad import Tensor, no_grad
from minigrad.command import require
from minigrad.messages import message as minigrad_message
from minigrad.optim import Adam
from attention.functional import attend, dot_product_attention, hard_attention, one_hot_argmax
from attention.messages import fit, message, width


@dataclass(frozen=True)
class DemoConfig:
    candidates: int = 8         # n
    key_size: int = 16          # d
    value_size: int = 4         # dv
    noise: float = 0.5          # standard deviation of the noise added to the target's key
    batch_size: int = 128       # a fresh batch every step
    test_size: int = 1000
    steps: int = 150
    lr: float = 0.05            # Adam
    seed: int = 0


@dataclass
class Batch:
    keys: np.ndarray            # (B, n, d)
    values: np.ndarray          # (B, n, dv)
    targets: np.ndarray         # (B,) the index t of the candidate to retrieve
    inputs: np.ndarray          # (B, d) x = k_t + noise


@dataclass
class History:
    loss: list = field(default_factory=list)            # training loss, one per step
    accuracy: list = field(default_factory=list)        # test accuracy, one per step (and at 0)


def make_batch(rng, size, config):
    n, d, dv = config.candidates, config.key_size, config.value_size
    keys = rng.standard_normal((size, n, d))                            # (B, n, d)
    values = rng.standard_normal((size, n, dv))                         # (B, n, dv)
    targets = rng.integers(n, size=size)                                # (B,)
    inputs = keys[np.arange(size), targets] + config.noise * rng.standard_normal((size, d))
    return Batch(keys, values, targets, inputs)


def make_test_set(config):
    """The held-out examples, the same for every run with this config's seed."""
    return make_batch(np.random.default_rng(config.seed + 1000), config.test_size, config)


def random_rotation(rng, d):
    """An orthogonal matrix drawn at random: it keeps lengths but scrambles directions."""
    q, r = np.linalg.qr(rng.standard_normal((d, d)))
    return q * np.sign(np.diag(r))                                      # (d, d)


def forward(projection, batch, attention):
    """(loss, weights) of the model q = W x, context = attention(q, keys, values)."""
    query = Tensor(batch.inputs) @ projection.T                         # (B, d)
    context, weights = attention(query, Tensor(batch.keys), Tensor(batch.values))  # (B, dv), (B, n)
    wanted = batch.values[np.arange(len(batch.targets)), batch.targets]            # (B, dv)
    loss = ((context - wanted) ** 2).sum(axis=-1).mean()
    return loss, weights


def accuracy(weights, targets):
    """How often the largest weight is on the target."""
    return float(np.mean(weights.data.argmax(axis=-1) == targets))


def train(attention, initial_projection, config):
    """Train W with Adam from `initial_projection`; every run with the same config sees the same
    batches. Returns the final W and the History."""
    rng = np.random.default_rng(config.seed + 1)                        # the batches
    test = make_test_set(config)
    projection = Tensor(initial_projection.copy(), requires_grad=True, name="W")
    optimizer = Adam([projection], lr=config.lr)
    history = History()
    for step in range(config.steps + 1):
        with no_grad():
            history.accuracy.append(accuracy(forward(projection, test, attention)[1], test.targets))
        if step == config.steps:
            break
        loss, _ = forward(projection, make_batch(rng, config.batch_size, config), attention)
        optimizer.zero_grad()
        if loss.requires_grad:                  # hard attention: the loss has no path back to W
            loss.backward()
        optimizer.step()                        # skips W when W.grad is None
        history.loss.append(loss.item())
    return projection, history


# ---------------------------------------------------------------------------------------------
# The gradients, by backprop and by finite differences
# ---------------------------------------------------------------------------------------------

def loss_of_scores(scores, batch, hard):
    """The loss as a function of the scores alone (B, n): softmax (or one-hot) weights, the mix,
    the squared error."""
    values = Tensor(batch.values)                                       # (B, n, dv)
    if hard:
        weights = one_hot_argmax(scores)                                # (B, n), a constant
        context = (weights.expand_dims(-2) @ values).squeeze(-2)        # (B, dv)
    else:
        context = attend(scores.expand_dims(-2), values)[0].squeeze(-2)  # (B, dv)
    wanted = batch.values[np.arange(len(batch.targets)), batch.targets]  # (B, dv)
    return ((context - wanted) ** 2).sum(axis=-1).mean()


def numeric_gradient(f, x, eps=1e-6):
    """(f(x + eps e_k) - f(x - eps e_k)) / (2 eps) for every element k of the array x."""
    grad = np.zeros_like(x)
    for k in np.ndindex(x.shape):
        original = x[k]
        x[k] = original + eps
        plus = f(x)
        x[k] = original - eps
        minus = f(x)
        x[k] = original
        grad[k] = (plus - minus) / (2 * eps)
    return grad


def both_gradients(f, x):
    """(backprop, numeric): d f / d x at the array x, by backward and by finite differences.
    f maps a tensor to a scalar tensor. Backprop gives zeros when f's output has no path back
    to x."""
    leaf = Tensor(x.copy(), requires_grad=True)
    out = f(leaf)
    if out.requires_grad:
        out.backward()
    backprop = np.zeros_like(x) if leaf.grad is None else leaf.grad
    with no_grad():
        numeric = numeric_gradient(lambda a: f(Tensor(a)).item(), x.copy())
    return backprop, numeric


def gradient_norms(initial_projection, config):
    """The norms of dL/dscores and dL/dW at the initial W, on one batch, by backprop and by
    finite differences, for soft and for hard attention: {(kind, wrt, method): norm}."""
    batch = make_batch(np.random.default_rng(config.seed + 2), config.batch_size, config)
    query = batch.inputs @ initial_projection.T                         # (B, d)
    scores = np.einsum("bnd,bd->bn", batch.keys, query)                 # (B, n)
    norms = {}
    for kind, attention in (("soft", dot_product_attention), ("hard", hard_attention)):
        hard = kind == "hard"
        gradients = {
            "scores": both_gradients(lambda s: loss_of_scores(s, batch, hard), scores),
            "W": both_gradients(lambda w: forward(w, batch, attention)[0], initial_projection),
        }
        for wrt, (backprop, numeric) in gradients.items():
            norms[kind, wrt, "backprop"] = float(np.linalg.norm(backprop))
            norms[kind, wrt, "numeric"] = float(np.linalg.norm(numeric))
    return norms


def demo(config=DemoConfig(), out=None, log=print):
    """Run everything; print the gradient norms and the learning curves; plot them to
    `out`/soft-vs-hard-attention.png when `out` is a directory. Returns a dict of the results."""
    if out is not None:
        require("matplotlib")                  # missing: say so now, not after the training
        if Path(out).exists() and not Path(out).is_dir():
            raise ValueError(message("demo.out_is_a_file", path=out))
    initial = random_rotation(np.random.default_rng(config.seed), config.key_size)
    norms = gradient_norms(initial, config)
    log(message("demo.gradients"))
    log(f"  {'':18s} {fit(message('demo.soft'), 12)} {fit(message('demo.hard'), 12)}")
    for wrt in ("scores", "W"):
        for method in ("backprop", "numeric"):
            soft, hard = norms["soft", wrt, method], norms["hard", wrt, method]
            log(f"  dL/d{wrt:6s} {fit(message('demo.' + method), 8, '<')} {soft:12.6g} "
                f"{hard:12.6g}")

    soft_projection, soft = train(dot_product_attention, initial, config)
    hard_projection, hard = train(hard_attention, initial, config)
    log("\n" + message("demo.training", steps=config.steps))
    # the columns: each as wide as its number, or as its heading when that is wider (Japanese)
    headings = [message(f"demo.{key}") for key in ("step", "soft_loss", "soft_acc", "hard_loss",
                                                   "hard_acc")]
    a, b, c, d, e = (max(least, width(h)) for least, h in zip((5, 10, 9, 10, 9), headings))
    log("  " + " ".join(fit(h, w) for h, w in zip(headings, (a, b, c, d, e))))
    for step in range(0, config.steps, max(config.steps // 10, 1)):
        log(f"  {step:{a}d} {soft.loss[step]:{b}.4f} {soft.accuracy[step]:{c}.1%} "
            f"{hard.loss[step]:{d}.4f} {hard.accuracy[step]:{e}.1%}")
    log(f"  {fit(message('demo.final'), a)} {'':{b}s} {soft.accuracy[-1]:{c}.1%} {'':{d}s} "
        f"{hard.accuracy[-1]:{e}.1%}")
    moved = float(np.abs(hard_projection.data - initial).max())
    log("  " + message("demo.moved", moved=moved))
    test = make_test_set(config)
    with no_grad():
        _, ideal_weights = forward(Tensor(np.eye(config.key_size)), test, dot_product_attention)
    ideal = accuracy(ideal_weights, test.targets)
    log("  " + message("demo.ideal", ideal=ideal))
    result = {"norms": norms, "soft": soft, "hard": hard, "initial": initial, "ideal": ideal,
              "soft_projection": soft_projection.data, "hard_projection": hard_projection.data}
    if out is not None:
        result["png"] = Path(out) / "soft-vs-hard-attention.png"
        plot(result, result["png"])
        log("\n" + minigrad_message("files.wrote", path=result["png"]))
    return result


def plot(result, path=None):
    """The learning curves, soft against hard: a matplotlib Figure (attention.figures, which
    Jupyter shows inline), also written to `path` (PNG) when one is given. matplotlib is
    imported here, and only its Agg canvas is used (no window, no global backend switch)."""
    from attention.figures import Figure, save

    soft, hard = result["soft"], result["hard"]
    figure = Figure(figsize=(10, 4))
    loss_axes, accuracy_axes = figure.subplots(1, 2)
    loss_axes.plot(soft.loss, label="soft (softmax)")
    loss_axes.plot(hard.loss, label="hard (argmax)")
    loss_axes.set(xlabel="step", ylabel="training loss |context - v_t|^2", yscale="log")
    accuracy_axes.plot(soft.accuracy, label="soft (softmax)")
    accuracy_axes.plot(hard.accuracy, label="hard (argmax)")
    accuracy_axes.set(xlabel="step", ylabel="test accuracy", ylim=(0, 1.02))
    for axes in (loss_axes, accuracy_axes):
        axes.legend()
    norms = result["norms"]
    figure.suptitle(f"|dL/dW| at the start: soft {norms['soft', 'W', 'backprop']:.3g}, "
                    f"hard {norms['hard', 'W', 'backprop']:.3g}")
    if path is not None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        save(figure, path)
    return figure
