"""Initializers drawing from uniform distributions."""
from chainer_core.initializers._random import _FanScaled
from chainer_core.initializers._random import _fill
from chainer_core.initializers._random import _RandomInitializer


class Uniform(_RandomInitializer):
    """Uniform distribution on ``[-scale, scale]``.

    Args:
        scale (float): the bound.
        dtype: the dtype of the arrays it fills (None: the default dtype).
        rng: a ``numpy.random.RandomState`` (or Generator) to draw from
            (keyword; default ``numpy.random``).
    """

    def __init__(self, scale=0.05, dtype=None, **kwargs):
        self.scale = scale
        super().__init__(dtype, **kwargs)

    def __call__(self, array):
        self._check_dtype(array)
        _fill(array, self._rng().uniform(-self.scale, self.scale,
                                         array.shape))


class LeCunUniform(_FanScaled):
    """Uniform on ``±scale * sqrt(3 / fan_in)``.

    Args:
        scale (float): multiplies the bound.
        dtype: the dtype of the arrays it fills (None: the default dtype).
        fan_option: 'fan_in' (default), 'fan_out' or 'fan_avg'.
    """

    _uniform = True


class GlorotUniform(_FanScaled):
    """Uniform on ``±scale * sqrt(6 / (fan_in + fan_out))``.

    Args:
        scale (float): multiplies the bound.
        dtype: the dtype of the arrays it fills (None: the default dtype).
        fan_option: 'fan_avg' (default), 'fan_in' or 'fan_out'.
    """

    _uniform = True
    _default_fan = 'fan_avg'


class HeUniform(_FanScaled):
    """Uniform on ``±scale * sqrt(6 / fan_in)``.

    Args:
        scale (float): multiplies the bound.
        dtype: the dtype of the arrays it fills (None: the default dtype).
        fan_option: 'fan_in' (default), 'fan_out' or 'fan_avg'.
    """

    _gain = 2.0
    _uniform = True
