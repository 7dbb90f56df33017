"""The random initializers: their distributions against the fans, the
orthogonal and identity matrices, dtypes and random generators."""
import math

import numpy
import pytest

import chainer_core as chainer
from chainer_core import initializers


_FLOATS = [numpy.float16, numpy.float32, numpy.float64]

# (class, uniform?, fan used by default, gain): the normal ones draw with
# std scale * sqrt(gain / fan), the uniform ones on
# ±scale * sqrt(3 * gain / fan).
_FAN_SCALED = [
    (initializers.LeCunNormal, False, 'fan_in', 1.0),
    (initializers.LeCunUniform, True, 'fan_in', 1.0),
    (initializers.GlorotNormal, False, 'fan_avg', 1.0),
    (initializers.GlorotUniform, True, 'fan_avg', 1.0),
    (initializers.HeNormal, False, 'fan_in', 2.0),
    (initializers.HeUniform, True, 'fan_in', 2.0),
]
_IDS = [c[0].__name__ for c in _FAN_SCALED]

# 2-D weights (out, in) and convolution weights (out, in, kh, kw).
_SHAPES = [(300, 200), (64, 32, 3, 3), (16, 8, 4, 3, 5)]


def _fan(shape, option):
    fan_in, fan_out = initializers.get_fans(shape)
    return {'fan_in': fan_in, 'fan_out': fan_out,
            'fan_avg': (fan_in + fan_out) / 2}[option]


def _draw(init, shape, dtype=numpy.float64):
    a = numpy.empty(shape, dtype)
    init(a)
    return a


def _check_distribution(a, uniform, bound_or_std):
    a = a.astype(numpy.float64)
    assert abs(a.mean()) < 0.05 * bound_or_std
    if uniform:
        assert a.max() <= bound_or_std and a.min() >= -bound_or_std
        # The extremes of many draws come close to the bounds.
        assert a.max() > 0.98 * bound_or_std
        assert a.min() < -0.98 * bound_or_std
        numpy.testing.assert_allclose(a.std(), bound_or_std / math.sqrt(3),
                                      rtol=0.03)
    else:
        numpy.testing.assert_allclose(a.std(), bound_or_std, rtol=0.03)
        # Normal: 95.45% of the draws within two deviations.
        inside = numpy.mean(numpy.abs(a) < 2 * bound_or_std)
        assert abs(inside - 0.9545) < 0.012


class TestGetFans:

    @pytest.mark.parametrize('shape,fans', [
        ((3, 4), (4, 3)),
        ((5, 2, 3, 3), (18, 45)),
        ((5, 2, 1, 2, 3), (12, 30)),
        ((1, 1), (1, 1)),
    ])
    def test_fans(self, shape, fans):
        assert initializers.get_fans(shape) == fans

    @pytest.mark.parametrize('shape', [(), (3,)])
    def test_too_few_axes(self, shape):
        with pytest.raises(ValueError, match='2 axes'):
            initializers.get_fans(shape)

    @pytest.mark.parametrize('shape', [[3, 4], numpy.array([3, 4]), 3])
    def test_not_a_tuple(self, shape):
        with pytest.raises(ValueError):
            initializers.get_fans(shape)


