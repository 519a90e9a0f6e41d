"""Arithmetic: + - * / ** @ and unary minus. All broadcast as NumPy does; each backward sums its
gradients back to its inputs' shapes with `unbroadcast`, visibly."""

import numpy as np

from minigrad.autograd import Function


def unbroadcast(grad, shape):
    """Sum `grad` down to `shape`: the reverse of NumPy broadcasting.

    Broadcasting copies an input along new leading axes and along axes of length 1; each copy
    received its own gradient, so the input's gradient is their sum.
    (2, 3, 4) -> (3, 1): sum over axis 0 (new), then axis 2 (was 1), keeping its length 1.
    """
    if grad.shape == shape:
        return grad
    extra = grad.ndim - len(shape)
    axes = tuple(range(extra)) + tuple(
        extra + i for i, n in enumerate(shape) if n == 1 and grad.shape[extra + i] != 1)
    return grad.sum(axis=axes, keepdims=True).reshape(shape)


def as_floating(x):
    """x itself if it holds floats; x as float64 if it holds integers or booleans.

    An op whose result is not a whole number (gelu, cross_entropy, dropout's scaling, a layer
    norm) starts its forward with this, so that integer input gives float64 results, as np.exp,
    np.tanh and np.mean give for int64: arange(3) -> gelu [0, 0.841, 1.954], not results cut
    back to the input's integers ([0, 0, 1]).
    """
    return x.astype(np.float64) if x.dtype.kind in "biu" else x


def no_booleans(*arrays, what):
    """Refuse boolean input where NumPy would compute something else than with numbers: `@` of
    booleans is logical (True @ True summed is True, not 2), |x| has no boolean loop. PyTorch
    refuses both too."""
    if any(x.dtype == np.bool_ for x in arrays):
        raise TypeError(f"{what} of booleans is not computed (NumPy would give a logical result); "
                        "turn them into numbers first: x.astype(np.float64)")


class Add(Function):
    """y = a + b        dL/da = dL/dy        dL/db = dL/dy        (each unbroadcast)"""

    saves = ("a_shape", "b_shape")

    def forward(self, a, b):
        self.a_shape, self.b_shape = a.shape, b.shape
        return a + b

    def backward(self, grad_y):
        need_a, need_b = self.needs_input_grad      # x + 1.0: no gradient for the constant
        grad_a = unbroadcast(grad_y, self.a_shape) if need_a else None
        grad_b = unbroadcast(grad_y, self.b_shape) if need_b else None
        return grad_a, grad_b


class Sub(Function):
    """y = a - b        dL/da = dL/dy        dL/db = -dL/dy       (each unbroadcast)"""

    saves = ("a_shape", "b_shape")

    def forward(self, a, b):
        self.a_shape, self.b_shape = a.shape, b.shape
        return a - b

    def backward(self, grad_y):
        need_a, need_b = self.needs_input_grad
        grad_a = unbroadcast(grad_y, self.a_shape) if need_a else None
        grad_b = unbroadcast(-grad_y, self.b_shape) if need_b else None
        return grad_a, grad_b


class Mul(Function):
    """y = a * b        dL/da = dL/dy * b    dL/db = dL/dy * a    (each unbroadcast)"""

    saves = ("a", "b")

    def forward(self, a, b):
        self.a, self.b = a, b
        return a * b

    def backward(self, grad_y):
        need_a, need_b = self.needs_input_grad      # x * 0.5: no gradient for the constant
        grad_a = unbroadcast(grad_y * self.b, self.a.shape) if need_a else None
        grad_b = unbroadcast(grad_y * self.a, self.b.shape) if need_b else None
        return grad_a, grad_b


class Div(Function):
    """y = a / b        dL/da = dL/dy / b    dL/db = -dL/dy * a / b**2 = -dL/dy * y / b"""

    saves = ("a_shape", "b", "y")

    def forward(self, a, b):
        self.a_shape, self.b = a.shape, b
        self.y = a / b
        return self.y

    def backward(self, grad_y):
        need_a, need_b = self.needs_input_grad
        grad_a = unbroadcast(grad_y / self.b, self.a_shape) if need_a else None
        grad_b = unbroadcast(-grad_y * self.y / self.b, self.b.shape) if need_b else None
        return grad_a, grad_b


class Neg(Function):
    """y = -x           dL/dx = -dL/dy"""

    saves = ()

    def forward(self, x):
        return -x

    def backward(self, grad_y):
        return (-grad_y,)


