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
}
