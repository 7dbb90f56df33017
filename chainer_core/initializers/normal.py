"""Initializers drawing from normal distributions."""
from chainer_core.initializers._random import _Distribution
from chainer_core.initializers._random import _FanScaled


class Normal(_Distribution):
    """Normal distribution with mean 0 and standard deviation ``scale``.

    Args:
        scale (float): the standard deviation.
        dtype: the dtype of the arrays it fills (None: the default dtype).
        rng: a ``numpy.random.RandomState`` (or Generator) to draw from
            (keyword; default ``numpy.random``).
    """


class LeCunNormal(_FanScaled):
    """Normal with std ``scale * sqrt(1 / fan_in)`` (LeCun et al. 1998).

    Args:
        scale (float): multiplies the standard deviation.
        dtype: the dtype of the arrays it fills (None: the default dtype).
        fan_option: 'fan_in' (default), 'fan_out' or 'fan_avg'.
    """


class GlorotNormal(_FanScaled):
    """Normal with std ``scale * sqrt(2 / (fan_in + fan_out))`` (Glorot and
    Bengio 2010).

    Args:
        scale (float): multiplies the standard deviation.
        dtype: the dtype of the arrays it fills (None: the default dtype).
        fan_option: 'fan_avg' (default), 'fan_in' or 'fan_out'.
    """

    _default_fan = 'fan_avg'


class HeNormal(_FanScaled):
    """Normal with std ``scale * sqrt(2 / fan_in)`` (He et al. 2015).

    Args:
        scale (float): multiplies the standard deviation.
        dtype: the dtype of the arrays it fills (None: the default dtype).
        fan_option: 'fan_in' (default), 'fan_out' or 'fan_avg'.
    """

    _gain = 2.0
