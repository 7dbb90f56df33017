"""Special functions written against any array namespace ``xp``.

NumPy has no erf, lgamma or digamma (and SciPy is not a dependency), so the
reference kernels evaluate them here with elementwise array operations
only, accurate to a few units in the last place of float64:

* erf and erfc: a series with positive terms for ``|x| < 1.5`` and a
  continued fraction beyond, with ``exp(-x^2)`` split so that the rounding
  of ``x^2`` does not reach the result.
* erfinv: a closed-form first guess refined by Halley's method on erf (or
  on erfc near the ends, where ``1 - |y|`` is exact).
* lgamma, digamma, polygamma: the recurrence to move the argument above a
  threshold, then the Stirling / Euler-Maclaurin asymptotic series;
  reflection for negative arguments. Below the threshold, lgamma uses its
  Taylor series around 1 or 2 instead, so that it keeps its relative
  accuracy also at its zeros 1 and 2.

Every function takes and returns float arrays of one dtype (float32 or
float64; callers widen float16).
"""
import math

_SQRT_PI = math.sqrt(math.pi)
_TWO_OVER_SQRT_PI = 2.0 / _SQRT_PI
_SQRT_HALF = math.sqrt(0.5)

# B_2, B_4, ..., B_16.
_BERNOULLI = (1.0 / 6, -1.0 / 30, 1.0 / 42, -1.0 / 30, 5.0 / 66,
              -691.0 / 2730, 7.0 / 6, -3617.0 / 510)

# Where the asymptotic series of lgamma and digamma are used.
_GAMMA_THRESHOLD = 10.0
# Where erf switches from its series to the continued fraction of erfc:
# below, erfc = 1 - erf loses at most a few ulps (erfc(1.1) = 0.12); above,
# the fraction converges to full precision within its depth, which can be
# smaller further out.
_ERF_SPLIT = 1.1
_ERF_SERIES_TERMS = 24
_ERFC_FRACTION_DEPTHS = ((2.5, 160), (None, 40))

_EULER_GAMMA = 0.5772156649015329
# lgamma(1 + t) = -gamma t + sum_k (-t)^k zeta(k) / k, used for
# |t| <= 1/2 around the zeros of lgamma at 1 and 2.
_LGAMMA_SERIES_TERMS = 54


def _exp_minus_square(xp, a):
    """exp(-a*a) for a >= 0, with a*a formed without rounding error: a is
    split into a multiple of 1/16 (whose square is exact) and the rest."""
    hi = xp.floor(a * 16) / 16
    lo = a - hi
    return xp.exp(-hi * hi) * xp.exp(-lo * (a + hi))


def _exp_square(xp, a):
    """exp(a*a) for a >= 0, split as in :func:`_exp_minus_square`."""
    hi = xp.floor(a * 16) / 16
    lo = a - hi
    return xp.exp(hi * hi) * xp.exp(lo * (a + hi))


def _erf_series(xp, a):
    """erf(a) for 0 <= a <= 1.1: 2/sqrt(pi) exp(-a^2) sum_n (2a^2)^n a /
    (1 * 3 * ... * (2n+1)), whose terms are all positive."""
    two_a2 = 2 * a * a
    term = a.copy()
    total = a.copy()
    for n in range(1, _ERF_SERIES_TERMS):
        term = term * two_a2 / (2 * n + 1)
        total = total + term
    return _TWO_OVER_SQRT_PI * _exp_minus_square(xp, a) * total


def _erfc_fraction_k(xp, a, depth):
    """The continued fraction K = a + (1/2) / (a + 1 / (a + (3/2) / (a +
    ...))), cut at depth, with erfc(a) = exp(-a^2) / (sqrt(pi) K) for
    a >= 1.1."""
    f = a.copy()
    for k in range(depth, 0, -1):
        f = a + (k / 2.0) / f
    return f


def _erfc_fraction(xp, a, depth):
    """erfc(a) for a >= 1.1 by the continued fraction."""
    return _exp_minus_square(xp, a) / (_SQRT_PI * _erfc_fraction_k(
        xp, a, depth))


