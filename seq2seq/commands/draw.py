"""`python -m seq2seq draw CHECKPOINT`: one decoder step of a trained model, drawn as a graph.

The model's own `Seq2Seq.encode` and `AttentionDecoder.step` (or `Decoder.step`) run here; they
record each part inside a `minigrad.scope(...)`: the encoder, the embedding of the previous token,
the decoder's recurrent layer ("decoder lstm", or "decoder gru" for a layer class named GRU), the
attention and the output layer (the loss gets its scope here). The drawing then folds the big
parts into one box each (by default the encoder and the decoder's recurrent layer), so a whole
step with a hidden size of 128 stays readable, while the attention is drawn op by op with its
weights.

The root is the loss of the token the model writes at that step, -log p(token), so every box
shows the gradient that would train it. The steps before are run without recording (their
state comes in as a constant) and are not drawn.

A Transformer's step (`train --arch transformer`) is drawn the same way: its state is the keys
and values each layer kept from the steps before, and its scopes are the layers, their
sublayers and each head (seq2seq/commands/transformer_step.py says which are folded at first).
A folded scope holds the parameters that only it uses: its box counts them, and they are drawn
one box each when it is unfolded (--collapse with no name unfolds every scope).

    python -m seq2seq draw runs/demo --out runs/decoder-step.svg
    python -m seq2seq draw runs/demo --sentence "ねこ が さかな を たべる" --step 2 \
        --out runs/step2.svg
"""

import numpy as np

import minigrad.functional as F
from minigrad import no_grad, scope
from minigrad.files import default_path, output_path
from minigrad.messages import message
from minigrad.settings import SettingError
from seq2seq.commands import messages, transformer_step
from seq2seq.commands.settings import check_settings


def default_collapse(model):
    """The scopes folded by default: the encoder and the decoder's recurrent layer, whose scope
    is named after its class ("decoder lstm", "decoder gru"); for a Transformer, the encoder,
    the decoder's layers but the last, every head and the plumbing around them
    (transformer_step.default_collapse)."""
    if transformer_step.is_transformer(model):
        return transformer_step.default_collapse(model)
    return ("encoder", model.decoder.rnn_scope)


def step_collapse(model, loss, collapse=None):
    """The scopes a drawing or an explorer page of a decoder step starts folded: `collapse`, each
    the name of a scope of the step's graph (behind `loss`), else one line that lists those
    there are; None: `default_collapse(model)`. `draw` and `explore` both check here."""
    from minigrad.graph import walk
    from minigrad.viz.explorer.checks import check_collapse

    if collapse is None:
        return list(default_collapse(model))
    return list(check_collapse(walk([loss]).ops, collapse, where=None))


def decoder_step(translator, sentence, step=0):
    """Run decoder step `step` of translating `sentence`. Returns a dict: loss (the root),
    logits (1, V), weights (1, S) or None, token (the id written), and the tensors worth a name
    in the drawing. The model's own `encode` and `step` run here; they open the scopes the
    drawing frames and folds (encoder, embedding, decoder lstm, attention, output; a
    Transformer's layers, sublayers and heads, each head run in a scope of its own here)."""
    check_settings(step=step)                           # an integer >= 0
    with transformer_step.heads_apart(translator.model):   # (the LSTM has no heads)
        return run_step(translator, sentence, step)


