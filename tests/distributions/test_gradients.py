"""Gradients reach the parameters (and continuous points) through
log_prob, the distribution functions, icdf, entropy and the summary
properties: backprop against numerical derivatives in float64."""
import numpy
import pytest

from chainer_core import gradient_check

from .specs import METHODS, PROPERTIES, SPECS

SEED = 11
CONTINUOUS = [s for s in SPECS if s.sample_dtype is None and s.name not in (
    'Poisson', 'Geometric')]


def _setup(spec):
    rng = numpy.random.default_rng(SEED)
    p = spec.params(rng)
    x = spec.points(rng, p)
    return rng, [p[n] for n in spec.names], x


def _check(fn, inputs, rng):
    y = fn(*inputs)
    gy = rng.normal(size=y.shape)
    gradient_check.check_backward(fn, tuple(inputs), gy, eps=1e-4,
                                  atol=1e-6, rtol=1e-5)


@pytest.mark.parametrize('spec', SPECS, ids=repr)
class TestParameterGradients:

    def test_log_prob(self, spec):
        rng, params, x = _setup(spec)
        _check(lambda *ps: spec.make(*ps).log_prob(x), params, rng)

    @pytest.mark.parametrize('method', METHODS[1:])
    def test_methods(self, spec, method):
        if method not in spec.refs:
            pytest.skip('not defined')
        rng, params, x = _setup(spec)
        _check(lambda *ps: getattr(spec.make(*ps), method)(x), params, rng)
        _check(lambda *ps: getattr(spec.make(*ps), 'log_' + method)(x),
               params, rng)

    def test_icdf(self, spec):
        if 'icdf' not in spec.refs:
            pytest.skip('not defined')
        rng, params, _ = _setup(spec)
        q = spec.probs(rng)
        _check(lambda *ps: spec.make(*ps).icdf(q), params, rng)

    @pytest.mark.parametrize('name', PROPERTIES)
    def test_properties(self, spec, name):
        if name not in spec.refs:
            pytest.skip('not defined')
        rng, params, _ = _setup(spec)
        _check(lambda *ps: getattr(spec.make(*ps), name), params, rng)


@pytest.mark.parametrize('spec', CONTINUOUS, ids=repr)
def test_log_prob_gradient_wrt_points(spec):
    rng, params, x = _setup(spec)
    _check(lambda x_, *ps: spec.make(*ps).log_prob(x_), [x] + params, rng)
