"""assert_allclose: compare arrays of any device (or Variables)."""
import numpy

from chainer_core.variable import Variable


def _to_numpy(x):
    if isinstance(x, Variable):
        x = x.array
    if isinstance(x, numpy.ndarray) or numpy.isscalar(x) or x is None:
        return numpy.asarray(x)
    if hasattr(x, 'shape') and hasattr(x, 'dtype'):
        from chainer_core._runtime.host import host
        return host.parse_spec('@numpy').send(x)
    return numpy.asarray(x)


def assert_allclose(x, y, atol=1e-5, rtol=1e-4, verbose=True):
    """Assert ``|x - y| <= atol + rtol * |y|`` elementwise (NaN equal to
    NaN), for arrays on any device, Variables and scalars.

    On failure the message gives the shapes, dtypes, the number of
    mismatching elements, the worst one with its index, and (with
    ``verbose``) both arrays.
    """
    x = _to_numpy(x)
    y = _to_numpy(y)
    if x.shape != y.shape and x.size != 1 and y.size != 1:
        raise AssertionError('assert_allclose: shapes differ: {} and {}'
                             .format(x.shape, y.shape))
    try:
        numpy.testing.assert_allclose(x, y, atol=atol, rtol=rtol,
                                      equal_nan=True, verbose=False)
    except AssertionError:
        xb, yb = numpy.broadcast_arrays(x, y)
        with numpy.errstate(invalid='ignore', over='ignore'):
            xf = xb.astype(numpy.float64)
            yf = yb.astype(numpy.float64)
            err = numpy.abs(xf - yf)
            bad = ~((err <= atol + rtol * numpy.abs(yf)) |
                    (numpy.isnan(xf) & numpy.isnan(yf)))
            bad |= numpy.isnan(xf) != numpy.isnan(yf)
        err = numpy.where(numpy.isnan(err), numpy.inf, err)
        index = numpy.unravel_index(numpy.argmax(numpy.where(bad, err, -1)),
                                    err.shape) if err.ndim else ()
        lines = ['assert_allclose failed (atol={}, rtol={}):'.format(
                     atol, rtol),
                 '  shape x: {} dtype x: {}'.format(x.shape, x.dtype),
                 '  shape y: {} dtype y: {}'.format(y.shape, y.dtype),
                 '  mismatched: {} of {}'.format(int(bad.sum()), bad.size),
                 '  worst at index {}: x={} y={} |x-y|={}'.format(
                     tuple(int(i) for i in index), xb[index], yb[index],
                     err[index])]
        if verbose:
            with numpy.printoptions(threshold=200):
                lines += ['x: ' + numpy.array2string(x, prefix='x: '),
                          'y: ' + numpy.array2string(y, prefix='y: ')]
        raise AssertionError('\n'.join(lines)) from None
