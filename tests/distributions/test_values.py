"""Values of every distribution against float64 references: log_prob,
prob, the distribution functions and their inverse, the summary
properties, in float32 and float64, with the shapes and dtypes Chainer
gives."""
import numpy
import pytest

import chainer_core as chainer

from . import DTYPES, assert_close
from .specs import METHODS, PROPERTIES, SPECS

SEED = 7


def _setup(spec, dtype):
    rng = numpy.random.default_rng(SEED)
    p = spec.params(rng)
    x = spec.points(rng, p)
    return p, x, spec.build(p, dtype)


@pytest.mark.parametrize('spec', SPECS, ids=repr)
class TestShapes:

    def test_shapes_params_support(self, spec):
        p, _, d = _setup(spec, numpy.float64)
        assert d.batch_shape == spec.batch_shape
        assert d.event_shape == spec.event_shape
        assert isinstance(d.params, dict)
        for v in d.params.values():
            assert isinstance(v, chainer.Variable)
        assert d.support == spec.support
        assert d.xp is numpy

    @pytest.mark.parametrize('sample_shape', [(), 5, (2, 3)])
    def test_sample_shape(self, spec, sample_shape):
        _, _, d = _setup(spec, numpy.float64)
        s = d.sample(sample_shape)
        lead = (sample_shape,) if isinstance(sample_shape, int) \
            else sample_shape
        assert s.shape == lead + spec.batch_shape + spec.event_shape
        assert d.sample_n(4).shape == \
            (4,) + spec.batch_shape + spec.event_shape


@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('spec', SPECS, ids=repr)
class TestValues:

    def test_log_prob_and_prob(self, spec, dtype):
        p, x, d = _setup(spec, dtype)
        expected = spec.refs['log_prob'](x, p)
        y = d.log_prob(x.astype(dtype))
        assert y.dtype == dtype
        assert y.shape == (4,) + spec.batch_shape
        assert_close(y, expected, dtype, scale=10)
        assert_close(d.prob(x.astype(dtype)), numpy.exp(expected), dtype,
                     scale=10)

    def test_methods(self, spec, dtype):
        p, x, d = _setup(spec, dtype)
        for name in METHODS[1:]:
            if name not in spec.refs:
                continue
            y = getattr(d, name)(x.astype(dtype))
            assert y.dtype == dtype
            assert_close(y, spec.refs[name](x, p), dtype, scale=10)
            # The log forms agree with the logarithms of the references.
            log_ref = spec.refs.get('log_' + name)
            expected = numpy.log(spec.refs[name](x, p)) if log_ref is None \
                else log_ref(x, p)
            y = getattr(d, 'log_' + name)(x.astype(dtype))
            assert_close(y, expected, dtype, scale=10)

    def test_icdf(self, spec, dtype):
        if 'icdf' not in spec.refs:
            pytest.skip('no inverse distribution function')
        p, _, d = _setup(spec, dtype)
        q = spec.probs(numpy.random.default_rng(SEED + 1))
        y = d.icdf(q.astype(dtype))
        assert y.dtype == dtype
        assert_close(y, spec.refs['icdf'](q, p), dtype, scale=50)

    def test_properties(self, spec, dtype):
        p, _, d = _setup(spec, dtype)
        checked = 0
        for name in PROPERTIES:
            if name not in spec.refs:
                continue
            y = getattr(d, name)
            assert y.dtype == dtype, name
            expected = spec.refs[name](p)
            assert y.shape == numpy.shape(expected), name
            assert_close(y, expected, dtype, scale=10)
            checked += 1
        assert checked >= 1

    def test_stddev_is_root_of_variance(self, spec, dtype):
        if 'variance' not in spec.refs:
            pytest.skip('no variance')
        p, _, d = _setup(spec, dtype)
        assert_close(d.stddev, numpy.sqrt(spec.refs['variance'](p)), dtype,
                     scale=10)

    def test_outside_support(self, spec, dtype):
        if spec.outside is None:
            pytest.skip('support is the whole space')
        p, _, d = _setup(spec, dtype)
        x = numpy.broadcast_to(spec.outside(p),
                               (2,) + spec.batch_shape).astype(dtype)
        y = d.log_prob(x)
        assert numpy.all(y.array == -numpy.inf)
        assert numpy.all(d.prob(x).array == 0)

    def test_log_prob_of_a_variable_point(self, spec, dtype):
        _, x, d = _setup(spec, dtype)
        y1 = d.log_prob(chainer.Variable(x.astype(dtype)))
        y2 = d.log_prob(x.astype(dtype))
        numpy.testing.assert_array_equal(y1.array, y2.array)

    def test_log_prob_broadcasts_a_point(self, spec, dtype):
        # One point of the event shape is compared with the whole batch.
        _, x, d = _setup(spec, dtype)
        one = x[0].reshape((-1,) + spec.event_shape)[0].astype(dtype)
        y = d.log_prob(one)
        full = numpy.broadcast_to(one, spec.batch_shape + spec.event_shape)
        assert y.shape == spec.batch_shape
        numpy.testing.assert_allclose(y.array, d.log_prob(full).array)
