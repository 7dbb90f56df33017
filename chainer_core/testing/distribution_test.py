"""distribution_unittest: a base test case checking a
:class:`~chainer_core.Distribution` against its SciPy counterpart.

A subclass implements ``setUp_configure(self)``, which sets:

* ``self.dist``: the distribution class under test;
* ``self.scipy_dist``: the reference, e.g. ``scipy.stats.norm`` (anything
  with SciPy's method names: ``pdf``/``pmf``, ``logpdf``/``logpmf``,
  ``cdf``, ``logcdf``, ``sf``, ``logsf``, ``ppf``, ``mean``, ``var``,
  ``std``, ``entropy``, ``rvs``);
* ``self.params`` and ``self.scipy_params``: the keyword arguments of each
  (NumPy arrays of batch shape ``self.shape``, followed by the event
  shape);
* ``self.test_targets``: the names of the checks to run, among
  ``batch_shape``, ``event_shape``, ``support``, ``prob``, ``log_prob``,
  ``cdf``, ``log_cdf``, ``survival``, ``log_survival``, ``icdf``,
  ``mean``, ``variance``, ``stddev``, ``entropy`` and ``sample`` (a test
  not listed is skipped);
* optionally ``self.support`` (default ``'real'``), ``self.event_shape``
  (default ``()``), ``self.continuous`` (default True: SciPy's ``pdf``
  family, otherwise ``pmf``) and ``self.options`` (more keyword arguments
  of ``self.dist``).

It also implements ``sample_for_test(self)`` for the tests evaluating at
points: a NumPy array of shape ``sample_shape + shape + event_shape``. The
class attributes (usually parameterized) are ``shape``, ``sample_shape``
and ``is_variable`` (the parameters are given as Variables).
``scipy_onebyone = True`` evaluates the SciPy reference one batch element
at a time, for SciPy distributions that take scalar parameters only.

Each check is a test on the CPU (``test_<name>_cpu``) and on a CUDA
device (``test_<name>_gpu``, marked ``gpu``, skipped without one).
"""
import itertools
import unittest

import numpy
import pytest

from chainer_core.testing import array as array_module
from chainer_core.variable import Variable

# float32 results against SciPy's float64 ones.
_TOLERANCE = {'atol': 1e-4, 'rtol': 1e-3}
# Moments of a large sample against the reference's.
_SAMPLE_SIZE = 100000
_SAMPLE_TOLERANCE = {'atol': 3e-2, 'rtol': 3e-2}

_CHECKS = ('batch_shape', 'event_shape', 'support', 'prob', 'log_prob',
           'cdf', 'log_cdf', 'survival', 'log_survival', 'icdf', 'mean',
           'variance', 'stddev', 'entropy', 'sample')


def _get_device(is_gpu):
    from chainer_core._runtime.host import get_device
    spec = '@cupy:0' if is_gpu else '@numpy'
    try:
        return get_device(spec)
    except Exception as e:
        raise unittest.SkipTest('device {} is not available: {}'.format(
            spec, e)) from None


def _host(x):
    if isinstance(x, Variable):
        x = x.array
    return array_module._to_numpy(x)


