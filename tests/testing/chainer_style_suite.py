"""A test file written the way a Chainer v7 user writes one, with
``chainer.testing``; ``test_chainer_style_suite.py`` runs it with pytest.
It is not named ``test_*.py`` so that the suite of this project does not
collect it on its own."""
import random
import unittest

import numpy

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import testing
from chainer_core.testing import attr
from chainer_core.testing import condition

_BACKENDS = [
    {},
    {'use_ideep': 'always'},
    {'use_chainerx': True, 'chainerx_device': 'native:0'},
]


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'dtype': [numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, _BACKENDS)
@testing.fix_random()
class TestTanh(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float32:
            self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_double_backward_options = {'atol': 1e-3,
                                                  'rtol': 1e-3}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        return x,

    def forward(self, inputs, device):
        x, = inputs
        return F.tanh(x),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.tanh(x).astype(self.dtype),


@testing.inject_backend_tests(None, _BACKENDS)
class TestLinear(testing.LinkTestCase):

    param_names = ('W', 'b')
    check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_params(self):
        initial_w = numpy.random.uniform(-1, 1, (3, 2)).astype(numpy.float32)
        initial_bias = numpy.random.uniform(-1, 1, (3,)).astype(
            numpy.float32)
        return initial_w, initial_bias

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (4, 2)).astype(numpy.float32)
        return x,

    def create_link(self, initializers):
        initial_w, initial_bias = initializers
        return L.Linear(2, 3, initialW=initial_w, initial_bias=initial_bias)

    def forward(self, link, inputs, device):
        x, = inputs
        return link(x),

    def forward_expected(self, link, inputs):
        x, = inputs
        return (x.dot(link.W.array.T) + link.b.array).astype(numpy.float32),


@testing.inject_backend_tests(['test_sum_on_device'], _BACKENDS)
class TestBackendConfig(unittest.TestCase):

    def test_sum_on_device(self, backend_config):
        x = backend_config.get_array(numpy.arange(6, dtype=numpy.float32))
        assert isinstance(x, backend_config.xp.ndarray)
        with backend_config:
            assert chainer.get_device() == backend_config.device
            y = F.sum(chainer.Variable(x))
        testing.assert_allclose(y.array, 15.)


@testing.fix_random()
class TestFixedRandom(unittest.TestCase):

    def setUp(self):
        self.first = numpy.random.rand(), random.random()

    def test_same_numbers_in_each_test(self):
        assert self.first == (numpy.random.RandomState(100).rand(),
                              _python_random_first(100))

    def test_seed_for_own_generator(self):
        seed = testing.generate_seed()
        assert 0 <= seed < 2 ** 32


def _python_random_first(seed):
    return random.Random(seed).random()


class TestMarksAndConditions(unittest.TestCase):

    @attr.slow
    def test_slow(self):
        pass

    @attr.gpu
    def test_gpu(self):
        assert chainer.get_device('@cupy:0') is not None

    @testing.with_requires('numpy>=1.0')
    def test_with_numpy(self):
        pass

    @testing.without_requires('numpy')
    def test_without_numpy(self):
        pass

    @condition.retry(3)
    def test_retried(self):
        assert numpy.random.rand() >= 0


testing.run_module(__name__, __file__)
