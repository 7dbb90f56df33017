"""gradient_check: numerical_grad, check_backward, check_double_backward."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import FunctionNode, Parameter, Variable, gradient_check
from chainer_core.gradient_check import NondifferentiableError


class _Cube(FunctionNode):
    """y = x^3 with a correct first and second derivative."""

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        return x * x * x,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * 3.0 * x * x,


class _CubeWrongBackward(_Cube):
    """Off by 10% in the first derivative."""

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * 3.3 * x * x,


class _CubeDetachedBackward(_Cube):
    """Right first derivative, but computed outside the graph: the second
    derivative it implies is wrong (zero with respect to x)."""

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * Variable(3.0 * x.array * x.array),


def _apply(cls):
    def f(x):
        y, = cls().apply((x,))
        return y
    return f


def _data(shape=(3, 2), seed=0, low=-1.0, high=1.0):
    return numpy.random.RandomState(seed).uniform(low, high, shape)


class TestNumericalGrad:

    def test_matches_the_analytic_gradient(self):
        x = _data(seed=1)
        gy = _data(seed=2)
        gx, = gradient_check.numerical_grad(lambda: (numpy.sin(x) * x,),
                                            (x,), (gy,))
        numpy.testing.assert_allclose(
            gx, gy * (numpy.cos(x) * x + numpy.sin(x)), rtol=1e-5, atol=1e-7)

    def test_several_inputs_and_outputs(self):
        x = _data((2,), seed=3)
        y = _data((2,), seed=4)
        gx, gy = gradient_check.numerical_grad(
            lambda: (x * y, x + 2 * y), (x, y),
            (numpy.ones(2), numpy.full(2, 2.0)))
        numpy.testing.assert_allclose(gx, y + 2, rtol=1e-6)
        numpy.testing.assert_allclose(gy, x + 4, rtol=1e-6)

    def test_none_output_gradient_is_ignored(self):
        x = _data((2,), seed=5)
        gx, = gradient_check.numerical_grad(lambda: (x * 2, x * x), (x,),
                                            (None, numpy.ones(2)))
        numpy.testing.assert_allclose(gx, 2 * x, rtol=1e-6)

    def test_inputs_are_restored(self):
        x = _data(seed=6)
        before = x.copy()
        gradient_check.numerical_grad(lambda: (x * x,), (x,),
                                      (numpy.ones_like(x),))
        numpy.testing.assert_array_equal(x, before)

    @pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
    def test_result_dtype_is_the_input_dtype(self, dtype):
        x = _data((2,)).astype(dtype)
        gx, = gradient_check.numerical_grad(lambda: (x * 3,), (x,),
                                            (numpy.ones(2, dtype),),
                                            eps=1e-2)
        assert gx.dtype == dtype
        numpy.testing.assert_allclose(gx, [3.0, 3.0], rtol=1e-3)

    def test_works_through_variables(self):
        x = _data((2,), seed=7)
        gx, = gradient_check.numerical_grad(
            lambda: (F.exp(Variable(x)).array,), (x,), (numpy.ones(2),))
        numpy.testing.assert_allclose(gx, numpy.exp(x), rtol=1e-5)

    def test_bad_eps(self):
        x = numpy.zeros(1)
        with pytest.raises(ValueError):
            gradient_check.numerical_grad(lambda: (x,), (x,),
                                          (numpy.ones(1),), eps=0)

    def test_integer_input(self):
        x = numpy.zeros(1, numpy.int32)
        with pytest.raises(RuntimeError, match='float'):
            gradient_check.numerical_grad(lambda: (x,), (x,),
                                          (numpy.ones(1),))

    def test_detects_a_kink(self):
        x = numpy.array([-1.0, 0.0, 2.0])
        with pytest.raises(NondifferentiableError, match=r'\(1,\)'):
            gradient_check.numerical_grad(
                lambda: (numpy.maximum(x, 0),), (x,), (numpy.ones(3),),
                detect_nondifferentiable=True)

    def test_detects_a_jump_to_non_finite(self):
        x = numpy.array([0.0])
        with pytest.raises(NondifferentiableError):
            with numpy.errstate(divide='ignore', invalid='ignore'):
                gradient_check.numerical_grad(
                    lambda: (numpy.log(x),), (x,), (numpy.ones(1),),
                    detect_nondifferentiable=True)

    def test_smooth_function_passes_detection_with_higher_accuracy(self):
        x = _data((4,), seed=8)
        gx, = gradient_check.numerical_grad(
            lambda: (numpy.exp(x),), (x,), (numpy.ones(4),),
            eps=1e-2, detect_nondifferentiable=True)
        # Fourth-order differences stay accurate even with a large eps.
        numpy.testing.assert_allclose(gx, numpy.exp(x), rtol=1e-8)


class TestCheckBackward:

    def test_correct_op_passes(self):
        x = _data(seed=10)
        gy = _data(seed=11)
        gradient_check.check_backward(_apply(_Cube), x, gy,
                                      atol=1e-6, rtol=1e-5)

    def test_wrong_backward_fails(self):
        x = _data(seed=12)
        gy = _data(seed=13)
        with pytest.raises(AssertionError, match='check_backward failed'):
            gradient_check.check_backward(_apply(_CubeWrongBackward), x, gy)

    def test_library_ops(self):
        a = _data((2, 3), seed=14, low=0.5, high=2.0)
        b = _data((3,), seed=15, low=0.5, high=2.0)
        gy = _data((2, 3), seed=16)
        for op in (F.add, F.sub, F.mul, F.div, F.pow):
            gradient_check.check_backward(op, (a, b), gy)

    def test_scalar_output_with_no_y_grad(self):
        x = _data(seed=17)
        gradient_check.check_backward(lambda v: F.sum(v * v), x, None)

    def test_non_scalar_output_needs_y_grad(self):
        with pytest.raises(ValueError, match='y_grad'):
            gradient_check.check_backward(lambda v: v * 2.0, _data(), None)

    def test_several_outputs(self):
        x = _data((3,), seed=18)
        gradient_check.check_backward(
            lambda v: (v * 2.0, v * v), x,
            (_data((3,), seed=19), _data((3,), seed=20)))

    def test_y_grad_count_must_match(self):
        with pytest.raises(ValueError):
            gradient_check.check_backward(lambda v: (v, v), _data(),
                                          (_data(),))

    def test_no_grads(self):
        x = _data((3,), seed=21)
        w = _data((3,), seed=22)
        seen = []

        def f(a, b):
            seen.append(b.requires_grad)
            return a * b

        gradient_check.check_backward(f, (x, w), _data((3,), seed=23),
                                      no_grads=[False, True])
        assert seen[0] is False

    def test_integer_inputs_are_skipped(self):
        x = _data((3,), seed=24)
        idx = numpy.array([2, 0, 1], numpy.int32)
        gradient_check.check_backward(
            lambda v, i: v * F.exp(v),
            (x, idx), _data((3,), seed=25))

    def test_integer_input_cannot_be_checked(self):
        with pytest.raises(ValueError, match='no_grads'):
            gradient_check.check_backward(
                lambda v: v, numpy.ones(2, numpy.int32), numpy.ones(2),
                no_grads=[False])

    def test_no_grads_length(self):
        with pytest.raises(ValueError):
            gradient_check.check_backward(lambda v: v, _data(), _data(),
                                          no_grads=[False, False])

    def test_params(self):
        w = Parameter(_data((3,), seed=26))
        before = w.array.copy()
        gradient_check.check_backward(lambda v: v * w * w,
                                      _data((3,), seed=27),
                                      _data((3,), seed=28), params=w)
        numpy.testing.assert_array_equal(w.array, before)
        assert w.grad is None

    @pytest.mark.parametrize('device', chainer.backend.available_devices(),
                             ids=str)
    def test_link_params_cast_to_dtype(self, device):
        # A link's params hold a float32 gradient (NaN-filled at creation)
        # while their arrays are cast to float64 for the numerical side.
        import chainer_core.links as L
        link = L.Linear(3, 2)
        link.to_device(device)
        dev = chainer.get_device(device)
        x = dev.send(_data((4, 3), seed=34).astype(numpy.float32))
        gy = dev.send(_data((4, 2), seed=35).astype(numpy.float32))
        grad_before = numpy.array(chainer.backend.CpuDevice().send(
            link.W.grad))
        gradient_check.check_backward(link, x, gy, params=(link.W, link.b),
                                      dtype=numpy.float64, atol=1e-3,
                                      rtol=1e-3)
        assert link.W.dtype == numpy.float32
        numpy.testing.assert_array_equal(
            chainer.backend.CpuDevice().send(link.W.grad), grad_before)

    def test_params_wrong_backward_fails(self):
        w = Parameter(_data((3,), seed=29))

        def f(v):
            y, = _CubeWrongBackward().apply((w,))
            return v * y

        with pytest.raises(AssertionError):
            gradient_check.check_backward(f, _data((3,), seed=30),
                                          _data((3,), seed=31), params=w)

    def test_inputs_are_not_modified(self):
        x = _data(seed=32)
        before = x.copy()
        gradient_check.check_backward(_apply(_Cube), x, _data(seed=33))
        numpy.testing.assert_array_equal(x, before)

    @pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
    def test_dtype_option_gives_precision_to_low_precision_inputs(
            self, dtype):
        x = _data(seed=34).astype(dtype)
        gy = _data(seed=35).astype(dtype)
        seen = []

        def f(v):
            seen.append(v.dtype)
            return v * v * v

        gradient_check.check_backward(f, x, gy, dtype=numpy.float64,
                                      atol=1e-2, rtol=1e-2)
        assert seen[0] == dtype
        assert numpy.dtype(numpy.float64) in seen[1:]

    def test_dtype_must_be_float(self):
        with pytest.raises(ValueError, match='dtype'):
            gradient_check.check_backward(lambda v: v, _data(), _data(),
                                          dtype=numpy.int32)

    def test_zero_dim_input(self):
        gradient_check.check_backward(_apply(_Cube), numpy.array(0.7),
                                      numpy.array(1.3))

    def test_detect_nondifferentiable_at_a_relu_kink(self):
        x = numpy.array([-1.0, 0.0, 0.5])
        with pytest.raises(NondifferentiableError):
            gradient_check.check_backward(F.relu, x, numpy.ones(3),
                                          detect_nondifferentiable=True)

    def test_detect_nondifferentiable_away_from_the_kink(self):
        x = numpy.array([-1.0, 0.3, 0.5])
        gradient_check.check_backward(F.relu, x, numpy.ones(3),
                                      detect_nondifferentiable=True)

    def test_without_detection_a_kink_is_not_reported(self):
        x = numpy.array([-1.0, 0.0, 0.5])
        with pytest.raises(AssertionError):
            # The central difference averages the slopes at the kink, which
            # disagrees with relu's backward there.
            gradient_check.check_backward(F.relu, x, numpy.ones(3))


class TestCheckDoubleBackward:

    def test_correct_op_passes(self):
        x = _data(seed=40)
        gy = _data(seed=41)
        ggx = _data(seed=42)
        gradient_check.check_double_backward(_apply(_Cube), x, gy, ggx)

    def test_detached_backward_fails(self):
        x = _data(seed=43)
        gy = _data(seed=44)
        ggx = _data(seed=45)
        # First order is right:
        gradient_check.check_backward(_apply(_CubeDetachedBackward), x, gy)
        with pytest.raises(AssertionError):
            gradient_check.check_double_backward(
                _apply(_CubeDetachedBackward), x, gy, ggx)

    def test_scalar_output(self):
        x = _data((3,), seed=46)
        gradient_check.check_double_backward(
            lambda v: F.sum(v * v * v), x, None, _data((3,), seed=47))

    def test_two_inputs(self):
        a = _data((3,), seed=48, low=0.5, high=2.0)
        b = _data((3,), seed=49, low=0.5, high=2.0)
        gradient_check.check_double_backward(
            F.div, (a, b), _data((3,), seed=50),
            (_data((3,), seed=51), _data((3,), seed=52)))

    def test_params(self):
        w = Parameter(_data((3,), seed=53))
        gradient_check.check_double_backward(
            lambda v: v * v * w, _data((3,), seed=54), _data((3,), seed=55),
            _data((3,), seed=56), params=w,
            params_grad_grad=_data((3,), seed=57))

    def test_linear_function_has_no_second_derivative(self):
        gradient_check.check_double_backward(
            lambda v: v * 3.0, _data((3,), seed=58), _data((3,), seed=59),
            _data((3,), seed=60))

    def test_debug_mode_does_not_disturb(self):
        with chainer.using_config('debug', True):
            gradient_check.check_double_backward(
                _apply(_Cube), _data((2,), seed=61), _data((2,), seed=62),
                _data((2,), seed=63))