class TestFanScaled:

    @pytest.mark.parametrize('cls,uniform,option,gain', _FAN_SCALED,
                             ids=_IDS)
    @pytest.mark.parametrize('shape', _SHAPES)
    @pytest.mark.parametrize('scale', [1.0, 0.5])
    def test_distribution(self, cls, uniform, option, gain, shape, scale):
        a = _draw(cls(scale=scale, rng=numpy.random.RandomState(0)), shape)
        fan = _fan(shape, option)
        factor = 3.0 * gain if uniform else gain
        _check_distribution(a, uniform, scale * math.sqrt(factor / fan))

    @pytest.mark.parametrize('cls,uniform,option,gain', _FAN_SCALED,
                             ids=_IDS)
    @pytest.mark.parametrize('fan_option', ['fan_in', 'fan_out', 'fan_avg'])
    def test_fan_option(self, cls, uniform, option, gain, fan_option):
        shape = (40, 10, 3, 3)
        init = cls(fan_option=fan_option, rng=numpy.random.RandomState(1))
        assert init.fan_option == fan_option
        a = _draw(init, shape)
        factor = 3.0 * gain if uniform else gain
        _check_distribution(a, uniform,
                            math.sqrt(factor / _fan(shape, fan_option)))

    @pytest.mark.parametrize('cls,uniform,option,gain', _FAN_SCALED,
                             ids=_IDS)
    def test_defaults(self, cls, uniform, option, gain):
        init = cls()
        assert init.scale == 1.0
        assert init.dtype is None
        assert init.fan_option == option
        assert init.rng is None

    def test_he_normal_positional_fan_option(self):
        init = initializers.HeNormal(1.0, None, 'fan_out')
        assert init.fan_option == 'fan_out'

    @pytest.mark.parametrize('cls', [c[0] for c in _FAN_SCALED], ids=_IDS)
    def test_bad_fan_option(self, cls):
        with pytest.raises(ValueError, match='fan_option'):
            cls(fan_option='fan_sum')

    @pytest.mark.parametrize('cls', [c[0] for c in _FAN_SCALED], ids=_IDS)
    def test_needs_two_axes(self, cls):
        with pytest.raises(ValueError):
            cls()(numpy.empty(5))

    def test_lecun_normal_is_what_links_use_by_default(self):
        numpy.random.seed(3)
        w = chainer.links.Linear(400, 300).W.array
        _check_distribution(w.astype(numpy.float64), False,
                            math.sqrt(1.0 / 400))


class TestNormalUniform:

    @pytest.mark.parametrize('scale', [0.05, 2.0])
    def test_normal(self, scale):
        init = initializers.Normal(scale, rng=numpy.random.RandomState(0))
        _check_distribution(_draw(init, (200, 100)), False, scale)

    @pytest.mark.parametrize('scale', [0.05, 2.0])
    def test_uniform(self, scale):
        init = initializers.Uniform(scale, rng=numpy.random.RandomState(0))
        _check_distribution(_draw(init, (200, 100)), True, scale)

    def test_defaults(self):
        assert initializers.Normal().scale == 0.05
        assert initializers.Uniform().scale == 0.05

    @pytest.mark.parametrize('cls', [initializers.Normal,
                                     initializers.Uniform])
    def test_any_shape(self, cls):
        for shape in [(), (7,), (2, 3, 4)]:
            a = _draw(cls(), shape)
            assert a.shape == shape and numpy.isfinite(a).all()


_ALL_RANDOM = [
    initializers.Normal, initializers.Uniform, initializers.Orthogonal,
] + [c[0] for c in _FAN_SCALED]


class TestRng:

    @pytest.mark.parametrize('cls', _ALL_RANDOM, ids=lambda c: c.__name__)
    @pytest.mark.parametrize('make_rng', [
        numpy.random.RandomState, numpy.random.default_rng],
        ids=['RandomState', 'Generator'])
    def test_same_seed_same_array(self, cls, make_rng):
        a = _draw(cls(rng=make_rng(42)), (6, 4))
        b = _draw(cls(rng=make_rng(42)), (6, 4))
        c = _draw(cls(rng=make_rng(43)), (6, 4))
        numpy.testing.assert_array_equal(a, b)
        assert not numpy.array_equal(a, c)

    @pytest.mark.parametrize('cls', _ALL_RANDOM, ids=lambda c: c.__name__)
    def test_rng_does_not_touch_the_global_state(self, cls):
        numpy.random.seed(0)
        expected = numpy.random.uniform()
        numpy.random.seed(0)
        _draw(cls(rng=numpy.random.RandomState(1)), (4, 4))
        assert numpy.random.uniform() == expected

    @pytest.mark.parametrize('cls', _ALL_RANDOM, ids=lambda c: c.__name__)
    def test_without_rng_the_global_state_is_used(self, cls):
        numpy.random.seed(5)
        a = _draw(cls(), (4, 4))
        numpy.random.seed(5)
        b = _draw(cls(), (4, 4))
        numpy.testing.assert_array_equal(a, b)

    def test_successive_calls_differ(self):
        init = initializers.Normal(rng=numpy.random.RandomState(0))
        assert not numpy.array_equal(_draw(init, (3,)), _draw(init, (3,)))


