"""What the random initializers share: a random generator, filling arrays of
any device from host draws, and scaling by the weight's fans."""
import numpy

from chainer_core.initializer import Initializer
from chainer_core.initializer import get_fans


def _fill(array, values):
    """Copy host ``values`` into ``array``, wherever it lives."""
    if isinstance(array, numpy.ndarray):
        array[...] = values
    else:
        from chainer_core._runtime.host import device_from_array
        array[...] = device_from_array(array).send(
            numpy.ascontiguousarray(
                numpy.asarray(values).astype(array.dtype)))


class _RandomInitializer(Initializer):
    def __init__(self, dtype=None, rng=None):
        super().__init__(dtype)
        self.rng = rng

    def _rng(self):
        return numpy.random if self.rng is None else self.rng


class _Distribution(_RandomInitializer):
    """Normal with mean 0 and standard deviation ``s`` or, with
    ``_uniform``, uniform on ``[-s, s]``, where ``s`` is
    ``_spread(shape)`` of the array's shape (``scale`` itself here)."""

    _uniform = False

    def __init__(self, scale=0.05, dtype=None, **kwargs):
        self.scale = scale
        super().__init__(dtype, **kwargs)

    def _spread(self, shape):
        return self.scale

    def __call__(self, array):
        self._check_dtype(array)
        s = self._spread(array.shape)
        if self._uniform:
            _fill(array, self._rng().uniform(-s, s, array.shape))
        else:
            _fill(array, self._rng().normal(0.0, s, array.shape))


class _FanScaled(_Distribution):
    """A normal or uniform distribution scaled by the weight's fans."""

    _gain = 1.0
    _default_fan = 'fan_in'

    def __init__(self, scale=1.0, dtype=None, fan_option=None, **kwargs):
        self.fan_option = fan_option or self._default_fan
        if self.fan_option not in ('fan_in', 'fan_out', 'fan_avg'):
            raise ValueError("{}: fan_option must be 'fan_in', 'fan_out' or "
                             "'fan_avg', got {!r}".format(
                                 type(self).__name__, fan_option))
        super().__init__(scale, dtype, **kwargs)

    def _spread(self, shape):
        fan_in, fan_out = get_fans(shape)
        fan = {'fan_in': fan_in, 'fan_out': fan_out,
               'fan_avg': (fan_in + fan_out) / 2.0}[self.fan_option]
        if self._uniform:
            return self.scale * numpy.sqrt(3.0 * self._gain / fan)
        return self.scale * numpy.sqrt(self._gain / fan)
