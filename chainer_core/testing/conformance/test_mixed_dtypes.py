"""Weights of another float dtype than the input, on every device.

Chainer accepts a float16 or float64 ``W`` (``b``, ``gamma`` ...) with a
float32 ``x``: the output has ``x``'s dtype (``matmul``: NumPy's promotion
of both) and every gradient the dtype of its input. Values are compared
with float64 NumPy references written here; the convolutions with a naive
window-by-window one.
"""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

PAIRS = [(numpy.float32, numpy.float16), (numpy.float32, numpy.float64),
         (numpy.float16, numpy.float32)]
pair_param = pytest.mark.parametrize(
    'x_dtype,w_dtype', PAIRS,
    ids=['{}-{}'.format(numpy.dtype(a).name, numpy.dtype(b).name)
         for a, b in PAIRS])


def _tol(*dtypes):
    if numpy.float16 in dtypes:
        return dict(atol=3e-2, rtol=3e-2)
    return dict(atol=1e-4, rtol=1e-4)


def _host(a):
    return numpy.asarray(chainer.backend.CpuDevice().send(
        getattr(a, 'array', a)), dtype=numpy.float64)


def _run(device, fn, arrays, seed=0):
    """Forward and first-order gradients of fn on the device, with a random
    output gradient; returns (y, gy, grads), gy and the arrays on the host
    as float64 for the reference."""
    xs = [chainer.Variable(device.send(a)) for a in arrays]
    y = fn(*xs)
    gy = numpy.random.RandomState(seed).uniform(-1, 1, y.shape).astype(
        y.dtype)
    gxs = chainer.grad([y], xs, [chainer.Variable(device.send(gy))])
    for x, g in zip(xs, gxs):
        assert g.dtype == x.dtype, (g.dtype, x.dtype)
    return y, gy.astype(numpy.float64), gxs


def _data(x_dtype, w_dtype, x_shape, w_shape, b_shape, seed=0):
    rng = numpy.random.RandomState(seed)
    x = rng.uniform(-1, 1, x_shape).astype(x_dtype)
    W = rng.uniform(-1, 1, w_shape).astype(w_dtype)
    b = rng.uniform(-1, 1, b_shape).astype(w_dtype)
    return x, W, b


# -- naive references of the convolutions, float64

