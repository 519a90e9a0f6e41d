"""Which model a run trains, `--arch lstm` (Seq2Seq, the default) or `--arch transformer`: the
options that fit each, the Transformer's defaults, and the model, optimiser and learning-rate
schedule each is trained with.

An option that only one model has is refused with the other, in one line naming it, rather than
ignored: `--rnn` means nothing to a Transformer, `--heads` or `--block` nothing to an LSTM.

The Transformer's defaults are small (d_model 64, 4 heads, 2 layers): enough for the built-in
tasks, and quick on one CPU core (see README: `sort` reaches 100% held-out exact match).
"""

import math

from seq2seq.commands.messages import message
from seq2seq.commands.settings import CHOICES, MAX_STEP

ARCHS, NORMS, POSITIONS = CHOICES["arch"], CHOICES["norm"], CHOICES["positions"]
TRANSFORMER_DEFAULTS = dict(d_model=64, heads=4, layers=2, d_ff=256, dropout=0.0, norm="pre",
                            positions="sinusoidal", warmup=200)
# What the command line trains each model with when --epochs and --lr are not written (a
# TrainConfig made in Python has its own defaults, the LSTM's).
TRAINING_DEFAULTS = {"lstm": dict(epochs=10, lr=1e-3), "transformer": dict(epochs=3, lr=1e-3)}
TRANSFORMER_ONLY = (*TRANSFORMER_DEFAULTS, "block")     # block: None, attention's EncoderBlock
# The LSTM model's own options, each with its value when it is not written.
LSTM_ONLY = {"attention": "dot", "wiring": "luong", "embed_size": 16, "hidden_size": 256,
             "bidirectional": False, "fused": True, "rnn": None}
OPTIONS = {"fused": "--composed"}       # a setting whose option has another name
# What a Transformer's model_config records, in the order the model writes it. All but the
# vocabulary sizes and padding_idx are its own (an LSTM's holds none of them): any one of them
# marks a model_config as a Transformer's, so that one deleted (d_model, say) is named as
# missing rather than the rest taken for an LSTM's.
TRANSFORMER_ENTRIES = ("src_vocab_size", "tgt_vocab_size", "d_model", "heads", "layers", "d_ff",
                       "dropout", "norm", "positions", "max_len", "padding_idx")
TRANSFORMER_OWN = TRANSFORMER_ENTRIES[2:-1]


def describes_transformer(model_config):
    """Whether a checkpoint's model_config (a dict) is a Transformer's: it holds any of the
    settings only a Transformer has."""
    return any(name in model_config for name in TRANSFORMER_OWN)


def option(name):
    return OPTIONS.get(name, "--" + name.replace("_", "-"))


def check_arch(config, given=()):
    """Refuse an --arch that is neither, an option of the other model (a value other than its
    default, or one written on the command line: `given`, the dests written), and --warmup
    with --lr-decay (two schedules for one learning rate)."""
    if config.arch not in ARCHS:
        raise ValueError(message("arch.one_of", option="--arch", choices=", ".join(ARCHS),
                                 value=repr(config.arch)))
    if config.arch == "lstm":
        wrong = [n for n in TRANSFORMER_ONLY if getattr(config, n) is not None]
        if wrong:
            raise ValueError(message("arch.transformer_only", option=option(wrong[0])))
        return
    wrong = [n for n, unset in LSTM_ONLY.items() if getattr(config, n) != unset or n in given]
    if wrong:
        raise ValueError(message("arch.lstm_only", option=option(wrong[0])))
    if config.norm is not None and config.norm not in NORMS:
        raise ValueError(message("arch.one_of", option="--norm", choices=", ".join(NORMS),
                                 value=repr(config.norm)))
    if config.positions is not None and config.positions not in POSITIONS:
        raise ValueError(message("arch.one_of", option="--positions",
                                 choices=", ".join(POSITIONS), value=repr(config.positions)))
    d_model, warmup = (TRANSFORMER_DEFAULTS[n] if getattr(config, n) is None
                       else getattr(config, n) for n in ("d_model", "warmup"))
    if warmup and not math.isfinite(config.lr * math.sqrt(min(d_model * warmup, 1e308))):
        raise ValueError(message("arch.lr_too_large", lr=f"{config.lr:g}"))
    if config.warmup != 0 and config.lr_decay != 1:
        raise ValueError(message("arch.two_schedules"))


def with_defaults(config):
    """The config with the Transformer's unset options at their defaults (an LSTM run's stay
    None), so that a run records the settings it trained with."""
    import dataclasses
    if config.arch != "transformer":
        return config
    return dataclasses.replace(config, **{name: value for name, value in
                                          TRANSFORMER_DEFAULTS.items()
                                          if getattr(config, name) is None})


def transformer_settings(config, src_vocab_size, tgt_vocab_size, longest, padding_idx):
    """Transformer(**these): the config's sizes, and max_len, the positions it can take:
    sinusoids for every step `translate` may decode (a table, no weights), learned positions
    for twice the longest training sequence and 10 (beyond that they would be untrained)."""
    config = with_defaults(config)
    max_len = MAX_STEP + 1 if config.positions == "sinusoidal" else 2 * longest + 10
    return dict(src_vocab_size=src_vocab_size, tgt_vocab_size=tgt_vocab_size,
                **{name: getattr(config, name) for name in TRANSFORMER_DEFAULTS
                   if name != "warmup"},
                max_len=max_len, padding_idx=padding_idx)


def make_optimizer(model, config):
    """Adam; for the Transformer with the paper's betas (0.9, 0.98) and eps 1e-9, and with
    --warmup its schedule (`make_schedule`)."""
    from minigrad.optim import Adam
    if config.arch == "transformer":
        return Adam(model.parameters(), lr=config.lr, betas=(0.9, 0.98), eps=1e-9)
    return Adam(model.parameters(), lr=config.lr)


def updates_done(optimizer):
    """The updates an optimiser has made: its step count (Adam counts each parameter's steps),
    0 for a new one. A resumed run's schedule goes on from there, whatever --batch-size the
    earlier epochs had."""
    return max((int(state.get("step", 0)) for state in optimizer.state.values()), default=0)


def make_schedule(optimizer, config, updates_done=0):
    """With --warmup, minigrad's NoamLR scaled so that --lr is the peak, reached at update
    `warmup`: lr_k = lr * min(k / warmup, sqrt(warmup / k)) for update k = 1, 2, ... (the
    paper's rate times lr * sqrt(d_model * warmup)). `updates_done`: the updates of the epochs
    a resumed run has already trained. None with no warm-up (an LSTM's, or --warmup 0)."""
    from minigrad.optim.lr_scheduler import NoamLR
    if not config.warmup:
        return None
    # The schedule's base is this config's --lr, also on a resume that changed it: NoamLR keeps
    # the optimiser's first base (initial_lr, restored from the checkpoint) otherwise.
    optimizer.lr = optimizer.initial_lr = config.lr * math.sqrt(config.d_model * config.warmup)
    schedule = NoamLR(optimizer, config.d_model, config.warmup)
    schedule.load_state_dict({"base_lr": schedule.base_lr, "last_epoch": updates_done})
    return schedule


def transformer(settings, block=None, spec=None):
    """Transformer(**settings, block=block): a block of the user's (`spec`, --block FILE:CLASS)
    that breaks the contract (seq2seq.models.block_contract) is refused naming its file."""
    from seq2seq.models.block_contract import BlockContractError
    from seq2seq.models.transformer import Transformer
    try:
        return Transformer(**settings, block=block)
    except BlockContractError as error:
        if spec is None:
            raise
        raise BlockContractError(f"--block {spec}: {error}") from error