class TestDtype:

    @pytest.mark.parametrize('cls', _ALL_RANDOM + [initializers.Identity],
                             ids=lambda c: c.__name__)
    @pytest.mark.parametrize('dtype', _FLOATS)
    def test_fills_the_array_dtype(self, cls, dtype):
        a = _draw(cls(), (4, 4), dtype)
        assert a.dtype == dtype and numpy.isfinite(a).all()

    @pytest.mark.parametrize('cls', _ALL_RANDOM + [initializers.Identity],
                             ids=lambda c: c.__name__)
    @pytest.mark.parametrize('dtype', [numpy.float16, 'float64',
                                       numpy.dtype(numpy.float32)])
    def test_initializer_dtype(self, cls, dtype):
        init = cls(dtype=dtype)
        assert init.dtype == dtype
        a = _draw(init, (4, 4), dtype)
        assert a.dtype == numpy.dtype(dtype)
        other = numpy.float64 if numpy.dtype(dtype) != numpy.float64 \
            else numpy.float32
        with pytest.raises(ValueError, match='dtype'):
            init(numpy.empty((4, 4), other))

    @pytest.mark.parametrize('cls', _ALL_RANDOM + [initializers.Identity],
                             ids=lambda c: c.__name__)
    def test_generate_array_dtypes(self, cls):
        a = initializers.generate_array(cls(), (3, 3), numpy)
        assert a.dtype == chainer.config.dtype
        with chainer.using_config('dtype', numpy.dtype(numpy.float16)):
            assert initializers.generate_array(
                cls(), (3, 3), numpy).dtype == numpy.float16
            # The initializer's dtype wins over config.dtype ...
            assert initializers.generate_array(
                cls(dtype=numpy.float64), (3, 3), numpy).dtype == \
                numpy.float64
        # ... and the explicit argument over both, when they agree.
        assert initializers.generate_array(
            cls(), (3, 3), numpy, dtype=numpy.float64).dtype == numpy.float64
        with pytest.raises(ValueError, match='dtype'):
            initializers.generate_array(cls(dtype=numpy.float16), (3, 3),
                                        numpy, dtype=numpy.float32)

    def test_float16_statistics(self):
        a = _draw(initializers.HeNormal(rng=numpy.random.RandomState(0)),
                  (300, 200), numpy.float16)
        _check_distribution(a, False, math.sqrt(2.0 / 200))


def _gram(m, rows):
    return m.dot(m.T) if rows else m.T.dot(m)


