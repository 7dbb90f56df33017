"""Gradients through the public functions on @intel64 with oneDNN
(use_ideep='always'): numerical checks, and a training run that matches
the same run on @numpy."""
import numpy
import pytest

import chainer_core
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import gradient_check

# float32 numerical derivatives (the kernels take float32 only), so the
# tolerance of the conformance suite's float32 checks.
TOL = dict(atol=1e-3, rtol=1e-3)


def _signed(rng, shape):
    return (rng.choice((-1, 1), shape) * rng.uniform(0.2, 1, shape)).astype(
        numpy.float32)


def _intel64(a):
    return chainer_core.get_device('@intel64').send(a)


CASES = [
    ('convolution_2d', lambda x, W, b: F.convolution_2d(
        x, W, b, stride=2, pad=1, cover_all=True),
     [(2, 4, 7, 6), (6, 4, 3, 3), (6,)]),
    ('convolution_2d-groups-dilate', lambda x, W: F.convolution_2d(
        x, W, pad=2, dilate=2, groups=2), [(2, 4, 7, 6), (6, 2, 3, 3)]),
    ('deconvolution_2d', lambda x, W, b: F.deconvolution_2d(
        x, W, b, stride=2, pad=1), [(2, 3, 4, 3), (3, 2, 3, 3), (2,)]),
    ('convolution_nd-3d', lambda x, W: F.convolution_nd(x, W, pad=1),
     [(1, 2, 4, 3, 3), (3, 2, 2, 2, 2)]),
    ('linear', lambda x, W, b: F.linear(x, W, b), [(4, 5), (3, 5), (3,)]),
    ('matmul', lambda a, b: F.matmul(a, b, transb=True), [(4, 5), (3, 5)]),
    ('max_pooling_2d', lambda x: F.max_pooling_2d(x, 3, stride=2, pad=1),
     [(2, 3, 7, 6)]),
    ('average_pooling_2d', lambda x: F.average_pooling_2d(x, 3, 2, 1),
     [(2, 3, 7, 6)]),
    ('batch_normalization', lambda x, g, b: F.batch_normalization(x, g, b),
     [(5, 3, 2, 2), (3,), (3,)]),
    ('fixed_batch_normalization', lambda x, g, b: F.fixed_batch_normalization(
        x, g, b, _intel64(numpy.full(3, 0.1, numpy.float32)),
        _intel64(numpy.full(3, 0.8, numpy.float32))),
     [(5, 3, 2, 2), (3,), (3,)]),
    ('local_response_normalization',
     lambda x: F.local_response_normalization(x, 3, 1.0, 0.5, 0.75),
     [(2, 5, 2, 2)]),
    ('local_response_normalization-defaults',
     F.local_response_normalization, [(2, 16, 3, 3)]),
    ('relu', F.relu, [(3, 4)]),
    ('leaky_relu', lambda x: F.leaky_relu(x, 0.3), [(3, 4)]),
    ('elu', F.elu, [(3, 4)]),
    ('tanh', F.tanh, [(3, 4)]),
    ('sigmoid', F.sigmoid, [(3, 4)]),
    ('softmax', F.softmax, [(3, 4)]),
    ('concat', lambda a, b: F.concat((a, b), axis=1), [(2, 3), (2, 2)]),
    ('add', lambda a, b: a + b, [(2, 3), (2, 3)]),
]


@pytest.mark.parametrize('fn, shapes', [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_check_backward(fn, shapes, device, rng):
    inputs = [device.send(_signed(rng, s)) for s in shapes]
    out = fn(*[chainer_core.Variable(x) for x in inputs])
    gy = device.send(rng.uniform(-1, 1, out.shape).astype(numpy.float32))

    def f(*xs):
        return fn(*[device.send(x) if isinstance(x, numpy.ndarray) else x
                    for x in xs])

    with chainer_core.using_config('use_ideep', 'always'):
        gradient_check.check_backward(f, inputs, gy, **TOL)


class ConvNet(chainer_core.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.c1 = L.Convolution2D(3, 8, 3, pad=1)
            self.bn = L.BatchNormalization(8)
            self.c2 = L.Convolution2D(8, 8, 3, pad=1)
            self.fc = L.Linear(8 * 2 * 2, 4)

    def forward(self, x):
        h = F.max_pooling_2d(F.relu(self.bn(self.c1(x))), 2)
        h = F.average_pooling_2d(F.tanh(self.c2(h)), 2)
        return self.fc(h)


def _train(device, mode, steps=3):
    rng = numpy.random.RandomState(1)
    numpy.random.seed(0)
    model = ConvNet()
    model.to_device(device)
    opt = chainer_core.optimizers.MomentumSGD(0.05).setup(model)
    x = device.send(rng.randn(6, 3, 8, 8).astype(numpy.float32))
    t = device.send(rng.randint(0, 4, 6).astype(numpy.int32))
    losses = []
    with chainer_core.using_config('use_ideep', mode):
        for _ in range(steps):
            loss = F.softmax_cross_entropy(model(x), t)
            model.cleargrads()
            loss.backward()
            opt.update()
            losses.append(float(loss.array))
    return losses, {name: numpy.asarray(p.array)
                    for name, p in model.namedparams()}


def test_training_matches_numpy(device):
    ref_losses, ref_params = _train(chainer_core.get_device('@numpy'),
                                    'never')
    losses, params = _train(device, 'always')
    numpy.testing.assert_allclose(losses, ref_losses, rtol=1e-4, atol=1e-5)
    for name in ref_params:
        numpy.testing.assert_allclose(params[name], ref_params[name],
                                      rtol=1e-3, atol=1e-4, err_msg=name)
