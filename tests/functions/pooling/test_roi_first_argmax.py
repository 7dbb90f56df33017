"""The region poolings choose their maxima by NumPy's rule (the first
maximum, a NaN above every number) also on an array module whose argmax
returns another of several NaNs, as CuPy's may."""
import numpy

from chainer_core.functions.pooling import _roi


class LastNaN(numpy.ndarray):
    """An array whose argmax picks the last of several NaNs."""

    def argmax(self, axis=None):
        a = self.view(numpy.ndarray)
        if a.dtype.kind != 'f':
            return a.argmax(axis=axis)
        nan = numpy.isnan(numpy.flip(a, axis))
        last = a.shape[axis] - 1 - nan.argmax(axis=axis)
        return numpy.where(nan.any(axis=axis), last, a.argmax(axis=axis))


class LastNaNModule:
    """NumPy, with LastNaN arrays for results."""

    def __getattr__(self, name):
        fn = getattr(numpy, name)
        if not callable(fn) or isinstance(fn, type):
            return fn

        def wrapped(*args, **kwargs):
            out = fn(*args, **kwargs)
            return out.view(LastNaN) if isinstance(out, numpy.ndarray) \
                else out
        return wrapped


def _values():
    x = numpy.random.RandomState(0).uniform(-1, 1, (3, 4, 5))
    x[0, 1, :] = numpy.nan
    x[1, :, 2] = numpy.nan
    x[2, 2, 1] = x[2, 2, 3] = numpy.inf
    x[2, 0, 0] = x[2, 0, 4] = numpy.nan
    return x


def test_first_argmax_is_numpys():
    x = _values()
    for axis in range(3):
        expected = x.argmax(axis=axis)
        assert not numpy.array_equal(x.view(LastNaN).argmax(axis=axis),
                                     expected)
        numpy.testing.assert_array_equal(
            _roi.first_argmax(numpy, x.view(LastNaN), axis), expected)


def test_max_over_bins_takes_the_first_nan():
    x = _values()[None].repeat(2, axis=0)
    in_h = numpy.ones((1, 1, 4), bool)
    in_w = numpy.ones((1, 1, 5), bool)
    batch = numpy.array([0])
    y, argmax = _roi.max_over_bins(LastNaNModule(), x.view(LastNaN), batch,
                                   in_h, in_w, -numpy.inf)
    expected = x[0].reshape(3, -1).argmax(axis=1)
    numpy.testing.assert_array_equal(argmax.reshape(3), expected)
    assert numpy.isnan(y).ravel().tolist() == [True, True, True]
