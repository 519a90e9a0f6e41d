"""`python -m seq2seq explore RUN`: one decoder step of a trained model, as a page that steps
through its backward pass op by op (minigrad.viz.explore).

The step is the one `seq2seq draw` draws (seq2seq/commands/draw.py: the model's own `encode` and
`step`, the loss -log p(token) of the token it writes as the root). The page starts with the big
parts folded (the encoder, its time steps when its recurrent layer is built from primitive ops, and
the decoder's recurrent layer), so that the attention is drawn op by op; a click unfolds any of
them. A Transformer's step starts with the encoder, the decoder's layers but the last, every
head and the plumbing around them folded (seq2seq/commands/transformer_step.py); a click on a
head shows its weights. A folded scope holds the parameters only it uses. In predict mode a
Transformer's step asks only in its last layer, where transformer_questions chooses (a layer
norm and its residual, a softmax, the scale), with the first head of each attention unfolded:
never inside a folded scope (transformer_step.predict_questions).

    python -m seq2seq explore runs/demo --out runs/decoder-step.html
    python -m seq2seq explore runs/demo --step 2 --predict --out runs/predict.html
"""

from minigrad import language
from minigrad.files import default_path, output_path
from minigrad.graph import walk
from minigrad.messages import message
from minigrad.viz.explorer.arrays import MAX_BYTES, MAX_ELEMENTS
from minigrad.viz.explorer.data import MAX_OPS, TooManyOps
from minigrad.viz.explorer.words import add_lang_option
from seq2seq.commands.draw import (
    add_step_options,
    decoder_step,
    load_step,
    step_collapse,
    step_title,
)
from seq2seq.commands.messages import message as step_message
from seq2seq.commands.transformer_step import is_transformer, predict_collapse, predict_questions


def explore_decoder_step(translator, sentence, step=0, collapse=None,
                         predict=False, max_elements=MAX_ELEMENTS, max_bytes=MAX_BYTES,
                         max_ops=MAX_OPS, lang="en"):
    """The explorer (minigrad.viz.Explorer) of decoder step `step` of translating `sentence`.
    The scopes in `collapse` (None: `default_collapse(model)`, the encoder and the decoder's
    recurrent layer; else checked by `step_collapse`), and the time steps of an encoder built
    from primitive ops, start folded. In predict mode a Transformer's step asks where
    transformer_step.predict_questions chooses, with "head 0" unfolded unless `collapse` is
    given; an LSTM's where the general rule does. `lang`: the page's language, "en" or "ja"."""
    from minigrad.debug import local_names
    from minigrad.viz import explore

    with local_names() as found:                # the model's variables: scores, weights, ...
        run = decoder_step(translator, sentence, step)
    chosen = collapse
    collapse = step_collapse(translator.model, run["loss"], collapse)
    names = dict(translator.model.named_parameters())
    names.update(run["names"])
    time_steps = {name for op in walk([run["loss"]]).ops for name in op.scope
                  if name.startswith("time step ")}
    title = step_title(translator.model, sentence, step, run["word"], lang)
    at = None
    if predict and is_transformer(translator.model):
        if chosen is None:                      # the first head of each attention unfolded
            collapse = predict_collapse(collapse)
        at = predict_questions(run["loss"], collapse)
    return explore(run["loss"], names=names, variables=found,
                   collapse=collapse + sorted(time_steps), predict=predict, predict_at=at,
                   title=title, max_elements=max_elements, max_bytes=max_bytes,
                   max_ops=max_ops, lang=lang)


def add_command(subparsers):
    """Register `explore` on the subparsers of `python -m seq2seq`."""
    p = subparsers.add_parser("explore", help="write a page that steps through the backward "
                              "pass of one decoder step, op by op, in a browser")
    p.add_argument("--out", help="the page (.html) (default: "
                   f"{default_path('decoder-step.html')})")
    p.add_argument("--overwrite", action="store_true", help="replace a file there")
    add_step_options(p)
    p.add_argument("--predict", action="store_true",
                   help="ask for chosen gradients before showing them")
    p.add_argument("--max-elements", type=int, default=MAX_ELEMENTS, metavar="N",
                   help="arrays with more numbers than this are summarised, not embedded")
    p.add_argument("--max-bytes", type=int, default=MAX_BYTES, metavar="N",
                   help="the page's numbers, at most; past it the largest arrays are "
                   "summarised too")
    p.add_argument("--max-ops", type=int, default=MAX_OPS, metavar="N",
                   help=f"a step of more ops is refused ({MAX_OPS:,}: a browser takes seconds "
                   "to lay out a few thousand boxes; a deep or many-headed Transformer has more)")
    add_lang_option(p)
    p.set_defaults(func=run_command)
    return p


def run_command(args):
    from minigrad.viz.explorer.page import save_page

    translator, sentence = load_step(args)
    try:
        page = explore_decoder_step(translator, sentence, args.step, args.collapse, args.predict,
                                    args.max_elements, args.max_bytes, args.max_ops,
                                    args.lang or language.current())
    except TooManyOps as error:             # named as the command line's option
        raise ValueError(step_message("explore.too_many_ops", count=error.count,
                                      most=error.most)) from None
    out = output_path(args.out, "decoder-step.html")
    print(message("files.wrote", path=save_page(page, out, args.overwrite)))