def _windows(x, ksize, stride, pad):
    """(N, C, *k, *out): the zero-padded window of each output position."""
    n = x.ndim - 2
    xp = numpy.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in pad])
    out = [(xp.shape[2 + i] - ksize[i]) // stride[i] + 1 for i in range(n)]
    cols = numpy.empty(x.shape[:2] + tuple(ksize) + tuple(out))
    for k in numpy.ndindex(*ksize):
        taps = tuple(slice(k[i], k[i] + stride[i] * (out[i] - 1) + 1,
                           stride[i]) for i in range(n))
        cols[(slice(None), slice(None)) + k] = xp[
            (slice(None), slice(None)) + taps]
    return cols


def _conv_ref(x, W, b, stride, pad):
    n = x.ndim - 2
    cols = _windows(x, W.shape[2:], stride, pad)
    axes = [1] + list(range(2, 2 + n))
    y = numpy.moveaxis(numpy.tensordot(cols, W, axes=(axes, axes)), -1, 1)
    return y if b is None else y + b.reshape((1, -1) + (1,) * n)


def _conv_grad_w_ref(x, gy, ksize, stride, pad):
    n = x.ndim - 2
    cols = _windows(x, ksize, stride, pad)
    return numpy.tensordot(
        gy, cols, axes=([0] + list(range(2, 2 + n)),
                        [0] + list(range(2 + n, 2 + 2 * n))))


def _deconv_ref(x, W, b, stride, pad):
    n = x.ndim - 2
    ksize, ins = W.shape[2:], x.shape[2:]
    full = [stride[i] * (ins[i] - 1) + ksize[i] for i in range(n)]
    y = numpy.zeros((x.shape[0], W.shape[1]) + tuple(full))
    contrib = numpy.tensordot(x, W, axes=([1], [0]))  # (N, *in, O, *k)
    for i in numpy.ndindex(*ins):
        for k in numpy.ndindex(*ksize):
            at = tuple(stride[a] * i[a] + k[a] for a in range(n))
            y[(slice(None), slice(None)) + at] += contrib[
                (slice(None),) + i + (slice(None),) + k]
    y = y[(slice(None), slice(None)) + tuple(
        slice(pad[a], full[a] - pad[a]) for a in range(n))]
    return y if b is None else y + b.reshape((1, -1) + (1,) * n)


CONVS = [
    # (name, fn, x shape, W shape, stride, pad)
    ('convolution_1d', F.convolution_1d, (2, 3, 7), (4, 3, 3), 2, 1),
    ('convolution_2d', F.convolution_2d, (2, 3, 5, 4), (4, 3, 3, 2), 1, 1),
    ('convolution_3d', F.convolution_3d, (1, 2, 4, 3, 4), (3, 2, 2, 2, 3),
     1, 0),
    ('convolution_nd', F.convolution_nd, (2, 2, 5, 5), (3, 2, 3, 3), 2, 1),
]
DECONVS = [
    ('deconvolution_1d', F.deconvolution_1d, (2, 3, 4), (3, 2, 3), 2, 1),
    ('deconvolution_2d', F.deconvolution_2d, (2, 3, 3, 2), (3, 2, 3, 2), 2,
     0),
    ('deconvolution_3d', F.deconvolution_3d, (1, 2, 2, 3, 2),
     (2, 3, 2, 2, 2), 1, 0),
    ('deconvolution_nd', F.deconvolution_nd, (1, 2, 3, 3), (2, 2, 3, 3), 2,
     1),
]


def _tuple(v, n):
    return (v,) * n


@pair_param
@pytest.mark.parametrize('name,fn,x_shape,w_shape,stride,pad', CONVS,
                         ids=[c[0] for c in CONVS])
def test_convolution(device, x_dtype, w_dtype, name, fn, x_shape, w_shape,
                     stride, pad):
    x, W, b = _data(x_dtype, w_dtype, x_shape, w_shape, w_shape[:1])
    y, gy, (gx, gW, gb) = _run(
        device, lambda x, W, b: fn(x, W, b, stride=stride, pad=pad),
        (x, W, b))
    assert y.dtype == x_dtype
    n = len(x_shape) - 2
    s, p = _tuple(stride, n), _tuple(pad, n)
    x64, W64, b64 = (a.astype(numpy.float64) for a in (x, W, b))
    tol = _tol(x_dtype, w_dtype)
    numpy.testing.assert_allclose(_host(y), _conv_ref(x64, W64, b64, s, p),
                                  **tol)
    full = _deconv_ref(gy, W64, None, s, (0,) * n)
    expected_gx = full[(slice(None), slice(None)) + tuple(
        slice(p[a], p[a] + x_shape[2 + a]) for a in range(n))]
    numpy.testing.assert_allclose(_host(gx), expected_gx, **tol)
    numpy.testing.assert_allclose(
        _host(gW), _conv_grad_w_ref(x64, gy, w_shape[2:], s, p), **tol)
    numpy.testing.assert_allclose(
        _host(gb), gy.sum(axis=(0,) + tuple(range(2, 2 + n))), **tol)


@pair_param
@pytest.mark.parametrize('name,fn,x_shape,w_shape,stride,pad', DECONVS,
                         ids=[c[0] for c in DECONVS])
def test_deconvolution(device, x_dtype, w_dtype, name, fn, x_shape, w_shape,
                       stride, pad):
    x, W, b = _data(x_dtype, w_dtype, x_shape, w_shape, w_shape[1:2])
    y, gy, (gx, gW, gb) = _run(
        device, lambda x, W, b: fn(x, W, b, stride=stride, pad=pad),
        (x, W, b))
    assert y.dtype == x_dtype
    n = len(x_shape) - 2
    s, p = _tuple(stride, n), _tuple(pad, n)
    x64, W64, b64 = (a.astype(numpy.float64) for a in (x, W, b))
    tol = _tol(x_dtype, w_dtype)
    numpy.testing.assert_allclose(_host(y), _deconv_ref(x64, W64, b64, s, p),
                                  **tol)
    numpy.testing.assert_allclose(_host(gx), _conv_ref(gy, W64, None, s, p),
                                  **tol)
    # gW[c, o, k] = sum over n, i of x[n, c, i] gy[n, o, s i + k - p]: the
    # filter gradient of a convolution of gy whose output gradient is x.
    numpy.testing.assert_allclose(
        _host(gW), _conv_grad_w_ref(gy, x64, w_shape[2:], s, p), **tol)
    numpy.testing.assert_allclose(
        _host(gb), gy.sum(axis=(0,) + tuple(range(2, 2 + n))), **tol)


@pair_param
def test_grouped_dilated_convolution_2d(device, x_dtype, w_dtype):
    x, W, b = _data(x_dtype, w_dtype, (2, 4, 6, 6), (4, 2, 2, 2), (4,))
    y, gy, (gx, gW, gb) = _run(
        device, lambda x, W, b: F.convolution_2d(x, W, b, dilate=2,
                                                 groups=2), (x, W, b))
    assert y.dtype == x_dtype
    x64, W64, b64 = (a.astype(numpy.float64) for a in (x, W, b))
    # Dilation 2 is a 3 x 3 kernel with zeros between the taps; each group
    # convolves its own half of the channels.
    Wd = numpy.zeros((4, 2, 3, 3))
    Wd[:, :, ::2, ::2] = W64
    ref = numpy.concatenate(
        [_conv_ref(x64[:, 2 * g:2 * g + 2], Wd[2 * g:2 * g + 2], None,
                   (1, 1), (0, 0)) for g in range(2)], axis=1) + \
        b64.reshape(1, 4, 1, 1)
    tol = _tol(x_dtype, w_dtype)
    numpy.testing.assert_allclose(_host(y), ref, **tol)
    gW_full = numpy.concatenate(
        [_conv_grad_w_ref(x64[:, 2 * g:2 * g + 2], gy[:, 2 * g:2 * g + 2],
                          (3, 3), (1, 1), (0, 0)) for g in range(2)])
    numpy.testing.assert_allclose(_host(gW), gW_full[:, :, ::2, ::2], **tol)


@pair_param
def test_depthwise_convolution_2d(device, x_dtype, w_dtype):
    x, W, b = _data(x_dtype, w_dtype, (2, 3, 4, 4), (2, 3, 2, 2), (6,))
    y, gy, (gx, gW, gb) = _run(
        device, lambda x, W, b: F.depthwise_convolution_2d(x, W, b, pad=1),
        (x, W, b))
    assert y.dtype == x_dtype
    x64, W64, b64 = (a.astype(numpy.float64) for a in (x, W, b))
    # Output channel c * 2 + m is channel c convolved with W[m, c].
    ref = numpy.concatenate(
        [_conv_ref(x64[:, c:c + 1], W64[:, c:c + 1], None, (1, 1), (1, 1))
         for c in range(3)], axis=1) + b64.reshape(1, 6, 1, 1)
    numpy.testing.assert_allclose(_host(y), ref, **_tol(x_dtype, w_dtype))
    numpy.testing.assert_allclose(_host(gb), gy.sum(axis=(0, 2, 3)),
                                  **_tol(x_dtype, w_dtype))


@pair_param
def test_linear(device, x_dtype, w_dtype):
    x, W, b = _data(x_dtype, w_dtype, (4, 3), (5, 3), (5,))
    y, gy, (gx, gW, gb) = _run(device, F.linear, (x, W, b))
    assert y.dtype == x_dtype
    x64, W64, b64 = (a.astype(numpy.float64) for a in (x, W, b))
    tol = _tol(x_dtype, w_dtype)
    numpy.testing.assert_allclose(_host(y), x64 @ W64.T + b64, **tol)
    numpy.testing.assert_allclose(_host(gx), gy @ W64, **tol)
    numpy.testing.assert_allclose(_host(gW), gy.T @ x64, **tol)
    numpy.testing.assert_allclose(_host(gb), gy.sum(axis=0), **tol)


@pair_param
def test_matmul_promotes(device, x_dtype, w_dtype):
    a, b, _ = _data(x_dtype, w_dtype, (2, 3, 4), (2, 4, 5), ())
    y, gy, (ga, gb) = _run(device, F.matmul, (a, b))
    assert y.dtype == numpy.result_type(x_dtype, w_dtype)
    a64, b64 = a.astype(numpy.float64), b.astype(numpy.float64)
    tol = _tol(x_dtype, w_dtype)
    numpy.testing.assert_allclose(_host(y), a64 @ b64, **tol)
    numpy.testing.assert_allclose(_host(ga), gy @ b64.transpose(0, 2, 1),
                                  **tol)
    numpy.testing.assert_allclose(_host(gb), a64.transpose(0, 2, 1) @ gy,
                                  **tol)


@pair_param
def test_simplified_dropconnect(device, x_dtype, w_dtype):
    x, W, b = _data(x_dtype, w_dtype, (3, 4), (2, 4), (2,))
    mask = (numpy.random.RandomState(1).rand(3, 2, 4) > 0.5).astype(
        numpy.float32)
    y, gy, (gx, gW, gb) = _run(
        device, lambda x, W, b: F.simplified_dropconnect(
            x, W, b, ratio=0.5, mask=device.send(mask)), (x, W, b))
    assert y.dtype == x_dtype
    x64, W64, b64 = (a.astype(numpy.float64) for a in (x, W, b))
    w = W64 * mask * 2.0
    tol = _tol(x_dtype, w_dtype)
    numpy.testing.assert_allclose(
        _host(y), numpy.einsum('nmk,nk->nm', w, x64) + b64, **tol)
    numpy.testing.assert_allclose(
        _host(gx), numpy.einsum('nm,nmk->nk', gy, w), **tol)
    numpy.testing.assert_allclose(
        _host(gW), numpy.einsum('nm,nk,nmk->mk', gy, x64, mask * 2.0), **tol)


@pair_param
def test_batch_normalization(device, x_dtype, w_dtype):
    x, gamma, beta = _data(x_dtype, w_dtype, (5, 3, 2), (3,), (3,))
    y, gy, (gx, ggamma, gbeta) = _run(
        device, lambda x, g, b: F.batch_normalization(x, g, b, eps=1e-5),
        (x, gamma, beta))
    assert y.dtype == x_dtype
    x64, g64, b64 = (a.astype(numpy.float64) for a in (x, gamma, beta))
    axes = (0, 2)
    mean = x64.mean(axis=axes, keepdims=True)
    inv_std = 1 / numpy.sqrt(x64.var(axis=axes, keepdims=True) + 1e-5)
    xhat = (x64 - mean) * inv_std
    tol = _tol(x_dtype, w_dtype)
    numpy.testing.assert_allclose(
        _host(y), g64.reshape(1, 3, 1) * xhat + b64.reshape(1, 3, 1), **tol)
    numpy.testing.assert_allclose(_host(ggamma), (gy * xhat).sum(axis=axes),
                                  **tol)
    numpy.testing.assert_allclose(_host(gbeta), gy.sum(axis=axes), **tol)
    m = 10
    expected_gx = g64.reshape(1, 3, 1) * inv_std * (
        gy - gy.mean(axis=axes, keepdims=True)
        - xhat * (gy * xhat).sum(axis=axes, keepdims=True) / m)
    numpy.testing.assert_allclose(_host(gx), expected_gx, **tol)


@pair_param
def test_fixed_batch_normalization(device, x_dtype, w_dtype):
    rng = numpy.random.RandomState(2)
    x = rng.uniform(-1, 1, (4, 3)).astype(x_dtype)
    gamma, beta, mean = (rng.uniform(-1, 1, 3).astype(w_dtype)
                         for _ in range(3))
    var = rng.uniform(0.5, 1.5, 3).astype(w_dtype)
    y, gy, grads = _run(
        device, lambda *a: F.fixed_batch_normalization(*a, eps=1e-5),
        (x, gamma, beta, mean, var))
    assert y.dtype == x_dtype
    x64, g64, b64, m64, v64 = (a.astype(numpy.float64)
                               for a in (x, gamma, beta, mean, var))
    s = 1 / numpy.sqrt(v64 + 1e-5)
    tol = _tol(x_dtype, w_dtype)
    numpy.testing.assert_allclose(_host(y), g64 * (x64 - m64) * s + b64,
                                  **tol)
    numpy.testing.assert_allclose(_host(grads[0]), gy * g64 * s, **tol)
    numpy.testing.assert_allclose(
        _host(grads[1]), (gy * (x64 - m64) * s).sum(axis=0), **tol)
    numpy.testing.assert_allclose(_host(grads[3]), -(gy.sum(axis=0)) * g64 * s,
                                  **tol)


@pair_param
@pytest.mark.parametrize('op', ['linear', 'convolution_2d',
                                'deconvolution_2d', 'batch_normalization'])
def test_double_backprop_dtypes(device, x_dtype, w_dtype, op):
    shapes = {
        'linear': ((3, 4), (2, 4), (2,)),
        'convolution_2d': ((2, 3, 4, 4), (2, 3, 3, 3), (2,)),
        'deconvolution_2d': ((2, 3, 3, 3), (3, 2, 3, 3), (2,)),
        'batch_normalization': ((4, 3), (3,), (3,)),
    }[op]
    arrays = _data(x_dtype, w_dtype, *shapes)
    xs = [chainer.Variable(device.send(a)) for a in arrays]
    y = getattr(F, op)(*xs)
    gxs = chainer.grad([F.sum(y * y)], xs, enable_double_backprop=True)
    for g in gxs:
        ggs = chainer.grad([F.sum(g * g)], xs)
        for x, gg in zip(xs, ggs):
            if gg is not None:
                assert gg.dtype == x.dtype, (op, gg.dtype, x.dtype)


# -- a Variable with an array (or scalar) of another dtype

OPERATORS = [
    ('add', lambda v, a: v + a, lambda x, a: x + a, lambda x, a: 1.0),
    ('radd', lambda v, a: a + v, lambda x, a: a + x, lambda x, a: 1.0),
    ('sub', lambda v, a: v - a, lambda x, a: x - a, lambda x, a: 1.0),
    ('rsub', lambda v, a: a - v, lambda x, a: a - x, lambda x, a: -1.0),
    ('mul', lambda v, a: v * a, lambda x, a: x * a, lambda x, a: a),
    ('rmul', lambda v, a: a * v, lambda x, a: a * x, lambda x, a: a),
    ('div', lambda v, a: v / a, lambda x, a: x / a, lambda x, a: 1 / a),
    ('rdiv', lambda v, a: a / v, lambda x, a: a / x,
     lambda x, a: -a / x ** 2),
    ('pow', lambda v, a: v ** a, lambda x, a: x ** a,
     lambda x, a: a * x ** (a - 1)),
    ('rpow', lambda v, a: a ** v, lambda x, a: a ** x,
     lambda x, a: a ** x * numpy.log(a)),
]


@pytest.mark.parametrize('op,fn,ref,dref', OPERATORS,
                         ids=[o[0] for o in OPERATORS])
@pytest.mark.parametrize('other', ['float64', 'float16', 'int32', 'scalar'])
def test_operator_casts_to_the_variable(device, op, fn, ref, dref, other):
    x = numpy.array([0.5, 1.5, 2.0], numpy.float32)
    if other == 'scalar':
        a = numpy.float64(1.25)
    else:
        a = numpy.array([2, 3, 1], other)
        if a.dtype.kind == 'f':
            a = a * numpy.array(0.75, other)
    v = chainer.Variable(device.send(x))
    operand = a if other == 'scalar' else device.send(a)
    y = fn(v, operand)
    assert y.dtype == numpy.float32
    # The array is converted to float32 first, as Chainer converts it.
    a32 = numpy.asarray(a).astype(numpy.float32).astype(numpy.float64)
    x64 = x.astype(numpy.float64)
    numpy.testing.assert_allclose(_host(y), ref(x64, a32), rtol=1e-6)
    gx, = chainer.grad([y], [v], [chainer.Variable(
        device.send(numpy.ones(3, numpy.float32)))])
    assert gx.dtype == numpy.float32
    numpy.testing.assert_allclose(
        _host(gx), numpy.broadcast_to(dref(x64, a32), (3,)), rtol=1e-5)


def test_n_ary_add(device):
    rng = numpy.random.RandomState(3)
    arrays = [rng.rand(2, 3), rng.rand(1, 3), rng.rand(2, 1), rng.rand(3)]
    xs = [chainer.Variable(device.send(a)) for a in arrays]
    y = F.add(*xs)
    numpy.testing.assert_allclose(_host(y), sum(arrays), rtol=1e-12)
    gy = rng.rand(2, 3)
    gxs = chainer.grad([y], xs, [chainer.Variable(device.send(gy))])
    for a, g in zip(arrays, gxs):
        axes = tuple(i for i in range(2) if i >= 2 - a.ndim and
                     a.shape[i - (2 - a.ndim)] == 1) + \
            tuple(range(2 - a.ndim))
        expected = gy.sum(axis=axes, keepdims=True).reshape(a.shape)
        numpy.testing.assert_allclose(_host(g), expected, rtol=1e-12)


def test_floordiv(device):
    x = numpy.array([-2.5, 1.0, 7.0], numpy.float32)
    v = chainer.Variable(device.send(x))
    y = v // 2
    numpy.testing.assert_array_equal(_host(y), [-2, 0, 3])
    assert y.dtype == numpy.float32 and y.creator is None
    numpy.testing.assert_array_equal(
        _host(7.0 // chainer.Variable(device.send(x[1:]))), [7, 1])
    numpy.testing.assert_array_equal(
        _host(v // device.send(numpy.array([2.0, 2.0, 2.0]))), [-2, 0, 3])
