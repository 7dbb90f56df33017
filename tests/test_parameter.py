"""Parameter: initializers, lazy shapes, gradients, devices, pickling."""
import copy
import pickle

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import Parameter, Variable, initializers


class TestParameterInitialization:

    def test_default_is_uninitialized(self):
        p = Parameter()
        assert p.array is None
        assert not p.is_initialized
        assert isinstance(p, Variable)

    def test_default_initializer_is_nan(self):
        p = Parameter(shape=(2, 3))
        assert p.shape == (2, 3)
        assert numpy.isnan(p.array).all()

    @pytest.mark.parametrize('value', [3, 2.5, numpy.float64(-1.0)])
    def test_scalar_initializer(self, value):
        p = Parameter(value, (2,))
        numpy.testing.assert_array_equal(p.array, [value, value])
        assert p.dtype == chainer.config.dtype

    def test_array_initializer_is_the_data(self):
        a = numpy.arange(3, dtype=numpy.float64)
        p = Parameter(a)
        assert p.array is a
        assert p.dtype == numpy.float64
        assert p.grad is None

    def test_array_initializer_with_a_shape_is_broadcast(self):
        p = Parameter(numpy.array([1.0, 2.0, 3.0]), (2, 3))
        numpy.testing.assert_array_equal(p.array, [[1, 2, 3], [1, 2, 3]])

    def test_callable_initializer(self):
        def fill(a):
            a[...] = numpy.arange(a.size).reshape(a.shape)

        p = Parameter(fill, (2, 2))
        numpy.testing.assert_array_equal(p.array, [[0, 1], [2, 3]])
        assert p.dtype == chainer.config.dtype

    def test_initializer_object(self):
        p = Parameter(initializers.One(), (3,))
        numpy.testing.assert_array_equal(p.array, numpy.ones(3))

    def test_int_shape(self):
        assert Parameter(0, 4).shape == (4,)

    def test_name(self):
        assert Parameter(name='W').name == 'W'


class TestParameterLazyShape:

    def test_initialize(self):
        p = Parameter(initializers.Constant(2.0))
        p.initialize((2, 3))
        assert p.is_initialized
        assert p.shape == (2, 3)
        numpy.testing.assert_array_equal(p.array, numpy.full((2, 3), 2.0))

    @pytest.mark.parametrize('initializer,expected', [
        (initializers.Zero(dtype=numpy.float64), numpy.float64),
        (initializers.Zero(dtype=numpy.float16), numpy.float16),
        (initializers.Zero(), numpy.float32),
        (2.0, numpy.float32),
        (lambda a: None, numpy.float32),
    ])
    def test_dtype_before_initialization(self, initializer, expected):
        p = Parameter(initializer)
        assert p.dtype == numpy.dtype(expected)
        p.initialize((2,))
        assert p.array.dtype == numpy.dtype(expected)

    def test_dtype_before_initialization_follows_config(self):
        p = Parameter(initializers.Zero())
        with chainer.using_config('dtype', numpy.dtype(numpy.float64)):
            assert p.dtype == numpy.float64
            p.initialize((1,))
        assert p.array.dtype == numpy.float64

    def test_used_in_an_op_after_initialize(self):
        p = Parameter(initializers.One())
        p.initialize((3,))
        y = F.sum(p * 2.0)
        p.cleargrad()
        y.backward()
        numpy.testing.assert_array_equal(p.grad, numpy.full(3, 2.0))


