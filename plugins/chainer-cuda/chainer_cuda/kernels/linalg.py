"""inv, cholesky, fft and decorrelated_batch_normalization (its eigh) with
the reference's answers where CuPy's differ.

* A singular matrix (inv) and one that is not positive definite
  (cholesky) raise ``numpy.linalg.LinAlgError``, a ValueError, as on
  NumPy: CuPy checks cuSOLVER's status only inside
  ``cupyx.errstate(linalg='raise')``.
* Input holding inf or NaN is computed by NumPy on a host copy: what
  LAPACK, pocketfft, cuSOLVER and cuFFT give there depends on the order of
  their operations (which pivot a NaN becomes, which butterfly meets
  inf - inf, whether eigh converges), so no GPU computation gives
  NumPy's answer: LAPACK's eigh raises LinAlgError for some such matrices
  where cuSOLVER's returns NaN. Finite input stays on the GPU; telling the
  two apart costs one synchronization.
"""
import numpy

from chainer_cuda.kernels._build import cupy, cupyx, float_dtype


def _finite(*arrays):
    cp = cupy()
    return all(bool(cp.isfinite(a).all()) for a in arrays)


def _inverse(xp, a):
    # float16 is inverted in float32, as the reference does.
    if a.dtype == numpy.float16:
        return xp.linalg.inv(a.astype(numpy.float32)).astype(a.dtype)
    return xp.linalg.inv(a)


def inv(a):
    if float_dtype(a) is None:
        return NotImplemented
    cp = cupy()
    if not _finite(a):
        return cp.asarray(_inverse(numpy, cp.asnumpy(a)))
    with cupyx().errstate(linalg='raise'):
        return _inverse(cp, a)


def _factor(xp, a):
    w = a.astype(numpy.float32) if a.dtype == numpy.float16 else a
    return xp.linalg.cholesky(w).astype(a.dtype, copy=False)


def cholesky(a):
    if float_dtype(a) is None:
        return NotImplemented
    cp = cupy()
    if not _finite(a):
        return cp.asarray(_factor(numpy, cp.asnumpy(a)))
    with cupyx().errstate(linalg='raise'):
        return _factor(cp, a)


def _transform(xp, real, imag, inverse):
    dtype = real.dtype
    ctype = numpy.complex128 if dtype == numpy.float64 else numpy.complex64
    x = real.astype(ctype) + 1j * imag.astype(ctype)
    y = xp.fft.ifft(x) if inverse else xp.fft.fft(x)
    return (xp.ascontiguousarray(y.real).astype(dtype, copy=False),
            xp.ascontiguousarray(y.imag).astype(dtype, copy=False))


def fft(real, imag, inverse):
    # The reference is cuFFT's answer for finite input.
    if float_dtype(real, imag) is None or _finite(real, imag):
        return NotImplemented
    cp = cupy()
    return tuple(cp.asarray(y) for y in _transform(
        numpy, cp.asnumpy(real), cp.asnumpy(imag), inverse))


def _whiten(xp, x, groups, eps):
    """The reference's computation: (y, mean, projection, xc, eigvals,
    eigvecs) of ZCA whitening per group of channels."""
    w = x.astype(numpy.float32) if x.dtype == numpy.float16 else x
    perm = (1, 0) + tuple(range(2, x.ndim))
    xc = w.transpose(perm).reshape(groups, x.shape[1] // groups, -1)
    mean = xc.mean(axis=2, keepdims=True)
    xc = xc - mean
    cov = xp.matmul(xc, xc.transpose(0, 2, 1)) / xc.shape[2]
    cov += eps * xp.eye(xc.shape[1], dtype=cov.dtype)
    eigvals, eigvecs = xp.linalg.eigh(cov)
    projection = xp.matmul(eigvecs * (eigvals ** -0.5)[:, None, :],
                           eigvecs.transpose(0, 2, 1))
    y = xp.matmul(projection, xc).reshape(
        (x.shape[1], x.shape[0]) + x.shape[2:]).transpose(perm)
    return (xp.ascontiguousarray(y.astype(x.dtype, copy=False)),
            mean[:, :, 0], projection, xc, eigvals, eigvecs)


def decorrelated_batch_normalization(x, groups, eps):
    # Finite input with a sample has a finite covariance: the reference.
    if float_dtype(x) is None or (x.size and _finite(x)):
        return NotImplemented
    cp = cupy()
    return tuple(cp.asarray(a) for a in _whiten(
        numpy, cp.asnumpy(x), groups, eps))


KERNELS = {'inv': inv, 'cholesky': cholesky, 'fft': fft,
           'decorrelated_batch_normalization':
               decorrelated_batch_normalization}