def _erf_parts(xp, a, upper):
    """erf(a) (or erfc(a) when upper) for a >= 0 (NaN-free), evaluating
    each method on the elements in its range only."""
    out = xp.empty_like(a)
    small = a < _ERF_SPLIT
    part = a[small]
    if part.size:
        e = _erf_series(xp, part)
        out[small] = 1 - e if upper else e
    low = _ERF_SPLIT
    for high, depth in _ERFC_FRACTION_DEPTHS:
        mask = a >= low
        if high is not None:
            mask &= a < high
        # erfc underflows long before 100; the clamp keeps inf out.
        part = xp.minimum(a[mask], 100)
        if part.size:
            e = _erfc_fraction(xp, part, depth)
            out[mask] = e if upper else 1 - e
        low = high
    return out


def erf(xp, x):
    """The error function."""
    nan = xp.isnan(x)
    y = _erf_parts(xp, xp.where(nan, 0, xp.abs(x)), False)
    y = xp.where(x < 0, -y, y)
    return xp.where(nan, x, y)


def erfc(xp, x):
    """The complementary error function, 1 - erf(x), without cancellation
    for large x."""
    nan = xp.isnan(x)
    upper = _erf_parts(xp, xp.where(nan, 0, xp.abs(x)), True)
    y = xp.where(x < 0, 2 - upper, upper)
    return xp.where(nan, x, y)


def _erfinv_refined(xp, a, q, tail):
    """erfinv(a) for 0 <= a < 1, given also q = 1 - a: a first guess good
    to about 2e-3 (Winitzki's approximation) and Halley steps on
    erf(x) - a, or, for the tail (a > 1/2, where q is the exact one), on
    q - erfc(x)."""
    k = 0.147
    log_term = xp.log(q * (1 + a))
    b = 2 / (math.pi * k) + log_term / 2
    x = xp.sqrt(xp.sqrt(b * b - log_term / k) - b)
    for _ in range(3):
        # With f' = 2/sqrt(pi) exp(-x^2) and f'' = -2 x f', Halley's step
        # is f / (f' (1 + x f / f')); it triples the correct digits.
        f = q - erfc(xp, x) if tail else erf(xp, x) - a
        ratio = f / (_TWO_OVER_SQRT_PI * _exp_minus_square(xp, x))
        x = x - ratio / (1 + x * ratio)
    return x


def _erfinv_magnitude(xp, a, q):
    """erfinv(a) for a = |y| in [0, 1], with q = 1 - a (for erfcinv, the
    exact input where a is rounded): +inf at a = 1, 0 at a = 0."""
    x = xp.where(q == 0, xp.inf, 0).astype(a.dtype)
    for tail, mask in ((False, (a > 0) & (q >= 0.5)),
                       (True, (q > 0) & (q < 0.5))):
        if mask.any():
            x[mask] = _erfinv_refined(xp, a[mask], q[mask], tail)
    return x


def erfinv(xp, y):
    """The inverse of erf on (-1, 1); +-inf at +-1, NaN outside."""
    a = xp.abs(y)
    inside = a <= 1
    a = xp.where(inside, a, 0)
    x = _erfinv_magnitude(xp, a, 1 - a)
    x = xp.where(inside, x, xp.nan)
    return xp.where(y < 0, -x, x)


def erfcinv(xp, y):
    """The inverse of erfc on (0, 2); +inf at 0, -inf at 2, NaN outside.
    Accurate for tiny y, where 1 - y rounds to 1."""
    inside = (y >= 0) & (y <= 2)
    upper = y > 1
    # 2 - y is exact for y in [1, 2], and erfcinv(2 - y) = -erfcinv(y).
    q = xp.where(inside, xp.where(upper, 2 - y, y), 1)
    x = _erfinv_magnitude(xp, 1 - q, q)
    x = xp.where(inside, x, xp.nan)
    return xp.where(upper, -x, x)


