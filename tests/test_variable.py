"""Variable: data, gradients, operators, backward, graph surgery, copying."""
import copy
import operator
import pickle
import warnings

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import Variable


def _numeric_grad(fn, arrays, index, gy, eps=1e-6):
    """d sum(fn(*arrays) * gy) / d arrays[index], by central differences.

    Written against NumPy only, so it checks the library independently of
    chainer_core.gradient_check.
    """
    arrays = [numpy.array(a, dtype=numpy.float64) for a in arrays]
    x = arrays[index]
    g = numpy.zeros_like(x)
    for i in numpy.ndindex(x.shape):
        orig = x[i]
        x[i] = orig + eps
        plus = (fn(*arrays) * gy).sum()
        x[i] = orig - eps
        minus = (fn(*arrays) * gy).sum()
        x[i] = orig
        g[i] = (plus - minus) / (2 * eps)
    return g


def _f64(shape, low=0.5, high=2.0, seed=0):
    return numpy.random.RandomState(seed).uniform(low, high, shape)


class TestVariableInit:

    def test_array_and_data_are_the_same(self):
        a = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
        x = Variable(a)
        assert x.array is a
        assert x.data is a

    def test_array_setter_replaces_data(self):
        x = Variable(numpy.zeros(3, numpy.float32))
        b = numpy.ones((2, 2), numpy.float32)
        x.array = b
        assert x.array is b
        assert x.shape == (2, 2)
        x.data = None
        assert x.array is None

    def test_none_data(self):
        x = Variable()
        assert x.array is None
        assert x.grad is None

    @pytest.mark.parametrize('bad', [[1.0, 2.0], 1.5, 'abc', (1, 2)])
    def test_non_array_data_is_a_type_error(self, bad):
        with pytest.raises(TypeError):
            Variable(bad)

    def test_unknown_keyword_is_a_type_error(self):
        with pytest.raises(TypeError, match='volatile'):
            Variable(numpy.zeros(1), volatile=True)

    def test_grad_keyword(self):
        g = numpy.full(3, 2.0, numpy.float32)
        x = Variable(numpy.zeros(3, numpy.float32), grad=g)
        numpy.testing.assert_array_equal(x.grad, g)

    def test_grad_keyword_is_validated(self):
        with pytest.raises(ValueError):
            Variable(numpy.zeros(3, numpy.float32),
                     grad=numpy.zeros(4, numpy.float32))

    @pytest.mark.parametrize('requires_grad', [True, False])
    def test_requires_grad(self, requires_grad):
        x = Variable(numpy.zeros(2, numpy.float32),
                     requires_grad=requires_grad)
        assert x.requires_grad is requires_grad

    def test_name(self):
        x = Variable(numpy.zeros(2), name='x')
        assert x.name == 'x'
        x.name = 'y'
        assert x.name == 'y'
        assert x.node.name == 'y'

    def test_item(self):
        assert Variable(numpy.array(2.5)).item() == 2.5


class TestVariableAttributes:

    @pytest.mark.parametrize('shape', [(), (3,), (2, 3), (2, 0, 4)])
    @pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                       numpy.float64, numpy.int32])
    def test_shape_dtype_ndim_size(self, shape, dtype):
        x = Variable(numpy.zeros(shape, dtype))
        assert x.shape == shape
        assert x.dtype == numpy.dtype(dtype)
        assert x.ndim == len(shape)
        assert x.size == int(numpy.prod(shape))

    def test_len_is_the_first_axis(self):
        assert len(Variable(numpy.zeros((4, 2)))) == 4

    def test_len_of_a_scalar_is_an_error(self):
        with pytest.raises(TypeError):
            len(Variable(numpy.zeros(())))

    def test_label(self):
        assert Variable(numpy.zeros((2, 3), numpy.float32)).label == \
            '(2, 3), float32'
        assert Variable(numpy.zeros((), numpy.float64)).label == 'float64'

    def test_device_and_xp(self):
        x = Variable(numpy.zeros(2))
        assert x.xp is numpy
        assert x.device == chainer.get_device('@numpy')