def run_step(translator, sentence, step):
    model, tgt = translator.model, translator.tgt_vocab
    model.eval()
    decoder = model.decoder
    src = translator.source_ids([sentence])                             # (1, S)
    enc_outputs, state, src_mask = model.encode(src)                    # (1, S, H), (1, H) each
    limit = 2 * src.shape[1] + 10                       # where greedy decoding stops
    why = messages.message("draw.why_limit", tokens=src.shape[1])
    if transformer_step.is_transformer(model) and model.max_len < limit:
        limit, why = model.max_len, messages.message("draw.why_max_len")
    token = np.array([tgt.bos_id])
    with no_grad():                                     # the steps before: run, not recorded
        for done in range(min(step, limit)):
            logits, state, _ = decoder.step(token, state, enc_outputs, src_mask)
            token = logits.data.argmax(-1)                              # (1,)
            if token[0] == tgt.eos_id:                  # the translation ended at step `done`
                raise SettingError("step", messages.message(
                    "draw.past_the_end_one" if done == 1 else "draw.past_the_end", step=step,
                    sentence=repr(sentence), done=done))
    if step >= limit:                                   # (decoding never wrote <eos>)
        raise SettingError("step", messages.message("draw.past_the_limit", step=step, why=why,
                                                    sentence=repr(sentence), limit=limit,
                                                    last=limit - 1))

    named = {}                                          # the step's tensors, by name
    logits, _, weights = decoder.step(token, state, enc_outputs, src_mask, named=named)
    written = logits.data.argmax(-1)                                    # (1,)
    with scope("loss"):
        loss = F.cross_entropy(logits, written)                         # -log p(token)
    word = tgt.token(int(written[0]))
    names = {f"-log p({word})": loss, "logits": logits, "encoder outputs": enc_outputs}
    read = tgt.token(int(token[0]))                     # the token this step reads
    if transformer_step.is_transformer(model):          # kept keys and values, every head
        names.update(transformer_step.step_names(loss, state, read, step))
    else:
        names[f"embedding of {read}"] = named["embedding"]
        for i, part in enumerate(decoder.rnn.state_parts):              # h, c for an LSTM
            names[f"{part} (decoder state)" if i == 0 else part] = named[part]
        if weights is not None:
            names.update({"attention weights": named["attention weights"],
                          "context": named["context"]})
    return {"loss": loss, "logits": logits, "weights": weights, "token": int(written[0]),
            "word": word, "names": names}


# The caption's words, by the page's language (explore --lang): the step, what a Transformer's
# step attends besides its new token (nothing yet, step 0's keys and values, or steps 0 to k's).
TITLE_WORDS = {
    "en": ("Decoder step {step} of {sentence!r}: it writes {word!r}", "nothing kept yet",
           "the keys and values kept from step 0",
           "the keys and values kept from steps 0 to {last}",
           " (the new token alone, with {kept})"),
    "ja": ("{sentence!r} のデコーダのステップ {step}: {word!r} を出力", "保持した値はまだなし",
           "ステップ 0 から保持したキーとバリュー",
           "ステップ 0 から {last} までに保持したキーとバリュー", " (新しいトークンのみ、{kept})"),
}


def step_title(model, sentence, step, word, lang="en"):
    """The caption of a step's drawing or page; a Transformer's says what its step attends.
    `lang`: "en", or "ja" for a Japanese page."""
    title, none, one, many, alone = TITLE_WORDS[lang]
    title = title.format(step=step, sentence=sentence, word=word)
    if transformer_step.is_transformer(model):
        kept = none if step == 0 else one if step == 1 else many.format(last=step - 1)
        title += alone.format(kept=kept)
    return title


def decoder_step_drawing(translator, sentence, step=0, collapse=None, backward_order=False,
                         show_values=True, legend=True):
    """The drawing (a minigrad.viz Drawing) of decoder step `step` of translating `sentence`;
    `collapse`: the scopes drawn as one box each (None: `default_collapse(model)`); `legend`:
    the key to colours and line styles under the title."""
    from minigrad.viz import draw_graph

    run = decoder_step(translator, sentence, step)
    collapse = step_collapse(translator.model, run["loss"], collapse)
    names = {f"{name}": p for name, p in translator.model.named_parameters()}
    names.update(run["names"])
    title = step_title(translator.model, sentence, step, run["word"])
    return draw_graph(run["loss"], names=names, collapse=collapse,
                      backward_order=backward_order, show_values=show_values, title=title,
                      legend=legend)