class TestOrthogonal:

    @pytest.mark.parametrize('shape', [(5, 5), (3, 8), (8, 3), (4, 2, 3, 3),
                                       (20, 2, 2), (7,)])
    @pytest.mark.parametrize('scale', [1.0, 1.1, 0.3])
    def test_orthonormal(self, shape, scale):
        a = _draw(initializers.Orthogonal(scale, rng=numpy.random.RandomState(
            0)), shape)
        m = a.reshape(shape[0], -1)
        rows, cols = m.shape
        # The fewer of rows and columns are orthonormal (times scale).
        gram = _gram(m, rows <= cols)
        numpy.testing.assert_allclose(
            gram, scale ** 2 * numpy.eye(min(rows, cols)), atol=1e-10)

    def test_square_is_orthogonal_both_ways(self):
        a = _draw(initializers.Orthogonal(1.0), (6, 6))
        numpy.testing.assert_allclose(a.dot(a.T), numpy.eye(6), atol=1e-10)
        numpy.testing.assert_allclose(a.T.dot(a), numpy.eye(6), atol=1e-10)

    def test_default_scale(self):
        init = initializers.Orthogonal()
        assert init.scale == 1.1 and init.mode == 'auto'
        a = _draw(init, (4, 4))
        numpy.testing.assert_allclose(a.dot(a.T), 1.21 * numpy.eye(4),
                                      atol=1e-10)

    @pytest.mark.parametrize('dtype', _FLOATS)
    def test_dtypes(self, dtype):
        a = _draw(initializers.Orthogonal(1.0), (8, 8), dtype)
        tol = {numpy.float16: 1e-2, numpy.float32: 1e-5,
               numpy.float64: 1e-10}[dtype]
        m = a.astype(numpy.float64)
        numpy.testing.assert_allclose(m.dot(m.T), numpy.eye(8), atol=tol)

    def test_basis_mode(self):
        a = _draw(initializers.Orthogonal(1.0, mode='basis'), (3, 5))
        numpy.testing.assert_allclose(a.dot(a.T), numpy.eye(3), atol=1e-10)
        _draw(initializers.Orthogonal(mode='basis'), (4, 4))
        with pytest.raises(ValueError, match='basis'):
            _draw(initializers.Orthogonal(mode='basis'), (5, 3))

    def test_embedding_mode(self):
        a = _draw(initializers.Orthogonal(1.0, mode='embedding'), (5, 3))
        numpy.testing.assert_allclose(a.T.dot(a), numpy.eye(3), atol=1e-10)
        _draw(initializers.Orthogonal(mode='embedding'), (4, 4))
        with pytest.raises(ValueError, match='embedding'):
            _draw(initializers.Orthogonal(mode='embedding'), (3, 5))

    def test_refused_mode_leaves_the_random_state(self):
        rng = numpy.random.RandomState(0)
        with pytest.raises(ValueError):
            _draw(initializers.Orthogonal(mode='basis', rng=rng), (5, 3))
        assert rng.uniform() == numpy.random.RandomState(0).uniform()

    def test_bad_mode(self):
        with pytest.raises(ValueError, match='mode'):
            initializers.Orthogonal(mode='rows')

    def test_scalar(self):
        seen = set()
        for seed in range(20):
            a = _draw(initializers.Orthogonal(
                2.0, rng=numpy.random.RandomState(seed)), ())
            seen.add(float(a))
        assert seen == {2.0, -2.0}

    @pytest.mark.parametrize('shape', [(0, 3), (3, 0), (0,)])
    def test_empty(self, shape):
        with pytest.raises(ValueError, match='non-empty'):
            _draw(initializers.Orthogonal(), shape)

    def test_distribution_has_no_sign_bias(self):
        # Without the sign correction, QR's diagonal convention would make
        # the first entries of Q systematically one-signed.
        firsts = [_draw(initializers.Orthogonal(
            1.0, rng=numpy.random.RandomState(s)), (3, 3))[0, 0]
            for s in range(400)]
        assert 0.4 < numpy.mean(numpy.array(firsts) > 0) < 0.6


class TestIdentity:

    @pytest.mark.parametrize('scale', [1.0, 0.5, -2.0])
    @pytest.mark.parametrize('dtype', _FLOATS)
    def test_identity(self, scale, dtype):
        a = _draw(initializers.Identity(scale), (4, 4), dtype)
        numpy.testing.assert_array_equal(a, scale * numpy.eye(4))
        assert a.dtype == dtype

    def test_default_scale(self):
        a = _draw(initializers.Identity(), (2, 2))
        numpy.testing.assert_array_equal(a, numpy.eye(2))

    @pytest.mark.parametrize('shape', [(3, 4), (3,), (2, 2, 2), ()])
    def test_needs_a_square_matrix(self, shape):
        with pytest.raises(ValueError, match='square'):
            initializers.Identity()(numpy.empty(shape))

    def test_in_a_link(self):
        lin = chainer.links.Linear(3, 3, initialW=initializers.Identity())
        x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
        numpy.testing.assert_array_equal(lin(x).array, x)
