"""The models' messages in English (seq2seq.models.recurrent, block_contract, transformer).
Japanese: ja.py, with the same keys."""

MESSAGES = {
    # ---- the user's code failing (seq2seq.models.recurrent.raised) ----------------------------
    "raised": "raised {kind}: {error}",
    "decoder_step": "a decoder step",
    "exited": "called {call}",

    # ---- a recurrent layer of the user's (seq2seq.models.recurrent) ---------------------------
    "rnn.instance": ("rnn should be a recurrent layer's class, not an instance: pass rnn={name}, "
                     "and the model makes its layers with its own sizes"),
    "rnn.not_a_class": "rnn should be a recurrent layer's class, not a {name}",
    "rnn.made": "{made} {raised}",

    # ---- an encoder block of the user's (seq2seq.models.block_contract, transformer) ----------
    "block.not_a_class": "block should be an encoder block's class, not a {name}",
    "block.made": "{made} {raised}",
    "block.not_a_module": ("{made} made a {type}, not a minigrad nn.Module: make {name} a "
                           "subclass of nn.Module (its parameters are trained and saved with the "
                           "model's)"),
    "block.ignores_mask": ("{made} ignores the mask: changing the padded positions of an example "
                           "changed its output at the real ones; forward(x, mask) must attend "
                           "only where mask is True (mask (B, 1, T), False at padding)"),
    "block.batch": ("{made} depends on the other sentences of its batch: a sentence alone gave "
                    "other outputs than its rows in a batch (a sentence of length {length} at row "
                    "{row} of {count}, T {size}); forward(x, mask) must treat each sentence on its "
                    "own (no mean or norm across the batch, nothing that depends on the row, the "
                    "batch's size or length, or the padding)"),
    "block.forward_raised": "{made}: forward(x {x}, mask={mask}) {raised}",
    "block.not_a_tensor": ("{made}: forward(x, mask) should return a Tensor of x's shape {shape}, "
                           "not a {type}"),
    "block.shape": ("{made}: forward(x, mask) returned shape {found}, where x's shape {shape} "
                    "(B, T, d_model) belongs"),
    "block.not_finite": "{made}: forward(x, mask) returned NaN or infinite values",
    "block.in_model": ("{name}: forward(x, mask) returned {found} for x of shape {shape}: a block "
                       "keeps its input's shape"),
}