def draw_decoder_step(translator, sentence, path, step=0, collapse=None,
                      backward_order=False, engine="auto", overwrite=False, legend=True):
    """Draw decoder step `step` of translating `sentence` to `path` (.svg, .png or .pdf; the DOT
    text goes beside it, .dot, but never over a .dot file that is not the DOT text of an
    earlier drawing of `path`, unless `overwrite`). Returns the path."""
    from minigrad.viz import render

    drawing = decoder_step_drawing(translator, sentence, step, collapse, backward_order,
                                   legend=legend)
    return render(drawing, path, engine=engine, overwrite=overwrite)


# ---------------------------------------------------------------------------------------------
# The command line: python -m seq2seq draw
# ---------------------------------------------------------------------------------------------

def add_command(subparsers):
    """Register `draw` on the subparsers of `python -m seq2seq`."""
    from minigrad.viz.render import ENGINES

    p = subparsers.add_parser("draw", help="draw one decoder step of a trained model as a graph")
    p.add_argument("--out", help="the picture (.svg, .png, .pdf); the DOT text goes beside it "
                   f"(.dot) (default: {default_path('decoder-step.svg')})")
    p.add_argument("--overwrite", action="store_true",
                   help="replace the picture and its .dot file if they exist (without it, an "
                   "existing one is refused)")
    add_step_options(p)
    p.add_argument("--backward-order", action="store_true",
                   help="number the ops as backward visits them; gradients on the arrows")
    p.add_argument("--no-legend", dest="legend", action="store_false",
                   help="leave out the key to colours and line styles")
    p.add_argument("--engine", choices=ENGINES, default="auto",
                   help="the system dot, or the Graphviz bundled in pygraphviz")
    p.set_defaults(func=run_command)
    return p


def add_step_options(p):
    """The options that choose the step and its folding, the same for `draw` and `explore`."""
    from seq2seq.commands import rnn_file

    p.add_argument("run", help="the run folder (or its checkpoint.npz)")
    p.add_argument("--sentence", help="the source sentence (default: one made by the model's "
                   "task)")
    p.add_argument("--step", type=int, default=0, help="which output step (0: the first token)")
    p.add_argument("--collapse", nargs="*", default=None, metavar="SCOPE",
                   help="scopes folded into one box at first, each holding the parameters "
                   "only it uses; with no name, none (default: encoder and the "
                   "decoder's layer); of encoder, embedding, the decoder's layer named after "
                   "its class ('decoder lstm', or 'decoder gru' for a --rnn GRU), attention, "
                   "output, loss; a Transformer's (default: encoder, the decoder's layers but "
                   "the last, every head, projections, output, feed-forward, final norm): "
                   "encoder, embedding, positions, 'layer 0', ..., "
                   "self-attention, cross-attention, feed-forward, projections, 'head 0', ..., "
                   "output, 'final norm', loss (an unknown name is an error that lists the "
                   "step's scopes)")
    rnn_file.add_option(p)


def load_step(args):
    """(translator, sentence) for a command on one decoder step: the run's model, and the
    sentence of --sentence or, by default, one made by the run's built-in task."""
    from seq2seq.data import tasks
    from seq2seq.translator import load_translator

    translator, state = load_translator(args.run, getattr(args, "layer_file", None))
    sentence = args.sentence
    if sentence is None:
        task = state["config"]["task"]
        if task not in tasks.TASKS:
            raise ValueError(messages.message("draw.not_built_in", task=repr(task)))
        sentence = tasks.make_task(task, 1, seed=1)[0][0]
    return translator, sentence


def run_command(args):
    from minigrad.viz.render import refuse_existing_drawing, render

    translator, sentence = load_step(args)              # the run's errors first, as explore
    if args.out is not None:                            # a file of the user's: refused at once
        refuse_existing_drawing(args.out, overwrite=args.overwrite)
    drawing = decoder_step_drawing(translator, sentence, args.step, args.collapse,
                                   args.backward_order, legend=args.legend)   # then the step's
    out = output_path(args.out, "decoder-step.svg")     # runs/ made only once all is well
    refuse_existing_drawing(out, overwrite=args.overwrite)
    path = render(drawing, out, engine=args.engine, overwrite=args.overwrite)
    print(message("files.wrote_drawing", path=path, dot=path.with_suffix(".dot")))
