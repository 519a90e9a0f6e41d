"""seq2seq's messages in English, the second part: what the checks say (the settings, the stops
of a training that diverges, evaluate's table, a checkpoint's entries, a layer file). en.py
takes them in at the end of its dict; Japanese: ja_checks.py, with the same keys."""

MESSAGES = {
    # ---- the settings (seq2seq.commands.settings) ---------------------------------------------
    "settings.heads": "{heads} does not divide --d-model {d_model} (each head gets d_model / "
                      "heads features)",
    "settings.min_above_max": "{low} is above --max-len {high}",
    "settings.sep_empty": "must not be empty",
    "settings.no_pair_left": ("{val_fraction} leaves no pair to train on: all {pairs} pairs are "
                              "held out for validation"),
    "settings.too_large": "is --{option} {value} too large?",
    "settings.why_warmup": "updates before the learning rate peaks, more than any run makes",
    "settings.why_smoothing": "at 1 every target is uniform: the loss teaches nothing",
    "settings.why_batch": "no run has more examples to fill a batch with",
    "settings.why_epochs": ("a checkpoint is written after every epoch, and records each: more "
                            "is a typo"),
    "settings.why_threads": "BLAS threads, more than the cores of any machine this runs on",
    "settings.why_beam": "beam search weighs beam_size**2 candidates a step, one by one",

    # ---- a training that diverges (seq2seq.commands.epoch) ------------------------------------
    "epoch.diverged": ("the {what} at epoch {epoch}, batch {batch}: lower --lr (now {lr}) or "
                       "--clip (now {clip}); this epoch was not saved"),
    "epoch.loss_not_finite": "loss became {value}",
    "epoch.loss_too_high": ("loss became {value} per token (the bound is {ratio} x ln V = "
                            "{bound}, where a uniform guess among the V = {size} target tokens "
                            "scores {uniform})"),
    "epoch.norm_not_finite": "gradients' norm became {norm}",
    "epoch.weight_too_large": "largest weight became {largest} (the bound is {bound})",

    # ---- evaluate's table and its notes (seq2seq.commands.cli, evaluate) ----------------------
    "evaluate.examples": "examples         {count}",
    "evaluate.seen": "seen_in_training {seen}",
    "evaluate.unknown": "unknown",
    "evaluate.exact_match": "exact_match      {value:.4f}",
    "evaluate.token_accuracy": "token_accuracy   {value:.4f}",
    "evaluate.bleu": "bleu             {value:.4f}",
    "evaluate.bleu_char": "bleu_tokens      {tokens}  (characters)",
    "evaluate.bleu_13a": "bleu_tokens      {tokens}  (13a words)",
    "evaluate.bad_source": ("{file}: its 'split.val_pairs[{i}]' entry: the validation source "
                            "{problem}"),
    "evaluate.min_above_max": ("--min-len {low} is above --max-len {high} (a length not given is "
                               "the run's, else the task's)"),
    "evaluate.origin_given": "as --min-len/--max-len say",
    "evaluate.origin_run": "the run's --min-len/--max-len",
    "evaluate.origin_default": "the task's default lengths",
    "evaluate.too_long": ("{task}: sources of up to {high} tokens ({origin}), but this model takes "
                          "at most {most} tokens: give a smaller --max-len"),
    "evaluate.lengths": "{task}: sources of {low} to {high} tokens, {origin}",
    "evaluate.no_split": ("warning: {run} does not record its training split, so which sources it "
                          "trained on is unknown (seen_in_training: null)"),
    "evaluate.split_empty": "nothing to evaluate: the validation split is empty (use --task)",
    "evaluate.all_seen": ("nothing to evaluate: all {dropped} pairs of {task} have a source the "
                          "run trained on"),
    "evaluate.all_blank": ("warning: every one of the {count} outputs is blank (empty or only "
                           "spaces)"),
    "evaluate.file_changed": "{task} has changed since the run trained on it",
    "evaluate.not_as_trained": ("warning: {what}; evaluating the {count} validation pairs the run "
                                "recorded"),

    # ---- a text to translate (seq2seq.translator) ---------------------------------------------
    "translator.empty": "is empty: there is nothing to translate",
    "translator.too_many": "has {n} tokens ({level} level); translate takes at most {most}",
    "translator.model_most": ("has {n} tokens ({level} level); this model takes at most {most} "
                              "tokens (it has no position beyond that)"),
    "translator.reserved": ("holds {token}, a token reserved at the word level ({specials}): "
                            "rewrite it"),
    "translator.max_len": ("translate: max_len must be a whole number of at least 1, or None "
                           "(2 n + 10 for n source tokens), not {value}"),
    "translator.the_text": "the text",
    "translator.text_i": "text {i} of {n}",
    "translator.bad_text": "{which} {problem}",
    "translator.not_transformer": ("cross-attention by layer and head is a Transformer's; this "
                                   "model is a {model}: plot_heatmap draws its attention"),
    "translator.transformer_rnn": ("a Transformer has no recurrent layer, and the checkpoint "
                                   "records one ('rnn')"),
    "translator.lstm_block": ("an LSTM encoder-decoder has no encoder blocks, and the checkpoint "
                              "records one ('block')"),

    # ---- run folders, their lock and their pairs file (runs, lock_file, task_file) ------------
    "runs.removed_temporary": ("removed {count} temporary file(s) that a stopped run left in "
                               "{folder}"),
    "runs.experiment_there": ("{folder} holds the results of a {experiment} experiment ({file}): "
                              "choose another --out for the run"),
    "runs.swap_of": "a {experiment}",
    "runs.swap_of_an_experiment": "an experiment",
    "runs.unfinished_swap": ("{parent} holds an unfinished swap of {what} run: run the same "
                             "command again, or any experiment command with --out {parent}, to "
                             "finish it, then {run} can be read"),
    "runs.refused": "--{option} {new} (saved: {saved})",
    "runs.refused_for": "--{option} {new} (saved: {saved} for {task})",
    "runs.other_settings": ("cannot resume {folder} with other settings than its model was trained "
                            "with: {refused}; resume with the saved settings, or start afresh with "
                            "--overwrite or another --out"),
    "lock.not_regular": "{path} is not a regular file (a symlink, or a folder): remove it",
    "lock.cannot_open": "cannot open the lock {path}: {error}",
    "lock.hard_link": ("{path} is not a regular file of its own (a hard link, one of {names} names "
                       "of one file): remove it"),
    "lock.not_own": "{path} is not a regular file of its own (not a regular file): remove it",
    "lock.process": "another run (process {pid})",
    "lock.another": "another run",
    "lock.busy": "{folder} is in use by {who}: wait for it to finish, or choose another --out",
    "task_file.typed": " (--task {typed} when the run started)",
    "task_file.gone": ("cannot resume {out}: the pairs file it trained on, {path}{how}, is no "
                       "longer there: name it, or a copy of it, with --task FILE"),
    "task_file.cannot_resume": "cannot resume {out}: {why}",
    "task_file.not_the_file": ("the pairs file the run recorded, {path}, is not the file it "
                               "trained on (or is gone): name it with --task FILE"),

    # ---- a model too large for the memory or a checkpoint (seq2seq.commands.sizes) ------------
    "sizes.training_needs": ("training needs about {need} ({weights} weights, kept four times, and "
                             "one batch's activations)"),
    "sizes.weights_need": "its {weights} weights need about {need}",
    "sizes.more_than_memory": "{what}, more than the {limit} of memory available",
    "sizes.too_large": "{value} is too large: {what}",
    "sizes.source_vocabulary": "the source vocabulary of {tokens} tokens is too large: {what}",
    "sizes.target_vocabulary": "the target vocabulary of {tokens} tokens is too large: {what}",
    "sizes.checkpoint_too_large": ("{what}: the model has {weights} weights, and its checkpoint "
                                   "(the weights and Adam's two moments) would take {need}, more "
                                   "than the {most} a checkpoint may hold"),

    # ---- train's options and data (seq2seq.commands.arch, train_options, train) ---------------
    "arch.one_of": "{option} must be one of {choices}, not {value}",
    "arch.transformer_only": ("{option} applies to --arch transformer only, and this run's arch is "
                              "lstm: leave it out, or add --arch transformer"),
    "arch.lstm_only": "{option} applies to --arch lstm only, not to the transformer: leave it out",
    "arch.lr_too_large": ("--lr {lr} is too large for the warm-up schedule: its base rate, lr x "
                          "sqrt(d_model x warmup), is not a finite number"),
    "arch.two_schedules": ("--warmup sets the learning rate at every update, and --lr-decay at "
                           "every epoch: leave one of them out (--warmup 0: no warm-up, a rate "
                           "that --lr-decay lowers each epoch)"),
    "train.composed_and_rnn": ("--composed chooses how the LSTM is computed, and --rnn replaces "
                               "the LSTM: leave one of them out"),
    "train.generating_only": ("applies only to a built-in task (it generates the pairs), not to "
                              "the pairs file {task}, every line of which is read: leave it out"),
    "train.recorded_pairs": "the recorded validation pairs",
    "train.built_in_task": "the built-in task {task}",
    "train.pairs_only_one": ("{options} applies only to a pairs file (--task FILE), not to {what}: "
                             "leave it out"),
    "train.pairs_only_two": ("{options} apply only to a pairs file (--task FILE), not to {what}: "
                             "leave them out"),
    "train.no_validation_one": ("warning: no validation pairs: --val-fraction {fraction} of "
                                "{sources} distinct source holds out none, so no epoch is scored"),
    "train.no_validation": ("warning: no validation pairs: --val-fraction {fraction} of {sources} "
                            "distinct sources holds out none, so no epoch is scored"),
    "train.no_split_record": ("cannot resume {out}: it was saved by an older version that did not "
                              "record its split; train into a new --out"),
    "train.other_data": ("cannot resume {out}: {named} is not the data the run started with "
                         "(sha256 {was}..., now {now}...); train into a new --out"),
    "train.other_val_pairs": ("{file}: its 'split.val_pairs' entry is not the validation split "
                              "that its val_fraction and seed make of the run's data; train into "
                              "a new --out"),
    "train.other_train_sources": ("{file}: its 'split.train_sources' entry is not the split that "
                                  "its val_fraction and seed make of the run's data; train into a "
                                  "new --out"),
    "train.bad_optimizer": ("{file}: not a seq2seq checkpoint that this version can load: its "
                            "'optimizer' entry: {error}"),

    # ---- a layer from the user's file (seq2seq.commands.layer_kinds, rnn_file, rnn_failures) --
    "layer.noun_rnn": "recurrent layer",
    "layer.noun_block": "encoder block",
    "layer.code": "the {option} layer's code, {site}, {raised}",
    "layer.site": "{file}, line {number}",
    "layer.line": ", line {number}",
    "layer.running": "{option}: running {path}{line} {raised}",
    "layer.not_in_a_file": ("{entry}: the class {name} must be defined at the top of a .py file of "
                            "its own, not in a script or a notebook (a run records the file, to "
                            "load the class again)"),
    "layer.no_file": "{option} {spec}: {problem}: {path}",
    "layer.spec": "{option} should be FILE.py:CLASS (e.g. {example}), got {spec}",
    "layer.cannot_read": "{option} {spec}: cannot read {path}: {error}",
    "layer.changed": ("{path} has changed since the model was trained (sha256 {was}..., now "
                      "{now}...)"),
    "layer.not_defined": "{option} {spec}: {name} is not a class defined in {path}",
    "layer.imported": ("{option} {spec}: {name} is not a class defined in {path} (it imports it "
                       "from {module})"),
    "layer.defines_no_rnn": ("{option} {spec}: {path} defines no {name}, where a recurrent "
                             "layer's class belongs"),
    "layer.defines_no_block": ("{option} {spec}: {path} defines no {name}, where an encoder "
                               "block's class belongs"),
    "layer.defines_other_rnn": ("{option} {spec}: {path} defines a {type} named {name}, where a "
                                "recurrent layer's class belongs"),
    "layer.defines_other_block": ("{option} {spec}: {path} defines a {type} named {name}, where "
                                  "an encoder block's class belongs"),
    "layer.changed_in_training": "{option} {path} changed while the run trained: train again",
    "layer.bad_record": ("{checkpoint}: its {entry} entry should be a record of the layer's file "
                         "(file: a path of at most {most} printable characters, class, sha256), "
                         "found {found}"),
    "layer.copy_not_regular": ("{checkpoint}: {copy} is a symbolic link or not a regular file, "
                               "where the run's copy of its layer file belongs: a run's layer "
                               "file runs only from its run folder or when named: if you trust "
                               "the file, name it with {file_option} PATH ({option} PATH:CLASS "
                               "on train --resume)"),
    "layer.no_copy": ("{checkpoint}: its {noun} {name} comes from {file}, and {folder} holds no "
                      "copy of it ({copy}): a run's layer file runs only from its run folder or "
                      "when named: if you trust that file, name it with {file_option} PATH "
                      "({option} PATH:CLASS on train --resume; its SHA-256 must be the recorded "
                      "{sha256}...)"),
    "layer.copy_changed": ("{checkpoint}: {copy} has changed since the model was trained (sha256 "
                           "{was}..., now {now}...): put back the file it was trained with, or "
                           "train again"),
    "layer.runs_alone": (" ({copy} is unchanged, but it runs on its own from the run folder: a "
                         "layer that imports a module of yours beside it loads when named with "
                         "{file_option} PATH, or when kept as one file)"),
    "layer.moved_missing": "{file_option} {moved}: {problem}",
    "layer.moved_other": ("{file_option} {moved} is not the file {checkpoint} was trained with "
                          "(sha256 {now}..., the run records {was}... for {file})"),
    "layer.still_running": ("{option} {spec}: the file was still running after {seconds} s, while "
                            "it was imported or its layer checked on a tiny batch (a loop that "
                            "never ends? a sleep?); stopped"),
    "layer.ended_process": ("{option} {spec}: the file ended the process (exit status {status}) "
                            "while it was run or its layer checked on a tiny batch: a layer file "
                            "must return or raise, never exit the process (os._exit)"),
    "translator.no_layer_file_block": ("{option} {named}: {file} records no encoder block file "
                                       "(its model's encoder block is the project's own)"),
    "translator.no_layer_file_transformer": ("{option} {named}: {file} records no layer file (a "
                                             "Transformer has no recurrent layer)"),
    "translator.no_layer_file_lstm": ("{option} {named}: {file} records no layer file (its "
                                      "model's recurrent layer is the LSTM)"),

    # ---- draw and explore (seq2seq.commands.draw) ---------------------------------------------
    "draw.why_limit": "2 S + 10 for S = {tokens} source tokens",
    "draw.why_max_len": "the model's max_len: it has no position beyond",
    "draw.past_the_end_one": ("{step} is past the end of the translation of {sentence}: it is "
                              "{done} token long and writes <eos> at step {done}, so the steps "
                              "are 0 to {done}"),
    "draw.past_the_end": ("{step} is past the end of the translation of {sentence}: it is {done} "
                          "tokens long and writes <eos> at step {done}, so the steps are 0 to "
                          "{done}"),
    "draw.past_the_limit": ("{step} is past the last step decoding of {sentence} can reach: it "
                            "stops after {limit} steps ({why}), so the steps are 0 to {last}"),
    "draw.not_built_in": ("the model was trained on {task}, not a built-in task: give the "
                          "sentence with --sentence"),

    # ---- train --resume's saved settings, report.json, a model without attention --------------
    "train.saved_config": ("{out}/checkpoint.npz: its 'config' entry, read for the options not "
                           "written on this command line: {error}"),
    "train.saved_sep": ("{out}/checkpoint.npz: its 'config.sep' entry, {sep}, does not read the "
                        "run's pairs file: {error}"),
    "reports.rewritten": ("{path} did not match {checkpoint}: rewritten from the checkpoint's "
                          "history ({epochs} epochs)"),
    "translate.no_attention": "a model without attention has no attention weights to draw",
}
