"""gumbel_softmax: a distribution along axis; at a low temperature the
argmax follows softmax(log_pi) (the Gumbel-max trick); the noise comes
from numpy.random."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core.functions.noise.gumbel_softmax import perturbed_softmax

from .. import DTYPES, assert_close, grads
from . import assert_fraction

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestGumbelSoftmax:

    def test_outputs_are_distributions(self, dtype):
        numpy.random.seed(0)
        log_pi = numpy.random.uniform(-1, 1, (4, 3, 2)).astype(dtype)
        y = F.gumbel_softmax(log_pi)
        assert y.shape == (4, 3, 2) and y.dtype == dtype
        assert (y.array >= 0).all()
        assert_close(y.array.astype('f8').sum(axis=1), numpy.ones((4, 2)),
                     dtype)
        y0 = F.gumbel_softmax(log_pi, axis=0)
        assert_close(y0.array.astype('f8').sum(axis=0), numpy.ones((3, 2)),
                     dtype)

    def test_argmax_follows_the_probabilities(self, dtype):
        numpy.random.seed(1)
        p = numpy.array([0.2, 0.5, 0.3])
        n = 20000
        log_pi = numpy.tile(numpy.log(p), (n, 1)).astype(dtype)
        y = F.gumbel_softmax(log_pi, tau=0.1)
        counts = numpy.bincount(y.array.argmax(axis=1), minlength=3)
        for k in range(3):
            assert_fraction(int(counts[k]), n, p[k])

    def test_noise_from_numpy_random(self, dtype):
        log_pi = numpy.random.RandomState(0).uniform(-1, 1, (2, 3)).astype(
            dtype)
        numpy.random.seed(5)
        y = F.gumbel_softmax(log_pi, tau=0.5)
        numpy.random.seed(5)
        g = numpy.random.gumbel(size=(2, 3)).astype(dtype)
        z = (log_pi.astype('f8') + g.astype('f8')) / 0.5
        e = numpy.exp(z - z.max(axis=1, keepdims=True))
        assert_close(y, e / e.sum(axis=1, keepdims=True), dtype)

    def test_high_temperature_is_nearly_uniform(self, dtype):
        numpy.random.seed(2)
        y = F.gumbel_softmax(numpy.zeros((5, 4), dtype), tau=1e3)
        numpy.testing.assert_allclose(y.array.astype('f8'), 0.25,
                                      atol=0.01)

    def test_zero_dim_gives_one(self, dtype):
        y = F.gumbel_softmax(numpy.array(0.3, dtype))
        assert y.shape == () and y.dtype == dtype
        assert y.array == 1

    def test_gradient_for_the_drawn_noise(self, dtype):
        log_pi = chainer.Variable(numpy.random.RandomState(0).uniform(
            -1, 1, (2, 3)).astype(dtype))
        numpy.random.seed(7)
        y = F.gumbel_softmax(log_pi, tau=2.0)
        gy = numpy.random.RandomState(1).uniform(-1, 1, (2, 3)).astype(dtype)
        gx, = grads(y, (log_pi,), gy)
        y64, gy64 = y.array.astype('f8'), gy.astype('f8')
        expected = y64 * (gy64 - (gy64 * y64).sum(axis=1, keepdims=True)) \
            / 2.0
        assert_close(gx, expected, dtype)

    def test_perturbed_softmax_is_the_deterministic_part(self, dtype):
        x = numpy.random.RandomState(0).uniform(-1, 1, (2, 3)).astype(dtype)
        numpy.random.seed(9)
        y = F.gumbel_softmax(x, tau=0.3)
        numpy.random.seed(9)
        g = numpy.random.gumbel(size=(2, 3)).astype(dtype)
        numpy.testing.assert_array_equal(
            y.array, perturbed_softmax(x, g, 0.3, 1).array)
