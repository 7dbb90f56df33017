"""Neural-network routines against NumPy references written here, and their
gradients against numerical ones."""
import itertools

import numpy
import pytest

import chainer_native as cn

from conftest import analytic_grad, numerical_grad

rng = numpy.random.RandomState(0)


def ref_conv(x, w, b, stride, pad, dil, groups):
    """Direct N-d convolution by loops over output positions."""
    n, c = x.shape[:2]
    o = w.shape[0]
    d = x.ndim - 2
    k = w.shape[2:]
    xp = numpy.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in pad])
    out = [(x.shape[2 + i] + 2 * pad[i] - dil[i] * (k[i] - 1) - 1)
           // stride[i] + 1 for i in range(d)]
    y = numpy.zeros((n, o) + tuple(out))
    cg, og = c // groups, o // groups
    for pos in itertools.product(*[range(v) for v in out]):
        sl = tuple(slice(pos[i] * stride[i],
                         pos[i] * stride[i] + dil[i] * (k[i] - 1) + 1, dil[i])
                   for i in range(d))
        for g in range(groups):
            patch = xp[(slice(None), slice(g * cg, (g + 1) * cg)) + sl]
            wg = w[g * og:(g + 1) * og]
            y[(slice(None), slice(g * og, (g + 1) * og)) + pos] = \
                numpy.tensordot(patch, wg, axes=(list(range(1, d + 2)),
                                                 list(range(1, d + 2))))
    if b is not None:
        y += b.reshape((1, -1) + (1,) * d)
    return y


@pytest.mark.parametrize('xs,ws,stride,pad,dil,groups', [
    ((2, 3, 7, 6), (4, 3, 3, 3), (1, 1), (1, 1), (1, 1), 1),
    ((2, 4, 7, 6), (6, 2, 3, 2), (2, 1), (0, 1), (1, 2), 2),
    ((1, 2, 9), (3, 2, 3), (2,), (1,), (2,), 1),
    ((1, 2, 4, 5, 4), (2, 2, 2, 3, 2), (1, 2, 1), (1, 0, 1), (1, 1, 1), 1),
    ((2, 3, 5, 5), (4, 3, 1, 1), (1, 1), (0, 0), (1, 1), 1),
])
def test_conv_forward_and_gradients(xs, ws, stride, pad, dil, groups):
    x = rng.uniform(-1, 1, xs)
    w = rng.uniform(-1, 1, ws)
    b = rng.uniform(-1, 1, ws[0])
    y = cn.conv(cn.asarray(x), cn.asarray(w), cn.asarray(b), stride=stride,
                pad=pad, dilation=dil, groups=groups)
    numpy.testing.assert_allclose(numpy.asarray(y),
                                  ref_conv(x, w, b, stride, pad, dil, groups),
                                  rtol=1e-10, atol=1e-10)

    def f(x_, w_, b_):
        return cn.conv(x_, w_, b_, stride=stride, pad=pad, dilation=dil,
                       groups=groups)
    gy = rng.uniform(-1, 1, numpy.asarray(y).shape)
    for a, n in zip(analytic_grad(f, [x, w, b], gy),
                    numerical_grad(f, [x, w, b], gy)):
        numpy.testing.assert_allclose(a, n, rtol=1e-5, atol=1e-6)


def test_conv_transpose_is_the_adjoint_of_conv():
    x = rng.uniform(-1, 1, (2, 3, 7, 6))
    w = rng.uniform(-1, 1, (4, 3, 3, 3))
    y = cn.conv(cn.asarray(x), cn.asarray(w), stride=2, pad=1)
    g = rng.uniform(-1, 1, numpy.asarray(y).shape)
    gx = cn.conv_transpose(cn.asarray(g), cn.asarray(w), stride=2, pad=1,
                           outsize=(7, 6))
    lhs = numpy.sum(numpy.asarray(y) * g)
    rhs = numpy.sum(x * numpy.asarray(gx))
    assert abs(lhs - rhs) < 1e-9

    def f(g_, w_):
        return cn.conv_transpose(g_, w_, stride=2, pad=1, outsize=(7, 6))
    gy = rng.uniform(-1, 1, x.shape)
    for a, n in zip(analytic_grad(f, [g, w], gy),
                    numerical_grad(f, [g, w], gy)):
        numpy.testing.assert_allclose(a, n, rtol=1e-5, atol=1e-6)


def test_conv_float32_and_float16():
    x = rng.uniform(-1, 1, (2, 3, 6, 6))
    w = rng.uniform(-1, 1, (4, 3, 3, 3))
    ref = ref_conv(x, w, None, (1, 1), (1, 1), (1, 1), 1)
    for dtype, tol in ((numpy.float32, 1e-5), (numpy.float16, 2e-2)):
        y = cn.conv(cn.asarray(x.astype(dtype)), cn.asarray(w.astype(dtype)),
                    pad=1)
        assert y.dtype == dtype
        numpy.testing.assert_allclose(numpy.asarray(y).astype(float), ref,
                                      rtol=tol, atol=tol * 10)


def ref_pool(x, k, s, p, mode, cover_all=False):
    d = x.ndim - 2
    fill = -numpy.inf if mode == 'max' else 0
    xp = numpy.pad(x, [(0, 0), (0, 0)] + [(q, q + (s[i] - 1 if cover_all
                                                    else 0))
                                          for i, q in enumerate(p)],
                   constant_values=fill)
    inside = numpy.pad(numpy.ones(x.shape[2:]), [(q, q + (s[i] - 1 if
                                                          cover_all else 0))
                                                 for i, q in enumerate(p)])
    out = [(x.shape[2 + i] + 2 * p[i] - k[i] + (s[i] - 1 if cover_all
                                                 else 0)) // s[i] + 1
           for i in range(d)]
    y = numpy.zeros(x.shape[:2] + tuple(out))
    for pos in itertools.product(*[range(v) for v in out]):
        sl = tuple(slice(pos[i] * s[i], pos[i] * s[i] + k[i])
                   for i in range(d))
        win = xp[(Ellipsis,) + sl].reshape(x.shape[:2] + (-1,))
        if mode == 'max':
            y[(Ellipsis,) + pos] = win.max(axis=-1)
        elif mode == 'zero':
            y[(Ellipsis,) + pos] = win.sum(axis=-1) / numpy.prod(k)
        else:
            y[(Ellipsis,) + pos] = win.sum(axis=-1) / inside[sl].sum()
    return y


@pytest.mark.parametrize('shape,k,s,p', [
    ((2, 3, 6, 7), (2, 2), (2, 2), (0, 0)),
    ((2, 2, 7, 5), (3, 2), (2, 1), (1, 1)),
    ((1, 2, 8), (3,), (2,), (1,)),
    ((1, 1, 4, 5, 3), (2, 2, 2), (1, 2, 1), (0, 1, 1)),
])
def test_pooling(shape, k, s, p):
    x = rng.permutation(numpy.prod(shape)).reshape(shape) / 10.0
    for cover_all in (False, True):
        numpy.testing.assert_allclose(
            numpy.asarray(cn.max_pool(cn.asarray(x), k, s, p, cover_all)),
            ref_pool(x, k, s, p, 'max', cover_all))
    for mode in ('ignore', 'zero'):
        numpy.testing.assert_allclose(
            numpy.asarray(cn.average_pool(cn.asarray(x), k, s, p, mode)),
            ref_pool(x, k, s, p, mode), rtol=1e-12)

    gy = rng.uniform(-1, 1, ref_pool(x, k, s, p, 'max').shape)
    for fn in (lambda a: cn.max_pool(a, k, s, p),
               lambda a: cn.average_pool(a, k, s, p, 'zero'),
               lambda a: cn.average_pool(a, k, s, p)):
        a, n = analytic_grad(fn, [x], gy)[0], numerical_grad(fn, [x], gy)[0]
        numpy.testing.assert_allclose(a, n, rtol=1e-5, atol=1e-6)


def test_max_pool_indexes():
    x = numpy.array([[[[1.0, 5.0], [3.0, 2.0]]]])
    y, idx = cn.max_pool(cn.asarray(x), 2, return_indexes=True)
    assert float(y) == 5.0 and int(idx) == 1 and idx.dtype == numpy.int32


def test_linear_and_its_gradients():
    x, w, b = rng.uniform(-1, 1, (4, 3)), rng.uniform(-1, 1, (2, 3)), \
        rng.uniform(-1, 1, 2)
    numpy.testing.assert_allclose(
        numpy.asarray(cn.linear(cn.asarray(x), cn.asarray(w), cn.asarray(b))),
        x @ w.T + b)
    x3 = rng.uniform(-1, 1, (2, 2, 3))
    numpy.testing.assert_allclose(
        numpy.asarray(cn.linear(cn.asarray(x3), cn.asarray(w), None,
                                n_batch_axes=2)), x3 @ w.T)
    gy = rng.uniform(-1, 1, (4, 2))
    f = cn.linear
    for a, n in zip(analytic_grad(f, [x, w, b], gy),
                    numerical_grad(f, [x, w, b], gy)):
        numpy.testing.assert_allclose(a, n, rtol=1e-6, atol=1e-8)


def test_softmax_family():
    x = rng.uniform(-2, 2, (3, 4, 2))
    e = numpy.exp(x - x.max(axis=1, keepdims=True))
    sm = e / e.sum(axis=1, keepdims=True)
    numpy.testing.assert_allclose(numpy.asarray(cn.softmax(cn.asarray(x))), sm)
    numpy.testing.assert_allclose(
        numpy.asarray(cn.log_softmax(cn.asarray(x), axis=1)), numpy.log(sm))


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_softmax_of_large_scores_sums_to_one(dtype):
    # Scores of a random, untrained deep network reach 1e4 and more; rows of
    # close large scores must still sum to 1 within rounding, as the
    # reference's e / e.sum() does.
    x = (1e4 + rng.uniform(-3, 3, (64, 7))).astype(dtype)
    e = numpy.exp(x - x.max(axis=1, keepdims=True))
    sm = e / e.sum(axis=1, keepdims=True)
    y = numpy.asarray(cn.softmax(cn.asarray(x)))
    eps = numpy.finfo(dtype).eps
    numpy.testing.assert_allclose(y.sum(axis=1), 1, rtol=8 * eps)
    numpy.testing.assert_allclose(y, sm, rtol=8 * eps, atol=8 * eps)


@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_softmax_cross_entropy(reduce):
    x = rng.uniform(-2, 2, (5, 4))
    t = numpy.array([0, 3, -1, 2, 1], numpy.int32)
    ls = x - numpy.log(numpy.exp(x).sum(axis=1, keepdims=True))
    per = numpy.where(t >= 0, -ls[numpy.arange(5), numpy.maximum(t, 0)], 0)
    ref = per.sum() / 4 if reduce == 'mean' else per
    got = cn.softmax_cross_entropy(cn.asarray(x), cn.asarray(t),
                                   reduce=reduce)
    numpy.testing.assert_allclose(numpy.asarray(got), ref)
    gy = numpy.array(1.3) if reduce == 'mean' else rng.uniform(-1, 1, 5)

    def f(x_):
        return cn.softmax_cross_entropy(x_, cn.asarray(t), reduce=reduce)
    numpy.testing.assert_allclose(analytic_grad(f, [x], gy)[0],
                                  numerical_grad(f, [x], gy)[0], rtol=1e-6,
                                  atol=1e-8)


def test_softmax_cross_entropy_spatial():
    x = rng.uniform(-2, 2, (2, 3, 4))
    t = rng.randint(0, 3, (2, 4))
    gy = numpy.array(1.0)

    def f(x_):
        return cn.softmax_cross_entropy(x_, cn.asarray(t))
    numpy.testing.assert_allclose(analytic_grad(f, [x], gy)[0],
                                  numerical_grad(f, [x], gy)[0], rtol=1e-6,
                                  atol=1e-8)


def test_batch_norm():
    x = rng.uniform(-1, 1, (4, 3, 2, 2))
    gamma, beta = rng.uniform(0.5, 1.5, 3), rng.uniform(-1, 1, 3)
    rm, rv = numpy.zeros(3), numpy.ones(3)
    y = cn.batch_norm(cn.asarray(x), cn.asarray(gamma), cn.asarray(beta),
                      cn.asarray(rm), cn.asarray(rv), eps=1e-5, decay=0.9)
    mu = x.mean(axis=(0, 2, 3), keepdims=True)
    var = x.var(axis=(0, 2, 3), keepdims=True)
    ref = (x - mu) / numpy.sqrt(var + 1e-5) * gamma.reshape(1, 3, 1, 1) + \
        beta.reshape(1, 3, 1, 1)
    numpy.testing.assert_allclose(numpy.asarray(y), ref, rtol=1e-10)
    numpy.testing.assert_allclose(rm, 0.1 * mu.ravel())
    numpy.testing.assert_allclose(rv, 0.9 + 0.1 * var.ravel() * 16 / 15)
    gy = rng.uniform(-1, 1, x.shape)

    def f(x_, g_, b_):
        return cn.batch_norm(x_, g_, b_, eps=1e-5)
    for a, n in zip(analytic_grad(f, [x, gamma, beta], gy),
                    numerical_grad(f, [x, gamma, beta], gy)):
        numpy.testing.assert_allclose(a, n, rtol=1e-5, atol=1e-6)


def test_fixed_batch_norm():
    x = rng.uniform(-1, 1, (4, 3))
    g, b, m, v = (rng.uniform(0.5, 1.5, 3) for _ in range(4))
    y = cn.fixed_batch_norm(*[cn.asarray(a) for a in (x, g, b, m, v)],
                            eps=1e-3)
    numpy.testing.assert_allclose(numpy.asarray(y),
                                  g * (x - m) / numpy.sqrt(v + 1e-3) + b)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape,axis', [
    ((3, 5, 4, 6), None), ((2, 5), None), ((3, 5, 4, 6), (0, 2, 3)),
    ((3, 5, 4, 6), (0, 1, 2)), ((0, 5, 2), None)])
