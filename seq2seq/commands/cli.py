"""`python -m seq2seq COMMAND`: train, evaluate, translate, demo, draw, explore, and the
reproductions of the attention papers' figures (seq2seq.papers): compare-lengths, alignments,
uniform-and-seeds, compare-scoring, compare-architectures, compare-positions, compare-norms.

Every failure is one line on stderr and a non-zero exit status; `--debug` (or MINIGRAD_DEBUG=1)
shows the traceback instead.
"""

import dataclasses
import json
import sys

from minigrad.command import Parser, add_debug_option, debug_wanted, run
from minigrad.language import add_language_option
from seq2seq.commands.messages import message
from seq2seq.commands.settings import check_settings, too_large
from seq2seq.commands.train_options import (
    add_columns_option,
    add_train_options,
    check_config,
    check_pairs_options,
    config_from,
    generating_options,
    given_options,
    resumed_config,
    saved_run,
    separator,
)


def cmd_train(args):
    from seq2seq.commands.arch import check_arch, with_defaults
    from seq2seq.commands.progress import counted, say
    from seq2seq.commands.rnn_file import BLOCK, RNN, NamedFile, resolved, split
    from seq2seq.commands.runs import check_resume
    from seq2seq.commands.task_file import locate
    from seq2seq.commands.train import token_level, train
    from seq2seq.data.corpus import SeparatorError
    config = config_from(args)
    # On resume without --task the task is the saved run's, known only once its checkpoint is
    # read: --sep and --columns are checked against it then, not against the default task.
    resuming = config.resume and not config.overwrite   # the saved run's arch is known later
    check_config(config, args.given, arch=not resuming,
                 pairs=not (config.resume and "task" not in args.given))
    given_sep = config.sep if "sep" in args.given else None     # a tab written is still written
    generating = generating_options(args.given)
    if not (config.resume and "task" not in args.given):
        check_pairs_options(config.task, given_sep, config.columns, generating)
    config = dataclasses.replace(config, rnn=resolved(config.rnn),      # absolute paths
                                 block=resolved(config.block, BLOCK))
    saved = saved_run(config) if resuming else None
    pairs_file = None                   # the run's own pairs file, found from any folder
    if saved is not None:
        try:                # the saved settings alone: what fails there came from the file
            check_config(resumed_config(config, saved["config"], ()))
        except ValueError as error:
            raise ValueError(message("train.saved_config", out=config.out,
                                     error=error)) from None
        config = resumed_config(config, saved["config"], args.given)
        check_pairs_options(config.task, given_sep, config.columns, generating)  # its own
        if "arch" not in args.given:            # an option of the other model: named as such
            check_arch(config, args.given)
        if "task" not in args.given:    # the recorded file, once shown to be the run's own
            pairs_file = locate(saved, config.out)
        check_resume(config.out, saved, config, token_level(config), pairs_file)  # cannot honour
        check_config(config, arch=False)        # the options written, with the saved ones
        check_arch(config, args.given)
        config = with_defaults(config)
        done = len(saved.get("history", ()))
        if done >= config.epochs:
            say(message("train.nothing_left", out=config.out,
                        epochs=counted("progress.epochs", done), wanted=config.epochs))
            return
    # On resume, the saved layer runs from the run folder's copy, or from the file --rnn (or
    # --block) names on this command line; never from a path the checkpoint alone names
    # (seq2seq.commands.rnn_file).
    named = next((NamedFile(split(spec, kind)[0], kind) for kind in (RNN, BLOCK)
                  if config.resume and (spec := getattr(config, kind.entry)) is not None
                  and kind.entry in args.given), None)
    try:
        train(config, log=say, layer_file=named, pairs_file=pairs_file)
    except SeparatorError as error:     # the saved sep, not a --sep: the checkpoint's entry
        if saved is None or "sep" in args.given:
            raise
        raise ValueError(message("train.saved_sep", out=config.out, sep=repr(config.sep),
                                 error=error.plain)) from None
    say(message("train.checkpoint", path=f"{config.out}/checkpoint.npz"))


def cmd_evaluate(args):
    """Score a run on the validation pairs it recorded, or on --task; count (or, for a generated
    task, drop) the sources it trained on, so that a held-out score is held out
    (seq2seq.commands.evaluate)."""
    from seq2seq.commands.evaluate import evaluate_run
    scores = evaluate_run(args.run, args.task, args.sep, args.columns, args.num_examples,
                          args.seed, args.min_len, args.max_len, args.beam_size, args.layer_file)
    seen, dropped = scores["seen_in_training"], scores["dropped_as_seen"]
    if args.json:
        print(json.dumps(scores, allow_nan=False))
        return
    print(message("evaluate.examples", count=scores["examples"]))
    print(message("evaluate.seen", seen=message("evaluate.unknown") if seen is None else seen)
          + (message("evaluate.dropped", dropped=dropped) if dropped else ""))
    for key in ("exact_match", "token_accuracy", "bleu"):
        print(message(f"evaluate.{key}", value=scores[key]))
    print(message("evaluate.bleu_char" if scores["bleu_tokens"] == "char" else "evaluate.bleu_13a",
                  tokens=scores["bleu_tokens"]))
    print(message("evaluate.by_length", lengths=", ".join(
        f"{n}: {acc:.2f}" for n, acc in sorted(scores["by_length"].items()))))