class TestVariableShapeMethods:

    @pytest.mark.parametrize('args,expected', [
        (((3, 2),), (3, 2)),
        ((3, 2), (3, 2)),
        (([6],), (6,)),
        ((-1, 1), (6, 1)),
    ])
    def test_reshape(self, args, expected):
        a = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
        x = Variable(a)
        y = x.reshape(*args)
        assert y.shape == expected
        numpy.testing.assert_array_equal(y.array, a.reshape(expected))
        y.grad = numpy.arange(6, dtype=numpy.float32).reshape(expected)
        y.backward()
        numpy.testing.assert_array_equal(
            x.grad, numpy.arange(6).reshape(2, 3))

    @pytest.mark.skipif(not hasattr(F, 'transpose'),
                        reason='F.transpose is not available')
    @pytest.mark.parametrize('args,axes', [
        ((), None),
        ((None,), None),
        (((2, 0, 1),), (2, 0, 1)),
        ((1, 2, 0), (1, 2, 0)),
        (([0, 2, 1],), (0, 2, 1)),
    ])
    def test_transpose(self, args, axes):
        a = numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 4)
        y = Variable(a).transpose(*args)
        numpy.testing.assert_array_equal(y.array, a.transpose(axes))

    @pytest.mark.skipif(not hasattr(F, 'transpose'),
                        reason='F.transpose is not available')
    def test_T(self):
        a = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
        x = Variable(a)
        y = x.T
        numpy.testing.assert_array_equal(y.array, a.T)
        y.grad = numpy.ones((3, 2), numpy.float32)
        y.backward()
        numpy.testing.assert_array_equal(x.grad, numpy.ones((2, 3)))


class TestVariableGradAttribute:

    def test_grad_setter_keeps_the_array(self):
        x = Variable(numpy.zeros((2, 3), numpy.float32))
        g = numpy.ones((2, 3), numpy.float32)
        x.grad = g
        assert x.grad is g
        assert isinstance(x.grad_var, Variable)
        assert x.grad_var.array is g

    def test_grad_setter_rejects_a_wrong_shape(self):
        x = Variable(numpy.zeros((2, 3), numpy.float32))
        with pytest.raises(ValueError, match='shape'):
            x.grad = numpy.zeros((3, 2), numpy.float32)
        assert x.grad is None

    def test_grad_setter_rejects_a_wrong_dtype(self):
        x = Variable(numpy.zeros(3, numpy.float32))
        with pytest.raises(TypeError, match='dtype'):
            x.grad = numpy.zeros(3, numpy.float64)

    def test_grad_setter_rejects_a_non_array(self):
        x = Variable(numpy.zeros(3, numpy.float32))
        with pytest.raises(TypeError):
            x.grad = [0.0, 0.0, 0.0]

    def test_grad_none_clears(self):
        x = Variable(numpy.zeros(3), grad=numpy.ones(3))
        x.grad = None
        assert x.grad is None and x.grad_var is None

    def test_grad_var_setter(self):
        x = Variable(numpy.zeros(3, numpy.float32))
        gv = Variable(numpy.ones(3, numpy.float32))
        x.grad_var = gv
        assert x.grad_var is gv
        assert x.grad is gv.array

    @pytest.mark.parametrize('gv,error', [
        (numpy.ones(3, numpy.float32), TypeError),
        (Variable(numpy.ones(4, numpy.float32)), ValueError),
        (Variable(numpy.ones(3, numpy.float16)), TypeError),
    ])
    def test_grad_var_setter_validates(self, gv, error):
        x = Variable(numpy.zeros(3, numpy.float32))
        with pytest.raises(error):
            x.grad_var = gv
        assert x.grad_var is None

    def test_grad_of_an_uninitialized_variable_is_not_checked(self):
        x = Variable()
        x.grad = numpy.ones(2)
        assert x.grad.shape == (2,)

    def test_cleargrad(self):
        x = Variable(numpy.zeros(3), grad=numpy.ones(3))
        x.cleargrad()
        assert x.grad is None

    def test_zerograd_makes_zeros_and_warns(self):
        x = Variable(numpy.ones((2, 2), numpy.float32))
        with pytest.warns(DeprecationWarning):
            x.zerograd()
        numpy.testing.assert_array_equal(x.grad, numpy.zeros((2, 2)))
        assert x.grad.dtype == numpy.float32

    def test_zerograd_reuses_the_gradient_array(self):
        g = numpy.ones(3, numpy.float32)
        x = Variable(numpy.ones(3, numpy.float32), grad=g)
        with pytest.warns(DeprecationWarning):
            x.zerograd()
        assert x.grad is g
        numpy.testing.assert_array_equal(g, numpy.zeros(3))

    def test_zerograd_after_a_broadcast_gradient(self):
        # The gradient of F.sum is a broadcast of the output gradient.
        x = Variable(numpy.ones(4, numpy.float32))
        F.sum(x).backward()
        with pytest.warns(DeprecationWarning):
            x.zerograd()
        numpy.testing.assert_array_equal(x.grad, numpy.zeros(4))

    def test_zerograd_on_uninitialized_does_nothing(self):
        x = Variable()
        with pytest.warns(DeprecationWarning):
            x.zerograd()
        assert x.grad is None

    def test_addgrad(self):
        x = Variable(numpy.zeros(3, numpy.float32),
                     grad=numpy.full(3, 1.0, numpy.float32))
        y = Variable(numpy.zeros(3, numpy.float32),
                     grad=numpy.full(3, 2.0, numpy.float32))
        x.addgrad(y)
        numpy.testing.assert_array_equal(x.grad, numpy.full(3, 3.0))
        numpy.testing.assert_array_equal(y.grad, numpy.full(3, 2.0))

    def test_addgrad_into_no_gradient_copies(self):
        x = Variable(numpy.zeros(3, numpy.float32))
        y = Variable(numpy.zeros(3, numpy.float32),
                     grad=numpy.full(3, 2.0, numpy.float32))
        x.addgrad(y)
        numpy.testing.assert_array_equal(x.grad, y.grad)
        x.grad[...] = 5
        numpy.testing.assert_array_equal(y.grad, numpy.full(3, 2.0))

    def test_addgrad_from_no_gradient_is_a_no_op(self):
        x = Variable(numpy.zeros(3), grad=numpy.ones(3))
        x.addgrad(Variable(numpy.zeros(3)))
        numpy.testing.assert_array_equal(x.grad, numpy.ones(3))

    def test_addgrad_takes_a_variable(self):
        with pytest.raises(TypeError):
            Variable(numpy.zeros(3)).addgrad(numpy.ones(3))


