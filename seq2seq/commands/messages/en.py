"""seq2seq's messages in English: what the demo prints, the training's progress lines,
`translate`'s notes, and the one-line errors train, evaluate and translate meet most. Japanese:
ja.py, with the same keys."""

from seq2seq.commands.messages import en_checkpoint, en_checks, en_left

MESSAGES = {
    # ---- what a file read is, as a refusal names it (minigrad.files.read_small_text) ----------
    "what.swap_list": "the swap's list",
    "what.result_file": "a result file",
    "what.demo_report": "a demo report",
    "what.run_report": "a run's report",
    "what.file": "file",

    # ---- the beam-search grader (seq2seq.grade) -----------------------------------------------
    "beam.case_greedy": "beam_size=1 is greedy decoding",
    "beam.case_better": "greedy is not the best: a beam of 2 does better",
    "beam.case_another": "a beam of 2 on another source",
    "beam.case_three": "a beam of 3",
    "beam.case_three_short": "a beam of 3 on a short source",
    "beam.case_four": "a beam of 4",
    "beam.case_cut": "max_len=2 cuts the translations short",
    "beam.case": ('case {number} of {total}, "{label}" (source {source}, beam_size {beam_size}, '
                  'max_len {max_len})'),
    "beam.not_a_pair": ("beam_search: return (ids, weights), a tuple of two, for {where}; yours "
                        "returned {type}"),
    "beam.ids_not_list": "beam_search: ids must be a list of token ids, got {ids!r}, for {where}",
    "beam.ids_not_integers": "beam_search: ids must be a list of token ids, for {where}",
    "beam.id_outside": ("beam_search: the id {id} is not a token id of the model (0 to {last}), "
                        "for {where}"),
    "beam.bos_eos": ("beam_search: the ids {ids} should hold neither <bos> ({bos}) nor <eos> "
                     "({eos}), for {where}"),
    "beam.too_long": "beam_search: {count} tokens is more than max_len={max_len}, for {where}",
    "beam.weights_not_numbers": ("beam_search: the attention weights should be an array of "
                                 "numbers, (n, S); yours are a {type}, for {where}"),
    "beam.not_greedy": ("beam_search: with beam_size=1 beam search is greedy decoding, which "
                        "gives {greedy} (log-probability {best:.6g}); yours gave {ids} "
                        "(log-probability {mine:.6g}), for {where}"),
    "beam.less_likely": ("beam_search: your translation {ids} has log-probability {mine:.6g}; "
                         "the reference found {found} with {best:.6g} (higher is better), for "
                         "{where}"),
    "beam.no_weights": ("beam_search: the model has attention, so return its weights, one row "
                        "per output token ({count} here), for {where}"),
    "beam.weights": "beam_search: the array of attention weights",
    "beam.ids": "ids",
    "beam.attention_weights": "attention weights",
    "beam.reproduce": ("to reproduce: from seq2seq.grade import grading_model, CASES; model = "
                       "grading_model(); label, source, beam_size, max_len = CASES[{index}]"),
    "beam.passed": ("beam_search: {count} cases; greedy with beam_size=1, translations at least "
                    "as likely as the reference's, and their attention weights"),

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
    "runs.nothing_to_resume_empty": ("nothing to resume in {folder}: it holds no {checkpoint} "
                                     "(leave out --resume to start a new run there)"),
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

    # ---- the attention papers' experiments (seq2seq.papers) -----------------------------------
    "papers.training": "training {name}",
    "papers.training_model": "training the {name} model",
    "papers.training_transformer": "training the Transformer of {name}",
    "papers.written": "written to {out}/{json}",
    "papers.written_both": "written to {out}/{figure} and {json}",
    "papers.nothing_drawn": " (no sentence translated right to draw)",
    "papers.train_run": "{out} holds a train run ({files}): choose another --out for the {what} "
                        "experiment",
    "papers.not_a_model": ("{folder} is not a model folder of an earlier {what} run (no {json} in "
                           "{out} records it): move it out of {out}, or choose another --out"),
    "papers.not_its_files": ("{folder} holds files that are not its model's ({files}), which the "
                             "new run would replace: move them out, or choose another --out"),
    "papers.not_unfinished": ("{path} is not an experiment's unfinished run (the experiment "
                              "commands make {next} and {replaced} there, with {next}/{begun}): "
                              "it is left as it is; move it out of {out}, or choose another "
                              "--out"),
    "papers.finished_swap": ("finished replacing the earlier run in {out}, which a stopped "
                             "command had begun"),
    "papers.removed_unfinished": ("removed the unfinished run that a stopped command left in "
                                  "{place}"),
    "papers.built_in_task": ("must be a built-in task ({tasks}): {command} generates new sentences "
                             "of it to score, got {task!r}"),
    "papers.digit_task": ("must be one of {tasks} (a digit task whose target is as long as its "
                          "source), got {task!r}"),
    "papers.a_digit_task": "must be one of {tasks} (a digit task), got {task!r}",
    "papers.at_least": "must be at least {least} for {command}, got {value}: {why}",
    "papers.why_length": ("on fewer pairs neither model learns the task, and two models that both "
                          "fail say nothing about length"),
    "papers.why_learns": "on fewer pairs neither model learns the task",
    "papers.why_tenth": "a tenth is held out to score on",
    "papers.why_sources": "a tenth of the sources is held out to score the models on",
    "papers.test_below": ("{tested} is below the longest training source, {high} (--max-len): the "
                          "point is to test longer ones"),
    "papers.min_above": "{low} is above the longest source of the task, {high}",
    "papers.test_not_above": ("{tested} is not above --max-len {high}: the point is to test "
                              "sequences longer than any trained on"),
    "papers.table_too_short": ("{tested} needs positions up to {tested}, but the learned table has "
                               "{rows} rows (0 ... {last}: 2 x (--max-len + 2) + 10): at most "
                               "{last}"),
    "papers.seeds_numbers": "must be whole numbers separated by commas, got {text!r}",
    "papers.seeds_count": "must name 1 to 10 different seeds, got {text!r}",
    "papers.why_seeds": "a Transformer is trained for each",
    "papers.not_a_task": ("names {name!r}, which is not a built-in task ({tasks}), as a "
                          "comma-separated list"),
    "papers.task_twice": "names a task twice: {text!r}",
    "papers.two_budgets": "and --budget are two budgets: give one of them",
    "papers.why_budget": "CPU seconds of training per model per task, a day at most",
    "papers.why_updates": "updates of training per model per task",
    "papers.no_task_left": "leaves no task to compare on",
    "papers.skipping_dates": ("skipping dates: {why} (the built-in task is not the book's data: "
                              "give its file of pairs)"),
    "papers.no_dates_file": "no --dates-file given",
    "papers.every_above": "{every} is more than --updates {updates}: the curve would have no point",
    "papers.why_warmup": "the warm-up of the models that have one; the others have none",
    "papers.warmup_too_long": ("{warmup} is not below --updates {updates}: the models with a "
                               "warm-up would never reach --lr"),
    # what they print while they run, and their tables' words
    "papers.spent_updates": "{updates} updates",
    "papers.spent_seconds": "{seconds:g} s of CPU time",
    "papers.training_for": "training the {name} on {task} for {spent}",
    "papers.budget_done": ("{updates} updates ({epochs:.2f} epochs of {batches} batches) in "
                           "{seconds:.1f} s of CPU time; last loss {loss:.4f}"),
    "papers.scoring_longer": ("scoring {name} on its held-out pairs and on {count} new sequences "
                              "of each length {low} to {high}"),
    "papers.training_norms": "training {label}, seed {seed}, for {updates} updates",
    "papers.model_failed": "{label}, seed {seed}: {error}",
    "papers.pre-warmup": "pre-norm, warm-up",
    "papers.pre-no-warmup": "pre-norm, no warm-up",
    "papers.post-warmup": "post-norm, warm-up",
    "papers.post-no-warmup": "post-norm, no warm-up",
    "papers.aligned": ("{name}: exact match {exact:.1%} on {count} held-out sentences; on those it "
                       "gets right:"),
    "papers.aligned_rows": ("  {kind} {rows:5d} rows: attention mass on the expected cell "
                            "{mass:.3f}, largest weight there {argmax:.1%}"),
    "papers.kind_digits": "digits",
    "papers.kind_crossing": "crossing verb",
    "papers.kind_content": "content words",
    "papers.heads_seed": ("{name}: exact match {exact:.1%} on {count} held-out sentences; on those "
                          "it gets right ({verbs} crossing verb rows, {words} content word rows), "
                          "the attention mass on the expected cell and the rows whose largest "
                          "weight is there:"),
    "papers.best_heads": "the best head for the crossing verb, each seed:",
    "papers.no_crossing_verb": "no crossing verb translated right",
    "papers.uniform_exact": "{count} held-out sentences. Exact match: {scores}",
    "papers.uniform_by_length": ("by source length, {learned} (learned weights) / uniform "
                                 "weights: {lengths}"),
    "papers.seed_pair": ("{a} and {b}: the same translation for {same:.1%} of the sentences; on "
                         "the {alike} both translate alike and right, the largest weight is on "
                         "another source word in {differs:.1%} of {rows} rows ({with_row:.0%} of "
                         "the sentences have such a row); JSD between their rows {jsd:.3f}, "
                         "between a row and uniform weights {uniform:.3f}"),
    "papers.verb_rows": ("{name}: crossing verb rows {rows}, weight on the verb {verb:.2f}, on the "
                         "を before it {wo:.2f}"),
    "papers.source_length": "source length",
    "papers.sentences": "sentences",
    "papers.exact_match": "exact match",
    "papers.longer_rule": "-- longer than any training source --",
    "papers.scoring_head": "{task}, {count} held-out sentences, one value per seed:",
    "papers.score": "score",
    "papers.parameters": "parameters",
    "papers.cpu_per_epoch": "CPU s/epoch",
    "papers.same_budget": ("the same {spent} for each model on each task; scored on the held-out "
                           "pairs:"),
    "papers.task": "task",
    "papers.model": "model",
    "papers.updates": "updates",
    "papers.cpu_seconds": "CPU s",
    "papers.epochs": "epochs",
    "papers.held_out": "held out",
    "papers.toy_by_length": "toy-ja-en, exact match by source length (words):",
    "papers.length": "length",
    "papers.seed_one": "seed {seeds}",
    "papers.seed_many": "seeds {seeds}",
    "papers.positions_head": ("{task}, trained on {low} to {high} digits ({epochs} of {pairs:,} "
                              "pairs), {seeds}:"),
    "papers.positions_note": ("exact match, lowest to highest over the seeds; output length, "
                              "their mean"),
    "papers.output_length": "output length",
    "papers.norms_head": ("{task}, {layers} + {layers} layers, Adam at lr {lr:g} (warm-up: "
                          "{warmup} updates), {updates} updates of batches of {batch}, {seeds}:"),
    "papers.lowest_to_highest": "lowest to highest over the seeds",
    "papers.mean_loss": "mean loss, updates",
    "papers.first_block": "first block gradient",
    "papers.last": "last {count}",
    "papers.update_one": "update 1",
    "papers.uniform_guess": ("(a uniform guess over the V target tokens scores ln V = "
                             "{loss:.3f})"),

    # ---- the demo (seq2seq.commands.demo) -----------------------------------------------------
    "demo.training": ("training an LSTM encoder-decoder with {attention} on "
                      "{task} ({pairs:,} sentence pairs, {epochs} epochs, bidirectional encoder)"),
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

    # ---- what the checks say: en_checks.py, en_checkpoint.py -----------------------------------
    **en_checks.MESSAGES,
    **en_checkpoint.MESSAGES,
    **en_left.MESSAGES,
}
