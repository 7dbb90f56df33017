"""generate_matrix: random matrices with chosen singular values."""
import numpy


def _random_orthonormal(batch, n, k, dtype):
    """``batch + (n, k)`` matrices with orthonormal columns (unitary for a
    complex ``dtype``), drawn from the Haar measure by a QR decomposition of
    Gaussian matrices."""
    a = numpy.random.normal(size=batch + (n, k))
    if dtype.kind == 'c':
        a = a + 1j * numpy.random.normal(size=batch + (n, k))
    q, r = numpy.linalg.qr(a)
    # Fixing the signs of R's diagonal makes Q uniformly distributed.
    d = numpy.diagonal(r, axis1=-2, axis2=-1)
    d = numpy.where(d == 0, 1, d / numpy.abs(d))
    return q * d[..., None, :]


def generate_matrix(shape, dtype=float, **kwargs):
    """generate_matrix(shape, dtype=float, *, singular_values)

    A random matrix, or stack of matrices, with the given singular values,
    for inputs of tests that become unstable on badly conditioned values.

    Args:
        shape (tuple of int): ``(B..., M, N)``, the shape of the result;
            ``B...`` may be empty.
        dtype: a float or complex dtype.
        singular_values (array-like): broadcastable to ``(B..., K)`` with
            ``K = min(M, N)``; non-negative.

    Returns:
        numpy.ndarray of ``shape`` and ``dtype``.
    """
    if 'singular_values' not in kwargs:
        raise TypeError('generate_matrix: singular_values is not given')
    singular_values = kwargs.pop('singular_values')
    if kwargs:
        raise TypeError('generate_matrix() got unexpected keyword '
                        'argument(s) {}'.format(
                            ', '.join(repr(k) for k in kwargs)))
    shape = tuple(shape)
    if len(shape) < 2:
        raise ValueError('generate_matrix: shape {} has too few axes for '
                         'matrices'.format(shape))
    dtype = numpy.dtype(dtype)
    if dtype.kind not in 'fc':
        raise TypeError('generate_matrix: dtype {} is not supported'
                        .format(dtype))
    s = numpy.asarray(singular_values)
    if s.dtype.kind == 'c':
        raise TypeError('generate_matrix: singular values must be real')
    if (s < 0).any():
        raise ValueError('generate_matrix: a singular value is negative')
    batch, (m, n) = shape[:-2], shape[-2:]
    k = min(m, n)
    s = numpy.broadcast_to(s, batch + (k,))
    u = _random_orthonormal(batch, m, k, dtype)
    vh = numpy.swapaxes(_random_orthonormal(batch, n, k, dtype), -1, -2)
    if dtype.kind == 'c':
        vh = vh.conj()
    return numpy.matmul(u * s[..., None, :], vh).astype(dtype)