def erfcx(xp, x):
    """The scaled complementary error function exp(x^2) erfc(x), without
    the underflow of erfc for large x (it decays like 1 / (x sqrt(pi)));
    +inf where exp(x^2) erfc(x) overflows (x below about -26.6)."""
    nan = xp.isnan(x)
    x = xp.where(nan, 0, x)
    out = xp.empty_like(x)
    small = x < _ERF_SPLIT
    # exp(x^2) overflows below -26.7, and so does the result.
    part = xp.maximum(x[small], -27)
    if part.size:
        with _infinite_results(xp):
            out[small] = _exp_square(xp, xp.abs(part)) * erfc(xp, part)
    low = _ERF_SPLIT
    for high, depth in _ERFC_FRACTION_DEPTHS:
        mask = x >= low
        if high is not None:
            mask &= x < high
        part = x[mask]
        if part.size:
            out[mask] = 1 / (_SQRT_PI * _erfc_fraction_k(xp, part, depth))
        low = high
    return xp.where(nan, xp.nan, out)


def ndtr(xp, x):
    """The standard normal distribution function, erfc(-x / sqrt 2) / 2."""
    return 0.5 * erfc(xp, -x * _SQRT_HALF)


def log_ndtr(xp, x):
    """log(ndtr(x)), finite far into the lower tail where ndtr underflows:
    there it is log(erfcx(-x / sqrt 2) / 2) - x^2 / 2; in the upper half
    log1p of -ndtr(-x), which keeps the tiny distance from 0."""
    negative = x < 0
    lower = xp.where(negative, x, 0)
    with _infinite_results(xp):
        tail = xp.log(0.5 * erfcx(xp, -lower * _SQRT_HALF)) - \
            0.5 * lower * lower
    upper = xp.log1p(-ndtr(xp, -xp.where(negative, 0, x)))
    return xp.where(negative, tail, upper)


def ndtri(xp, p):
    """The inverse of ndtr on (0, 1): -sqrt(2) erfcinv(2 p) (2 p is exact,
    so both tails keep their accuracy); -+inf at 0 and 1."""
    # 0 - v rather than -v: ndtri(1/2) is +0.
    return 0 - math.sqrt(2) * erfcinv(xp, 2 * p)


def _infinite_results(xp):
    """A context where overflow to inf and log(0) = -inf are the expected
    answers."""
    import contextlib
    errstate = getattr(xp, 'errstate', None)
    if errstate is None:
        return contextlib.nullcontext()
    return errstate(over='ignore', divide='ignore')


def _shift_up(xp, x, threshold, steps, term):
    """Move x (> 0) up by ones until it reaches threshold; returns the
    shifted x and the sum of term(x + k) over the steps taken."""
    acc = xp.zeros_like(x)
    for _ in range(steps):
        below = x < threshold
        acc = acc + xp.where(below, term(xp.where(below, x, 1)), 0)
        x = xp.where(below, x + 1, x)
    return x, acc


def _abs_sin_pi(xp, x):
    """|sin(pi x)|, exact in the argument reduction: x minus the nearest
    integer is formed without rounding."""
    return xp.abs(xp.sin(math.pi * (x - xp.round(x))))


def _cot_pi(xp, x):
    """cot(pi x) for x not an integer, with the period taken out
    exactly."""
    return 1 / xp.tan(math.pi * (x - xp.round(x)))


def _stirling(xp, w):
    """lgamma(w) for w >= 10 by Stirling's series."""
    inv = 1 / w
    inv2 = inv * inv
    series = xp.zeros_like(w)
    power = inv
    for j, b in enumerate(_BERNOULLI, 1):
        series = series + b / (2 * j * (2 * j - 1)) * power
        power = power * inv2
    return (w - 0.5) * xp.log(w) - w + 0.5 * math.log(2 * math.pi) + series


def _lgamma_near_one(xp, t):
    """lgamma(1 + t) for |t| <= 1/2 by its Taylor series."""
    total = xp.zeros_like(t)
    for k in range(_LGAMMA_SERIES_TERMS, 1, -1):
        total = (total + (-1) ** k * _ZETA[k] / k) * t
    return (total - _EULER_GAMMA) * t


