"""Helpers of the normalization tests."""
import numpy


def assert_sums_to_zero(a, axis, dtype):
    """The sums of ``a`` over ``axis`` are zero up to the rounding of
    ``dtype`` (relative to the magnitude of the terms)."""
    a = numpy.asarray(a, dtype=numpy.float64)
    scale = numpy.abs(a).sum(axis=axis)
    bound = 8 * numpy.finfo(dtype).eps * scale
    assert (numpy.abs(a.sum(axis=axis)) <= bound).all(), \
        'sums {} exceed {}'.format(a.sum(axis=axis), bound)
