"""Initializers drawing from uniform distributions."""
from chainer_core.initializers._random import _Distribution
from chainer_core.initializers._random import _FanScaled


class Uniform(_Distribution):
    """Uniform distribution on ``[-scale, scale]``.

    Args:
        scale (float): the bound.
        dtype: the dtype of the arrays it fills (None: the default dtype).
        rng: a ``numpy.random.RandomState`` (or Generator) to draw from
            (keyword; default ``numpy.random``).
    """

    _uniform = True


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