class Pow(Function):
    """y = a ** b       dL/da = dL/dy * b * a**(b-1)
                        dL/db = dL/dy * y * log(a)   (taken as 0 where a <= 0: there the real
                                                      power has no derivative in b)"""

    saves = ("a", "b", "y")

    def forward(self, a, b):
        self.a, self.b = a, b
        self.y = a ** b
        return self.y

    def backward(self, grad_y):
        a, b = self.a, self.b
        need_a, need_b = self.needs_input_grad
        grad_a = grad_b = None
        if need_a:
            grad_a = unbroadcast(grad_y * b * a ** (b - 1), a.shape)
        if need_b:
            log_a = np.log(np.where(a > 0, a, 1))
            grad_b = unbroadcast(grad_y * self.y * log_a, b.shape)
        return grad_a, grad_b


class PowConstant(Function):
    """y = x ** p, p a fixed number      dL/dx = dL/dy * p * x**(p-1)"""

    settings = ("p",)
    saves = ("x",)

    def __init__(self, p):
        self.p = p

    def forward(self, x):
        self.x = x
        return x ** self.p

    def backward(self, grad_y):
        if self.p == 0:                 # y = 1: no slope (and no 0 * x**-1 = NaN at x = 0)
            return (np.zeros_like(grad_y),)
        return (grad_y * self.p * self.x ** (self.p - 1),)


class MatMul(Function):
    """Y = A @ B     A: (..., n, k)  B: (..., k, m)  ->  Y: (..., n, m)
    dL/dA = dL/dY @ B^T        dL/dB = A^T @ dL/dY   (summed over broadcast batch dims)
    A vector is a matrix with one row (as A) or one column (as B), as in NumPy.

    A stack of matrices times one matrix, A (..., n, k) @ B (k, m) (the input of a Linear layer,
    (batch, time, in) @ (in, out)), is computed as rows: A's rows (N, k), N = all of its
    leading sizes multiplied, times B. The same numbers, but one matrix product instead of one
    per matrix of the stack, and dL/dB = rows^T @ dL/dY's rows comes out summed over the stack
    by that one product (`rows_backward`)."""

    saves = ("a", "b")

    def forward(self, a, b):
        no_booleans(a, b, what="a matrix product")
        self.a, self.b = a, b
        if a.ndim > 2 and b.ndim == 2:                               # a stack times one matrix
            rows = a.reshape(-1, a.shape[-1])                        # (N, k)
            return (rows @ b).reshape(*a.shape[:-1], b.shape[-1])    # (..., n, m)
        return a @ b

    def backward(self, grad_y):
        if self.a.ndim > 2 and self.b.ndim == 2:
            return self.rows_backward(grad_y)
        a = self.a[None, :] if self.a.ndim == 1 else self.a          # (k,) -> (1, k)
        b = self.b[:, None] if self.b.ndim == 1 else self.b          # (k,) -> (k, 1)
        batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
        grad_y = grad_y.reshape(batch + (a.shape[-2], b.shape[-1]))  # (..., n, m)
        need_a, need_b = self.needs_input_grad                       # skip what none wants
        grad_a = grad_b = None
        if need_a:
            grad_a = grad_y @ np.swapaxes(b, -1, -2)                 # (..., n, k)
            grad_a = unbroadcast(grad_a, a.shape).reshape(self.a.shape)
        if need_b:
            grad_b = np.swapaxes(a, -1, -2) @ grad_y                 # (..., k, m)
            grad_b = unbroadcast(grad_b, b.shape).reshape(self.b.shape)
        return grad_a, grad_b

    def rows_backward(self, grad_y):
        """The backward of A (..., n, k) @ B (k, m), as rows (see the class docstring)."""
        a, b = self.a, self.b
        rows_grad_y = grad_y.reshape(-1, b.shape[-1])                # (N, m)
        need_a, need_b = self.needs_input_grad
        grad_a = grad_b = None
        if need_a:
            grad_a = (rows_grad_y @ b.T).reshape(a.shape)            # (..., n, k)
        if need_b:
            grad_b = a.reshape(-1, a.shape[-1]).T @ rows_grad_y      # (k, m), summed over N
        return grad_a, grad_b


def add(a, b):
    return Add()(a, b)


def sub(a, b):
    return Sub()(a, b)


def mul(a, b):
    return Mul()(a, b)


def div(a, b):
    return Div()(a, b)


def neg(x):
    return Neg()(x)


def pow(a, b):
    """a ** b. A fixed Python number as exponent makes the simpler `PowConstant` op."""
    if isinstance(b, (int, float)):
        return PowConstant(b)(a)
    return Pow()(a, b)


def matmul(a, b):
    return MatMul()(a, b)
