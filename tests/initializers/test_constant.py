"""Constant initializers and generate_array."""
import types

import numpy
import pytest

import chainer_core as chainer
from chainer_core import initializers


_FLOATS = [numpy.float16, numpy.float32, numpy.float64]


class TestConstant:

    @pytest.mark.parametrize('dtype', _FLOATS)
    @pytest.mark.parametrize('fill', [0.0, 2.5, -3])
    def test_scalar_fill(self, dtype, fill):
        a = numpy.empty((2, 3), dtype)
        initializers.Constant(fill)(a)
        numpy.testing.assert_array_equal(a, numpy.full((2, 3), fill, dtype))

    def test_array_fill_is_broadcast(self):
        a = numpy.empty((2, 3), numpy.float32)
        initializers.Constant(numpy.array([1.0, 2.0, 3.0]))(a)
        numpy.testing.assert_array_equal(a, [[1, 2, 3], [1, 2, 3]])

    def test_unbroadcastable_fill(self):
        with pytest.raises(ValueError):
            initializers.Constant(numpy.ones(4))(numpy.empty((2, 3)))

    def test_dtype_is_only_what_is_given(self):
        # As in Chainer, an array or NumPy scalar fill does not fix the
        # dtype; arrays of config.dtype are made.
        assert initializers.Constant(1.0).dtype is None
        assert initializers.Constant(numpy.ones(2)).dtype is None
        assert initializers.Constant(numpy.float64(1)).dtype is None
        assert initializers.Constant(1.0, numpy.float16).dtype == \
            numpy.float16

    def test_dtype_mismatch(self):
        init = initializers.Constant(1.0, dtype=numpy.float64)
        with pytest.raises(ValueError, match='dtype'):
            init(numpy.empty(2, numpy.float32))

    def test_fill_value_attribute(self):
        assert initializers.Constant(4.0).fill_value == 4.0

    def test_is_an_initializer(self):
        assert isinstance(initializers.Constant(1), initializers.Initializer)


class TestZeroOneNaN:

    @pytest.mark.parametrize('cls,value', [
        (initializers.Zero, 0.0),
        (initializers.One, 1.0),
    ])
    @pytest.mark.parametrize('dtype', _FLOATS)
    def test_fill(self, cls, value, dtype):
        a = numpy.full((3,), 7, dtype)
        cls()(a)
        numpy.testing.assert_array_equal(a, numpy.full((3,), value))

    @pytest.mark.parametrize('dtype', _FLOATS)
    def test_nan(self, dtype):
        a = numpy.zeros(3, dtype)
        initializers.NaN()(a)
        assert numpy.isnan(a).all()

    @pytest.mark.parametrize('cls', [initializers.Zero, initializers.One,
                                     initializers.NaN])
    def test_dtype_argument(self, cls):
        assert cls().dtype is None
        assert cls(numpy.float16).dtype == numpy.float16
        with pytest.raises(ValueError):
            cls(numpy.float16)(numpy.empty(2, numpy.float32))

    @pytest.mark.parametrize('cls', [initializers.Zero, initializers.One])
    def test_integer_arrays(self, cls):
        a = numpy.full(2, 9, numpy.int32)
        cls()(a)
        assert a.dtype == numpy.int32

    def test_base_initializer_is_abstract(self):
        with pytest.raises(NotImplementedError):
            initializers.Initializer()(numpy.empty(1))


class TestGenerateArray:

    def test_config_dtype_by_default(self):
        a = initializers.generate_array(initializers.One(), (2, 3), numpy)
        assert a.shape == (2, 3)
        assert a.dtype == chainer.config.dtype
        numpy.testing.assert_array_equal(a, numpy.ones((2, 3)))

    def test_follows_config_dtype(self):
        with chainer.using_config('dtype', numpy.dtype(numpy.float16)):
            a = initializers.generate_array(initializers.Zero(), (2,), numpy)
        assert a.dtype == numpy.float16

    @pytest.mark.parametrize('dtype', _FLOATS + [numpy.dtype(numpy.float64),
                                                 'float16'])
    def test_dtype_argument(self, dtype):
        a = initializers.generate_array(initializers.One(), (2,), numpy,
                                        dtype=dtype)
        assert a.dtype == numpy.dtype(dtype)

    @pytest.mark.parametrize('dtype', [numpy.float16,
                                       numpy.dtype(numpy.float64)])
    def test_initializer_dtype(self, dtype):
        a = initializers.generate_array(initializers.One(dtype), (2,), numpy)
        assert a.dtype == numpy.dtype(dtype)

    def test_matching_dtypes(self):
        a = initializers.generate_array(initializers.One(numpy.float64), 1,
                                        numpy, dtype=numpy.float64)
        assert a.dtype == numpy.float64

    def test_conflicting_dtypes(self):
        with pytest.raises(ValueError, match='dtype'):
            initializers.generate_array(initializers.One(numpy.float64),
                                        (2,), numpy, dtype=numpy.float32)

    def test_int_shape(self):
        a = initializers.generate_array(initializers.Zero(), 4, numpy)
        assert a.shape == (4,)

    def test_callable_initializer(self):
        def fill(a):
            a[...] = 5

        a = initializers.generate_array(fill, (2,), numpy)
        numpy.testing.assert_array_equal(a, [5, 5])
        assert a.dtype == chainer.config.dtype

    def test_device(self):
        device = chainer.get_device('@numpy')
        a = initializers.generate_array(initializers.One(), (2,), numpy,
                                        device=device)
        assert isinstance(a, numpy.ndarray)
        a = initializers.generate_array(initializers.One(), (2,), numpy,
                                        device='@numpy')
        assert isinstance(a, numpy.ndarray)

    def test_device_and_xp_must_agree(self):
        other_xp = types.SimpleNamespace(empty=numpy.empty)
        with pytest.raises(ValueError, match='xp'):
            initializers.generate_array(initializers.One(), (2,), other_xp,
                                        device='@numpy')


class TestConstantArrays:

    def test_array_dtype_does_not_decide(self):
        fill = numpy.arange(3, dtype=numpy.float64) / 3
        a = initializers.generate_array(initializers.Constant(fill), (2, 3),
                                        numpy)
        assert a.dtype == chainer.config.dtype
        numpy.testing.assert_allclose(a, numpy.tile(fill, (2, 1)), rtol=1e-6)

    def test_array_fill_with_explicit_dtype(self):
        fill = numpy.array([[1, 2], [3, 4]], numpy.int32)
        a = initializers.generate_array(
            initializers.Constant(fill, numpy.float64), (2, 2), numpy)
        assert a.dtype == numpy.float64
        numpy.testing.assert_array_equal(a, fill)

    def test_zero_dim_array_fill(self):
        a = numpy.empty((2, 2), numpy.float32)
        initializers.Constant(numpy.array(-1.5))(a)
        numpy.testing.assert_array_equal(a, numpy.full((2, 2), -1.5))

    def test_fill_array_is_not_aliased(self):
        fill = numpy.ones(3)
        a = numpy.empty(3)
        initializers.Constant(fill)(a)
        a[0] = 5
        assert fill[0] == 1

    def test_fill_is_reused(self):
        init = initializers.Constant(numpy.array([1.0, 2.0]))
        for _ in range(2):
            a = numpy.zeros((3, 2), numpy.float16)
            init(a)
            numpy.testing.assert_array_equal(a, [[1, 2]] * 3)

    def test_integer_arrays_take_float_fills_by_casting(self):
        a = numpy.zeros(2, numpy.int32)
        initializers.Constant(2.0)(a)
        numpy.testing.assert_array_equal(a, [2, 2])
