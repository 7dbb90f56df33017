"""FunctionTestCase and LinkTestCase catch wrong forwards, gradients and
second-order gradients, and pass correct ones."""
import unittest

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import testing


class _Square(chainer.FunctionNode):
    """x ** 2 with a chosen backward: 'right', 'wrong' (3x instead of 2x)
    or 'flat' (right first order, but its own gradient is lost)."""

    def __init__(self, backward='right'):
        self.kind = backward

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return x * x,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        if self.kind == 'wrong':
            return 3 * x * gy,
        if self.kind == 'flat':
            return chainer.Variable(2 * x.array) * gy,
        return 2 * x * gy,


def _square_case(backward='right', **attributes):
    class Case(testing.FunctionTestCase):
        dtype = numpy.float64

        def generate_inputs(self):
            return numpy.random.uniform(0.5, 1, (3, 2)).astype(self.dtype),

        def forward(self, inputs, device):
            return _Square(backward).apply(inputs)

        def forward_expected(self, inputs):
            x, = inputs
            return (x * x).astype(self.dtype),

    for name, value in attributes.items():
        setattr(Case, name, value)
    return Case


def _run(case, method):
    result = unittest.TestResult()
    case(method).run(result)
    problems = result.failures + result.errors
    return result, '\n'.join(text for _, text in problems)


def _passes(case, method):
    result, text = _run(case, method)
    assert result.wasSuccessful() and not result.skipped, text


def _fails(case, method, pattern):
    result, text = _run(case, method)
    assert not result.wasSuccessful(), method + ' passed'
    assert result.failures, text  # a failure, not an error
    assert 'FunctionTestError' in text or 'LinkTestError' in text, text
    assert pattern in text, text


def test_a_correct_function_passes():
    case = _square_case()
    for method in ('test_forward', 'test_backward', 'test_double_backward'):
        _passes(case, method)


def test_wrong_gradient_fails_backward():
    case = _square_case('wrong')
    _passes(case, 'test_forward')
    _fails(case, 'test_backward', 'backward check failed')


def test_lost_second_order_gradient_fails_double_backward():
    case = _square_case('flat')
    _passes(case, 'test_backward')
    _fails(case, 'test_double_backward', 'double backward check failed')


def test_wrong_forward_fails():
    def expected(self, inputs):
        x, = inputs
        return (x * x + 1e-3).astype(self.dtype),

    _fails(_square_case(forward_expected=expected), 'test_forward',
           'output 0 differs')

    def wrong_dtype(self, inputs):
        return (inputs[0] ** 2).astype(numpy.float32),

    _fails(_square_case(forward_expected=wrong_dtype), 'test_forward',
           'dtype float32 expected, got float64')

    def wrong_shape(self, inputs):
        return (inputs[0] ** 2).T.copy(),

    _fails(_square_case(forward_expected=wrong_shape), 'test_forward',
           'shape (2, 3) expected, got (3, 2)')

    def two(self, inputs):
        return inputs[0] ** 2, inputs[0]

    _fails(_square_case(forward_expected=two), 'test_forward',
           'forward gave 1 outputs but forward_expected 2')


def test_forward_must_not_modify_its_inputs():
    def forward(self, inputs, device):
        x, = inputs
        x.array[...] = 0
        return x + 0,

    def expected(self, inputs):
        return numpy.zeros_like(inputs[0]),

    _fails(_square_case(forward=forward, forward_expected=expected),
           'test_forward', 'forward modified input 0')


def test_forward_must_return_variables():
    def forward(self, inputs, device):
        return inputs[0].array ** 2,

    _fails(_square_case(forward=forward), 'test_forward',
           'forward must return Variables')

    def not_a_tuple(self, inputs, device):
        return F.square(inputs[0])

    _fails(_square_case(forward=not_a_tuple), 'test_forward',
           'tuple of Variables')


def test_inputs_are_non_contiguous_unless_asked():
    layouts = []

    def forward(self, inputs, device):
        layouts.append(inputs[0].array.flags.c_contiguous)
        return F.square(inputs[0]),

    _passes(_square_case(forward=forward), 'test_forward')
    _passes(_square_case(forward=forward, contiguous='C'), 'test_forward')
    assert layouts == [False, True]


def test_skips_and_options():
    case = _square_case(skip_forward_test=True, skip_backward_test=True,
                        skip_double_backward_test=True)
    for method in ('test_forward', 'test_backward', 'test_double_backward'):
        result, _ = _run(case, method)
        assert len(result.skipped) == 1
    # A tolerance wide enough hides a wrong gradient.
    _passes(_square_case('wrong', check_backward_options={
        'atol': 10., 'rtol': 10.}), 'test_backward')


