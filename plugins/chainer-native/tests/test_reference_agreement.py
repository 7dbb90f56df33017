"""native:0 gives the @numpy device's answer, or raises as it does, where
it once differed: a strided bias of a convolution, the gradients of a
cover_all convolution whose kernel overhangs the padded input (first and
second order), and softmax cross entropy over no classes."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_native as cn

NATIVE = chainer.get_device('native:0')
NUMPY = chainer.get_device('@numpy')


def _host(a):
    return numpy.asarray(NUMPY.send(a))


def _close(actual, expected):
    assert actual.shape == expected.shape
    numpy.testing.assert_allclose(actual, expected, rtol=1e-12, atol=1e-12)


def _uniform(seed, shape):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape)


def _forward_backward(device, f, arrays, views=None, double=False):
    """The output and the inputs' gradients of ``f`` on ``device``, each
    input an array of the device (``views[i]`` of it, where given); with
    ``double``, the inputs' gradients of the sum of the first-order
    gradients weighted by random arrays."""
    views = views or [()] * len(arrays)
    xs = [chainer.Variable(device.send(a)[v])
          for a, v in zip(arrays, views)]
    y = f(*xs)
    gy = chainer.Variable(device.send(_uniform(1, y.shape)))
    grads = chainer.grad([y], xs, grad_outputs=[gy],
                         enable_double_backprop=double)
    results = [_host(y.array)] + [_host(g.array) for g in grads]
    if double:
        loss = sum(F.sum(g * device.send(_uniform(2 + i, g.shape)))
                   for i, g in enumerate(grads))
        loss.backward()
        results += [_host(x.grad) for x in xs + [gy]]
    return results


def _assert_agree(f, arrays, views=None, double=False):
    expected = _forward_backward(NUMPY, f, arrays, views, double)
    actual = _forward_backward(NATIVE, f, arrays, views, double)
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        _close(a, e)


# -- a bias that is a strided view -----------------------------------------

# Each takes half of a bias twice as long.
BIAS_VIEWS = [
    pytest.param(numpy.s_[::2], id='every-other'),
    pytest.param(numpy.s_[1::2], id='offset-every-other'),
    pytest.param(numpy.s_[::-2], id='reversed'),
]


@pytest.mark.parametrize('view', BIAS_VIEWS)
@pytest.mark.parametrize('f, shapes, bias', [
    pytest.param(F.convolution_2d, [(2, 3, 4, 5), (4, 3, 2, 2)], 4, id='2d'),
    pytest.param(lambda x, W, b: F.convolution_2d(x, W, b, stride=2,
                                                  pad=1, groups=2),
                 [(1, 4, 5, 3), (6, 2, 3, 1)], 6, id='2d-groups'),
    pytest.param(F.convolution_nd, [(2, 2, 3, 3, 2), (3, 2, 2, 1, 2)], 3,
                 id='3d'),
    pytest.param(F.deconvolution_2d, [(2, 3, 3, 2), (3, 4, 2, 2)], 4,
                 id='deconv-2d'),
])
def test_convolution_bias_view(f, shapes, bias, view):
    arrays = [_uniform(i, s) for i, s in enumerate(shapes)]
    arrays.append(_uniform(len(shapes), (2 * bias,)))
    _assert_agree(f, arrays, [(), (), view])


@pytest.mark.parametrize('view', BIAS_VIEWS)
def test_conv_routine_bias_view(view):
    x, w = cn.asarray(_uniform(0, (1, 2, 3, 3))), cn.asarray(
        _uniform(1, (4, 2, 2, 2)))
    b = numpy.arange(8.)[view]
    y = cn.conv(x, w, cn.asarray(numpy.arange(8.))[view])
    expected = cn.conv(x, w, cn.asarray(b.copy()))
    _close(numpy.asarray(y), numpy.asarray(expected))


# -- cover_all with a kernel longer than the padded input ------------------

OVERHANG = [
    pytest.param((1, 1, 1, 1), (1, 1, 1, 2), {'stride': 2}, id='1x1-by-1x2'),
    pytest.param((2, 2, 3, 2), (3, 2, 2, 3), {'stride': (2, 3), 'pad': (0, 0)},
                 id='wide-kernel'),
    pytest.param((1, 2, 2, 3), (2, 1, 2, 2),
                 {'stride': 3, 'dilate': 2, 'pad': (1, 0), 'groups': 2},
                 id='dilated-groups'),
]


@pytest.mark.parametrize('with_bias', [False, True])
@pytest.mark.parametrize('x_shape, w_shape, params', OVERHANG)
def test_convolution_cover_all_overhang(x_shape, w_shape, params,
                                        with_bias):
    def f(x, W, b=None):
        return F.convolution_2d(x, W, b, cover_all=True, **params)
    arrays = [_uniform(0, x_shape), _uniform(1, w_shape)]
    if with_bias:
        arrays.append(_uniform(2, w_shape[:1]))
    _assert_agree(f, arrays)


@pytest.mark.parametrize('x_shape, w_shape, params', OVERHANG)
def test_convolution_cover_all_overhang_double_backward(x_shape, w_shape,
                                                        params):
    def f(x, W):
        return F.convolution_2d(x, W, cover_all=True, **params)
    _assert_agree(f, [_uniform(0, x_shape), _uniform(1, w_shape)],
                  double=True)


def test_convolution_nd_cover_all_overhang_double_backward():
    def f(x, W):
        return F.convolution_nd(x, W, stride=(2, 1, 3), cover_all=True)
    _assert_agree(f, [_uniform(0, (1, 2, 1, 2, 2)),
                      _uniform(1, (2, 2, 2, 2, 3))], double=True)


@pytest.mark.parametrize('stride, outsize', [(2, 4), (3, 4), (3, 5)])
def test_conv_transpose_routine_short_outsize_backward(stride, outsize):
    """An outsize below the smallest the kernel covers is the input size of
    a cover_all convolution: the gradient of x comes back in x's shape."""
    x = _uniform(0, (1, 2, 2, 2))
    w = _uniform(1, (2, 1, 3, 3))
    gy = _uniform(2, (1, 1, outsize, outsize))
    xv = cn.array(x).require_grad()
    y = cn.conv_transpose(xv, cn.asarray(w), stride=stride,
                          outsize=(outsize, outsize))
    y.grad = cn.asarray(gy)
    y.backward()
    expected = F.deconvolution_2d(x, w, stride=stride,
                                  outsize=(outsize, outsize))
    _close(numpy.asarray(y), expected.array)
    xr = chainer.Variable(x)
    yr = F.deconvolution_2d(xr, w, stride=stride, outsize=(outsize, outsize))
    yr.grad = gy
    yr.backward()
    _close(numpy.asarray(xv.grad), xr.grad)


# -- softmax cross entropy over no classes ---------------------------------

@pytest.mark.parametrize('reduce', ['mean', 'no'])
@pytest.mark.parametrize('x_shape', [(1, 0), (0, 0), (2, 0, 3)])
def test_softmax_cross_entropy_no_class(x_shape, reduce):
    x = numpy.zeros(x_shape)
    t = numpy.full(x_shape[:1] + x_shape[2:], -1, numpy.int32)
    for device in (NUMPY, NATIVE):
        with pytest.raises(ValueError):
            F.softmax_cross_entropy(chainer.Variable(device.send(x)),
                                    device.send(t), reduce=reduce)
    with pytest.raises(ValueError, match='no classes'):
        cn.softmax_cross_entropy(cn.asarray(x), cn.asarray(t), reduce=reduce)
