"""Bad parameters and points raise TypeError/ValueError naming the
distribution and the argument; undefined methods raise
NotImplementedError naming the class and the method."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.distributions as D

F32 = numpy.ones(3, numpy.float32)
F64 = numpy.ones(3, numpy.float64)
I64 = numpy.ones(3, numpy.int64)


@pytest.mark.parametrize('make,match', [
    (lambda: D.Normal(I64, F64), 'Normal: loc must be a float'),
    (lambda: D.Normal(F64, I64), 'Normal: scale must be a float'),
    (lambda: D.Normal(F64, log_scale=I64), 'Normal: log_scale'),
    (lambda: D.Normal(F32, F64), 'Normal: all parameters must have one '
                                 'dtype, got float64 for scale'),
    (lambda: D.Normal('a', F64), 'Normal: loc must be'),
    (lambda: D.LogNormal(F64, I64), 'LogNormal: sigma'),
    (lambda: D.Laplace(F64, [1.0]), 'Laplace: scale'),
    (lambda: D.Gamma(F64, F32), 'Gamma: all parameters'),
    (lambda: D.Beta(I64, F64), 'Beta: a must be'),
    (lambda: D.Dirichlet(I64), 'Dirichlet: alpha must be'),
    (lambda: D.Bernoulli(I64), 'Bernoulli: p must be'),
    (lambda: D.Bernoulli(logit=I64), 'Bernoulli: logit must be'),
    (lambda: D.Categorical(logit=I64), 'Categorical: logit must be'),
    (lambda: D.Poisson(True), 'Poisson: lam must be'),
    (lambda: D.MultivariateNormal(F64, scale_tril=numpy.eye(3, dtype=int)),
     'MultivariateNormal: scale_tril must be a float'),
    (lambda: D.Uniform(low=F64, high=F32), 'Uniform: all parameters'),
    (lambda: D.Normal(F64, F64, scale_log=F64), 'Normal: unexpected '
                                                'keyword arguments scale_log'),
    (lambda: D.Uniform(low=F64, top=F64), 'Uniform: unexpected keyword'),
    (lambda: D.MultivariateNormal(F64, cov=F64), 'MultivariateNormal: '
                                                 'unexpected keyword'),
    (lambda: D.Categorical(F64, probs=F64), 'Categorical: unexpected'),
    (lambda: D.Independent(F64), 'Independent: distribution must be a '
                                 'Distribution'),
    (lambda: D.Independent(D.Normal(F64, F64), 1.0),
     'Independent: reinterpreted_batch_ndims must be an int'),
])
def test_type_errors(make, match):
    with pytest.raises(TypeError, match=match):
        make()


@pytest.mark.parametrize('make,match', [
    (lambda: D.Normal(F64), 'Normal: exactly one of scale and log_scale'),
    (lambda: D.Normal(F64, F64, log_scale=F64), 'exactly one'),
    (lambda: D.Normal(F64, numpy.ones(4)),
     r'Normal: the shapes of loc, scale do not broadcast together: '
     r'\(3,\), \(4,\)'),
    (lambda: D.Pareto(numpy.ones((2, 3)), numpy.ones(2)), 'Pareto: the '
                                                          'shapes'),
    (lambda: D.Bernoulli(F64, F64), 'Bernoulli: exactly one of p and logit'),
    (lambda: D.Bernoulli(), 'Bernoulli: exactly one'),
    (lambda: D.Categorical(), 'Categorical: exactly one'),
    (lambda: D.Categorical(numpy.float64(0.5)),
     'Categorical: p must have at least 1 dimension'),
    (lambda: D.Dirichlet(numpy.array(2.0)), 'Dirichlet: alpha must have at '
                                            'least 1 dimension'),
    (lambda: D.OneHotCategorical(numpy.array(1.0)), 'OneHotCategorical: p'),
    (lambda: D.MultivariateNormal(F64), 'scale_tril must be given'),
    (lambda: D.MultivariateNormal(F64, scale_tril=F64),
     'MultivariateNormal: scale_tril must have at least 2 dimensions'),
    (lambda: D.MultivariateNormal(F64, scale_tril=numpy.eye(2)),
     r'scale_tril must end with the shape \(3, 3\)'),
    (lambda: D.MultivariateNormal(numpy.ones((2, 3)),
                                  scale_tril=numpy.ones((4, 3, 3))),
     'batch shapes of loc'),
    (lambda: D.Uniform(low=F64), 'Uniform: give either low and high, or '
                                 'loc and scale'),
    (lambda: D.Uniform(low=F64, scale=F64), 'Uniform: give either'),
    (lambda: D.Independent(D.Normal(F64, F64), 2),
     'Independent: reinterpreted_batch_ndims must be between 0 and'),
])
def test_value_errors(make, match):
    with pytest.raises(ValueError, match=match):
        make()


class TestPoints:

    def test_point_shape(self):
        d = D.Normal(numpy.zeros((2, 3)), numpy.ones((2, 3)))
        with pytest.raises(ValueError, match=r'Normal.log_prob: x of shape '
                                             r'\(4,\) does not broadcast'):
            d.log_prob(numpy.zeros(4))
        with pytest.raises(ValueError, match='Normal.cdf'):
            d.cdf(numpy.zeros((2, 2)))
        c = D.Categorical(numpy.full((2, 3), 1 / 3))
        with pytest.raises(ValueError, match='Categorical.log_prob'):
            c.log_prob(numpy.zeros(3, numpy.int32))
        m = D.MultivariateNormal(numpy.zeros(3), scale_tril=numpy.eye(3))
        with pytest.raises(ValueError, match='MultivariateNormal.log_prob'):
            m.log_prob(numpy.zeros(2))

    def test_point_dtype(self):
        d = D.Normal(numpy.zeros(3), numpy.ones(3))
        with pytest.raises(TypeError, match='Normal.log_prob: x must have '
                                            'the dtype of the parameters'):
            d.log_prob(chainer.Variable(numpy.zeros(3, numpy.float32)))
        with pytest.raises(TypeError, match='Normal.log_prob: x must be a '
                                            'real array'):
            d.log_prob(numpy.array(['a', 'b', 'c']))
        with pytest.raises(TypeError, match='Normal.log_prob: x must be a '
                                            'Variable or an array'):
            d.log_prob('0')
        p = D.Poisson(numpy.ones(3))
        with pytest.raises(TypeError, match='Poisson.log_prob'):
            p.log_prob([0, 1, 2])

    def test_arrays_of_another_dtype_are_cast(self):
        d = D.Normal(numpy.zeros(3, numpy.float32),
                     numpy.ones(3, numpy.float32))
        y = d.log_prob(numpy.zeros(3, numpy.int32))
        assert y.dtype == numpy.float32

    def test_binary_check(self):
        d = D.Bernoulli(numpy.full(3, 0.5), binary_check=True)
        with pytest.raises(ValueError, match='Bernoulli.log_prob: x must be '
                                             '0 or 1'):
            d.log_prob(numpy.array([0.0, 0.5, 1.0]))
        y = D.Bernoulli(numpy.full(3, 0.5)).log_prob(
            numpy.array([0.0, 0.5, 1.0]))
        assert y.array[1] == -numpy.inf


class TestSampleArguments:

    def test_bad_sample_shape(self):
        d = D.Normal(numpy.zeros(3), numpy.ones(3))
        with pytest.raises(TypeError, match='Normal.sample: sample_shape'):
            d.sample('x')
        with pytest.raises(ValueError, match='must not be negative'):
            d.sample((2, -1))

    def test_bad_n(self):
        d = D.Gamma(numpy.ones(3), numpy.ones(3))
        with pytest.raises(TypeError, match=r'Gamma.sample_n: n must be an '
                                            r'int, got float'):
            d.sample_n(2.0)
        with pytest.raises(ValueError, match=r'Gamma.sample_n: n must not be '
                                             r'negative, got -1'):
            d.sample_n(-1)


@pytest.mark.parametrize('make,what', [
    (lambda: D.Poisson(numpy.ones(2)), 'entropy'),
    (lambda: D.Gamma(numpy.ones(2), numpy.ones(2)), 'cdf'),
    (lambda: D.Gamma(numpy.ones(2), numpy.ones(2)), 'log_cdf'),
    (lambda: D.Gamma(numpy.ones(2), numpy.ones(2)), 'survival_function'),
    (lambda: D.Gamma(numpy.ones(2), numpy.ones(2)), 'log_survival_function'),
    (lambda: D.Beta(numpy.ones(2), numpy.ones(2)), 'icdf'),
    (lambda: D.Categorical(numpy.full(2, 0.5)), 'mean'),
    (lambda: D.Categorical(numpy.full(2, 0.5)), 'stddev'),
    (lambda: D.Dirichlet(numpy.ones(2)), 'covariance'),
    (lambda: D.Normal(0.0, 1.0), 'perplexity'),
])
def test_undefined(make, what):
    d = make()
    with pytest.raises(NotImplementedError,
                       match='{} does not define {}$'.format(
                           type(d).__name__, what)):
        attr = getattr(d, what)
        if callable(attr):
            attr(numpy.ones(2))