def test_dodge_nondifferentiable():
    draws = []

    class Abs(testing.FunctionTestCase):
        dodge_nondifferentiable = True

        def generate_inputs(self):
            # The first draw sits on the kink of abs.
            x = numpy.array([0.5, 0.0] if not draws else [0.5, -0.7])
            draws.append(x)
            return x,

        def forward(self, inputs, device):
            return F.absolute(inputs[0]),

        def forward_expected(self, inputs):
            return numpy.abs(inputs[0]),

    _passes(Abs, 'test_backward')
    assert len(draws) >= 2


def test_base_class_has_no_tests():
    result, _ = _run(testing.FunctionTestCase, 'test_forward')
    assert len(result.skipped) == 1


def _linear_case(**attributes):
    class Case(testing.LinkTestCase):
        param_names = ('W', 'b')
        check_backward_options = {'atol': 1e-6, 'rtol': 1e-5}

        def generate_params(self):
            return (numpy.random.randn(2, 3), numpy.random.randn(2))

        def create_link(self, initializers):
            W, b = initializers
            return L.Linear(3, 2, initialW=W, initial_bias=b).to_device(
                '@numpy')

        def generate_inputs(self):
            return numpy.random.randn(4, 3).astype(numpy.float32),

        def forward_expected(self, link, inputs):
            x, = inputs
            return (x.dot(link.W.array.T) + link.b.array).astype(
                numpy.float32),

    for name, value in attributes.items():
        setattr(Case, name, value)
    return Case


def test_link_case_passes_a_correct_link():
    case = _linear_case()
    _passes(case, 'test_forward')
    _passes(case, 'test_backward')


def test_link_case_catches_a_wrong_forward():
    def expected(self, link, inputs):
        x, = inputs
        return x.dot(link.W.array.T).astype(numpy.float32),

    _fails(_linear_case(forward_expected=expected), 'test_forward',
           'output 0 differs')


def test_link_case_checks_parameter_gradients():
    class Scale(chainer.Link):
        """y = a * x, whose gradient for a is wrongly doubled."""

        def __init__(self, a):
            super().__init__()
            with self.init_scope():
                self.a = chainer.Parameter(a)

        def forward(self, x):
            # Equal to a in value, with twice its gradient.
            a = 2 * self.a - self.a.array
            return x * F.broadcast_to(a, x.shape)

    class Case(testing.LinkTestCase):
        param_names = ('a',)

        def generate_params(self):
            return numpy.random.uniform(1, 2, (3,)),

        def create_link(self, initializers):
            return Scale(*initializers)

        def generate_inputs(self):
            return numpy.random.uniform(1, 2, (2, 3)),

        def forward_expected(self, link, inputs):
            return inputs[0] * link.a.array,

    _passes(Case, 'test_forward')
    _fails(Case, 'test_backward', 'backward check failed')
    # Not checking the parameter, the input gradient is right.
    Case.param_names = ()
    _passes(Case, 'test_backward')


def test_link_case_with_lazy_parameters():
    class Case(testing.LinkTestCase):
        param_names = ('W',)
        check_backward_options = {'atol': 1e-4, 'rtol': 1e-3}

        def generate_params(self):
            return ()

        def create_link(self, initializers):
            return L.Linear(None, 2, initial_bias=0.)

        def generate_inputs(self):
            return numpy.random.randn(4, 5).astype(numpy.float32),

        def forward_expected(self, link, inputs):
            assert link.W.shape == (2, 5)
            return inputs[0].dot(link.W.array.T),

    _passes(Case, 'test_forward')
    _passes(Case, 'test_backward')


@pytest.mark.parametrize('method', ['test_forward', 'test_backward',
                                    'test_double_backward'])
def test_in_pytest_with_backends(tmp_path, method):
    from ._util import run_pytest
    code, out = run_pytest(tmp_path, '''
        import numpy
        import chainer_core.functions as F
        from chainer_core import testing

        @testing.parameterize(*testing.product({'shape': [(2, 3), ()]}))
        @testing.inject_backend_tests(None, [{'device': '@numpy'},
                                             {'use_cuda': True}])
        class TestTanh(testing.FunctionTestCase):
            def generate_inputs(self):
                return numpy.random.uniform(-1, 1, self.shape),

            def forward(self, inputs, device):
                assert device is self.backend_config.device
                return F.tanh(inputs[0]),

            def forward_expected(self, inputs):
                return numpy.tanh(inputs[0]),
    ''', '-k', method + ' and not ' + method + '_')
    assert code == 0, out
    assert '2 passed, 2 skipped' in out, out
    assert '@cupy:0 is not available' in out