def test_fixed_batch_norm_single_pass_equals_the_composite(dtype, shape,
                                                           axis):
    # (N, C, ...) inference runs in one pass over x: it must give exactly
    # what (x - mean) * scale + beta as three routines gives.
    x = rng.uniform(-3, 3, shape).astype(dtype)
    x.flat[:1] = numpy.nan
    axes = axis if axis is not None else (0,) + tuple(range(2, len(shape)))
    pshape = tuple(n for i, n in enumerate(shape) if i not in axes)
    keep = tuple(1 if i in axes else n for i, n in enumerate(shape))
    g, b, m = (rng.uniform(-1.5, 1.5, pshape).astype(dtype)
               for _ in range(3))
    v = rng.uniform(0.5, 1.5, pshape).astype(dtype)
    args = [cn.asarray(a) for a in (x, g, b, m, v)]
    for xa in (args[0], cn.asarray(numpy.asfortranarray(x))):
        y = cn.fixed_batch_norm(xa, *args[1:], eps=2e-5, axis=axis)
        scale = cn.multiply(args[1], cn.rsqrt(cn.add(args[4], 2e-5)))
        composite = cn.add(cn.multiply(
            cn.subtract(args[0], args[3].reshape(keep)),
            scale.reshape(keep)), args[2].reshape(keep))
        numpy.testing.assert_array_equal(numpy.asarray(y),
                                         numpy.asarray(composite))


