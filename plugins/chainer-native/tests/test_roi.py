"""roi_max_bins, the maximum of regions of interest over bins given as
pixel ranges: the native kernel gives the core reference's values and
argmax (ties, NaN, infinities, empty bins, regions partly outside the
image) and rejects bad input by name."""
import numpy
import pytest

import chainer_core  # noqa: F401 (declares the kernels)
from chainer_core._runtime import kernels

import chainer_native as cn
from chainer_native import _kernels

i64 = numpy.int64


def _reference(x, batch, h_ranges, w_ranges, empty_value):
    ref = kernels.get_spec('roi_max_bins').reference
    return ref(numpy, x, batch, h_ranges, w_ranges, empty_value)


def _native(x, batch, h_ranges, w_ranges, empty_value):
    y, argmax = cn.roi_max_bins(cn.asarray(x), batch, h_ranges, w_ranges,
                                empty_value)
    assert isinstance(y, cn.ndarray) and isinstance(argmax, cn.ndarray)
    return numpy.asarray(y), numpy.asarray(argmax)


def _ranges(rng, n_regions, n_bins, limit, side=None):
    """Bins as the RoI poolings make them: regions of random size (up to
    side) starting anywhere from far before the image to its end, cut
    into n_bins by floor / ceil and clipped to the image, so that some bins
    overlap, some are cut and some are empty. With side, the regions lie
    inside the image."""
    if side is None:
        start = rng.randint(-limit, limit + 1, n_regions).astype(float)
        size = rng.randint(1, 2 * limit + 2, n_regions).astype(float)
    else:
        start = rng.randint(0, limit - side, n_regions).astype(float)
        size = rng.randint(1, side + 1, n_regions).astype(float)
    step = size / n_bins
    b = numpy.arange(n_bins, dtype=float)[None, :]
    lo = numpy.clip(numpy.floor(b * step[:, None]) + start[:, None], 0,
                    limit)
    hi = numpy.clip(numpy.ceil((b + 1) * step[:, None]) + start[:, None], 0,
                    limit)
    return numpy.stack([lo, hi], axis=2).astype(i64)


def _values(rng, shape, dtype, specials):
    """Few distinct values, so that bins hold ties; with NaN and
    infinities when specials."""
    x = rng.randint(-3, 4, shape).astype(dtype)
    if specials:
        flat = x.reshape(-1)
        for value in (numpy.nan, numpy.inf, -numpy.inf):
            flat[rng.rand(flat.size) < 0.03] = value
        # A plane of -inf only and one of NaN only.
        x[0, 0] = -numpy.inf
        x[-1, -1] = numpy.nan
    return x


def _assert_same(actual, expected):
    y, argmax = actual
    y_ref, argmax_ref = expected
    assert y.dtype == y_ref.dtype and y.shape == y_ref.shape
    assert argmax.dtype == numpy.int32 and argmax.shape == argmax_ref.shape
    numpy.testing.assert_array_equal(argmax, argmax_ref)
    numpy.testing.assert_array_equal(y, y_ref)


def _copies(batch, h_ranges, w_ranges, h, w):
    """Whether the kernel copies x channels-last: when the bins read, all
    together, at least as many pixels as the samples they read hold."""
    spans = [(r[:, :, 1] - r[:, :, 0]).sum(axis=1)
             for r in (h_ranges, w_ranges)]
    return (spans[0] * spans[1]).sum() >= len(set(batch.tolist())) * h * w


# (N, C, H, W), regions, bins (outh, outw), the largest region side: many
# large regions (read from a channels-last copy), then a few small ones in
# a large image (read plane by plane).
SHAPES = {
    'dense': ((3, 13, 9, 11), 40, (3, 4), None),
    'sparse': ((2, 5, 40, 50), 3, (2, 3), 6),
}


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
@pytest.mark.parametrize('specials', [False, True])
@pytest.mark.parametrize('empty_value', [0.0, -numpy.inf])
@pytest.mark.parametrize('shapes', sorted(SHAPES))
def test_agrees_with_the_reference(dtype, specials, empty_value, shapes):
    (n, c, h, w), n_regions, (outh, outw), side = SHAPES[shapes]
    rng = numpy.random.RandomState(7)
    x = _values(rng, (n, c, h, w), dtype, specials)
    batch = rng.randint(0, n, n_regions).astype(i64)
    h_ranges = _ranges(rng, n_regions, outh, h, side)
    w_ranges = _ranges(rng, n_regions, outw, w, side)
    assert _copies(batch, h_ranges, w_ranges, h, w) == (shapes == 'dense')
    full = (h_ranges[:, :, 1] > h_ranges[:, :, 0])[:, :, None] & \
        (w_ranges[:, :, 1] > w_ranges[:, :, 0])[:, None, :]
    assert full.any()
    if shapes == 'dense':
        assert not full.all()
    expected = _reference(x, batch, h_ranges, w_ranges, empty_value)
    _assert_same(_native(x, batch, h_ranges, w_ranges, empty_value),
                 expected)
    if specials and shapes == 'dense':
        assert numpy.isnan(expected[0]).any()


def test_first_nan_and_first_tie_win():
    x = numpy.array([[1, 5, 5], [numpy.nan, 2, numpy.nan],
                     [5, numpy.nan, 0]], numpy.float32)[None, None]
    batch = numpy.zeros(3, i64)
    # The whole plane, the first row, the last two columns of rows 1-2.
    h_ranges = numpy.array([[[0, 3]], [[0, 1]], [[1, 3]]], i64)
    w_ranges = numpy.array([[[0, 3]], [[0, 3]], [[1, 3]]], i64)
    y, argmax = _native(x, batch, h_ranges, w_ranges, 0.0)
    assert argmax.ravel().tolist() == [3, 1, 5]
    assert numpy.isnan(y.ravel()[[0, 2]]).all() and y.ravel()[1] == 5
    _assert_same((y, argmax), _reference(x, batch, h_ranges, w_ranges, 0.0))