class distribution_unittest(unittest.TestCase):
    """Base test case of a distribution (see the module documentation)."""

    scipy_onebyone = False
    is_variable = False
    shape = ()
    sample_shape = ()

    def setUp(self):
        self.support = 'real'
        self.event_shape = ()
        self.continuous = True
        self.options = {}
        self.test_targets = set()
        self.setUp_configure()

    def setUp_configure(self):
        raise NotImplementedError('setUp_configure is not implemented')

    def sample_for_test(self):
        raise NotImplementedError('sample_for_test is not implemented')

    def _dist_on(self, is_gpu):
        device = _get_device(is_gpu)
        params = {k: device.send(v) for k, v in self.params.items()}
        if self.is_variable:
            params = {k: Variable(v) for k, v in params.items()}
        return self.dist(**params, **self.options), device

    @property
    def cpu_dist(self):
        """The distribution with the parameters on the CPU."""
        return self._dist_on(False)[0]

    @property
    def gpu_dist(self):
        """The distribution with the parameters on a CUDA device."""
        return self._dist_on(True)[0]

    def scipy_onebyone_params_iter(self):
        """For each batch index: the index and the SciPy parameters of that
        batch element."""
        for index in itertools.product(*[range(n) for n in self.shape]):
            yield index, {k: numpy.asarray(v)[index]
                          for k, v in self.scipy_params.items()}

    def _target(self, name):
        if name not in self.test_targets:
            raise unittest.SkipTest('{} is not in test_targets'.format(name))

    def _scipy_at(self, method, x=None):
        """The reference ``method`` (evaluated at ``x`` when given): over
        the whole batch at once, or element by element with
        ``scipy_onebyone``."""
        def call(params, at):
            f = getattr(self.scipy_dist, method)
            return numpy.asarray(f(**params) if at is None else
                                 f(at, **params))

        if not self.scipy_onebyone:
            return call(self.scipy_params, x)
        lead = () if x is None else x.shape[:x.ndim - len(self.shape) -
                                            len(self.event_shape)]
        out = None
        for index, params in self.scipy_onebyone_params_iter():
            at = None if x is None else x[(Ellipsis,) + index + (slice(
                None),) * len(self.event_shape)]
            value = call(params, at)
            if out is None:
                out = numpy.empty(lead + self.shape + value.shape[len(lead):],
                                  dtype=value.dtype)
            out[(Ellipsis,) + index + (slice(None),) * (
                value.ndim - len(lead))] = value
        return out

    def _compare(self, actual, expected, **options):
        array_module.assert_allclose(
            _host(actual), numpy.asarray(expected, dtype=numpy.float64),
            **(options or _TOLERANCE))

    def _check_at_sample(self, name, method, scipy_method, is_gpu):
        self._target(name)
        dist, device = self._dist_on(is_gpu)
        x = numpy.asarray(self.sample_for_test())
        actual = getattr(dist, method)(device.send(x))
        self._compare(actual, self._scipy_at(scipy_method, x))

    def _check_property(self, name, attribute, scipy_method, is_gpu):
        self._target(name)
        dist, _ = self._dist_on(is_gpu)
        self._compare(getattr(dist, attribute), self._scipy_at(scipy_method))

    def check_batch_shape(self, is_gpu):
        self._target('batch_shape')
        self.assertEqual(self._dist_on(is_gpu)[0].batch_shape, self.shape)

    def check_event_shape(self, is_gpu):
        self._target('event_shape')
        self.assertEqual(self._dist_on(is_gpu)[0].event_shape,
                         self.event_shape)

    def check_support(self, is_gpu):
        self._target('support')
        self.assertEqual(self._dist_on(is_gpu)[0].support, self.support)

    def check_prob(self, is_gpu):
        self._check_at_sample('prob', 'prob',
                              'pdf' if self.continuous else 'pmf', is_gpu)

    def check_log_prob(self, is_gpu):
        self._check_at_sample(
            'log_prob', 'log_prob',
            'logpdf' if self.continuous else 'logpmf', is_gpu)

    def check_cdf(self, is_gpu):
        self._check_at_sample('cdf', 'cdf', 'cdf', is_gpu)

    def check_log_cdf(self, is_gpu):
        self._check_at_sample('log_cdf', 'log_cdf', 'logcdf', is_gpu)

    def check_survival(self, is_gpu):
        self._check_at_sample('survival', 'survival_function', 'sf',
                              is_gpu)

    def check_log_survival(self, is_gpu):
        self._check_at_sample('log_survival', 'log_survival_function',
                              'logsf', is_gpu)

    def check_icdf(self, is_gpu):
        self._target('icdf')
        dist, device = self._dist_on(is_gpu)
        q = numpy.random.uniform(1e-5, 1 - 1e-5,
                                 self.sample_shape + self.shape).astype(
                                     numpy.float32)
        self._compare(dist.icdf(device.send(q)), self._scipy_at('ppf', q))

    def check_mean(self, is_gpu):
        self._check_property('mean', 'mean', 'mean', is_gpu)

    def check_variance(self, is_gpu):
        self._check_property('variance', 'variance', 'var', is_gpu)

    def check_stddev(self, is_gpu):
        self._check_property('stddev', 'stddev', 'std', is_gpu)

    def check_entropy(self, is_gpu):
        self._check_property('entropy', 'entropy', 'entropy', is_gpu)

    def check_sample(self, is_gpu):
        """The mean and standard deviation of a large sample match those of
        a large sample of the reference."""
        self._target('sample')
        dist, _ = self._dist_on(is_gpu)
        ours = _host(dist.sample(sample_shape=(_SAMPLE_SIZE,)))
        if self.scipy_onebyone:
            reference = numpy.empty(ours.shape)
            for index, params in self.scipy_onebyone_params_iter():
                reference[(slice(None),) + index] = \
                    self.scipy_dist.rvs(size=(_SAMPLE_SIZE,) + ours.shape[
                        1 + len(self.shape):], **params)
        else:
            reference = self.scipy_dist.rvs(size=ours.shape,
                                            **self.scipy_params)
        for moment in (numpy.mean, numpy.std):
            self._compare(moment(ours, axis=0), moment(reference, axis=0),
                          **_SAMPLE_TOLERANCE)


def _test(name, is_gpu):
    def test(self):
        getattr(self, 'check_' + name)(is_gpu)
    test.__name__ = 'test_{}_{}'.format(name, 'gpu' if is_gpu else 'cpu')
    test.__qualname__ = 'distribution_unittest.' + test.__name__
    # The mark selects; _get_device skips where there is no GPU.
    return pytest.mark.gpu(test) if is_gpu else test


for _name in _CHECKS:
    for _is_gpu in (False, True):
        _t = _test(_name, _is_gpu)
        setattr(distribution_unittest, _t.__name__, _t)
del _name, _is_gpu, _t
