"""unary_math_function_unittest: the forward, backward and double backward
tests of an elementwise unary function, generated."""
import unittest

import numpy

from chainer_core import gradient_check
from chainer_core.testing import array as array_module
from chainer_core.testing import attr
from chainer_core.testing import parameterized
from chainer_core.variable import Variable


def is_available():
    """Whether the decorator can be used (it needs nothing optional)."""
    return True


def check_available():
    """Raise if the decorator cannot be used (see :func:`is_available`)."""


def _make_data_default(shape, dtype):
    x = numpy.random.uniform(-1, 1, shape).astype(dtype, copy=False)
    gy = numpy.random.uniform(-1, 1, shape).astype(dtype, copy=False)
    ggx = numpy.random.uniform(-1, 1, shape).astype(dtype, copy=False)
    return x, gy, ggx


def _function_name(func):
    return getattr(func, '__name__', None) or type(func).__name__.lower()


# float16 computes with about three significant digits.
_FORWARD = {numpy.float16: {'atol': 1e-3, 'rtol': 1e-3}}
_BACKWARD = {numpy.float16: {'eps': 2 ** -4, 'atol': 5e-3, 'rtol': 5e-2}}
_DOUBLE_BACKWARD = {numpy.float16: {'eps': 2 ** -4, 'atol': 5e-3,
                                    'rtol': 5e-2}}
_DEFAULT_FORWARD = {'atol': 1e-5, 'rtol': 1e-4}
_DEFAULT_BACKWARD = {'atol': 1e-4, 'rtol': 1e-3}


def unary_math_function_unittest(func, func_expected=None, label_expected=None,
                                 make_data=None, is_linear=None,
                                 forward_options=None, backward_options=None,
                                 double_backward_options=None):
    """Class decorator adding the tests of an elementwise unary function.

    The decorated ``unittest.TestCase`` becomes six classes, one per
    ``shape`` in ``(3, 2)`` and ``()`` and ``dtype`` in float16, float32
    and float64, each with the tests ``test_forward_cpu``,
    ``test_backward_cpu`` and ``test_double_backward_cpu``, and their
    ``*_gpu`` twins on a CUDA device (marked ``gpu``; skipped without one).

    Args:
        func: the function under test (a function, or a
            :class:`~chainer_core.Function` instance).
        func_expected: the NumPy reference for the forward values
            (default: the NumPy function of ``func``'s name).
        label_expected (str): the label ``func`` is expected to have; kept
            for compatibility (no test reads it).
        make_data: ``make_data(shape, dtype)`` returns the input, the
            output gradient and the input's second-order gradient (default:
            each uniform in [-1, 1]).
        is_linear: kept for compatibility (linear functions need nothing
            special).
        forward_options (dict): of
            :func:`~chainer_core.testing.assert_allclose` (default: by
            dtype).
        backward_options (dict): of
            :func:`~chainer_core.gradient_check.check_backward` (default: by
            dtype).
        double_backward_options (dict): of
            :func:`~chainer_core.gradient_check.check_double_backward`
            (default: by dtype).
    """
    name = _function_name(func)
    if func_expected is None:
        func_expected = getattr(numpy, name, None)
        if func_expected is None:
            raise ValueError(
                'unary_math_function_unittest: NumPy has no function {!r}; '
                'give func_expected'.format(name))
    if make_data is None:
        make_data = _make_data_default

    def apply(x):
        return func(x) if callable(func) else func.apply((x,))[0]

    def options(given, by_dtype, default, dtype):
        if given is not None:
            return given
        return by_dtype.get(dtype, default)

    def setUp(self):
        self.x, self.gy, self.ggx = make_data(self.shape, self.dtype)

    def check_forward(self, device):
        x = device.send(self.x)
        y = apply(Variable(x))
        assert y.array.dtype == self.dtype, (
            'dtype {} expected, got {}'.format(self.dtype, y.array.dtype))
        expected = numpy.asarray(func_expected(self.x), dtype=self.dtype)
        array_module.assert_allclose(
            expected, y.array,
            **options(forward_options, _FORWARD, _DEFAULT_FORWARD,
                      self.dtype))

    def check_backward(self, device):
        gradient_check.check_backward(
            apply, device.send(self.x), device.send(self.gy),
            dtype=numpy.float64,
            **options(backward_options, _BACKWARD, _DEFAULT_BACKWARD,
                      self.dtype))

    def check_double_backward(self, device):
        gradient_check.check_double_backward(
            apply, device.send(self.x), device.send(self.gy),
            device.send(self.ggx), dtype=numpy.float64,
            **options(double_backward_options, _DOUBLE_BACKWARD,
                      _DEFAULT_BACKWARD, self.dtype))

    def on(device_kind, check_name):
        def test(self):
            getattr(self, check_name)(_device(device_kind))
        test.__name__ = 'test_{}_{}'.format(check_name[len('check_'):],
                                            device_kind)
        return attr.gpu(test) if device_kind == 'gpu' else test

    members = {'setUp': setUp, 'check_forward': check_forward,
               'check_backward': check_backward,
               'check_double_backward': check_double_backward}
    for check_name in ('check_forward', 'check_backward',
                       'check_double_backward'):
        for device_kind in ('cpu', 'gpu'):
            test = on(device_kind, check_name)
            members[test.__name__] = test

    def decorator(cls):
        if not (isinstance(cls, type) and
                issubclass(cls, unittest.TestCase)):
            raise TypeError('unary_math_function_unittest decorates a '
                            'unittest.TestCase class')
        for key, value in members.items():
            setattr(cls, key, value)
        return parameterized.parameterize(*parameterized.product({
            'shape': [(3, 2), ()],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }))(cls)

    return decorator


def _device(kind):
    """The device of a ``*_cpu`` or ``*_gpu`` test; a GPU test is skipped
    where there is none (also when run without pytest, which would read
    its ``gpu`` mark)."""
    from chainer_core._runtime.host import get_device
    spec = '@numpy' if kind == 'cpu' else '@cupy:0'
    try:
        return get_device(spec)
    except Exception as e:
        raise unittest.SkipTest('device {} is not available: {}'.format(
            spec, e)) from None
