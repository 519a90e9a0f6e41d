"""seq2seq's messages in English: what the demo prints, the training's progress lines,
`translate`'s notes, and the one-line errors train, evaluate and translate meet most. Japanese:
ja.py, with the same keys."""

MESSAGES = {
    # ---- training's progress (seq2seq.commands.progress) --------------------------------------
    "progress.starting": ("training {weights} weights on {pairs} pairs ({validate} to validate): "
                          "{batches} of {batch_size} an epoch, {which}"),
    "progress.epochs_one": "{count} epoch",
    "progress.epochs_many": "{count} epochs",
    "progress.epoch_only": "epoch {epoch}",
    "progress.epoch_range": "epochs {first} to {last}",
    "progress.batches_one": "{count} batch",
    "progress.batches_many": "{count} batches",
    "progress.epoch": "epoch {epoch}/{epochs}: loss {loss}",
    "progress.epoch_name": "epoch {epoch}/{epochs}",
    "progress.in_epoch": "{epoch}: {done} of {total} batches, {seconds} s{extra}",
    "progress.loss_so_far": ", loss {loss}",
    "progress.all_blank": "  (every output blank)",
    "progress.timing": "  ({batches} in {seconds} s{rate})",
    "progress.rate": ", {rate} batch/s",
    "progress.level_word": "tokens: words, split at whitespace (--level word)",
    "progress.level_char": ("tokens: characters, spaces included ({how}); --level word makes "
                            "each word a token"),
    "progress.level_default": "the default for a pairs file",
    "progress.blank_warning": ("warning: every one of the {count} validation outputs is blank "
                               "(empty or only spaces); {hint}"),
    "progress.blank_spaces": ("every space is a token it must learn to place, so a file of words "
                              "may want --level word"),
    "progress.blank_more": "more epochs or another --lr may help",

    # ---- train (seq2seq.commands.cli, train) --------------------------------------------------
    "train.nothing_left": ("nothing left to train: {out} has already trained {epochs} (--epochs "
                           "{wanted}); pass a larger --epochs to train on"),
    "train.checkpoint": "checkpoint: {path}",
    "train.no_task": "no such task or file: {path!r} (tasks: {tasks})",

    # ---- run folders (seq2seq.commands.runs, seq2seq.translator) ------------------------------
    "runs.out_empty": "{option} is empty: name a folder",
    "runs.out_is_file": "--out {folder} is a file, not a folder",
    "runs.cannot_make": "--out {folder}: cannot make the folder there ({error})",
    "runs.resume_and_overwrite": ("--resume continues the run and --overwrite replaces it: "
                                  "choose one"),
    "runs.holds_run": "{folder} already holds a run ({files}): {way}",
    "runs.resume_or_overwrite": "pass --resume to continue it, or --overwrite to replace it",
    "runs.nothing_to_resume_there": ("it holds no {checkpoint} to resume: pass --overwrite to "
                                     "replace it"),
    "runs.overwrite_later": ("--overwrite: the earlier run in {folder} stays until this run's "
                             "first epoch is saved over it"),
    "runs.nothing_to_resume": ("nothing to resume in {folder}: it holds no {checkpoint} (pass "
                               "--overwrite instead of --resume to start a new run there)"),
    "runs.not_earlier": ("{out} holds files that are not an earlier {what} run ({files}): "
                         "choose another --out, or pass --overwrite to replace the {what}'s "
                         "files there"),
    "runs.replacing_files": "replacing the files of the {what} run in {out}",
    "runs.replacing_earlier": "replacing the earlier {what} run in {out}",
    "runs.train_one": "(train one with: python -m seq2seq train --out {path} ...)",
    "runs.not_a_run": "{path}: no {checkpoint}, so not a run folder {train}",
    "runs.no_run": "{path}: no such run folder {train}",

    # ---- evaluate (seq2seq.commands.cli, evaluate) --------------------------------------------
    "evaluate.dropped": "  ({dropped} generated pairs dropped: the run trained on their sources)",
    "evaluate.by_length": "exact match by source length: {lengths}",

    # ---- translate (seq2seq.commands.cli, seq2seq.translation) --------------------------------
    "translate.empty_text": "the {name} to translate is empty",
    "translate.unknown_all": ("note: the model knows none of the {total} source tokens ({shown}): "
                              "it read only <unk>, so the translation says nothing about this "
                              "text"),
    "translate.unknown_some": ("note: {count} of {total} source tokens are not in the model's "
                               "vocabulary and were read as <unk>: {shown}"),
    "translate.longer": ("warning: the source has {length} tokens, more than the longest the run "
                         "trained on ({longest}): beyond that length the model was never taught"),
    "translate.only_spaces": "note: the translation is only spaces",
    "translate.empty": "note: the translation is empty",
    "translate.no_text_heatmap": ("(no text heatmap for more than {most} tokens a side: --plot "
                                  "PNG draws it)"),
    "translate.heatmaps_written": "heatmaps, a row per layer, a column per head: {path}",
    "translate.heatmap_written": "heatmap: {path}",

    "heatmap.legend": "weight:  {shades}",

    # ---- the demo (seq2seq.commands.demo) -----------------------------------------------------
    "demo.training": ("training an LSTM encoder-decoder with {attention} on "
                      "{task} ({pairs} sentence pairs, {epochs} epochs, bidirectional encoder)"),
    "demo.attention_dot": "dot-product attention",
    "demo.scores": "{held_out}: exact match {exact}, BLEU {bleu} (over {over})",
    "demo.over_characters": "characters",
    "demo.over_words": "words",
    "demo.held_out": "{count} held-out sentences (generated with another seed; {left_out})",
    "demo.none_seen": "none had its source in training",
    "demo.left_out_one": "the {count} whose source was in training is left out",
    "demo.left_out_many": "the {count} whose source was in training are left out",
    "demo.most_attended": "most attended: {pairs}",
    "demo.written": "written to {out}/: {files}",
    "demo.graphs_not_drawn": "graphs not drawn: {error}",
}
