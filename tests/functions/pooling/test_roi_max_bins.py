"""The reference kernel roi_max_bins against a bin-by-bin maximum: ties,
NaN, -inf, empty bins and overlapping bins, with every channel in one
gather and in gathers of a few values."""
import numpy
import pytest

from chainer_core.functions.pooling import _roi


def _ranges(rng, n_regions, n_bins, size):
    lo = numpy.clip(rng.randint(-2, size + 2, (n_regions, n_bins)), 0, size)
    hi = numpy.clip(lo + rng.randint(-1, size + 1, (n_regions, n_bins)), 0,
                    size)
    full = lo < hi
    return numpy.stack([numpy.where(full, lo, 0), numpy.where(full, hi, 0)],
                       axis=2).astype(numpy.int64)


def _bin_by_bin(x, batch, h_ranges, w_ranges, empty_value):
    n_r, n_c = len(batch), x.shape[1]
    outh, outw = h_ranges.shape[1], w_ranges.shape[1]
    y = numpy.full((n_r, n_c, outh, outw), empty_value, x.dtype)
    argmax = numpy.full(y.shape, -1, numpy.int32)
    for r, i, j in numpy.ndindex(n_r, outh, outw):
        (h0, h1), (w0, w1) = h_ranges[r, i], w_ranges[r, j]
        if h1 <= h0 or w1 <= w0:
            continue
        win = x[batch[r], :, h0:h1, w0:w1].reshape(n_c, -1)
        t = win.argmax(axis=1)
        y[r, :, i, j] = win[numpy.arange(n_c), t]
        argmax[r, :, i, j] = (h0 + t // (w1 - w0)) * x.shape[3] + \
            w0 + t % (w1 - w0)
    return y, argmax


@pytest.mark.parametrize('limit', [1 << 22, 5])
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_reference_matches_the_bin_by_bin_maximum(monkeypatch, limit,
                                                  dtype):
    monkeypatch.setattr(_roi, '_GATHER_LIMIT', limit)
    rng = numpy.random.RandomState(4)
    for _ in range(20):
        shape = (2, rng.randint(1, 5), rng.randint(1, 12),
                 rng.randint(1, 12))
        x = rng.choice([-1.0, -0.0, 0.0, 2.0], shape).astype(dtype)
        flat = x.reshape(-1)
        flat[rng.rand(flat.size) < 0.05] = numpy.nan
        flat[rng.rand(flat.size) < 0.05] = -numpy.inf
        n_r = rng.randint(0, 5)
        h_ranges = _ranges(rng, n_r, rng.randint(1, 5), shape[2])
        w_ranges = _ranges(rng, n_r, rng.randint(1, 5), shape[3])
        batch = rng.randint(0, 2, n_r).astype(numpy.int64)
        for empty_value in (0.0, -numpy.inf):
            y, argmax = _roi._roi_max_bins(numpy, x, batch, h_ranges,
                                           w_ranges, empty_value)
            ey, eargmax = _bin_by_bin(x, batch, h_ranges, w_ranges,
                                      empty_value)
            assert y.dtype == x.dtype and argmax.dtype == numpy.int32
            numpy.testing.assert_array_equal(y, ey)
            numpy.testing.assert_array_equal(numpy.signbit(y),
                                             numpy.signbit(ey))
            numpy.testing.assert_array_equal(argmax, eargmax)
