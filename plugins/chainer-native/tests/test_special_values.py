"""NaN and infinities through the native kernels give NumPy's answer, NaN
and inf positions and signed zeros included: max pooling, the relu
gradient, power by a single exponent and softmax cross entropy."""
import itertools

import numpy
import pytest

import chainer_native as cn


nan, inf = numpy.nan, numpy.inf


def assert_same_bits(actual, expected):
    """Equal values, NaN where NaN, and the same sign of every zero."""
    actual = numpy.asarray(actual)
    assert actual.dtype == expected.dtype
    numpy.testing.assert_array_equal(actual, expected)
    numpy.testing.assert_array_equal(numpy.signbit(actual),
                                     numpy.signbit(expected))


def backward(f, x, gy):
    xv = cn.array(x).require_grad()
    y = f(xv)
    y.grad = cn.asarray(gy)
    y.backward()
    return numpy.asarray(xv.grad)


# -- max pooling: the first NaN of a window is its maximum -----------------

def ref_max_pool(x, k, s, p):
    """(y, taps, gx for gy = 1..) by NumPy's argmax over windows padded
    with -inf (cover_all off)."""
    d = len(k)
    xp = numpy.pad(x, [(0, 0)] * 2 + [(q, q) for q in p],
                   constant_values=-inf)
    out = [(x.shape[2 + i] + 2 * p[i] - k[i]) // s[i] + 1 for i in range(d)]
    y = numpy.empty(x.shape[:2] + tuple(out), x.dtype)
    taps = numpy.empty(y.shape, numpy.int32)
    gy = numpy.arange(1, y.size + 1, dtype=x.dtype).reshape(y.shape)
    gx = numpy.zeros_like(xp)
    for o in itertools.product(*[range(n) for n in out]):
        sl = tuple(slice(o[i] * s[i], o[i] * s[i] + k[i]) for i in range(d))
        win = xp[(Ellipsis,) + sl].reshape(x.shape[:2] + (-1,))
        t = win.argmax(axis=2)
        taps[(Ellipsis,) + o] = t
        y[(Ellipsis,) + o] = numpy.take_along_axis(win, t[..., None], 2)[..., 0]
        for n, c in numpy.ndindex(*x.shape[:2]):
            pos = numpy.unravel_index(t[n, c], k)
            gx[(n, c) + tuple(o[i] * s[i] + pos[i] for i in range(d))] += \
                gy[(n, c) + o]
    inner = tuple(slice(q, q + x.shape[2 + i]) for i, q in enumerate(p))
    return y, taps, gy, gx[(Ellipsis,) + inner]


@pytest.mark.parametrize('shape, k, s, p', [
    ((2, 2, 7), (3,), (2,), (1,)),            # 1-d, overlapping, padded
    ((2, 2, 5, 6), (2, 2), (2, 2), (0, 0)),   # the 2-d kernel, tiled
    ((2, 2, 5, 6), (3, 2), (1, 2), (1, 1)),   # the 2-d kernel, overlapping
    ((1, 2, 4, 3, 5), (2, 2, 3), (2, 1, 2), (1, 0, 1)),
])
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_max_pool_picks_the_first_nan_of_a_window(shape, k, s, p, dtype):
    rng = numpy.random.RandomState(3)
    x = rng.uniform(-1, 1, shape).astype(dtype)
    flat = x.reshape(-1)
    # A NaN at a window's first tap, NaNs after a larger value, two NaNs
    # in one window, infinities of both signs, and a plane all NaN.
    flat[[0, 3, 4, 9, 13]] = nan
    flat[[6, 11]] = inf
    flat[[7, 15]] = -inf
    x[-1, -1] = nan
    y, taps, gy, gx = ref_max_pool(x, k, s, p)
    got, got_taps = cn.max_pool(cn.asarray(x), k, s, p, False,
                                return_indexes=True)
    assert_same_bits(got, y)
    numpy.testing.assert_array_equal(numpy.asarray(got_taps), taps)
    assert_same_bits(backward(lambda a: cn.max_pool(a, k, s, p, False), x,
                              gy), gx)



@pytest.mark.parametrize('k, s, p', [
    ((3, 3), (2, 2), (1, 1)),     # ResNet's stem
    ((2, 2), (2, 2), (0, 0)),
    ((3, 2), (1, 1), (0, 1)),
    ((1, 4), (3, 3), (0, 2)),
    ((4, 3), (3, 2), (2, 1)),
])
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_max_pool_2d_keeps_the_first_maximum_of_the_row_major_scan(
        k, s, p, dtype):
    # Planes wide enough for windows inside the row and at both edges; few
    # distinct values, so most windows tie; signed zeros, infinities, NaN,
    # rows and columns of -inf next to the padding; and a strided input.
    rng = numpy.random.RandomState(7)
    x = rng.choice([-1.0, -0.0, 0.0, 0.5, 2.0], (2, 3, 13, 41)).astype(dtype)
    flat = x.reshape(-1)
    flat[rng.choice(flat.size, 40, replace=False)] = nan
    flat[rng.choice(flat.size, 40, replace=False)] = inf
    flat[rng.choice(flat.size, 80, replace=False)] = -inf
    x[0, 0, :, :3] = -inf
    x[0, 1, :2, :] = -inf
    x[1, 2] = -inf
    for xin in (x, x[:, :, :, ::2]):
        y, taps, gy, gx = ref_max_pool(xin, k, s, p)
        got, got_taps = cn.max_pool(cn.asarray(xin), k, s, p, False,
                                    return_indexes=True)
        assert_same_bits(got, y)
        numpy.testing.assert_array_equal(numpy.asarray(got_taps), taps)
        assert_same_bits(backward(lambda a: cn.max_pool(a, k, s, p, False),
                                  xin, gy), gx)

# -- relu's gradient: gy * (y > 0), a product ------------------------------

@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_relu_gradient_is_gy_times_the_mask(dtype):
    x = numpy.array([nan, nan, -1, -1, -1, 0, 2, 2, -inf, inf, 3],
                    dtype)
    gy = numpy.array([1, nan, nan, inf, -0.5, -2, nan, -inf, 1, -1, -3],
                     dtype)
    y = numpy.maximum(x, dtype(0))
    with numpy.errstate(invalid='ignore'):
        expected = gy * (y > 0)
    assert_same_bits(backward(cn.relu, x, gy), expected)


# -- power by a single exponent: NumPy's formulas for -1, 0, 0.5, 1, 2 -----

BASES = [-inf, inf, -0.0, 0.0, -2.5, -1.0, nan, 0.3, 4.0, 6e4, 3.1]


def assert_power_matches(got, expected, exponent):
    if exponent in (-1.0, 0.0, 0.5, 1.0, 2.0):
        assert_same_bits(got, expected)
    else:
        # pow() itself: NumPy's vectorised float32 pow may round apart by
        # an ulp, but the special values are IEEE's.
        numpy.testing.assert_allclose(numpy.asarray(got), expected,
                                      rtol=1e-6)


@pytest.mark.parametrize('exponent', [-1.0, 0.0, 0.5, 1.0, 2.0, 1.5, 3.0,
                                      -0.5])
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
@pytest.mark.parametrize('form', ['0-dim', 'one element', 'scalar'])
def test_power_by_a_single_exponent(exponent, dtype, form):
    base = numpy.array(BASES, dtype).reshape(1, -1).repeat(2, axis=0)
    e = {'0-dim': numpy.array(exponent, dtype),
         'one element': numpy.full((1,), exponent, dtype),
         'scalar': exponent}[form]
    for step in (1, 2):  # contiguous and strided bases
        with numpy.errstate(all='ignore'):
            expected = numpy.power(base[:, ::step], e)
        got = cn.power(cn.asarray(base)[:, ::step],
                       e if form == 'scalar' else cn.asarray(e))
        assert_power_matches(got, expected, exponent)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_power_by_an_exponent_array_is_pow(dtype):
    # NumPy uses pow() once the exponent has more than one element, even
    # when they are all 0.5: (-inf) ** 0.5 is then +inf, (-0.0) ** 0.5 +0.
    base = numpy.array([BASES, BASES], dtype)
    for e in (numpy.full(base.shape, 0.5, dtype),
              numpy.full((2, 1), 0.5, dtype)):
        with numpy.errstate(all='ignore'):
            expected = numpy.power(base, e)
        assert expected[0, 0] == inf
        assert_same_bits(cn.power(cn.asarray(base), cn.asarray(e)), expected)


def test_power_gradient_by_a_constant_exponent():
    # d/dx x ** 1.5 = 1.5 x ** 0.5: NaN at -inf, as NumPy's sqrt gives.
    x = numpy.array([-inf, inf, 0.0, 4.0, -1.0], numpy.float32)
    gy = numpy.array([1.0, 1.0, 1.0, 0.5, 1.0], numpy.float32)
    with numpy.errstate(all='ignore'):
        expected = gy * numpy.float32(1.5) * numpy.power(x, numpy.float32(0.5))
    got = backward(lambda a: cn.power(a, 1.5), x, gy)
    numpy.testing.assert_allclose(got, expected, rtol=1e-6)
    numpy.testing.assert_array_equal(numpy.isnan(got), [1, 0, 0, 0, 1])


# -- softmax cross entropy: 0 * NaN at ignored labels ----------------------

def ref_softmax_cross_entropy(x, t, gloss, reduce):
    """(loss, gx) as the reference computes them: the picked
    log-probabilities, and (softmax(x) - onehot) * scale, with scale 0 and
    the one-hot at class 0 where a label is ignored."""
    with numpy.errstate(all='ignore'):
        m = x.max(axis=1, keepdims=True)
        log_y = x - (m + numpy.log(numpy.exp(x - m).sum(axis=1,
                                                        keepdims=True)))
        mask = t != -1
        tt = numpy.where(mask, t, 0)
        log_p = numpy.take_along_axis(log_y, tt[:, None], 1)[:, 0]
        log_p = numpy.where(mask, log_p, 0)
        count = max(int(mask.sum()), 1)
        loss = -log_p.sum() / count if reduce == 'mean' else -log_p
        onehot = numpy.zeros_like(x)
        numpy.put_along_axis(onehot, tt[:, None], 1, axis=1)
        scale = mask.astype(x.dtype) * (gloss / count if reduce == 'mean'
                                         else gloss)
        gx = (numpy.exp(log_y) - onehot) * scale[:, None]
    return numpy.asarray(loss, x.dtype), gx.astype(x.dtype)


@pytest.mark.parametrize('reduce', ['mean', 'no'])
@pytest.mark.parametrize('labels', [[0, -1, 2, -1, 1], [-1] * 5],
                         ids=['some-ignored', 'all-ignored'])
@pytest.mark.parametrize('shape', [(5, 3), (5, 3, 2)],
                         ids=['rows', 'spatial'])
def test_softmax_cross_entropy_with_non_finite_scores(reduce, labels, shape):
    rng = numpy.random.RandomState(1)
    x = rng.uniform(-2, 2, shape).astype(numpy.float32)
    x[1, 0] = nan                 # an ignored row holding NaN
    x[3] = inf                    # an ignored row all inf
    x[4, 1] = -inf                # a finite softmax with a zero in it
    t = numpy.array(labels, numpy.int32)
    if len(shape) == 3:
        t = numpy.stack([t, t[::-1]], axis=1)
    gloss = numpy.float32(1.5) if reduce == 'mean' else \
        rng.uniform(-1, 1, t.shape).astype(numpy.float32)
    if reduce == 'no':
        gloss.reshape(-1)[-1] = inf    # 0 * inf at an ignored label
    # The reference works on (rows, classes).
    x2 = numpy.moveaxis(x, 1, -1).reshape(-1, shape[1])
    loss, gx2 = ref_softmax_cross_entropy(
        x2, t.reshape(-1), gloss if reduce == 'mean' else gloss.reshape(-1),
        reduce)
    gx = numpy.moveaxis(gx2.reshape((shape[0],) + shape[2:] + shape[1:2]),
                        -1, 1)

    def f(a):
        return cn.softmax_cross_entropy(a, cn.asarray(t), reduce=reduce)
    got = numpy.asarray(f(cn.asarray(x)))
    numpy.testing.assert_allclose(got, loss.reshape(got.shape), rtol=1e-6)
    numpy.testing.assert_array_equal(numpy.signbit(got),
                                     numpy.signbit(loss.reshape(got.shape)))
    got_gx = backward(f, x, gloss)
    numpy.testing.assert_allclose(got_gx, gx, rtol=1e-5, atol=1e-7)
    numpy.testing.assert_array_equal(numpy.isnan(got_gx), numpy.isnan(gx))