def test_non_contiguous_input():
    rng = numpy.random.RandomState(3)
    x = rng.randn(2, 6, 7, 8).astype(numpy.float32)
    view = cn.asarray(x)[:, 1:5].swapaxes(2, 3)
    host = numpy.ascontiguousarray(x[:, 1:5].swapaxes(2, 3))
    batch = numpy.array([1, 0, 1], i64)
    h_ranges = _ranges(rng, 3, 2, 8)
    w_ranges = numpy.ascontiguousarray(_ranges(rng, 3, 5, 7)[:, ::-1])
    y, argmax = cn.roi_max_bins(view, batch, h_ranges, w_ranges[:, ::-1])
    _assert_same((numpy.asarray(y), numpy.asarray(argmax)),
                 _reference(host, batch, h_ranges, w_ranges[:, ::-1], 0.0))


def test_no_region_and_no_bin():
    x = numpy.ones((2, 3, 4, 5), numpy.float32)
    y, argmax = _native(x, numpy.zeros(0, i64), numpy.zeros((0, 2, 2), i64),
                        numpy.zeros((0, 2, 2), i64), 0.0)
    assert y.shape == argmax.shape == (0, 3, 2, 2)
    y, argmax = _native(x, numpy.zeros(2, i64), numpy.zeros((2, 0, 2), i64),
                        numpy.zeros((2, 3, 2), i64), 0.0)
    assert y.shape == argmax.shape == (2, 3, 0, 3)


def test_is_the_kernel_of_native_arrays():
    fn = kernels.lookup('roi_max_bins', cn.zeros((1,), dtype=numpy.float32))
    assert fn.__wrapped__ is _kernels._roi_max_bins
    rng = numpy.random.RandomState(5)
    x = rng.randn(2, 3, 6, 5).astype(numpy.float32)
    batch = cn.asarray(numpy.array([1, 0], i64))
    h_ranges, w_ranges = _ranges(rng, 2, 2, 6), _ranges(rng, 2, 3, 5)
    y, argmax = fn(cn.asarray(x), batch, h_ranges, w_ranges, -numpy.inf)
    assert isinstance(y, cn.ndarray)
    _assert_same((numpy.asarray(y), numpy.asarray(argmax)),
                 _reference(x, numpy.array([1, 0], i64), h_ranges, w_ranges,
                            -numpy.inf))


def _good():
    return dict(x=cn.ones((2, 3, 4, 5), dtype=numpy.float32),
                batch=numpy.array([0, 1], i64),
                h_ranges=numpy.array([[[0, 2], [2, 4]]] * 2, i64),
                w_ranges=numpy.array([[[0, 5]]] * 2, i64))


BAD = [
    ('x', cn.ones((2, 3, 4, 5), dtype=numpy.int32), TypeError,
     'roi_max_bins: x must be floating-point, got int32'),
    ('x', cn.ones((3, 4, 5), dtype=numpy.float32), ValueError,
     r'roi_max_bins: x must be of shape \(N, C, H, W\), got shape '
     r'\(3, 4, 5\)'),
    ('batch', numpy.array([0, 1], numpy.int32), TypeError,
     'roi_max_bins: batch must be int64, got int32'),
    ('batch', numpy.array([[0, 1]], i64), ValueError,
     r'roi_max_bins: batch must be of shape \(R,\), got shape \(1, 2\)'),
    ('batch', numpy.array([0, 2], i64), IndexError,
     r'roi_max_bins: batch must be sample indices in \[0, 2\), got 2 at '
     'region 1'),
    ('batch', numpy.array([-1, 0], i64), IndexError,
     r'batch must be sample indices in \[0, 2\), got -1 at region 0'),
    ('h_ranges', numpy.array([[[0, 2]]] * 2, numpy.float64), TypeError,
     'roi_max_bins: h_ranges must be int64, got float64'),
    ('h_ranges', numpy.array([[[0, 2]]] * 3, i64), ValueError,
     r'roi_max_bins: h_ranges must be of shape \(2, n_bins, 2\), got shape '
     r'\(3, 1, 2\)'),
    ('w_ranges', numpy.array([[[0, 2, 3]]] * 2, i64), ValueError,
     r'w_ranges must be of shape \(2, n_bins, 2\), got shape \(2, 1, 3\)'),
    ('h_ranges', numpy.array([[[0, 2]], [[3, 5]]], i64), IndexError,
     r'roi_max_bins: h_ranges must be ranges \[lo, hi\) with 0 <= lo <= hi '
     r'<= 4 \(the height of x\), got \[3, 5\) at region 1, bin 0'),
    ('w_ranges', numpy.array([[[3, 2]]] * 2, i64), IndexError,
     r'w_ranges must be ranges .* <= 5 \(the width of x\), got \[3, 2\) at '
     'region 0, bin 0'),
    ('w_ranges', numpy.array([[[-1, 2]]] * 2, i64), IndexError,
     r'got \[-1, 2\) at region 0'),
]


@pytest.mark.parametrize('arg, value, error, message', BAD)
def test_bad_input(arg, value, error, message):
    args = _good()
    cn.roi_max_bins(**args)
    args[arg] = value
    with pytest.raises(error, match=message):
        cn.roi_max_bins(**args)
