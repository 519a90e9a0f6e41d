"""The demo, the project's main job: it trains an attention model on toy-ja-en, prints
translations with their attention heatmaps, and writes the heatmaps, the checkpoint and a report.

It may replace its own earlier run in its folder (`make demo` twice), recognised by the
checkpoint's config and the demo's report, and says so; it refuses a folder holding anything
else unless asked to `overwrite` (and then replaces only the files it writes). The experiments
that reproduce the attention papers' figures (compare-lengths and others) follow the same rules:
seq2seq.papers.
"""

import dataclasses
import json
import re
from pathlib import Path

from minigrad.files import atomic_write, os_error_text, read_small_text
from seq2seq.commands import runs
from seq2seq.commands.messages import message
from seq2seq.commands.progress import say
from seq2seq.commands.settings import check_train_config
from seq2seq.commands.train import TrainConfig

DEMO_SENTENCES = [
    "ねこ が さかな を たべる",
]
DEMO_HELD_OUT = 2000                # held-out sentence pairs the demo scores after training


def demo_config(out, seed=0, epochs=None, num_examples=None):
    """The demo's budget: small enough for about a minute on a laptop CPU. None means the
    default (6 epochs, 12000 pairs); any other value is used as given and checked as `train`
    checks it (epochs=0 is refused, not read as "the default": a run trains at least one epoch,
    which writes its checkpoint)."""
    config = TrainConfig(task="toy-ja-en", out=str(out), attention="dot", embed_size=32,
                         hidden_size=128, batch_size=64, epochs=6 if epochs is None else epochs,
                         num_examples=12000 if num_examples is None else num_examples,
                         lr=5e-3, lr_decay=0.7, bidirectional=True, seed=seed)
    check_train_config(config)
    return config


def run_demo(out="runs/demo", seed=0, epochs=None, num_examples=None, log=say,
             overwrite=False):
    out = Path(runs.check_out(out))
    config = demo_config(out, seed, epochs, num_examples)       # checked before any file goes
    created = runs.make_folder(out)
    with runs.hold(out, log, created):
        runs.claim(out, _is_demo_file, _is_earlier_demo, "demo", overwrite, log)
        return _run_demo(out, config, seed, log)


def _run_demo(out, config, seed, log):
    from seq2seq.commands.train import train

    attention = message(f"demo.attention_{config.attention}")     # demo_config's: dot
    log(message("demo.training", attention=attention, task=config.task,
                pairs=config.num_examples, epochs=config.epochs))
    translator, history = train(config, log=log)

    held_out, dropped = held_out_pairs(config, DEMO_HELD_OUT, seed + 1)
    scores = translator.evaluate(held_out)
    scores.update(seen_in_training=0, dropped_as_seen=dropped)
    over = message("demo.over_characters" if scores["bleu_tokens"] == "char"
                   else "demo.over_words")
    log(message("demo.scores", held_out=held_out_words(len(held_out), dropped),
                exact=f"{scores['exact_match']:.2%}", bleu=f"{scores['bleu']:.4f}", over=over))
    longest = max(held_out, key=lambda p: len(p[0]))
    sentences = DEMO_SENTENCES + [held_out[0][0], held_out[1][0], longest[0]]
    translations = translator.translate(sentences)
    pictures = []
    for number, (source, translation) in enumerate(zip(sentences, translations), 1):
        log(f"\n{source}\n  -> {translation.text}")
        log(translation.text_heatmap())
        log(message("demo.most_attended", pairs="  ".join(
            f"{word}<-{translation.source_tokens[row.argmax()]}"
            for word, row in zip(translation.tokens, translation.weights))))
        picture = out / f"attention-{number}.png"
        translation.plot_heatmap(picture, overwrite=True)  # the folder is the demo's (claim)
        pictures.append(picture.name)
    pictures += draw_pictures(translator, DEMO_SENTENCES[0], out, log)
    report = {"config": dataclasses.asdict(config), "history": history,
              "held_out": scores,
              "translations": [{"source": s, "output": t.text}
                               for s, t in zip(sentences, translations)],
              "heatmaps": pictures}
    text = json.dumps(report, indent=2, ensure_ascii=False, allow_nan=False)
    atomic_write(out / DEMO_REPORT, lambda file: file.write(text), text=True)
    drawings = [f"{Path(name).stem}.dot" for name in pictures if name.endswith(".svg")]
    written = [runs.CHECKPOINT, runs.REPORT, *pictures, *drawings, DEMO_REPORT]
    log("\n" + message("demo.written", out=out, files=", ".join(written)))  # none a surprise
    return scores


