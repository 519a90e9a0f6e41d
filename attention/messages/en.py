"""The attention floor's messages in English: the one-line errors of `python -m attention`
(demo, draw, explore, scaling) and of its figures, what the demo and scaling print, and the
verdicts and diagnoses of `python -m attention.grade`. Japanese: ja.py, with the same keys."""

MESSAGES = {
    # ---- the command line's errors (attention.__main__, draw, explore, scaling, figures) -------
    "command.steps": "--steps must be at least 1, not {steps}",
    "example.goes_with_random": "{option} goes with --random; {page} does not use it",
    "example.worked_no_sizes": "{option} goes with --random; the worked example does not use it",
    "example.seed_alone": ("--seed goes with --random{also}; the worked example has no random "
                           "numbers"),
    "example.or_self_block": ", --self or --block",
    "example.too_many": ("a drawing or a page shows every number: more than a few hundred a side "
                         "is unreadable"),
    "explore.self_and_block": ("--self and --block are two pages; choose one (--block holds "
                               "self-attention with its residual)"),
    "explore.needs_self_or_block": "{option} applies to --self or --block",
    "explore.composed_self": "--composed applies to the layer norms of --block; --self has none",
    "explore.one_step": "{option} explores one attention step; it does not go with {page}",
    "explore.heads_divide": ("--heads {heads} does not divide d_model {d_model}: each head gets "
                             "d_model / heads numbers (try 1, 2, 4 or 8)"),
    "scaling.out_format": "--out {out!r}: name a .png, .svg or .pdf file",
    "figure.not_format": ("cannot draw {path}: .{format} is not a picture format matplotlib "
                          "writes (.png, .pdf, .svg, ...)"),
    "figure.symlink": ("{path} is a symbolic link; pass --overwrite (overwrite=True from Python) "
                       "to replace it"),
    "figure.not_ours": ("{path} exists and no earlier figure wrote it; pass --overwrite "
                        "(overwrite=True from Python) to replace it"),

    # ---- what `python -m attention demo` and `scaling` print (attention.demo, scaling) --------
    "demo.out_is_a_file": "--out {path} is a file; the demo writes its figure into a folder",
    "demo.gradients": "Gradients at the initial projection W (one batch; norms over all elements):",
    "demo.soft": "soft",
    "demo.hard": "hard",
    "demo.backprop": "backprop",
    "demo.numeric": "numeric",
    "demo.training": "Training W from the same random rotation, {steps} steps of Adam:",
    "demo.step": "step",
    "demo.soft_loss": "soft loss",
    "demo.soft_acc": "soft acc",
    "demo.hard_loss": "hard loss",
    "demo.hard_acc": "hard acc",
    "demo.final": "final",
    "demo.moved": "hard attention moved W by {moved:g} (largest change of any element)",
    "demo.ideal": "for comparison, W = identity (q along x) on the same test set: {ideal:.1%}",
    "scaling.entropy": "entropy",
    "scaling.saturated": "saturated",
    "scaling.unscaled": "unscaled",
    "scaling.scaled": "scaled",
    "scaling.uniform": "(entropy of uniform weights over {keys} keys: ln {keys} = {value:.3f})",
    "scaling.figure": "figure: {path}",

    # ---- the cases of python -m attention.grade (attention.grade.exercises, encoder_block) ----
    "case.one_query": "one query per example, dq=3, dk=4",
    "case.three_queries": "three queries per example",
    "case.padded_keys": "a padding mask: the last keys of example 0 may not be attended",
    "case.self_heads": "self-attention, 2 heads of 2",
    "case.cross_heads": "cross-attention, 3 heads of 2",
    "case.one_head": "one head",
    "case.causal_heads": "a causal mask, 2 heads",
    "case.pre_norm": "pre-norm (norm_first=True), 2 heads",
    "case.post_norm": "post-norm (norm_first=False), 2 heads",
    "case.padded_start": "a padding mask: example 0 starts with 2 padded positions",
    "case.one_head_post_norm": "one head, post-norm",
    "case.positions": "6 positions, d_model 8",
    "case.odd_d_model": "an odd d_model, 7: the last feature is a sine",
    "case.one_position": "one position",
    "case.long_sequence": "a long sequence, 200 positions",
    "case.one_sequence": "one sequence of 4 positions, d=3",
    "case.batch_of_2": "a batch of 2, 5 positions, values of width 2",
    "case.attends_itself": "one position: it attends only to itself",
    "case.large_scores": "large scores, up to about 2e4: -1e4 is no -inf here",

    # ---- the encoder block's diagnosis (attention.grade.encoder_block) -------------------------
    "block.attn": "the self-attention's output attn",
    "block.h": "the first sublayer's result h",
    "block.ff": "the feed-forward's output ff",
    "block.no_residual": ("the residual is missing: your {result} is {shown}, without the "
                          "sublayer's input {start}; the block adds it: {right}"),
    "block.wrong_norm": ("the layer norm is in the wrong place: your {result} is {shown}, the "
                         "{other}-norm order, and this case is {this}-norm (norm_first={pre}): "
                         "{right}, with {sub} computed from {source}"),
    "block.itself": "{start} itself",

    # ---- the known mistakes (attention.grade.mistakes) ---------------------------------------
    "mistake.known": "a known mistake: {text}",
    "mistake.swapped": ("sin and cos are swapped: the even features 2i hold the sine, the odd "
                        "ones 2i+1 the cosine"),
    "mistake.halves": ("the sines and the cosines are in two halves [sin ..., cos ...]; they "
                       "interleave: sin in feature 2i, cos in feature 2i+1 beside it"),
    "mistake.exponent_i": ("the exponent is i/d_model with i the pair's number; it is "
                           "2i/d_model, 2i being the even feature's index"),
    "mistake.exponent_j": ("each feature uses its own index j in 10000^(j/d_model); the pair "
                           "(2i, 2i+1) shares one wavelength, 10000^(2i/d_model), the cosine's "
                           "too"),
    "mistake.multiplied": "pos is multiplied by 10000^(2i/d_model); it is divided by it",
    "mistake.power_of_ratio": ("(pos / 10000)^(2i/d_model) takes the power of pos / 10000; the "
                               "power is of 10000 alone, pos / 10000^(2i/d_model) (mind the "
                               "brackets)"),
    "mistake.from_one": "the positions start at 1; the first is 0, whose row is [0, 1, 0, 1, ...]",
    "mistake.base": ("the wavelengths use the base {base:.6g}, not 10000: "
                     "pos / 10000^(2i/d_model)"),
    "mistake.transposed": ("the future leaks: your mask is transposed, so position t attends to "
                           "keys t ... T-1 (itself and later ones) instead of 0 ... t; keep the "
                           "lower triangle, key j <= query t"),
    "mistake.diagonal": ("your mask hides the diagonal too: position t must see itself (keys 0 "
                         "... t, t included); position 0 is left nothing to attend"),
    "mistake.no_mask": ("the future leaks: nothing is masked, every position attends to every "
                        "key, later ones included"),
    "mistake.unscaled": ("the scores are not divided by sqrt(d) = sqrt({d}): scaled dot-product "
                         "attention is softmax(q k^T / sqrt(d))"),
    "mistake.values_width": ("the scores are divided by the square root of the values' width, "
                             "{dv}: d is the width of the queries and keys, {d}"),
    "mistake.leak": ("the masked scores are a large negative number, as -1e4 is ({how}), not "
                     "-inf: this case's scores reach {peak:.3g}, so later keys keep some weight "
                     "and the future leaks; exp(-inf) is 0 whatever the scores"),
    "mistake.written": "written into the scores",
    "mistake.added": "added to the scores",
    "mistake.later_key": ("the future leaks: query {query} gives weight {weight:.3g} to the "
                          "later key {key} (element {element} of weights); it must be exactly 0 "
                          "(a score of -inf before the softmax)"),

    # ---- the Python functions' errors: figures, blocks, explore_self -------------------------
    "figure.sentences": ("weights of shape {shape} hold {count} sentences of (heads, queries, "
                         "keys): draw one, weights[b]"),
    "figure.weights_shape": ("weights of shape {shape}: expected (heads, queries, keys), "
                             "(queries, keys) or a list of (queries, keys) matrices"),
    "figure.matrix_shape": "matrix {index} has shape {shape}: expected (queries, keys)",
    "figure.panels": "{count} matrices: a grid draws 1 to {most}",
    "figure.query_tokens": ("matrix {index} has shape {shape}, but {count} query tokens were "
                            "given"),
    "figure.key_tokens": "matrix {index} has shape {shape}, but {count} key tokens were given",
    "figure.titles": "{titles} titles for {matrices} matrices",
    "figure.empty_boxes": "the heatmap draws {sample!r} as empty boxes: {why}",
    "figure.no_font": "no installed font has them",
    "figure.no_japanese_font": "the project's Japanese font is not installed; {how}",
    "blocks.activation": ("{where}: activation must be one of {names} or a function of a tensor, "
                          "not {value!r}"),
    "blocks.norm_first": ("{where}: norm_first must be True (pre-norm) or False (post-norm, as "
                          "the 2017 paper), not {value!r}"),
    "blocks.decoder_x": ("DecoderBlock: expected x of shape (..., T, d_model) with T >= 1, got "
                         "{shape}"),
    "explore.heads_api": ("explore_self_attention: {heads} heads do not divide d_model {d_model} "
                          "(each head gets d_model / heads numbers)"),
    "explore.composed_api": ("explore_self_attention: composed=True applies to the layer norms "
                             "of a block (block=True); self-attention alone has none"),
}
