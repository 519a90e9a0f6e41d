"""The attention papers' figures, reproduced on the project's toy tasks in CPU-minutes.

Each is a command of `python -m seq2seq` that trains its models into a folder of its own, prints
what it measured, and writes it as JSON and as a figure; each has a section in the docs and a
test that asserts its claim on a small seeded run.

compare-lengths    Bahdanau, Cho and Bengio (2015), Fig. 2: exact match and BLEU by source length,
                   with and without attention, up to lengths longer than any trained on (lengths)
alignments         Bahdanau et al. (2015), Fig. 3: the alignment a trained model finds, and the
                   attention mass on the cells the task says it should (alignments)
head-alignments    the same for the Transformer: the crossing verb's weight in each of its
                   cross-attention heads, and in their mean (heads)
uniform-and-seeds  Jain and Wallace (2019), Wiegreffe and Pinter (2019): weights frozen to uniform,
                   and the maps of models that differ only in their seed (explanation)
compare-scoring    Luong, Pham and Manning (2015): the dot, general and additive scores on one
                   task, accuracy and time per epoch (scoring)
compare-architectures  Vaswani et al. (2017): the LSTM with attention and the Transformer on the
                   same CPU-time budget, held-out accuracy, updates and time (architectures)
compare-positions  Vaswani et al. (2017), Press et al. (2022): the Transformer with sinusoidal
                   and with learned positions, on sequences longer than any trained on (positions)
compare-norms      Xiong et al. (2020): the Transformer pre-norm and post-norm, each with and
                   without a learning-rate warm-up, at depth: loss curves, held-out accuracy (norms)

folder.py holds what they share: the folder's rules (each replaces its own earlier run and
nothing else, as the demo does), the training of their models one after the other, and the writing
of their results; budget.py trains a model for a budget of CPU time. plots.py draws their
figures. One more reproduction, Vaswani et al.'s reason for 1/sqrt(d_k), needs no trained model
and lives one floor down: `python -m attention scaling` (attention/scaling.py).
"""


def add_commands(sub):
    from seq2seq.papers import (
        alignments,
        architectures,
        explanation,
        heads,
        lengths,
        norms,
        positions,
        scoring,
    )
    for module in (lengths, alignments, heads, explanation, scoring, architectures, positions,
                   norms):
        module.add_command(sub)
