"""Elementwise functions: y has x's shape, and dL/dx = dL/dy * f'(x), element by element.

Those whose results are not whole numbers (exp, log, sqrt, tanh, sigmoid, gelu) give float64 for
integer x, whatever its width (`as_floating`): NumPy alone would give float16 for int8 and uint8,
where exp(12) is already inf."""

import math

import numpy as np

from minigrad.autograd import Function
from minigrad.ops.arithmetic import as_floating, no_booleans, unbroadcast
from minigrad.ops.erf import erf


class Exp(Function):
    """y = exp(x)       dL/dx = dL/dy * y"""

    saves = ("y",)

    def forward(self, x):
        self.y = np.exp(as_floating(x))
        return self.y

    def backward(self, grad_y):
        return (grad_y * self.y,)


class Log(Function):
    """y = log(x)       dL/dx = dL/dy / x"""

    saves = ("x",)

    def forward(self, x):
        self.x = as_floating(x)
        return np.log(self.x)

    def backward(self, grad_y):
        return (grad_y / self.x,)


class Sqrt(Function):
    """y = sqrt(x)      dL/dx = dL/dy / (2 y)"""

    saves = ("y",)

    def forward(self, x):
        self.y = np.sqrt(as_floating(x))
        return self.y

    def backward(self, grad_y):
        return (grad_y / (2 * self.y),)


class Tanh(Function):
    """y = tanh(x)      dL/dx = dL/dy * (1 - y**2)"""

    saves = ("y",)

    def forward(self, x):
        self.y = np.tanh(as_floating(x))    # the derivative is cheapest in terms of y
        return self.y

    def backward(self, grad_y):
        return (grad_y * (1 - self.y ** 2),)


class Sigmoid(Function):
    """y = 1 / (1 + exp(-x))     dL/dx = dL/dy * y * (1 - y)"""

    saves = ("y",)

    def forward(self, x):
        x = as_floating(x)                  # (uint8: -x would wrap around to 256 - x)
        with np.errstate(over="ignore"):    # exp(-x) = inf for very negative x: y = 0, rightly
            self.y = 1 / (1 + np.exp(-x))
        return self.y

    def backward(self, grad_y):
        return (grad_y * self.y * (1 - self.y),)


class ReLU(Function):
    """y = max(x, 0)    dL/dx = dL/dy where x > 0, else 0"""

    saves = ("positive",)

    def forward(self, x):
        self.positive = x > 0
        return np.where(self.positive, x, 0).astype(x.dtype, copy=False)

    def backward(self, grad_y):
        return (np.where(self.positive, grad_y, 0).astype(grad_y.dtype, copy=False),)


class GELU(Function):
    """y = x * Phi(x), Phi the standard normal's cumulative distribution (Hendrycks and Gimpel,
    2016), as torch.nn.functional.gelu:

    approximate="none"  Phi(x) = (1 + erf(x / sqrt(2))) / 2
                        dL/dx = dL/dy * (Phi(x) + x * phi(x)),  phi(x) = exp(-x^2/2) / sqrt(2 pi)
    approximate="tanh"  y = x (1 + t) / 2,  t = tanh(u),  u = sqrt(2/pi) (x + 0.044715 x^3)
                        dL/dx = dL/dy * ((1 + t) / 2 + x (1 - t^2) / 2 * du/dx),
                        du/dx = sqrt(2/pi) (1 + 3 * 0.044715 x^2)
    x, y: any shape; y has x's dtype, or float64 for integer x. (NumPy has no erf: the exact
    form uses minigrad/ops/erf.py, Cody's rational approximations over whole arrays, as exact
    as math.erf.)
    """

    settings = ("approximate",)
    saves = ("slope",)

    def __init__(self, approximate="none"):
        self.approximate = approximate

    def forward(self, x):
        x = as_floating(x)                      # integers: float64, not y cut back to integers
        if self.approximate == "tanh":
            x2 = x * x                          # (x * x * x, not x ** 3: NumPy's float
            u = math.sqrt(2 / math.pi) * (x + 0.044715 * x2 * x)     # power is far slower)
            t = np.tanh(u)
            y = 0.5 * x * (1 + t)
            du = math.sqrt(2 / math.pi) * (1 + 3 * 0.044715 * x2)
            self.slope = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * du
        else:
            cdf = 0.5 * (1 + erf(x / math.sqrt(2)))                  # Phi(x)
            pdf = np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)      # phi(x)
            y = x * cdf
            self.slope = cdf + x * pdf
        return y.astype(x.dtype, copy=False)

    def backward(self, grad_y):
        return ((grad_y * self.slope).astype(grad_y.dtype, copy=False),)


class Abs(Function):
    """y = |x|          dL/dx = dL/dy * sign(x)      (0 at x = 0, as in PyTorch)"""

    saves = ("sign",)

    def forward(self, x):
        no_booleans(x, what="the absolute value")
        self.sign = np.sign(x)
        return np.abs(x)

    def backward(self, grad_y):
        return (grad_y * self.sign,)


class Clip(Function):
    """y = min(max(x, low), high)     dL/dx = dL/dy where low <= x <= high, else 0"""

    settings = ("low", "high")
    saves = ("inside",)

    def __init__(self, low, high):
        self.low, self.high = low, high

    def forward(self, x):
        self.inside = np.ones(x.shape, dtype=bool)
        if self.low is not None:
            self.inside &= x >= self.low
        if self.high is not None:
            self.inside &= x <= self.high
        return np.clip(x, self.low, self.high)

    def backward(self, grad_y):
        return (np.where(self.inside, grad_y, 0).astype(grad_y.dtype, copy=False),)


class Where(Function):
    """y = a where cond else b    (cond: a boolean array, fixed; a, b broadcast)
    dL/da = dL/dy where cond, else 0      dL/db = dL/dy where not cond, else 0"""

    settings = ("cond",)
    saves = ("a_shape", "b_shape")

    def __init__(self, cond):
        self.cond = np.array(cond, dtype=bool)  # a copy: the caller may change its array before
                                                # backward, which must mask as the forward did

    def forward(self, a, b):
        self.a_shape, self.b_shape = a.shape, b.shape
        return np.where(self.cond, a, b)

    def backward(self, grad_y):
        need_a, need_b = self.needs_input_grad      # where(mask, scores, -inf): a constant b
        zero = np.zeros((), dtype=grad_y.dtype)
        grad_a = unbroadcast(np.where(self.cond, grad_y, zero), self.a_shape) if need_a else None
        grad_b = unbroadcast(np.where(self.cond, zero, grad_y), self.b_shape) if need_b else None
        return grad_a, grad_b


def exp(x):
    return Exp()(x)


def log(x):
    return Log()(x)


def sqrt(x):
    return Sqrt()(x)


def tanh(x):
    return Tanh()(x)


def sigmoid(x):
    return Sigmoid()(x)


def relu(x):
    return ReLU()(x)


def gelu(x, approximate="none"):
    """GELU, exact (erf) by default as PyTorch's; approximate="tanh" for the tanh form."""
    if approximate not in ("none", "tanh"):
        raise ValueError(f"gelu: approximate must be 'none' or 'tanh', not {approximate!r}")
    return GELU(approximate)(x)


def abs(x):
    return Abs()(x)


def clip(x, low=None, high=None):
    return Clip(low, high)(x)


def where(cond, a, b):
    """Elements of `a` where `cond` is True, else of `b`. `cond` is a boolean array (or tensor)."""
    cond = np.asarray(getattr(cond, "data", cond), dtype=bool)
    return Where(cond)(a, b)
