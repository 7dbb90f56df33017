"""NaN and inf give the reference's answer under 'auto' and 'always':
the kernels whose oneDNN primitive drops or saturates them (relu, max
pooling, softmax, the gradients of relu, leaky_relu and elu, padded
convolutions) run the reference instead, and finite input still runs
oneDNN."""
import warnings

import numpy
import pytest

import chainer_core
import chainer_core.functions as F

import chainer_mkldnn

nan, inf = numpy.nan, numpy.inf


def _calls():
    info = chainer_mkldnn.cache_info()
    return info['hits'] + info['misses']


def _pool_input():
    # A window holding a NaN, and a window of -inf alone.
    x = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
    x[0, 0, 0, 1] = nan
    x[0, 0, 2:, 2:] = -inf
    return x


def _conv_inputs():
    rng = numpy.random.RandomState(0)
    # Positive x: without the padding, the border outputs are +inf.
    x = rng.uniform(0.1, 1, (2, 3, 5, 5)).astype(numpy.float32)
    W = rng.uniform(-1, 1, (2, 3, 3, 3)).astype(numpy.float32)
    W[1] = inf
    return x, W


# (op, inputs, the function whose output and input gradients are compared)
CASES = [
    ('relu', [numpy.array([[nan, -1, 2, inf, -inf]], numpy.float32)],
     F.relu),
    ('leaky_relu', [numpy.array([[nan, -1, 2, -inf]], numpy.float32)],
     F.leaky_relu),
    ('elu', [numpy.array([[nan, -1, 2, -inf]], numpy.float32)], F.elu),
    ('max_pooling_2d', [_pool_input()], lambda x: F.max_pooling_2d(x, 2)),
    ('softmax-nan', [numpy.array([[nan, 0, 1], [0, 1, 2]], numpy.float32)],
     F.softmax),
    ('softmax-inf', [numpy.array([[inf, 0, 1], [0, 1, 2]], numpy.float32)],
     F.softmax),
    ('log_softmax-nan',
     [numpy.array([[nan, 0, 1], [0, 1, 2]], numpy.float32)], F.log_softmax),
    # The reference multiplies the zero padding by the filter: 0 * inf.
    ('convolution_2d-pad', list(_conv_inputs()),
     lambda x, W: F.convolution_2d(x, W, pad=1)),
]


def _run(func, arrays, device):
    xs = [chainer_core.Variable(device.send(a)) for a in arrays]
    with warnings.catch_warnings(), numpy.errstate(all='ignore'):
        warnings.simplefilter('ignore')
        y = func(*xs)
        y.grad = device.send(
            numpy.random.RandomState(1).uniform(-1, 1, y.shape).astype(
                numpy.float32))
        y.backward()
    return [numpy.asarray(y.array)] + [numpy.asarray(x.grad) for x in xs]


@pytest.mark.parametrize('mode', ['auto', 'always'])
@pytest.mark.parametrize('func, arrays', [(c[2], c[1]) for c in CASES],
                         ids=[c[0] for c in CASES])
def test_reference_answer(func, arrays, mode, device):
    expected = _run(func, arrays, chainer_core.get_device('@numpy'))
    with chainer_core.using_config('use_ideep', mode):
        actual = _run(func, arrays, device)
    assert any(numpy.isnan(e).any() for e in expected)
    for a, e in zip(actual, expected):
        numpy.testing.assert_allclose(a, e, rtol=1e-5, atol=1e-6,
                                      equal_nan=True)


@pytest.mark.parametrize('mode', ['auto', 'always'])
def test_convolution_filter_gradient(mode, device):
    """The reference multiplies the zero padding of x by gy: a NaN of gy
    at the border reaches every tap of the filter gradient."""
    from chainer_core._runtime import kernels
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (2, 3, 5, 5)).astype(numpy.float32)
    gy = rng.uniform(-1, 1, (2, 4, 5, 5)).astype(numpy.float32)
    gy[0, 1, 0, 0] = nan
    args = (x, gy, (3, 3), (1, 1), (1, 1), (1, 1), 1)
    name = 'convolution_2d_grad_w'
    expected = kernels.get_spec(name).reference(numpy, *args)
    assert numpy.isnan(expected[1]).all()
    with chainer_core.using_config('use_ideep', mode):
        actual = kernels.lookup(name, device.send(x))(
            *[device.send(a) for a in args[:2]], *args[2:])
    numpy.testing.assert_allclose(numpy.asarray(actual), expected,
                                  rtol=1e-5, atol=1e-6, equal_nan=True)


def test_max_pooling_answers(device):
    """The answers themselves, as Chainer gives them: NaN wins its window,
    an all -inf window is -inf (oneDNN: the other value, and -3.4e38)."""
    with chainer_core.using_config('use_ideep', 'always'):
        y = F.max_pooling_2d(device.send(_pool_input()), 2).array
    numpy.testing.assert_array_equal(
        numpy.asarray(y), [[[[nan, 7], [13, -inf]]]])


@pytest.mark.parametrize('func, shapes', [
    (F.relu, [(3, 4)]),
    (lambda x: F.max_pooling_2d(x, 2), [(2, 3, 4, 4)]),
    (F.softmax, [(3, 4)]),
    (lambda x, W: F.convolution_2d(x, W, pad=1), [(2, 3, 5, 5), (2, 3, 3, 3)]),
], ids=['relu', 'max_pooling_2d', 'softmax', 'convolution_2d'])
def test_finite_input_runs_onednn(func, shapes, device):
    rng = numpy.random.RandomState(0)
    xs = [device.send(rng.randn(*s).astype(numpy.float32)) for s in shapes]
    before = _calls()
    with chainer_core.using_config('use_ideep', 'auto'):
        func(*xs)
    assert _calls() > before
