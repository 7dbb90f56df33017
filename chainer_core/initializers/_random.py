"""Random initializers: normal and uniform families, orthogonal, identity."""
import numpy

from chainer_core.initializers import Initializer


def get_fans(shape):
    """``(fan_in, fan_out)`` of a weight shape ``(out, in, *kernel)``."""
    if not isinstance(shape, tuple) or len(shape) < 2:
        raise ValueError('fans need a weight shape of at least 2 axes, got '
                         '{!r}'.format(shape))
    receptive = 1
    for s in shape[2:]:
        receptive *= s
    return shape[1] * receptive, shape[0] * receptive


def _fill(array, values):
    """Copy host ``values`` into ``array``, wherever it lives."""
    if isinstance(array, numpy.ndarray):
        array[...] = values
    else:
        from backend_api._host import device_from_array
        array[...] = device_from_array(array).send(
            numpy.ascontiguousarray(values.astype(array.dtype)))


class _RandomInitializer(Initializer):
    def __init__(self, dtype=None, rng=None):
        super().__init__(dtype)
        self.rng = rng

    def _rng(self):
        return numpy.random if self.rng is None else self.rng

    def _check(self, array):
        if self.dtype is not None and \
                numpy.dtype(self.dtype) != array.dtype:
            raise ValueError('{}: initializer dtype {} differs from array '
                             'dtype {}'.format(type(self).__name__,
                                               numpy.dtype(self.dtype),
                                               array.dtype))


class Normal(_RandomInitializer):
    """Normal distribution with mean 0 and standard deviation ``scale``."""

    def __init__(self, scale=0.05, dtype=None, **kwargs):
        self.scale = scale
        super().__init__(dtype, **kwargs)

    def __call__(self, array):
        self._check(array)
        _fill(array, self._rng().normal(0.0, self.scale, array.shape))


class Uniform(_RandomInitializer):
    """Uniform distribution on ``[-scale, scale]``."""

    def __init__(self, scale=0.05, dtype=None, **kwargs):
        self.scale = scale
        super().__init__(dtype, **kwargs)

    def __call__(self, array):
        self._check(array)
        _fill(array, self._rng().uniform(-self.scale, self.scale,
                                         array.shape))


class _FanScaled(_RandomInitializer):
    """A normal or uniform distribution scaled by the weight's fans."""

    _gain = 1.0
    _uniform = False
    _default_fan = 'fan_in'

    def __init__(self, scale=1.0, dtype=None, fan_option=None, **kwargs):
        self.scale = scale
        self.fan_option = fan_option or self._default_fan
        if self.fan_option not in ('fan_in', 'fan_out', 'fan_avg'):
            raise ValueError("{}: fan_option must be 'fan_in', 'fan_out' or "
                             "'fan_avg', got {!r}".format(
                                 type(self).__name__, fan_option))
        super().__init__(dtype, **kwargs)

    def __call__(self, array):
        self._check(array)
        fan_in, fan_out = get_fans(array.shape)
        fan = {'fan_in': fan_in, 'fan_out': fan_out,
               'fan_avg': (fan_in + fan_out) / 2.0}[self.fan_option]
        if self._uniform:
            s = self.scale * numpy.sqrt(3.0 * self._gain / fan)
            _fill(array, self._rng().uniform(-s, s, array.shape))
        else:
            s = self.scale * numpy.sqrt(self._gain / fan)
            _fill(array, self._rng().normal(0.0, s, array.shape))


class LeCunNormal(_FanScaled):
    """Normal with std ``scale * sqrt(1 / fan_in)``."""


class LeCunUniform(_FanScaled):
    """Uniform on ``±scale * sqrt(3 / fan_in)``."""

    _uniform = True


class GlorotNormal(_FanScaled):
    """Normal with std ``scale * sqrt(2 / (fan_in + fan_out))``."""

    _default_fan = 'fan_avg'


class GlorotUniform(_FanScaled):
    """Uniform on ``±scale * sqrt(6 / (fan_in + fan_out))``."""

    _uniform = True
    _default_fan = 'fan_avg'


class HeNormal(_FanScaled):
    """Normal with std ``scale * sqrt(2 / fan_in)``."""

    _gain = 2.0


class HeUniform(_FanScaled):
    """Uniform on ``±scale * sqrt(6 / fan_in)``."""

    _gain = 2.0
    _uniform = True


class Orthogonal(_RandomInitializer):
    """A (semi-)orthogonal matrix times ``scale``.

    The weight is viewed as a matrix ``(shape[0], prod(shape[1:]))``; its
    rows (or columns, whichever are fewer) are orthonormal.
    """

    def __init__(self, scale=1.1, dtype=None, mode='auto', **kwargs):
        if mode not in ('auto', 'basis', 'embedding'):
            raise ValueError("Orthogonal: mode must be 'auto', 'basis' or "
                             "'embedding', got {!r}".format(mode))
        self.scale = scale
        self.mode = mode
        super().__init__(dtype, **kwargs)

    def __call__(self, array):
        self._check(array)
        if array.ndim == 0:
            # The only orthonormal 1x1 matrices are +1 and -1.
            sign = 1.0 if self._rng().uniform() < 0.5 else -1.0
            _fill(array, numpy.asarray(self.scale * sign))
            return
        if array.size == 0:
            raise ValueError('Orthogonal needs a non-empty array, got shape '
                             '{}'.format(array.shape))
        rows = array.shape[0]
        cols = array.size // rows
        if self.mode == 'basis' and rows > cols:
            raise ValueError('Orthogonal(mode=basis): {} rows cannot be '
                             'orthonormal in {} dimensions'.format(rows, cols))
        if self.mode == 'embedding' and rows < cols:
            raise ValueError('Orthogonal(mode=embedding): {} columns cannot '
                             'be orthonormal in {} dimensions'.format(
                                 cols, rows))
        flat = self._rng().normal(size=(max(rows, cols), min(rows, cols)))
        q, r = numpy.linalg.qr(flat)
        # The signs of R's diagonal make Q uniformly (Haar) distributed.
        q *= numpy.sign(numpy.diag(r))
        if rows < cols:
            q = q.T
        _fill(array, (self.scale * q).reshape(array.shape))


class Identity(Initializer):
    """``scale`` times the identity matrix (square 2-D arrays only)."""

    def __init__(self, scale=1.0, dtype=None):
        self.scale = scale
        super().__init__(dtype)

    def __call__(self, array):
        if self.dtype is not None and numpy.dtype(self.dtype) != array.dtype:
            raise ValueError('Identity: initializer dtype {} differs from '
                             'array dtype {}'.format(numpy.dtype(self.dtype),
                                                     array.dtype))
        if array.ndim != 2 or array.shape[0] != array.shape[1]:
            raise ValueError('Identity needs a square matrix, got shape {}'
                             .format(array.shape))
        _fill(array, self.scale * numpy.eye(array.shape[0]))
