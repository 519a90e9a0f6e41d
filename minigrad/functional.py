"""Functions on tensors, as in `torch.nn.functional`: `import minigrad.functional as F`.

Those that take `axis` (or `keepdims`) take PyTorch's `dim` (or `keepdim`) too; `cat` is
`concat` under PyTorch's name. `split` is NumPy's and refuses `dim` (see its docstring).
"""

from minigrad.ops.arithmetic import add, div, matmul, mul, neg, pow, sub  # noqa: F401
from minigrad.ops.elementwise import abs, clip, exp, gelu, log, relu, sigmoid, sqrt, tanh, where  # noqa: F401
from minigrad.ops.embedding_and_dropout import dropout, embedding  # noqa: F401
from minigrad.ops.reduce import max, mean, min, sum  # noqa: F401
from minigrad.ops.shapes import cat, concat, reshape, split, stack, transpose  # noqa: F401
from minigrad.ops.softmax import cross_entropy, log_softmax, softmax  # noqa: F401