class TestParameterGradient:

    def test_shaped_parameter_has_a_nan_gradient(self):
        # Chainer's safeguard: a forgotten cleargrads() shows up as NaN.
        p = Parameter(0.0, (2,))
        assert p.grad.shape == (2,)
        assert p.grad.dtype == p.dtype
        assert numpy.isnan(p.grad).all()

    def test_lazy_parameter_gets_a_nan_gradient_on_initialize(self):
        p = Parameter(initializers.Zero(dtype=numpy.float64))
        assert p.grad is None
        p.initialize((3,))
        assert p.grad.dtype == numpy.float64
        assert numpy.isnan(p.grad).all()

    def test_cleargrad_before_initialize(self):
        p = Parameter(initializers.Zero())
        p.cleargrad()
        p.initialize((3,))
        assert p.grad is None

    def test_zerograd_before_initialize(self):
        p = Parameter(initializers.Zero())
        with pytest.warns(DeprecationWarning):
            p.zerograd()
        p.initialize((3,))
        numpy.testing.assert_array_equal(p.grad, numpy.zeros(3))

    def test_cleargrad(self):
        p = Parameter(1.0, (2,))
        p.cleargrad()
        assert p.grad is None

    def test_zerograd(self):
        p = Parameter(1.0, (2,))
        with pytest.warns(DeprecationWarning):
            p.zerograd()
        numpy.testing.assert_array_equal(p.grad, numpy.zeros(2))

    def test_backward_accumulates_after_cleargrad(self):
        p = Parameter(numpy.array([1.0, 2.0]))
        F.sum(p * p).backward()
        F.sum(p * p).backward()
        numpy.testing.assert_allclose(p.grad, 4 * p.array)

    def test_backward_without_cleargrad_keeps_nan(self):
        p = Parameter(1.0, (2,))
        F.sum(p * 3.0).backward()
        assert numpy.isnan(p.grad).all()

    def test_addgrad_initializes_an_uninitialized_parameter(self):
        p = Parameter(initializers.Zero())
        p.cleargrad()
        src = Variable(numpy.zeros(3, numpy.float32),
                       grad=numpy.ones(3, numpy.float32))
        p.addgrad(src)
        assert p.shape == (3,)
        numpy.testing.assert_array_equal(p.grad, numpy.ones(3))

    def test_copydata_initializes_an_uninitialized_parameter(self):
        p = Parameter(initializers.Zero())
        src = Variable(numpy.arange(3, dtype=numpy.float32))
        p.copydata(src)
        numpy.testing.assert_array_equal(p.array, [0, 1, 2])

    def test_copydata_from_an_uninitialized_parameter(self):
        dst = Variable(numpy.zeros(2, numpy.float32))
        src = Parameter(initializers.One())
        dst.copydata(src)
        assert src.shape == (2,)
        numpy.testing.assert_array_equal(dst.array, numpy.ones(2))


class TestParameterDevice:

    def test_to_device_before_initialize(self):
        p = Parameter(initializers.One())
        p.to_device('@numpy')
        p.initialize((2,))
        assert isinstance(p.array, numpy.ndarray)
        assert p.device.name == '@numpy'

    def test_to_device_after_initialize(self):
        p = Parameter(1.0, (2,))
        p.cleargrad()
        p.to_device(-1)
        assert p.xp is numpy

    def test_to_cpu(self):
        p = Parameter(1.0, (2,))
        p.to_cpu()
        assert isinstance(p.array, numpy.ndarray)

    def test_update_without_a_rule_is_a_no_op(self):
        p = Parameter(1.0, (2,))
        p.update()
        numpy.testing.assert_array_equal(p.array, numpy.ones(2))

    def test_update_calls_the_rule(self):
        calls = []

        class Rule:
            def update(self, param):
                calls.append(param)

        p = Parameter(1.0, (2,))
        p.update_rule = Rule()
        p.update()
        assert calls == [p]


class TestParameterPickleAndCopy:

    def test_pickle_initialized(self):
        p = Parameter(numpy.arange(3.0), name='b')
        p.grad = numpy.ones(3)
        q = pickle.loads(pickle.dumps(p))
        assert type(q) is Parameter
        assert q.name == 'b'
        numpy.testing.assert_array_equal(q.array, p.array)
        numpy.testing.assert_array_equal(q.grad, p.grad)

    def test_pickle_uninitialized_keeps_the_initializer(self):
        p = Parameter(initializers.Constant(4.0, dtype=numpy.float64),
                      name='w')
        q = pickle.loads(pickle.dumps(p))
        assert not q.is_initialized
        assert q.dtype == numpy.float64
        q.initialize((2,))
        numpy.testing.assert_array_equal(q.array, [4.0, 4.0])

    def test_pickle_uninitialized_keeps_the_gradient_initializer(self):
        p = Parameter(initializers.One())
        p.cleargrad()
        q = pickle.loads(pickle.dumps(p))
        q.initialize((2,))
        assert q.grad is None

    def test_deepcopy(self):
        p = Parameter(numpy.arange(3.0), name='w')
        q = copy.deepcopy(p)
        assert type(q) is Parameter
        assert q.array is not p.array
        numpy.testing.assert_array_equal(q.array, p.array)
        assert q.name == 'w'

    def test_copy_shares_the_array(self):
        p = Parameter(numpy.arange(3.0))
        q = copy.copy(p)
        assert type(q) is Parameter
        assert q.array is p.array
