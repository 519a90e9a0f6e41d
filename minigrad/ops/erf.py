"""erf over NumPy arrays (NumPy has none; Python's math.erf takes one number at a time).

    erf(x) = 2/sqrt(pi) * integral from 0 to x of exp(-t^2) dt        odd: erf(-x) = -erf(x)

Source: W. J. Cody, "Rational Chebyshev approximations for the error function", Mathematics
of Computation 23 (1969), 631-637, the double-precision rational approximations, one for each
of three ranges of a = |x| (P and Q are polynomials, their coefficients are the paper's):

    a <= 0.5          erf(a)  = a * P1(a^2) / Q1(a^2)              (degree 4 over degree 4)
    0.5 < a <= 4      erfc(a) = exp(-a^2) * P2(a) / Q2(a)            (degree 8 over degree 8)
    a > 4             erfc(a) = exp(-a^2) / a * (1/sqrt(pi) - z * P3(z) / Q3(z)),  z = 1/a^2
                                                                     (degree 5 over degree 5)

and erf(a) = 1 - erfc(a) above 0.5. Above a = 6, erfc(a) < 3e-17 and erf(a) is 1 in float64,
so a is clipped at 6 (and +-inf come out as +-1). NaN stays NaN. Each element is computed in
float64, by the formula for its range only; the result has the input's dtype.
"""

import math

import numpy as np

# Cody (1969): numerator and denominator coefficients, highest degree first, so that
# _polynomial(P, t) = P[0] t^n + ... + P[n]. The leading denominator coefficient is 1.
P1 = [1.85777706184603153e-1, 3.16112374387056560e0, 1.13864154151050156e2,
      3.77485237685302021e2, 3.20937758913846947e3]
Q1 = [1.0, 2.36012909523441209e1, 2.44024637934444173e2, 1.28261652607737228e3,
      2.84423683343917062e3]

P2 = [2.15311535474403846e-8, 5.64188496988670089e-1, 8.88314979438837594e0,
      6.61191906371416295e1, 2.98635138197400131e2, 8.81952221241769090e2,
      1.71204761263407058e3, 2.05107837782607147e3, 1.23033935479799725e3]
Q2 = [1.0, 1.57449261107098347e1, 1.17693950891312499e2, 5.37181101862009858e2,
      1.62138957456669019e3, 3.29079923573345963e3, 4.36261909014324716e3,
      3.43936767414372164e3, 1.23033935480374942e3]

P3 = [1.63153871373020978e-2, 3.05326634961232344e-1, 3.60344899949804439e-1,
      1.25781726111229246e-1, 1.60837851487422766e-2, 6.58749161529837803e-4]
Q3 = [1.0, 2.56852019228982242e0, 1.87295284992346725e0, 5.27905102951428412e-1,
      6.05183413124413191e-2, 2.33520497626869185e-3]


BLOCK = 8192     # elements per block: 64 kB of float64, in the cache and below glibc's mmap
                 # threshold, so no temporary is faulted in afresh (whole arrays of 1 MB
                 # were: about 900 page faults, 3/4 of the time, on (32, 20, 256))


def erf(x):
    """erf of every element of the array x, in x's dtype (a float dtype; ints give float64).
    Relative error below 5e-16 against math.erf (tests/test_erf.py sweeps it: 1e-15)."""
    x = np.asarray(x)
    dtype = x.dtype if np.issubdtype(x.dtype, np.floating) else np.dtype(np.float64)
    flat = x.ravel()
    result = np.empty(flat.shape, dtype=dtype)
    for start in range(0, flat.size, BLOCK):                # block by block
        block = flat[start:start + BLOCK]
        result[start:start + BLOCK] = np.copysign(_erf_of_abs(block), block)  # erf(-x) = -erf(x)
    return result.reshape(x.shape)


def _erf_of_abs(x):
    """erf(|x|) for a 1-d block, in float64."""
    a = np.minimum(np.abs(x, dtype=np.float64), 6.0)        # |x|, clipped; NaN stays NaN
    result = np.full_like(a, np.nan)                        # NaN where no range takes a

    # Each range gathers its elements by an array of indices: with the ranges mixed at random
    # (as in any activation), that is several times faster than indexing with boolean masks.
    small = np.flatnonzero(a <= 0.5)                        # erf directly
    if small.size:
        t = a[small]
        result[small] = t * _polynomial(P1, t * t) / _polynomial(Q1, t * t)

    middle = np.flatnonzero((a > 0.5) & (a <= 4.0))         # 1 - erfc
    if middle.size:
        t = a[middle]
        result[middle] = 1 - np.exp(-t * t) * _polynomial(P2, t) / _polynomial(Q2, t)

    large = np.flatnonzero(a > 4.0)                         # 1 - erfc, asymptotic form
    if large.size:
        t = a[large]
        z = 1 / (t * t)
        tail = z * _polynomial(P3, z) / _polynomial(Q3, z)
        result[large] = 1 - np.exp(-t * t) / t * (1 / math.sqrt(math.pi) - tail)
    return result


def _polynomial(coefficients, t):
    """coefficients[0] t^n + ... + coefficients[n] by Horner's rule, (...((c0 t + c1) t + c2)...),
    in place in one new array (np.polyval makes two new arrays per coefficient)."""
    y = np.full_like(t, coefficients[0])
    for c in coefficients[1:]:
        y *= t
        y += c
    return y