def test_dropout():
    x = numpy.ones((200, 100))
    y, mask = cn.dropout(cn.asarray(x), 0.25, return_mask=True)
    y = numpy.asarray(y)
    kept = (y != 0).mean()
    assert 0.72 < kept < 0.78
    numpy.testing.assert_allclose(y[y != 0], 1 / 0.75)
    numpy.testing.assert_array_equal(numpy.asarray(mask), y)
    y2 = cn.dropout(cn.asarray(x), 0.25, mask=mask)
    numpy.testing.assert_array_equal(numpy.asarray(y2), y)


def test_mean_squared_error():
    a, b = rng.uniform(-1, 1, (3, 4)), rng.uniform(-1, 1, (3, 4))
    numpy.testing.assert_allclose(
        float(cn.mean_squared_error(cn.asarray(a), cn.asarray(b))),
        ((a - b) ** 2).mean())


def test_training_loop_on_the_raw_api():
    r = numpy.random.RandomState(1)
    x = cn.asarray(r.normal(size=(64, 4)).astype(numpy.float32))
    t = cn.asarray((r.normal(size=64) > 0).astype(numpy.int32))
    params = [cn.asarray(r.normal(0, 0.5, s).astype(numpy.float32))
              .require_grad() for s in ((16, 4), (16,), (2, 16), (2,))]
    losses = []
    for _ in range(50):
        h = cn.relu(cn.linear(x, params[0], params[1]))
        loss = cn.softmax_cross_entropy(cn.linear(h, params[2], params[3]),
                                        t)
        for p in params:
            p.cleargrad()
        loss.backward()
        for p in params:
            p -= 0.1 * p.grad
        losses.append(float(loss))
    assert losses[-1] < 0.7 * losses[0]
