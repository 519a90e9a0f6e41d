"""The ops: one class per op, forward and backward side by side.

arithmetic   + - * / ** @ and unary minus, and `unbroadcast`
elementwise  exp, log, sqrt, tanh, sigmoid, relu, gelu, abs, clip, where
erf          erf over NumPy arrays (for the exact gelu)
reduce       sum, mean, max, min
shapes       reshape, transpose, indexing, concat (cat), stack, split
softmax      softmax, log_softmax, cross_entropy
embedding_and_dropout  embedding (EmbeddingLookup), dropout (DropoutMask)
pytorch_words  `dim` and `keepdim`: PyTorch's words for `axis` and `keepdims`
"""
