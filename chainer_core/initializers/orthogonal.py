"""The orthogonal initializer."""
import numpy

from chainer_core.initializers._random import _fill
from chainer_core.initializers._random import _RandomInitializer


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
        self._check_dtype(array)
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