def _lgamma_positive(xp, z):
    """lgamma(z) for z > 0. Below the threshold, the Taylor series around 1
    or 2, reached by lgamma(z) = lgamma(z - m) + log((z-1) ... (z-m)): all
    the terms but the series are positive logarithms, so the result keeps
    its relative accuracy (also at the zeros 1 and 2)."""
    large = z >= _GAMMA_THRESHOLD
    stirling = _stirling(xp, xp.where(large, z, _GAMMA_THRESHOLD))
    w = xp.where(large, 1.5, z)
    # lgamma(w) = lgamma(1 + w) - log(w) for w < 1/2, with t = w exactly.
    tiny = w < 0.5
    steps = xp.where(w >= 1.5, xp.floor(w - 1.5), 0)
    product = xp.ones_like(w)
    for k in range(1, int(_GAMMA_THRESHOLD)):
        product = xp.where(steps >= k, product * (w - k), product)
    base = w - steps  # in [1/2, 5/2) unless tiny
    near_two = base >= 1.5
    t = xp.where(tiny, w, xp.where(near_two, base - 2, base - 1))
    small = _lgamma_near_one(xp, t) + xp.log(product)
    small = small + xp.where(near_two, xp.log1p(xp.where(near_two, t, 0)), 0)
    small = small - xp.where(tiny, xp.log(xp.where(tiny, w, 1)), 0)
    return xp.where(large, stirling, small)


def lgamma(xp, x):
    """log |Gamma(x)|; +inf at the poles (0, -1, -2, ...)."""
    pole = (x <= 0) & (x == xp.floor(x))
    regular = xp.isfinite(x) & ~pole
    x_reg = xp.where(regular, x, 1)
    negative = x_reg < 0
    positive = _lgamma_positive(xp, xp.where(negative, 1 - x_reg, x_reg))
    # Reflection: Gamma(x) Gamma(1 - x) = pi / sin(pi x).
    sine = _abs_sin_pi(xp, xp.where(negative, x_reg, 0.5))
    reflected = math.log(math.pi) - xp.log(sine) - positive
    y = xp.where(negative, reflected, positive)
    y = xp.where(regular, y, xp.inf)
    return xp.where(xp.isnan(x), x, y)


def _digamma_positive(xp, x):
    steps = int(_GAMMA_THRESHOLD) + 1
    w, reciprocal_sum = _shift_up(xp, x, _GAMMA_THRESHOLD, steps,
                                  lambda v: 1 / v)
    inv = 1 / w
    inv2 = inv * inv
    series = xp.zeros_like(w)
    power = inv2
    for j, b in enumerate(_BERNOULLI, 1):
        series = series + b / (2 * j) * power
        power = power * inv2
    return xp.log(w) - 0.5 * inv - series - reciprocal_sum


def _hurwitz_zeta_positive(xp, s, x, s_max):
    """zeta(s, x) = sum_k (x + k)^-s for x > 0 and s >= 2 (float arrays),
    by Euler-Maclaurin summation from w = x + N >= s + 10."""
    threshold = s + _GAMMA_THRESHOLD
    steps = int(math.ceil(s_max + _GAMMA_THRESHOLD)) + 1
    w, head = _shift_up(xp, x, threshold, steps, lambda v: v ** -s)
    tail = w ** (1 - s) / (s - 1) + 0.5 * w ** -s
    inv = 1 / w
    rising = s * w ** (-s - 1)  # s (s+1) ... (s+2j-2) w^(-s-2j+1), j = 1
    factorial = 2.0
    for j, b in enumerate(_BERNOULLI, 1):
        tail = tail + b / factorial * rising
        rising = rising * (s + 2 * j - 1) * (s + 2 * j) * inv * inv
        factorial *= (2 * j + 1) * (2 * j + 2)
    return head + tail


def hurwitz_zeta(xp, s, q):
    """The Hurwitz zeta function zeta(s, q) = sum_k (q + k)^-s for s > 1
    (s and q broadcast): +inf at s = 1 and at the poles q = 0, -1, ...;
    NaN for s < 1 and for negative q with a non-integer s, where
    (q + k)^-s is not real."""
    s, q = xp.broadcast_arrays(s, q)
    integer_s = s == xp.floor(s)
    pole = (q <= 0) & (q == xp.floor(q))
    regular = ((s > 1) & (s < xp.inf) & xp.isfinite(q) & ~pole &
               ((q > 0) | integer_s))
    y = xp.where((s == 1) | pole, xp.inf, xp.nan).astype(q.dtype)
    # The limits: only the k with q + k <= 1 survive s -> inf, and every
    # term vanishes as q -> inf.
    y = xp.where((s == xp.inf) & (q > 0),
                 xp.where(q > 1, 0, xp.where(q == 1, 1, xp.inf)), y)
    y = xp.where((q == xp.inf) & (s > 1), 0, y)
    if not regular.any():
        return y
    s_reg = xp.where(regular, s, 2)
    q_reg = xp.where(regular, q, 1)
    # Negative q: the terms up to q + k > 0 are summed directly.
    steps = int(math.ceil(max(0.0, -float(q_reg.min())))) + 1
    q_pos, head = _shift_up(xp, q_reg, 0.5, steps, lambda v: v ** -s_reg)
    value = head + _hurwitz_zeta_positive(xp, s_reg, q_pos,
                                          float(s_reg.max()))
    return xp.where(regular, value, y)