_BINARY = [
    ('add', operator.add),
    ('sub', operator.sub),
    ('mul', operator.mul),
    ('truediv', operator.truediv),
    ('pow', operator.pow),
]

_SHAPE_PAIRS = [
    ((2, 3), (2, 3)),
    ((2, 3), (3,)),
    ((2, 1), (1, 3)),
    ((), (2, 3)),
    ((4, 1, 3), (2, 1)),
]


class TestVariableOperators:

    @pytest.mark.parametrize('name,op', _BINARY)
    @pytest.mark.parametrize('lshape,rshape', _SHAPE_PAIRS)
    def test_variable_with_variable(self, name, op, lshape, rshape):
        a, b = _f64(lshape, seed=1), _f64(rshape, seed=2)
        x, y = Variable(a), Variable(b)
        z = op(x, y)
        assert isinstance(z, Variable)
        expected = op(a, b)
        assert z.shape == expected.shape
        numpy.testing.assert_allclose(z.array, expected, rtol=1e-12)
        gy = _f64(expected.shape, -1, 1, seed=3)
        z.grad = gy
        z.backward()
        assert x.grad.shape == lshape and y.grad.shape == rshape
        numpy.testing.assert_allclose(
            x.grad, _numeric_grad(op, (a, b), 0, gy), rtol=1e-5, atol=1e-8)
        numpy.testing.assert_allclose(
            y.grad, _numeric_grad(op, (a, b), 1, gy), rtol=1e-5, atol=1e-8)

    @pytest.mark.parametrize('name,op', _BINARY)
    @pytest.mark.parametrize('scalar', [3, 1.5, numpy.float32(2.5)])
    def test_variable_with_scalar(self, name, op, scalar):
        a = _f64((2, 3))
        x = Variable(a)
        for lhs_is_var in (True, False):
            x.cleargrad()
            z = op(x, scalar) if lhs_is_var else op(scalar, x)
            assert isinstance(z, Variable)
            assert z.dtype == a.dtype
            fn = (lambda v: op(v, float(scalar))) if lhs_is_var else \
                (lambda v: op(float(scalar), v))
            # 1e-6: a float32 scalar carries float32 precision into the op.
            numpy.testing.assert_allclose(z.array, fn(a), rtol=1e-6)
            z.grad = numpy.ones_like(a)
            z.backward()
            numpy.testing.assert_allclose(
                x.grad, _numeric_grad(fn, (a,), 0, 1.0), rtol=1e-5)

    @pytest.mark.parametrize('name,op', _BINARY)
    def test_numpy_array_on_the_left(self, name, op):
        a, b = _f64((2, 3), seed=4), _f64((3,), seed=5)
        y = Variable(b)
        # __array_priority__ makes NumPy hand the operation to Variable
        # instead of looping over the Variable as an object.
        z = op(a, y)
        assert type(z) is Variable
        numpy.testing.assert_allclose(z.array, op(a, b), rtol=1e-12)
        z.grad = numpy.ones((2, 3))
        z.backward()
        numpy.testing.assert_allclose(
            y.grad, _numeric_grad(op, (a, b), 1, 1.0), rtol=1e-5)

    @pytest.mark.parametrize('name,op', _BINARY)
    def test_numpy_array_on_the_right(self, name, op):
        a, b = _f64((3,), seed=6), _f64((2, 3), seed=7)
        x = Variable(a)
        z = op(x, b)
        assert type(z) is Variable
        numpy.testing.assert_allclose(z.array, op(a, b), rtol=1e-12)

    def test_array_priority(self):
        assert Variable.__array_priority__ > \
            numpy.zeros(1).__array_priority__

    def test_neg_and_pos(self):
        a = _f64((2, 2)) - 1
        x = Variable(a)
        y = -x
        numpy.testing.assert_array_equal(y.array, -a)
        y.grad = numpy.ones_like(a)
        y.backward()
        numpy.testing.assert_array_equal(x.grad, -numpy.ones_like(a))
        assert +x is x

    def test_mismatched_dtypes_name_the_op(self):
        # An array operand is cast to the variable's dtype as in Chainer;
        # two variables of different dtypes are refused.
        x = Variable(numpy.ones(3, numpy.float32))
        assert (x + numpy.ones(3, numpy.float64)).dtype == numpy.float32
        with pytest.raises(chainer.utils.type_check.InvalidType,
                           match=r'_ \+ _'):
            x + Variable(numpy.ones(3, numpy.float64))

    def test_unsupported_operand(self):
        x = Variable(numpy.ones(3))
        with pytest.raises(TypeError):
            x + 'a'

    @pytest.mark.skipif(not hasattr(F, 'matmul'),
                        reason='F.matmul is not available')
    def test_matmul(self):
        a, b = _f64((2, 3), seed=8), _f64((3, 4), seed=9)
        x, w = Variable(a), Variable(b)
        for z in (x @ w, a @ w, x @ b):
            assert type(z) is Variable
            numpy.testing.assert_allclose(z.array, a @ b, rtol=1e-12)
        z = x @ w
        z.grad = numpy.ones((2, 4))
        z.backward()
        numpy.testing.assert_allclose(x.grad, numpy.ones((2, 4)) @ b.T)
        numpy.testing.assert_allclose(w.grad, a.T @ numpy.ones((2, 4)))