def held_out_pairs(config, n, seed, max_len=None):
    """(pairs, dropped): n pairs of the config's task drawn with another seed (source lengths
    from config.min_len to `max_len`, by default config.max_len), less the `dropped` ones whose
    source is in the training split the run in config.out recorded. A generated task
    repeats its short sources, so without this about a tenth of a "held-out" set was training
    data."""
    from seq2seq.data import heldout, tasks
    from seq2seq.translator import load_translator
    _, state = load_translator(config.out)
    pairs = tasks.make_task(config.task, n, seed=seed, min_len=config.min_len,
                           max_len=config.max_len if max_len is None else max_len)
    return heldout.drop_seen(pairs, heldout.read_record(state, config.out))


def held_out_words(n, dropped):
    """How the demo and compare-lengths name their held-out set, in plain words: "1,777 held-out
    sentences (generated with another seed; the 223 whose source was in training are left
    out)"."""
    left_out = (message("demo.none_seen") if dropped == 0 else
                message("demo.left_out_one" if dropped == 1 else "demo.left_out_many",
                        count=f"{dropped:,}"))
    return message("demo.held_out", count=f"{n:,}", left_out=left_out)


def draw_pictures(translator, sentence, out, log):
    """The computation graphs: one attention step (the worked example) and one decoder step of
    the trained model. Drawing needs Graphviz; without it the demo says so and goes on."""
    from attention.draw import write_attention_step
    from seq2seq.commands.draw import draw_decoder_step
    try:
        write_attention_step(out / "attention-step.svg")
        draw_decoder_step(translator, sentence, out / "decoder-step.svg", step=2,
                          overwrite=True)       # the folder is the demo's (claim)
    except (RuntimeError, OSError, ImportError) as error:
        log(message("demo.graphs_not_drawn", error=os_error_text(error)))
        return []
    return ["attention-step.svg", "decoder-step.svg"]


def add_commands(sub):
    p = sub.add_parser("demo", help="the main job: train, translate, show the alignment")
    p.add_argument("--out", default="runs/demo", help="the run folder for the checkpoint, "
                   "the heatmaps and the report")
    p.add_argument("--seed", type=int, default=0, help="seeds the data and the weights")
    p.add_argument("--epochs", type=int, default=None,
                   help="training epochs, at least 1 (default 6)")
    p.add_argument("--num-examples", type=int, default=None, help="training pairs (default 12000)")
    p.add_argument("--overwrite", action="store_true", help="replace the demo's files in --out "
                   "even if they are not an earlier demo run's")
    p.set_defaults(func=_demo_command)


# The commands return None, i.e. exit status 0 (a returned dict of scores would be the status)

def _demo_command(a):
    run_demo(a.out, a.seed, a.epochs, a.num_examples, overwrite=a.overwrite)


# ---- whose folder is it? ---------------------------------------------------------------------

DEMO_REPORT = "demo-report.json"
DEMO_FILES = {*runs.RUN_FILES, DEMO_REPORT, "attention-step.svg", "attention-step.dot",
              "decoder-step.svg", "decoder-step.dot"}
# Options a command line may set; the rest of an earlier run's config must be the experiment's
FREE = {"out", "seed", "epochs", "num_examples", "progress", "resume", "overwrite", "threads"}


def _is_demo_file(path):
    return path in DEMO_FILES or re.fullmatch(r"attention-\d+\.png", path) is not None


def saved_config(folder):
    """The config in folder's checkpoint, or None (no checkpoint, or not one of ours)."""
    from seq2seq.commands.checkpoint_reading import read_checkpoint  # every entry checked first
    try:
        config = read_checkpoint(Path(folder) / runs.CHECKPOINT).get("config")
    except (OSError, ValueError, AttributeError):
        return None
    return config if isinstance(config, dict) else None


def same_config(saved, expected, free=FREE):
    """Is the saved config (a dict) the `expected` config, but for the options in `free`?"""
    expected = dataclasses.asdict(expected)
    return all(saved.get(k) == v for k, v in expected.items() if k not in free)


def _is_earlier_demo(out):
    saved = saved_config(out)
    if saved is None or not same_config(saved, demo_config(out)):
        return False
    if (out / DEMO_REPORT).exists():            # a finished demo: its report names the config
        try:
            report = json.loads(read_small_text(out / DEMO_REPORT, runs.MAX_JSON,
                                                message("what.demo_report")))
        except (OSError, ValueError):
            return False
        return isinstance(report, dict) and report.get("config") == saved
    return True                                 # a demo stopped before its report