def cmd_translate(args):
    """TEXT may be up to MAX_SOURCE_TOKENS (1,000) tokens long; the text heatmap is shown up to
    MAX_TEXT_TOKENS (100) tokens a side, --plot draws any size (see seq2seq/heatmap.py). For a
    Transformer, the text heatmap is the last layer's cross-attention, its heads averaged, and
    --plot draws every layer's and head's (plot_layer_heads)."""
    from seq2seq.heatmap import MAX_TEXT_TOKENS, check_grid, plot_layer_heads
    from seq2seq.models.transformer import Transformer
    from seq2seq.translator import load_translator
    if args.plot:                           # refused before the work, not after it
        from attention.figures import check_figure_path
        check_figure_path(args.plot, args.overwrite)
    translator, state = load_translator(args.run, args.layer_file)
    if args.plot and isinstance(translator.model, Transformer):
        layers = translator.model.decoder.layers
        try:
            check_grid(len(layers), layers[0].multihead_attn.num_heads)
        except ValueError as error:
            raise ValueError(f"--plot: {error}") from None
    translation = translator.translate(args.text, beam_size=args.beam_size)
    if translation.unknown:
        print(translation.unknown_note(), file=sys.stderr)
    longest, length = state.get("longest_source"), len(translation.source_tokens)
    if isinstance(longest, int) and length > longest:       # None: saved before it was recorded
        print(message("translate.longer", length=length, longest=longest), file=sys.stderr)
    if not translation.text.strip():                # a blank line alone would say nothing
        print(message("translate.only_spaces" if translation.text else "translate.empty"),
              file=sys.stderr)
    print(translation.text)
    if translation.weights is not None:
        if max(translation.weights.shape) <= MAX_TEXT_TOKENS:
            print(translation.text_heatmap())
        else:
            print(message("translate.no_text_heatmap", most=MAX_TEXT_TOKENS))
        if args.plot and isinstance(translator.model, Transformer):
            plot_layer_heads(translator.cross_attention(args.text, translation),
                             translation.source_tokens, translation.tokens, args.plot,
                             title=translation.text, overwrite=args.overwrite)
            print(message("translate.heatmaps_written", path=args.plot))
        elif args.plot:
            translation.plot_heatmap(args.plot, overwrite=args.overwrite)
            print(message("translate.heatmap_written", path=args.plot))


def main(argv=None):
    from seq2seq.commands import rnn_file
    parser = Parser(prog="python -m seq2seq", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = train_parser = sub.add_parser("train", help="train a model")
    add_train_options(p)
    p.set_defaults(func=cmd_train)

    p = sub.add_parser("evaluate", help="metrics of a trained model")
    p.add_argument("run", help="the run folder (or its checkpoint.npz)")
    p.add_argument("--task", help="a built-in task or a pairs file (default: the validation "
                                  "pairs the run recorded)")
    p.add_argument("--sep", type=separator,
                   help="separator in a pairs file (default: a tab, '\\t' or a real one)")
    add_columns_option(p)
    p.add_argument("--num-examples", type=int,
                   help="pairs generated for a built-in --task (default: 1000)")
    p.add_argument("--seed", type=int, help="for a generated --task (default: 12345)")
    p.add_argument("--min-len", type=int, help="source lengths of a generated --task (default: "
                   "the run's, if it trained on that task, else the task's own)")
    p.add_argument("--max-len", type=int, help="the longest source of a generated --task "
                   "(default: as --min-len)")
    p.add_argument("--beam-size", type=int, default=1,
                   help="beams of beam search; 1: greedy decoding")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    rnn_file.add_option(p)
    p.set_defaults(func=cmd_evaluate)

    p = sub.add_parser("translate", help="translate one sentence and show the attention")
    p.add_argument("run", help="the run folder (or its checkpoint.npz)")
    p.add_argument("text")
    p.add_argument("--beam-size", type=int, default=1,
                   help="beams of beam search; 1: greedy decoding")
    p.add_argument("--plot", metavar="PNG", help="also draw the heatmap to this file")
    p.add_argument("--overwrite", action="store_true", help="replace a file at --plot that no "
                   "earlier figure wrote")
    rnn_file.add_option(p)
    p.set_defaults(func=cmd_translate)

    from seq2seq import papers
    from seq2seq.commands import demo, draw, explore
    demo.add_commands(sub)
    papers.add_commands(sub)
    draw.add_command(sub)
    explore.add_command(sub)

    add_debug_option(parser, sub)
    add_language_option(parser, sub)
    args = parser.parse_args(argv)           # --lang is read before parsing (Parser)
    if args.command == "train":
        args.given = given_options(parser, train_parser, argv)
    settings = vars(args)
    debug = debug_wanted(args)
    return run(lambda: naming_the_layer(lambda: check_options(args) or args.func(args), debug),
               debug=debug, memory_hint=lambda: too_large(settings))


class LayerCodeError(ValueError):
    """An exception raised inside a --rnn (or --block) layer's code; the message names its file
    and line."""


def naming_the_layer(command, debug=False):
    """command(), with an exception raised inside a --rnn layer's code put as one line that
    names the layer's file and line (`seq2seq.commands.rnn_failures.layer_site`): "boom" alone would
    not say whose code failed. With `debug` the exception goes through as it is, traceback and all.
    A KeyboardInterrupt stays one: a real Ctrl-C stops whatever line is running, most often the
    layer's cell, and the two cannot be told apart."""
    from seq2seq.commands.rnn_failures import layer_site
    from seq2seq.models.recurrent import raised
    try:
        return command()
    except Exception as error:
        found = None if debug else layer_site(error)
        if found is None:
            raise
        site, option = found
        raise LayerCodeError(message("layer.code", option=option, site=site,
                                     raised=raised(error))) from error


def check_options(args):
    """What every subcommand checks before it starts: its numeric options
    (seq2seq.commands.settings) and a text that is not blank."""
    check_settings(**vars(args))
    for name in ("text", "sentence"):
        if isinstance(getattr(args, name, None), str) and not getattr(args, name).strip():
            raise ValueError(message("translate.empty_text", name=name))
