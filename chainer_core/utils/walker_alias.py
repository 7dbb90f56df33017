"""Walker's alias method: O(1) sampling from a discrete distribution."""
import numpy

from chainer_core.device_resident import DeviceResident


class WalkerAlias(DeviceResident):
    """Samples integers ``i`` with probability ``probs[i] / sum(probs)``.

    The table is built once (Vose's construction) in O(n); each sample
    then takes one uniform draw: bucket ``k = floor(u * n)`` yields
    ``values[2k]`` when the fractional part of ``u * n`` is below
    ``threshold[k]``, and ``values[2k + 1]`` otherwise.

    Args:
        probs (array-like): non-negative weights (at least one positive).

    Attributes:
        threshold (array): float64 thresholds, one per bucket.
        values (array): int32 pairs of outcomes, two per bucket.
        use_gpu (bool): whether the tables live on a non-NumPy device.
    """

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        self.threshold = visitor.visit_array(self.threshold)
        self.values = visitor.visit_array(self.values)

    def __init__(self, probs):
        probs = numpy.asarray(probs, dtype=numpy.float64)
        if probs.ndim != 1 or probs.size == 0:
            raise ValueError('WalkerAlias: probs must be a non-empty 1-D '
                             'array, got shape {}'.format(probs.shape))
        if (probs < 0).any() or not numpy.isfinite(probs).all() or \
                probs.sum() <= 0:
            raise ValueError('WalkerAlias: probs must be finite, '
                             'non-negative and not all zero')
        n = probs.size
        scaled = probs * (n / probs.sum())
        threshold = numpy.ones(n, dtype=numpy.float64)
        values = numpy.empty(2 * n, dtype=numpy.int32)
        values[0::2] = numpy.arange(n)
        values[1::2] = numpy.arange(n)
        small = [i for i in range(n) if scaled[i] < 1]
        large = [i for i in range(n) if scaled[i] >= 1]
        while small and large:
            s = small.pop()
            g = large[-1]
            threshold[s] = scaled[s]
            values[2 * s + 1] = g
            scaled[g] -= 1 - scaled[s]
            if scaled[g] < 1:
                large.pop()
                small.append(g)
        self.threshold = threshold
        self.values = values

    @property
    def use_gpu(self):
        return self._device is not None and self._device.xp is not numpy

    def sample(self, shape):
        """An int32 array of ``shape`` of independent samples."""
        xp = numpy if self._device is None else self._device.xp
        n = self.threshold.shape[0]
        u = xp.random.uniform(0, n, shape)
        k = u.astype(numpy.int32)
        k = xp.minimum(k, n - 1)
        second = (u - k >= self.threshold[k]).astype(numpy.int32)
        return self.values[2 * k + second]