@pytest.mark.skipif(not hasattr(F, 'get_item'),
                    reason='F.get_item is not available')
class TestVariableGetItem:

    @pytest.mark.parametrize('key', [
        1, -1, slice(1, 3), (slice(None), 0), (Ellipsis, 1), (None, 0),
        (slice(None, None, 2), slice(1, None)),
    ])
    def test_basic_indexing(self, key):
        a = numpy.arange(12, dtype=numpy.float32).reshape(3, 4)
        x = Variable(a)
        y = x[key]
        assert isinstance(y, Variable)
        numpy.testing.assert_array_equal(y.array, a[key])
        y.grad = numpy.ones_like(a[key])
        y.backward()
        expected = numpy.zeros_like(a)
        expected[key] += 1
        numpy.testing.assert_array_equal(x.grad, expected)


class TestVariableBackward:

    def test_scalar_gets_a_unit_gradient(self):
        x = Variable(numpy.array([1.0, 2.0, 3.0]))
        y = F.sum(x * x)
        y.backward()
        numpy.testing.assert_allclose(x.grad, 2 * x.array)

    @pytest.mark.parametrize('shape', [(2,), (2, 3), (0,)])
    def test_non_scalar_without_grad_names_the_shape(self, shape):
        x = Variable(numpy.ones(shape))
        y = x * 2.0
        with pytest.raises(ValueError, match=r'\({}'.format(shape[0])):
            y.backward()

    def test_single_element_non_scalar_warns(self):
        x = Variable(numpy.ones((1,)))
        y = x * 3.0
        with pytest.warns(DeprecationWarning):
            y.backward()
        numpy.testing.assert_array_equal(x.grad, [3.0])

    def test_given_gradient(self):
        x = Variable(numpy.ones(3))
        y = x * 3.0
        y.grad = numpy.array([1.0, 2.0, 3.0])
        y.backward()
        numpy.testing.assert_array_equal(x.grad, [3.0, 6.0, 9.0])

    def test_leaf_gradients_accumulate_across_backward_calls(self):
        x = Variable(numpy.array([1.0, 2.0]))
        F.sum(x * x).backward()
        F.sum(x * 3.0).backward()
        numpy.testing.assert_allclose(x.grad, 2 * x.array + 3.0)

    def test_cleargrad_between_backward_calls(self):
        x = Variable(numpy.array([1.0, 2.0]))
        F.sum(x * x).backward()
        x.cleargrad()
        F.sum(x * 3.0).backward()
        numpy.testing.assert_allclose(x.grad, [3.0, 3.0])

    def test_intermediate_gradients_are_dropped_by_default(self):
        x = Variable(numpy.array([1.0, 2.0]))
        h = x * 2.0
        y = F.sum(h * h)
        y.backward()
        assert h.grad is None
        # The starting gradient is consumed too, as in Chainer v7.
        assert y.grad is None
        assert x.grad is not None

    def test_retain_grad(self):
        x = Variable(numpy.array([1.0, 2.0]))
        h = x * 2.0
        y = F.sum(h * h)
        y.backward(retain_grad=True)
        numpy.testing.assert_allclose(h.grad, 2 * h.array)
        numpy.testing.assert_allclose(y.grad, 1.0)
        numpy.testing.assert_allclose(x.grad, 8 * x.array)

    def test_backward_of_a_leaf(self):
        x = Variable(numpy.array(3.0))
        x.backward()
        assert x.grad == 1.0

    def test_requires_grad_false_gets_no_gradient(self):
        x = Variable(numpy.array([1.0, 2.0]), requires_grad=False)
        w = Variable(numpy.array([3.0, 4.0]))
        F.sum(x * w).backward()
        assert x.grad is None
        numpy.testing.assert_array_equal(w.grad, [1.0, 2.0])

    @pytest.mark.parametrize('loss_scale', [2.0, 128.0])
    def test_loss_scale_scales_the_gradients(self, loss_scale):
        x = Variable(numpy.array([1.0, 2.0]))
        F.sum(x * x).backward(loss_scale=loss_scale)
        numpy.testing.assert_allclose(x.grad, loss_scale * 2 * x.array)
        assert x._loss_scale == loss_scale

    def test_without_double_backprop_the_gradient_has_no_graph(self):
        x = Variable(numpy.array([1.0, 2.0]))
        F.sum(x * x * x).backward()
        assert x.grad_var.creator is None

    def test_enable_double_backprop(self):
        x = Variable(numpy.array([1.0, 2.0]))
        F.sum(x * x * x).backward(enable_double_backprop=True)
        gx = x.grad_var
        assert gx.creator is not None
        numpy.testing.assert_allclose(gx.array, 3 * x.array ** 2)
        x.cleargrad()
        F.sum(gx).backward()
        numpy.testing.assert_allclose(x.grad, 6 * x.array)

    def test_no_warnings_on_plain_use(self):
        with warnings.catch_warnings():
            warnings.simplefilter('error')
            x = Variable(numpy.array([1.0, 2.0]))
            F.sum(x * x).backward()
            x.cleargrad()

    def test_enable_backprop_is_restored(self):
        x = Variable(numpy.array(2.0))
        (x * x).backward(enable_double_backprop=True)
        assert chainer.config.enable_backprop is True
        y = x * x
        assert y.creator is not None


