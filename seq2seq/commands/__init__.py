"""The machinery that runs the models: `python -m seq2seq COMMAND` and what it needs.

    cli.py                 the commands, wired to argparse; train_options.py: train's options
    train.py               training a model into a run folder; epoch.py: one epoch, and what
                           stops a run that diverges; arch.py: --arch lstm or transformer, the
                           options that fit each, their optimiser and schedule
    runs.py                a run folder's rules (one run at a time, nothing replaced unasked,
                           what a resumed run may change); reports.py: report.json
    settings.py            every numeric setting's rule, checked in one place
    sizes.py               a model's memory, estimated from its settings before it is built
    progress.py            a training epoch's progress, as the place it goes to can show it
    rnn_file.py            a recurrent layer (--rnn my_gru.py:GRU) or an encoder block
                           (--block my_block.py:Block) from the user's file, the copy a run
                           keeps of it, and loading it again; layer_kinds.py: what differs
                           between the two; rnn_failures.py: a layer file's code that fails
    checkpoint_entries.py  what a checkpoint holds, entry by entry, checked before it is used;
                           checkpoint_history.py: its history; entry_error.py: their error
    checkpoint_reading.py  a checkpoint read through those checks
    demo.py                the demo, the project's main job
    draw.py, explore.py    one decoder step of a trained model, as a graph or as a page;
                           transformer_step.py: what they fold and name in a Transformer's

The models themselves are in seq2seq.models, their data in seq2seq.data.
"""
