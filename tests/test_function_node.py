"""FunctionNode: apply, retained data, type checks, custom ops, modes."""
import gc

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import FunctionNode, Variable, gradient_check
from chainer_core.utils import type_check


class _WeightedSquare(FunctionNode):
    """y = w * x ** 2, written the way Chainer's guide writes new ops."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('x', 'w'))
        x_type, w_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.dtype == w_type.dtype,
            x_type.shape == w_type.shape,
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, w = inputs
        return w * x * x,

    def backward(self, target_input_indexes, grad_outputs):
        x, w = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        for i in target_input_indexes:
            if i == 0:
                ret.append(gy * w * x * 2.0)
            else:
                ret.append(gy * x * x)
        return tuple(ret)


def _weighted_square(x, w):
    y, = _WeightedSquare().apply((x, w))
    return y


class TestApply:

    def test_with_variables(self):
        x = Variable(numpy.array([1.0, 2.0]))
        w = Variable(numpy.array([3.0, 4.0]))
        ys = _WeightedSquare().apply((x, w))
        assert isinstance(ys, tuple) and len(ys) == 1
        y, = ys
        assert isinstance(y, Variable)
        numpy.testing.assert_array_equal(y.array, [3.0, 16.0])
        assert y.requires_grad
        assert isinstance(y.creator, _WeightedSquare)
        assert y.creator_node is y.creator
        assert y.creator.inputs == (x.node, w.node)
        assert y.creator.outputs[0]() is y.node

    def test_with_arrays(self):
        y, = _WeightedSquare().apply((numpy.array([2.0]), numpy.array([1.0])))
        numpy.testing.assert_array_equal(y.array, [4.0])
        assert not y.requires_grad
        assert y.creator is None

    def test_mixed(self):
        x = Variable(numpy.array([2.0]))
        y, = _WeightedSquare().apply((x, numpy.array([5.0])))
        assert y.requires_grad
        y.grad = numpy.ones(1)
        y.backward()
        numpy.testing.assert_array_equal(x.grad, [20.0])

    def test_rank(self):
        x = Variable(numpy.array([1.0]))
        w = Variable(numpy.array([1.0]))
        h = _weighted_square(x, w)
        y = _weighted_square(h, w)
        assert (x.rank, h.rank, y.rank) == (0, 1, 2)
        assert y.creator.rank == 1

    def test_inputs_not_requiring_grad(self):
        x = Variable(numpy.array([1.0]), requires_grad=False)
        y = _weighted_square(x, numpy.array([2.0]))
        assert not y.requires_grad
        assert y.creator is None

    def test_label_is_the_class_name(self):
        assert _WeightedSquare().label == '_WeightedSquare'

    def test_non_array_input_names_the_op(self):
        with pytest.raises(TypeError, match='_WeightedSquare.*input 1'):
            _WeightedSquare().apply((numpy.ones(1), [1.0]))

    def test_forward_returning_a_non_tuple_names_the_op(self):
        class ReturnsArray(FunctionNode):
            def forward(self, inputs):
                return inputs[0] * 2

        with pytest.raises(TypeError, match='ReturnsArray.*tuple'):
            ReturnsArray().apply((numpy.ones(2),))

    def test_forward_returning_a_list_names_the_op(self):
        class ReturnsList(FunctionNode):
            def forward(self, inputs):
                return [inputs[0] * 2]

        with pytest.raises(TypeError, match='ReturnsList'):
            ReturnsList().apply((numpy.ones(2),))

    def test_forward_returning_a_non_array_names_the_op(self):
        class ReturnsFloat(FunctionNode):
            def forward(self, inputs):
                return 1.5,

        with pytest.raises(TypeError, match='ReturnsFloat'):
            ReturnsFloat().apply((numpy.ones(2),))

    def test_numpy_scalar_output_becomes_an_array(self):
        class Total(FunctionNode):
            def forward(self, inputs):
                return inputs[0].sum(),

        y, = Total().apply((numpy.ones(3),))
        assert isinstance(y.array, numpy.ndarray)
        assert y.shape == ()

    def test_forward_not_implemented(self):
        with pytest.raises(NotImplementedError):
            FunctionNode().apply((numpy.ones(1),))

    def test_default_backward_gives_no_gradient(self):
        class NoGrad(FunctionNode):
            def forward(self, inputs):
                return inputs[0] * 2,

        x = Variable(numpy.ones(2))
        y, = NoGrad().apply((x,))
        y.grad = numpy.ones(2)
        y.backward()
        assert x.grad is None


class TestRetainedData:

    def test_get_retained_inputs_returns_the_input_variables(self):
        x = Variable(numpy.array([1.0, 2.0]))
        w = Variable(numpy.array([3.0, 4.0]))
        y = _weighted_square(x, w)
        rx, rw = y.creator.get_retained_inputs()
        assert rx is x and rw is w

    def test_retained_input_of_a_freed_variable(self):
        w = Variable(numpy.array([3.0]))
        x = Variable(numpy.array([2.0]))
        h = x * 1.0
        y = _weighted_square(h, w)
        del h
        gc.collect()
        rh, rw = y.creator.get_retained_inputs()
        numpy.testing.assert_array_equal(rh.array, [2.0])
        assert rh.node is y.creator.inputs[0]

    def test_replaced_input_array_is_used_and_the_gradient_arrives(self):
        # As in Chainer the retained input is the input variable itself,
        # with whatever array it holds when backward runs.
        x = Variable(numpy.array([1.0, 2.0]))
        y = x * x
        x.array = numpy.array([10.0, 20.0])
        y.grad = numpy.ones(2)
        y.backward()
        numpy.testing.assert_array_equal(x.grad, [20.0, 40.0])

    def test_retain_outputs_and_output_data(self):
        class Twice(FunctionNode):
            def forward(self, inputs):
                self.retain_outputs((0,))
                return inputs[0] * 2,

            def backward(self, indexes, grad_outputs):
                y, = self.get_retained_outputs()
                assert y is self.expected
                return grad_outputs[0] * 2.0,

        x = Variable(numpy.array([1.0, 2.0]))
        f = Twice()
        y, = f.apply((x,))
        f.expected = y
        numpy.testing.assert_array_equal(f.output_data[0], [2.0, 4.0])
        y.grad = numpy.ones(2)
        y.backward()
        numpy.testing.assert_array_equal(x.grad, [2.0, 2.0])

    def test_output_data_without_retain(self):
        x = Variable(numpy.array([1.0]))
        y = x * 2.0
        with pytest.raises(RuntimeError, match='not retained'):
            y.creator.output_data

    def test_nothing_retained(self):
        x = Variable(numpy.array([1.0]))
        y = x * 2.0
        assert y.creator.get_retained_inputs() == ()
        assert y.creator.get_retained_outputs() == ()

    def test_nothing_is_retained_without_a_graph(self):
        f = _WeightedSquare()
        f.apply((numpy.ones(1), numpy.ones(1)))
        assert f._retained_input_data is None
        assert f.get_retained_inputs() == ()

    def test_freed_output_is_rejoined_for_double_backprop(self):
        # y0 = x^2 and y1 = 2x; the backward of y0 reads y1, which the
        # caller dropped. d2(sum y0)/dx2 = 2 only if gradients reaching the
        # stand-in for y1 flow back through this op.
        class SquareAndDouble(FunctionNode):
            def forward(self, inputs):
                self.retain_outputs((1,))
                x, = inputs
                return x * x, 2 * x

            def backward(self, indexes, grad_outputs):
                y1, = self.get_retained_outputs()
                gy0, gy1 = grad_outputs
                gx = 0
                if gy0 is not None:
                    gx = gy0 * y1
                if gy1 is not None:
                    gx = gx + gy1 * 2.0
                return gx,

        x = Variable(numpy.array([1.5, -2.0]))
        y0, y1 = SquareAndDouble().apply((x,))
        del y1
        gc.collect()
        gx, = chainer.grad([F.sum(y0)], [x], enable_double_backprop=True)
        numpy.testing.assert_allclose(gx.array, 2 * x.array)
        ggx, = chainer.grad([F.sum(gx)], [x])
        numpy.testing.assert_allclose(ggx.array, [2.0, 2.0])


class TestTypeCheck:

    def test_error_is_an_invalid_type_and_a_type_error(self):
        assert issubclass(type_check.InvalidType, TypeError)
        with pytest.raises(TypeError):
            _weighted_square(numpy.ones(2), numpy.ones(3))

    def test_message_names_the_op_and_the_arguments(self):
        with pytest.raises(type_check.InvalidType) as e:
            _weighted_square(numpy.ones(2), numpy.ones(3))
        msg = str(e.value)
        assert 'Invalid operation is performed in: _WeightedSquare ' \
            '(Forward)' in msg
        assert 'Expect: x.shape == w.shape' in msg
        assert 'Actual: (2,) != (3,)' in msg

    def test_add_message(self):
        with pytest.raises(type_check.InvalidType) as e:
            F.add(chainer.Variable(numpy.ones(3, numpy.float32)),
                  chainer.Variable(numpy.ones(3, numpy.int32)))
        lines = str(e.value).splitlines()
        assert 'Invalid operation is performed in: _ + _ (Forward)' in lines
        assert 'Expect: lhs.dtype == rhs.dtype' in lines
        assert 'Actual: float32 != int32' in lines

    def test_dtype_kind_message(self):
        with pytest.raises(type_check.InvalidType) as e:
            _weighted_square(numpy.ones(2, numpy.int32),
                             numpy.ones(2, numpy.int32))
        assert "Expect: x.dtype.kind == 'f'" in str(e.value)
        assert "Actual: 'i' != 'f'" in str(e.value)

    def test_number_of_inputs(self):
        with pytest.raises(type_check.InvalidType) as e:
            _WeightedSquare().apply((numpy.ones(2),))
        assert 'Expect: in_types.size == 2' in str(e.value)
        assert 'Actual: 1 != 2' in str(e.value)

    def test_error_carries_expect_and_actual(self):
        with pytest.raises(type_check.InvalidType) as e:
            _weighted_square(numpy.ones(2), numpy.ones(3))
        assert e.value.expect == 'x.shape == w.shape'
        assert e.value.actual == '(2,) != (3,)'

    def test_none_input_names_the_op(self):
        with pytest.raises(TypeError):
            _WeightedSquare().apply((numpy.ones(1), Variable()))

    def test_type_check_can_be_turned_off(self):
        with chainer.using_config('type_check', False):
            y = _weighted_square(numpy.ones(2), numpy.ones(1))
        numpy.testing.assert_array_equal(y.array, [1.0, 1.0])

    def test_light_mode_builds_no_expression_on_success(self, monkeypatch):
        calls = []
        real_get_types = type_check.get_types

        def recording_get_types(data, name, accept_none, light=False):
            calls.append(light)
            return real_get_types(data, name, accept_none, light=light)

        def no_expressions(*args, **kwargs):
            raise AssertionError('an expression was built')

        monkeypatch.setattr(type_check, 'get_types', recording_get_types)
        monkeypatch.setattr(type_check, 'Compare', no_expressions)
        monkeypatch.setattr(type_check, 'Variable', no_expressions)
        _weighted_square(numpy.ones(2), numpy.ones(2))
        assert calls == [True]

    def test_failure_is_checked_again_symbolically(self, monkeypatch):
        calls = []
        real_get_types = type_check.get_types

        def recording_get_types(data, name, accept_none, light=False):
            calls.append(light)
            return real_get_types(data, name, accept_none, light=light)

        monkeypatch.setattr(type_check, 'get_types', recording_get_types)
        with pytest.raises(type_check.InvalidType):
            _weighted_square(numpy.ones(2), numpy.ones(3))
        assert calls == [True, False]

    def test_op_without_check_type_forward(self):
        class Unchecked(FunctionNode):
            def forward(self, inputs):
                return inputs[0] + 0,

        y, = Unchecked().apply((numpy.ones(2),))
        assert y.shape == (2,)


class TestCustomFunctionNode:

    def test_forward_and_backward(self):
        x = Variable(numpy.array([1.0, 2.0]))
        w = Variable(numpy.array([3.0, -1.0]))
        y = _weighted_square(x, w)
        F.sum(y).backward()
        numpy.testing.assert_allclose(x.grad, 2 * w.array * x.array)
        numpy.testing.assert_allclose(w.grad, x.array ** 2)

    def test_only_requested_inputs(self):
        x = Variable(numpy.array([1.0, 2.0]))
        w = Variable(numpy.array([3.0, -1.0]), requires_grad=False)
        seen = []

        class Spy(_WeightedSquare):
            def backward(self, target_input_indexes, grad_outputs):
                seen.append(target_input_indexes)
                return super().backward(target_input_indexes, grad_outputs)

        y, = Spy().apply((x, w))
        F.sum(y).backward()
        assert seen == [(0,)]
        assert w.grad is None

    def test_check_backward(self):
        rng = numpy.random.RandomState(1)
        x = rng.uniform(-1, 1, (3, 2))
        w = rng.uniform(-1, 1, (3, 2))
        gy = rng.uniform(-1, 1, (3, 2))
        gradient_check.check_backward(_weighted_square, (x, w), gy,
                                      atol=1e-6, rtol=1e-5)

    def test_check_double_backward(self):
        rng = numpy.random.RandomState(2)
        x = rng.uniform(-1, 1, (3,))
        w = rng.uniform(-1, 1, (3,))
        gy = rng.uniform(-1, 1, (3,))
        ggx = rng.uniform(-1, 1, (3,))
        ggw = rng.uniform(-1, 1, (3,))
        gradient_check.check_double_backward(
            _weighted_square, (x, w), gy, (ggx, ggw), atol=1e-6, rtol=1e-5)

    def test_double_backprop_values(self):
        x = Variable(numpy.array([1.0, 2.0]))
        w = Variable(numpy.array([3.0, 0.5]))
        gx, = chainer.grad([F.sum(_weighted_square(x, w))], [x],
                           enable_double_backprop=True)
        ggx, ggw = chainer.grad([F.sum(gx)], [x, w])
        numpy.testing.assert_allclose(ggx.array, 2 * w.array)
        numpy.testing.assert_allclose(ggw.array, 2 * x.array)

    def test_returning_gradients_for_all_inputs(self):
        class AllGrads(FunctionNode):
            def forward(self, inputs):
                return inputs[0] + inputs[1],

            def backward(self, indexes, grad_outputs):
                gy, = grad_outputs
                return gy, gy * 2.0

        x = Variable(numpy.ones(2))
        y = Variable(numpy.ones(2), requires_grad=False)
        z, = AllGrads().apply((x, y))
        F.sum(z).backward()
        numpy.testing.assert_array_equal(x.grad, [1.0, 1.0])
        assert y.grad is None


class TestDebugMode:

    def test_nan_in_forward_names_the_op(self):
        with chainer.using_config('debug', True):
            with pytest.raises(RuntimeError, match='NaN.*Log'):
                with numpy.errstate(invalid='ignore'):
                    F.log(numpy.array([-1.0, 1.0]))

    def test_inf_in_forward_names_the_op(self):
        with chainer.using_config('debug', True):
            with pytest.raises(RuntimeError, match='Inf.*Exp'):
                with numpy.errstate(over='ignore'):
                    F.exp(numpy.array([1000.0]))

    def test_nan_passes_without_debug(self):
        with numpy.errstate(invalid='ignore'):
            y = F.log(numpy.array([-1.0]))
        assert numpy.isnan(y.array).all()

    def test_debug_mode_helpers(self):
        assert not chainer.is_debug()
        with chainer.DebugMode(True):
            assert chainer.is_debug()
            assert chainer.config.debug
        assert not chainer.is_debug()
        chainer.set_debug(True)
        try:
            assert chainer.is_debug()
        finally:
            chainer.set_debug(False)
        assert not chainer.config.debug


class TestBackpropModes:

    def test_no_backprop_mode(self):
        x = Variable(numpy.array([1.0, 2.0]))
        with chainer.no_backprop_mode():
            assert not chainer.config.enable_backprop
            y = x * 2.0
        assert chainer.config.enable_backprop
        assert y.creator is None
        assert y.requires_grad
        numpy.testing.assert_array_equal(y.array, [2.0, 4.0])

    def test_no_backprop_mode_keeps_no_retained_data(self):
        x = Variable(numpy.array([1.0]))
        f = _WeightedSquare()
        with chainer.no_backprop_mode():
            f.apply((x, x))
        assert f._retained_input_data is None
        assert f.inputs is None

    def test_force_backprop_mode_inside_no_backprop_mode(self):
        x = Variable(numpy.array([1.0, 2.0]))
        with chainer.no_backprop_mode():
            with chainer.force_backprop_mode():
                assert chainer.config.enable_backprop
                y = x * 3.0
            z = x * 3.0
        assert y.creator is not None
        assert z.creator is None
        F.sum(y).backward()
        numpy.testing.assert_array_equal(x.grad, [3.0, 3.0])