class TestVariableUnchain:

    def test_unchain_makes_a_leaf(self):
        x = Variable(numpy.array([1.0, 2.0]))
        h = x * 2.0
        assert h.creator is not None
        h.unchain()
        assert h.creator is None
        assert h.rank == 0
        y = F.sum(h * h)
        y.backward()
        assert x.grad is None
        numpy.testing.assert_allclose(h.grad, 2 * h.array)

    def test_creator_node_set_to_none_is_unchain(self):
        x = Variable(numpy.array([1.0]))
        h = x * 2.0
        creator = h.creator_node
        h.creator_node = None
        assert h.creator_node is None
        h.creator_node = creator
        assert h.creator_node is creator
        assert h.rank == creator.rank + 1

    def test_unchain_backward(self):
        x = Variable(numpy.array([1.0, 2.0]))
        h1 = x * 2.0
        h2 = h1 + 1.0
        y = h2 * 3.0
        y.unchain_backward()
        assert y.creator is None
        assert h2.creator is None
        assert h1.creator is None

    def test_unchain_backward_keeps_the_graph_after_the_variable(self):
        x = Variable(numpy.array([1.0, 2.0]))
        h = x * 2.0
        y = F.sum(h * h)
        h.unchain_backward()
        assert y.creator is not None
        y.backward()
        assert x.grad is None
        numpy.testing.assert_allclose(h.grad, 2 * h.array)

    def test_unchain_of_a_leaf_is_harmless(self):
        x = Variable(numpy.array([1.0]))
        x.unchain()
        x.unchain_backward()
        assert x.creator is None


