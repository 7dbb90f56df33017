"""LinkInitializersTestCase, check_forward_outputs, unary_math_function_
unittest and distribution_unittest, run as unittest would."""
import math
import unittest

import numpy

import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import distributions
from chainer_core import initializers
from chainer_core import testing

from ._util import module_from


def _run(module, prefix):
    result = unittest.TestResult()
    for name, cls in sorted(vars(module).items()):
        if name.startswith(prefix) and isinstance(cls, type):
            unittest.defaultTestLoader.loadTestsFromTestCase(cls).run(result)
    return result


def _linear_case():
    # Made in a function: pytest would collect a module-level TestCase.
    class Linear(testing.LinkInitializersTestCase):
        param_names = ['W', 'b']

        def generate_params(self):
            return (numpy.full((3, 2), 0.5, numpy.float32),
                    numpy.zeros(3, numpy.float32))

        def generate_inputs(self):
            return numpy.ones((1, 2), numpy.float32),

        def create_link(self, initializers):
            initial_w, initial_bias = initializers
            return L.Linear(2, 3, initialW=initial_w,
                            initial_bias=initial_bias)

    return Linear


def test_link_initializers_test_case():
    class Good(_linear_case()):
        def get_initializers(self):
            return ([initializers.Constant(1), 2],
                    [initializers.Constant(2), 3,
                     testing.InitializerArgument(None, 0)])

    class Wrong(_linear_case()):
        def get_initializers(self):
            # A None bias is zero, not one.
            return [], [testing.InitializerArgument(None, 1)]

    result = unittest.TestResult()
    Good('test_initializers').run(result)
    assert result.wasSuccessful(), result.failures
    Wrong('test_initializers').run(result)
    assert len(result.failures) == 1
    assert 'parameter b initialized with' in result.failures[0][1]


def test_check_forward_outputs_and_test_name():
    class Case(testing.FunctionTestCase):
        calls = []

        def generate_inputs(self):
            return numpy.ones(2, numpy.float32),

        def forward(self, inputs, device):
            return F.identity(*inputs),

        def forward_expected(self, inputs):
            return inputs

        def check_forward_outputs(self, outputs, expected_outputs):
            self.calls.append((self.test_name, len(outputs)))
            super().check_forward_outputs(outputs, expected_outputs)
            raise testing.FunctionTestError('extra check')

    result = unittest.TestResult()
    Case('test_forward').run(result)
    assert Case.calls == [('test_forward', 1)]
    assert 'extra check' in result.failures[0][1]


def test_unary_math_function_unittest():
    module = module_from('''
        import unittest
        import numpy
        import chainer_core.functions as F
        from chainer_core import testing

        def make_data(shape, dtype):
            x = numpy.random.uniform(0.5, 2, shape).astype(dtype)
            gy = numpy.random.uniform(-1, 1, shape).astype(dtype)
            return x, gy, numpy.random.uniform(-1, 1, shape).astype(dtype)

        @testing.unary_math_function_unittest(F.sqrt, make_data=make_data)
        class TestSqrt(unittest.TestCase):
            pass

        @testing.unary_math_function_unittest(
            F.exp, func_expected=lambda x: numpy.exp(x) + 1)
        class TestWrongExp(unittest.TestCase):
            pass
    ''')
    result = _run(module, 'TestSqrt_')
    # 2 shapes x 3 dtypes x (forward, backward, double backward) on the
    # CPU and on a GPU (skipped without one).
    assert result.testsRun == 36 and result.wasSuccessful(), result.failures
    gpu = [t for t, _ in result.skipped if t.id().endswith('_gpu')]
    assert len(result.skipped) == len(gpu) in (0, 18)
    result = _run(module, 'TestWrongExp_')
    failed = sorted(t.id().rsplit('.', 1)[1] for t, _ in result.failures)
    assert failed == 6 * ['test_forward_cpu']


class _NormalReference:
    """What the tests need of scipy.stats.norm, from the math module."""

    @staticmethod
    def pdf(x, loc, scale):
        return numpy.exp(_NormalReference.logpdf(x, loc, scale))

    @staticmethod
    def logpdf(x, loc, scale):
        z = (x - loc) / scale
        return -0.5 * z ** 2 - numpy.log(scale) - 0.5 * math.log(2 * math.pi)

    @staticmethod
    def cdf(x, loc, scale):
        erf = numpy.vectorize(math.erf)
        return 0.5 * (1 + erf((x - loc) / (scale * math.sqrt(2))))

    @staticmethod
    def mean(loc, scale):
        return loc

    @staticmethod
    def std(loc, scale):
        return scale

    @staticmethod
    def var(loc, scale):
        return scale ** 2

    @staticmethod
    def entropy(loc, scale):
        return 0.5 * numpy.log(2 * math.pi * math.e * scale ** 2)

    @staticmethod
    def rvs(loc, scale, size):
        return numpy.random.normal(loc, scale, size)


def _normal_case(onebyone, wrong_mean=False):
    @testing.parameterize(*testing.product({
        'shape': [(2, 3), ()], 'sample_shape': [(4,)],
        'is_variable': [True, False]}))
    @testing.fix_random()
    class TestNormal(testing.distribution_unittest):
        scipy_onebyone = onebyone

        def setUp_configure(self):
            self.dist = distributions.Normal
            self.scipy_dist = _NormalReference
            self.test_targets = {'batch_shape', 'event_shape', 'support',
                                 'prob', 'log_prob', 'cdf', 'mean', 'stddev',
                                 'variance', 'entropy', 'sample'}
            loc = numpy.random.uniform(-1, 1, self.shape).astype(
                numpy.float32)
            scale = numpy.random.uniform(0.5, 1, self.shape).astype(
                numpy.float32)
            self.params = {'loc': loc, 'scale': scale}
            self.scipy_params = {'loc': loc + wrong_mean, 'scale': scale}

        def sample_for_test(self):
            return numpy.random.normal(
                size=self.sample_shape + self.shape).astype(numpy.float32)

    return TestNormal


def test_distribution_unittest():
    for onebyone in (False, True):
        bundle = _normal_case(onebyone)
        result = unittest.TestResult()
        for cls in bundle.classes:
            unittest.defaultTestLoader.loadTestsFromTestCase(cls).run(result)
        assert result.wasSuccessful(), result.failures
        # 15 checks on CPU and GPU for each of the 4 parameter sets; the
        # 4 checks not targeted skip, and the GPU ones without a GPU.
        assert result.testsRun == 4 * 30
        assert len(result.skipped) in (4 * 8, 4 * 19)
    bundle = _normal_case(False, wrong_mean=True)
    result = unittest.TestResult()
    for cls in bundle.classes:
        cls('test_mean_cpu').run(result)
    assert len(result.failures) == 4