def _cot_derivative_coefficients(n):
    """Coefficients (lowest power first) of the polynomial P_n with
    d^n/dx^n cot(pi x) = pi^n P_n(cot(pi x)): P_0(c) = c and
    P_{k+1}(c) = -(1 + c^2) P_k'(c)."""
    p = [0.0, 1.0]
    for _ in range(n):
        d = [i * p[i] for i in range(1, len(p))] or [0.0]
        nxt = [0.0] * (len(d) + 2)
        for i, c in enumerate(d):
            nxt[i] -= c
            nxt[i + 2] -= c
        p = nxt
    return p


def _polygamma_positive(xp, n, x):
    """psi^(n)(x) for x > 0 and a Python int n >= 0."""
    if n == 0:
        return _digamma_positive(xp, x)
    s = xp.full(x.shape, n + 1, dtype=x.dtype)
    sign = 1.0 if n % 2 else -1.0
    return sign * math.factorial(n) * _hurwitz_zeta_positive(
        xp, s, x, n + 1)


def _polygamma_int(xp, n, x):
    """psi^(n)(x) for a Python int n >= 0; NaN at the poles (0, -1, -2,
    ...) and at -inf and NaN."""
    pole = (x <= 0) & (x == xp.floor(x))
    regular = xp.isfinite(x) & ~pole
    x_reg = xp.where(regular, x, 1)
    negative = x_reg < 0
    positive = _polygamma_positive(
        xp, n, xp.where(negative, 1 - x_reg, x_reg))
    # Reflection, differentiated n times:
    # (-1)^n psi^(n)(1 - x) - psi^(n)(x) = pi d^n/dx^n cot(pi x).
    c = _cot_pi(xp, xp.where(negative, x_reg, 0.5))
    poly = xp.zeros_like(c)
    for coef in reversed(_cot_derivative_coefficients(n)):
        poly = poly * c + coef
    reflected = (-1) ** n * positive - math.pi ** (n + 1) * poly
    y = xp.where(negative, reflected, positive)
    y = xp.where(regular, y, xp.nan)
    # psi grows like log x; its derivatives vanish at +inf.
    return xp.where(x == xp.inf, xp.inf if n == 0 else 0, y)


def digamma(xp, x):
    """psi(x) = d/dx log Gamma(x); NaN at the poles (0, -1, -2, ...)."""
    return _polygamma_int(xp, 0, x)


def polygamma(xp, n, x):
    """psi^(n)(x), the n-th derivative of digamma, for integers n >= 0
    (an int or an integer array broadcasting with x)."""
    if isinstance(n, int):
        return _polygamma_int(xp, n, x)
    n, x = xp.broadcast_arrays(n, x)
    y = xp.full(x.shape, xp.nan, dtype=x.dtype)
    for order in sorted({int(v) for v in n.ravel().tolist()}):
        if order < 0:
            continue
        y = xp.where(n == order, _polygamma_int(xp, order, x), y)
    return y


def _zeta_values(count):
    """zeta(k) for k = 0 .. count - 1 (entries 0 and 1 unused) as Python
    floats, from the Hurwitz zeta function at 1."""
    import numpy
    s = numpy.arange(2, count, dtype=numpy.float64)
    values = _hurwitz_zeta_positive(numpy, s, numpy.ones_like(s), count)
    return (0.0, 0.0) + tuple(float(v) for v in values)


_ZETA = _zeta_values(_LGAMMA_SERIES_TERMS + 1)
