"""seq2seq's messages in English, the fourth part: the resume line and the progress line's
scores (seq2seq.commands.train, progress), evaluate's refusals of options that choose generated
pairs (seq2seq.commands.evaluate), explore's refusal of a step too large (seq2seq.commands.explore)
and a model_config setting the model does not have (checkpoint_reading). en.py takes them in at
the end of its dict; Japanese: ja_left.py, with the same keys."""

MESSAGES = {
    # ---- resuming, and the scores of the progress line (seq2seq.commands.train, progress) -----
    "train.resuming": "resuming after epoch {epoch}",
    "train.resuming_changed": "; {name} {old} -> {new}",
    "progress.exact_match": "  exact_match {value}",
    "progress.token_accuracy": "  token_accuracy {value}",
    "progress.bleu": "  bleu {value}",

    # ---- evaluate's options that choose generated pairs (seq2seq.commands.evaluate) -----------
    "evaluate.needs_task": ("{option} chooses the pairs a built-in --task generates ({tasks}); "
                            "without one, evaluate scores the run's own held-out pairs: leave it "
                            "out, or give --task"),
    "evaluate.lengths_need_task": ("--min-len and --max-len choose the lengths of a generated "
                                   "--task: give a built-in one ({tasks})"),
    "evaluate.no_record": ("{run} does not record its validation split (it was saved by an older "
                           "version); evaluate it with --task, or train it again"),

    # ---- explore's step of more ops than --max-ops (seq2seq.commands.explore) -----------------
    "explore.too_many_ops": ("explore: the step has {count:,} ops, more than --max-ops {most:,} "
                             "(a browser needs seconds to lay out a few thousand); give a larger "
                             "--max-ops"),

    # ---- a model_config setting the LSTM model does not have (checkpoint_reading) -------------
    "expect.no_setting": "absent (the LSTM model has no such setting; its settings are {names})",
}
