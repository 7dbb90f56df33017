"""Normalization by running statistics of the inputs seen so far (of
observations, typically, for PPO and TRPO)."""
import numpy

import chainer_core as chainer
import chainer_core.functions as F

from chainer_rl import _arrays


class EmpiricalNormalization(chainer.Link):
    """Subtract the running mean and divide by the running standard
    deviation of the inputs.

    Args:
        shape (int or tuple of int): shape of one input (without the batch
            axis).
        batch_axis (int): the batch axis of inputs.
        eps (float): added to the variance before the square root.
        dtype: dtype of the statistics.
        until (int or None): stop updating the statistics once this many
            examples have been seen.
        clip_threshold (float or None): clip normalized values to
            ``[-clip_threshold, clip_threshold]``.

    The statistics (``_mean``, ``_var``, ``count``) are persistent values:
    they are saved with the model and move with it between devices.
    """

    def __init__(self, shape, batch_axis=0, eps=1e-2, dtype=numpy.float32,
                 until=None, clip_threshold=None):
        owner = 'EmpiricalNormalization'
        super().__init__()
        if isinstance(shape, (int, numpy.integer)):
            shape = (shape,)
        try:
            shape = tuple(_arrays.check_int(owner, 'shape', s, 0)
                          for s in shape)
        except TypeError:
            raise TypeError('{}: shape must be an int or a tuple of ints, '
                            'got {!r}'.format(owner, shape)) from None
        dtype = numpy.dtype(dtype)
        if dtype.kind != 'f':
            raise TypeError('{}: dtype must be a float type, got {}'.format(
                owner, dtype))
        self.batch_axis = _arrays.check_int(owner, 'batch_axis', batch_axis)
        if not 0 <= self.batch_axis <= len(shape):
            raise ValueError('{}: batch_axis must be in [0, {}] for shape {},'
                             ' got {}'.format(owner, len(shape), shape,
                                              batch_axis))
        if until is not None:
            until = _arrays.check_int(owner, 'until', until, 0)
        if clip_threshold is not None:
            clip_threshold = _arrays.check_real(owner, 'clip_threshold',
                                                clip_threshold)
            if clip_threshold <= 0:
                raise ValueError('{}: clip_threshold must be positive, got {}'
                                 .format(owner, clip_threshold))
        self.shape = shape
        self.eps = dtype.type(_arrays.check_real(owner, 'eps', eps))
        self.until = until
        self.clip_threshold = clip_threshold
        self._mean = numpy.expand_dims(numpy.zeros(shape, dtype=dtype),
                                       self.batch_axis)
        self._var = numpy.expand_dims(numpy.ones(shape, dtype=dtype),
                                      self.batch_axis)
        self.count = 0
        self.register_persistent('_mean')
        self.register_persistent('_var')
        self.register_persistent('count')

    @property
    def mean(self):
        """Running mean, of shape ``shape``."""
        return self.xp.squeeze(self._mean, self.batch_axis).copy()

    @property
    def std(self):
        """Running standard deviation (without ``eps``)."""
        return self.xp.sqrt(self.xp.squeeze(self._var, self.batch_axis))

    def _check_input(self, name, x):
        expected = list(self.shape)
        expected.insert(self.batch_axis, None)
        got = list(x.shape)
        if len(got) != len(expected) or any(
                e is not None and e != g for e, g in zip(expected, got)):
            raise ValueError(
                'EmpiricalNormalization.{}: x must have shape {} with the '
                'batch on axis {}, got {}'.format(
                    name, tuple('batch' if e is None else e
                                for e in expected), self.batch_axis,
                    tuple(x.shape)))

    def experience(self, x):
        """Update the statistics with the batch ``x`` (no output)."""
        if self.until is not None and self.count >= self.until:
            return
        array = _arrays.unwrap(x)
        self._check_input('experience', array)
        n = array.shape[self.batch_axis]
        if n == 0:
            return
        xp = self.xp
        array = array.astype(self._mean.dtype)
        self.count += n
        rate = self._mean.dtype.type(n / self.count)
        mean_x = xp.mean(array, axis=self.batch_axis, keepdims=True)
        var_x = xp.var(array, axis=self.batch_axis, keepdims=True)
        delta = mean_x - self._mean
        # Chan et al.'s parallel update of the mean and the variance.
        new_mean = self._mean + rate * delta
        self._var = self._var + rate * (
            var_x - self._var + delta * (mean_x - new_mean))
        self._mean = new_mean

    def forward(self, x, update=True):
        """Normalize ``x`` (array or Variable) with the statistics before
        it, then, if ``update``, learn from it.

        Returns an array for an array and a Variable for a Variable.
        """
        self._check_input('forward', _arrays.unwrap(x))
        xp = self.xp
        mean = xp.broadcast_to(self._mean, x.shape)
        std_inv = xp.broadcast_to((self._var + self.eps) ** -0.5, x.shape)
        if update:
            self.experience(x)
        if isinstance(x, chainer.Variable):
            y = (x - mean.astype(x.dtype)) * std_inv.astype(x.dtype)
            if self.clip_threshold is not None:
                y = F.clip(y, -self.clip_threshold, self.clip_threshold)
            return y
        y = (x - mean) * std_inv
        if self.clip_threshold is not None:
            y = xp.clip(y, -self.clip_threshold, self.clip_threshold)
        return y

    def inverse(self, y):
        """Undo the normalization: ``y * std + mean``."""
        xp = self.xp
        array = _arrays.unwrap(y)
        self._check_input('inverse', array)
        mean = xp.broadcast_to(self._mean, array.shape)
        std = xp.broadcast_to(xp.sqrt(self._var + self.eps), array.shape)
        if isinstance(y, chainer.Variable):
            return y * std.astype(y.dtype) + mean.astype(y.dtype)
        return y * std + mean
