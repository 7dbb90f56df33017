"""Gaussian noise added to continuous actions."""
import numpy

from chainer_rl import explorer


class AdditiveGaussian(explorer.Explorer):
    """Add ``N(0, scale**2)`` noise to the greedy action, then clip to
    ``[low, high]`` when a bound is given.

    Args:
        scale (float or array): standard deviation of the noise.
        low, high (float, array or None): bounds of the action.
    """

    def __init__(self, scale, low=None, high=None):
        scale_array = numpy.asarray(scale, dtype=numpy.float64)
        if (scale_array < 0).any():
            raise ValueError('AdditiveGaussian: scale must be non-negative, '
                             'got {}'.format(scale))
        self.scale = scale
        self.low = low
        self.high = high

    def select_action(self, t, greedy_action_func, action_value=None):
        """Greedy action plus noise (NumPy's global generator), float32."""
        a = numpy.asarray(greedy_action_func())
        noise = numpy.random.normal(scale=self.scale, size=a.shape)
        out = (a + noise).astype(numpy.float32)
        if self.low is not None or self.high is not None:
            out = numpy.clip(out, self.low, self.high).astype(numpy.float32)
        return out

    def __repr__(self):
        return 'AdditiveGaussian(scale={}, low={}, high={})'.format(
            self.scale, self.low, self.high)