class TestVariableDevice:

    def test_to_device_numpy(self):
        a = numpy.arange(3.0)
        x = Variable(a, grad=numpy.ones(3))
        x.to_device('@numpy')
        assert isinstance(x.array, numpy.ndarray)
        numpy.testing.assert_array_equal(x.array, a)
        numpy.testing.assert_array_equal(x.grad, numpy.ones(3))

    def test_to_device_with_a_device_object(self):
        x = Variable(numpy.arange(3.0))
        x.to_device(chainer.get_device(-1))
        assert x.device.name == '@numpy'

    def test_to_cpu(self):
        x = Variable(numpy.arange(3.0))
        x.to_cpu()
        assert x.xp is numpy

    def test_to_device_of_an_uninitialized_variable(self):
        x = Variable()
        x.to_device('@numpy')
        assert x.device.name == '@numpy'

    def test_to_device_unknown_spec(self):
        with pytest.raises(ValueError, match='@nowhere'):
            Variable(numpy.zeros(1)).to_device('@nowhere')


class TestVariableCopydata:

    def test_copies_into_the_existing_array(self):
        a = numpy.zeros(3)
        x = Variable(a)
        y = Variable(numpy.array([1.0, 2.0, 3.0]))
        x.copydata(y)
        assert x.array is a
        numpy.testing.assert_array_equal(a, [1.0, 2.0, 3.0])
        y.array[0] = 9
        assert a[0] == 1.0

    def test_shape_mismatch(self):
        x = Variable(numpy.zeros(3))
        with pytest.raises(ValueError, match='shape'):
            x.copydata(Variable(numpy.zeros(4)))

    def test_into_an_uninitialized_variable(self):
        x = Variable()
        y = Variable(numpy.array([1.0, 2.0]))
        x.copydata(y)
        numpy.testing.assert_array_equal(x.array, y.array)
        assert x.array is not y.array

    def test_both_uninitialized(self):
        x = Variable()
        x.copydata(Variable())
        assert x.array is None


class TestVariableRepr:

    def test_repr(self):
        x = Variable(numpy.array([1.0, 2.0], numpy.float32))
        assert repr(x) == 'variable([1., 2.])'

    def test_str(self):
        x = Variable(numpy.array([1.0, 2.0], numpy.float32))
        assert str(x) == 'variable([1. 2.])'

    def test_named(self):
        x = Variable(numpy.array([1.0, 2.0], numpy.float32), name='w')
        assert repr(x) == 'variable w([1., 2.])'
        assert str(x) == 'variable w([1. 2.])'

    def test_multiline_rows_align_under_the_name(self):
        x = Variable(numpy.zeros((2, 2)), name='w')
        lines = repr(x).splitlines()
        assert lines[0] == 'variable w([[0., 0.],'
        assert lines[1] == '            [0., 0.]])'

    def test_none(self):
        assert repr(Variable()) == 'variable(None)'
        assert str(Variable(name='a')) == 'variable a(None)'

    def test_empty_shapes(self):
        assert repr(Variable(numpy.zeros((0,)))) == 'variable([])'
        assert repr(Variable(numpy.zeros((2, 0)))) == \
            'variable([], shape=(2, 0))'

    def test_scalar(self):
        assert repr(Variable(numpy.array(3.0))) == 'variable(3.)'


class TestVariableComparison:

    @pytest.mark.parametrize('op', [operator.eq, operator.ne, operator.lt,
                                    operator.le, operator.gt, operator.ge])
    def test_comparisons_raise(self, op):
        x = Variable(numpy.zeros(2))
        y = Variable(numpy.zeros(2))
        with pytest.raises(TypeError):
            op(x, y)

    def test_bool_raises(self):
        with pytest.raises(TypeError):
            bool(Variable(numpy.array(1.0)))
        with pytest.raises(TypeError):
            if Variable(numpy.array(1.0)):
                pass

    def test_hashable_by_identity(self):
        x = Variable(numpy.zeros(1))
        assert {x: 1}[x] == 1


class TestVariableCopyAndPickle:

    def _make(self):
        x = Variable(numpy.arange(3.0), name='x',
                     grad=numpy.full(3, 0.5))
        return x

    def test_pickle(self):
        x = self._make()
        y = pickle.loads(pickle.dumps(x))
        assert type(y) is Variable
        numpy.testing.assert_array_equal(y.array, x.array)
        numpy.testing.assert_array_equal(y.grad, x.grad)
        assert y.name == 'x'
        assert y.requires_grad

    def test_pickle_drops_the_graph(self):
        x = Variable(numpy.arange(3.0))
        y = x * 2.0
        z = pickle.loads(pickle.dumps(y))
        assert z.creator is None
        numpy.testing.assert_array_equal(z.array, y.array)

    def test_pickle_keeps_requires_grad(self):
        x = Variable(numpy.zeros(1), requires_grad=False)
        assert not pickle.loads(pickle.dumps(x)).requires_grad

    def test_copy_shares_the_array(self):
        x = self._make()
        y = copy.copy(x)
        assert y is not x
        assert y.array is x.array
        assert y.name == 'x'

    def test_copy_of_an_intermediate_is_a_leaf(self):
        x = Variable(numpy.arange(3.0))
        y = copy.copy(x * 2.0)
        assert y.creator is None

    def test_copy_has_its_own_name(self):
        x = self._make()
        y = copy.copy(x)
        y.name = 'y'
        assert x.name == 'x'

    def test_deepcopy(self):
        x = self._make()
        y = copy.deepcopy(x)
        assert y.array is not x.array
        numpy.testing.assert_array_equal(y.array, x.array)
        assert y.grad is not x.grad
        numpy.testing.assert_array_equal(y.grad, x.grad)
        y.array[0] = 100
        assert x.array[0] == 0

    def test_deepcopy_in_a_container_keeps_identity(self):
        x = self._make()
        a, b = copy.deepcopy([x, x])
        assert a is b


class TestAsVariableAndAsArray:

    def test_as_variable_of_an_array(self):
        a = numpy.zeros(2)
        x = chainer.as_variable(a)
        assert isinstance(x, Variable)
        assert x.array is a
        assert not x.requires_grad

    def test_as_variable_of_a_variable(self):
        x = Variable(numpy.zeros(2))
        assert chainer.as_variable(x) is x

    def test_as_array(self):
        a = numpy.zeros(2)
        assert chainer.as_array(Variable(a)) is a
        assert chainer.as_array(a) is a
