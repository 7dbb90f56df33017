"""The position-sensitive RoI poolings against a loop-by-loop statement of
their definitions, their gradients on every device, and their errors."""
import math

import numpy
import pytest

import chainer_core
from chainer_core import gradient_check

from chainer_cv import functions


def _cell(i, n_bins, group_size):
    return min(i * group_size // n_bins, group_size - 1)


def _interpolate(plane, y, x):
    """A point read as the align functions read it: None when more than
    one pixel outside, else bilinear within the image's clamped edges."""
    h, w = plane.shape
    if y < -1 or y > h or x < -1 or x > w:
        return None
    y, x = min(max(y, 0), h - 1), min(max(x, 0), w - 1)
    y0, x0 = int(math.floor(y)), int(math.floor(x))
    y1, x1 = min(y0 + 1, h - 1), min(x0 + 1, w - 1)
    fy, fx = y - y0, x - x0
    return ((1 - fy) * (1 - fx) * plane[y0, x0] + (1 - fy) * fx *
            plane[y0, x1] + fy * (1 - fx) * plane[y1, x0] +
            fy * fx * plane[y1, x1])


def _expected(mode, x, rois, roi_indices, out_h, out_w, scale, group,
              ratio=None):
    n_c, h, w = x.shape[1:]
    out_c = n_c // (group * group)
    y = numpy.zeros((len(rois), out_c, out_h, out_w))
    for r, (roi, b) in enumerate(zip(rois.astype(numpy.float64),
                                     roi_indices)):
        y0, x0, y1, x1 = roi * scale
        least = 1.0 if mode.endswith('align') else 0.1
        bin_h = max(y1 - y0, least) / out_h
        bin_w = max(x1 - x0, least) / out_w
        for k in range(out_c):
            for i in range(out_h):
                for j in range(out_w):
                    c = ((k * group + _cell(i, out_h, group)) * group +
                         _cell(j, out_w, group))
                    plane = x[b, c].astype(numpy.float64)
                    if mode.endswith('align'):
                        gh = ratio or int(math.ceil(bin_h))
                        gw = ratio or int(math.ceil(bin_w))
                        points = [_interpolate(
                            plane, y0 + (i + (p + .5) / gh) * bin_h,
                            x0 + (j + (q + .5) / gw) * bin_w)
                            for p in range(gh) for q in range(gw)]
                        if mode == 'average_align':
                            y[r, k, i, j] = sum(
                                v for v in points if v is not None) / len(
                                    points)
                        else:
                            y[r, k, i, j] = max(
                                (v for v in points if v is not None),
                                default=-numpy.inf)
                        continue
                    lo_h = min(max(math.floor(y0 + i * bin_h), 0), h)
                    hi_h = min(max(math.ceil(y0 + (i + 1) * bin_h), 0), h)
                    lo_w = min(max(math.floor(x0 + j * bin_w), 0), w)
                    hi_w = min(max(math.ceil(x0 + (j + 1) * bin_w), 0), w)
                    patch = plane[lo_h:hi_h, lo_w:hi_w]
                    if mode == 'average_pooling':
                        y[r, k, i, j] = patch.mean() if patch.size else 0
                    else:
                        y[r, k, i, j] = patch.max() if patch.size else \
                            -numpy.inf
    return y


_FUNCTIONS = {
    'average_align': functions.ps_roi_average_align_2d,
    'max_align': functions.ps_roi_max_align_2d,
    'average_pooling': functions.ps_roi_average_pooling_2d,
    'max_pooling': functions.ps_roi_max_pooling_2d,
}
_MODES = sorted(_FUNCTIONS)


def _call(mode, x, rois, roi_indices, outsize, scale, group, ratio=None):
    if mode.endswith('align'):
        return _FUNCTIONS[mode](x, rois, roi_indices, outsize, scale, group,
                                ratio)
    return _FUNCTIONS[mode](x, rois, roi_indices, outsize, scale, group)


def _inputs(dtype, n_c=8, group=2):
    rng = numpy.random.RandomState(0)
    # Distinct values a step apart keep the maxima away from ties.
    x = rng.permutation(2 * n_c * 7 * 9).reshape(2, n_c, 7, 9)
    x = (x / x.size * 4 - 2).astype(dtype)
    rois = numpy.array([[0.5, 1.2, 6.1, 8.3], [-2., 3., 4.2, 12.],
                        [2.3, 2.3, 2.4, 2.4], [1., 0., 7., 5.]], dtype)
    roi_indices = numpy.array([0, 1, 1, 0], numpy.int32)
    return x, rois, roi_indices


@pytest.mark.parametrize('mode', _MODES)
@pytest.mark.parametrize('outsize,ratio', [(3, None), ((2, 3), 2),
                                           ((None, 4, 2), None)])
def test_forward_follows_the_definition(device, mode, outsize, ratio):
    x, rois, roi_indices = _inputs(numpy.float32)
    y = _call(mode, *(device.send(a) for a in (x, rois, roi_indices)),
              outsize, 0.8, 2, ratio)
    out_h, out_w = (outsize, outsize) if isinstance(outsize, int) else \
        outsize[-2:]
    expected = _expected(mode, x, rois, roi_indices, out_h, out_w, 0.8, 2,
                         ratio)
    assert y.shape == (4, 2, out_h, out_w)
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(chainer_core.backend.CpuDevice().send(
        y.array), expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize('mode', _MODES)
def test_float16_forward(device, mode):
    x, rois, roi_indices = _inputs(numpy.float16)
    y = _call(mode, *(device.send(a) for a in (x, rois, roi_indices)), 2,
              1.0, 2)
    assert y.dtype == numpy.float16
    expected = _expected(mode, x, rois, roi_indices, 2, 2, 1.0, 2)
    numpy.testing.assert_allclose(numpy.asarray(
        chainer_core.backend.CpuDevice().send(y.array), numpy.float64),
        expected, rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize('mode', _MODES)
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_backward(device, mode, dtype):
    x, rois, roi_indices = _inputs(dtype)
    # Empty bins of the max poolings are -inf and have no gradient; the
    # regions here leave none empty.
    rois[1] = (1., 3., 5., 8.)
    gy = numpy.random.RandomState(1).uniform(
        -1, 1, (4, 2, 2, 3)).astype(dtype)

    def f(x):
        return _call(mode, x, device.send(rois), device.send(roi_indices),
                     (2, 3), 1.0, 2, 2)

    tol = {'atol': 1e-3, 'rtol': 1e-3} if dtype == numpy.float32 else {}
    gradient_check.check_backward(
        f, device.send(x), device.send(gy),
        eps=1e-3 if dtype == numpy.float64 else 1e-2, dtype=numpy.float64,
        **tol)


@pytest.mark.parametrize('mode', _MODES)
def test_double_backward(mode):
    x, rois, roi_indices = _inputs(numpy.float64)
    rois[1] = (1., 3., 5., 8.)
    rng = numpy.random.RandomState(2)
    gy = rng.uniform(-1, 1, (4, 2, 2, 2))
    ggx = rng.uniform(-1, 1, x.shape)

    def f(x):
        y = _call(mode, x, rois, roi_indices, 2, 1.0, 2)
        return y * y

    gradient_check.check_double_backward(f, x, gy, ggx, eps=1e-4)


@pytest.mark.parametrize('mode', _MODES)
def test_gradient_reaches_only_the_channel_of_each_bin(mode):
    x, _, _ = _inputs(numpy.float64, n_c=4, group=2)
    x = chainer_core.Variable(x)
    y = _call(mode, x, numpy.array([[0., 0., 7., 9.]]), numpy.array([0]),
              2, 1.0, 2)
    # One output channel, 2 x 2 bins on a 2 x 2 grid: bin (i, j) reads
    # channel 2 i + j; only bin (1, 0) has a gradient.
    gy = numpy.zeros((1, 1, 2, 2))
    gy[0, 0, 1, 0] = 1
    y.grad = gy
    y.backward()
    touched = numpy.abs(x.grad).sum(axis=(2, 3))
    assert touched[0, 2] > 0
    assert touched[0, [0, 1, 3]].tolist() == [0, 0, 0]
    assert touched[1].tolist() == [0, 0, 0, 0]


@pytest.mark.parametrize('mode', _MODES)
def test_no_regions(device, mode):
    x, _, _ = _inputs(numpy.float32)
    x = chainer_core.Variable(device.send(x))
    y = _call(mode, x, device.send(numpy.zeros((0, 4), numpy.float32)),
              device.send(numpy.zeros((0,), numpy.int32)), 3, 1.0, 2)
    assert y.shape == (0, 2, 3, 3)
    y.grad = device.send(numpy.zeros(y.shape, numpy.float32))
    y.backward()
    assert not numpy.any(chainer_core.backend.CpuDevice().send(x.grad))


@pytest.mark.parametrize('mode', _MODES)
def test_nan_reaches_the_bins_reading_it(mode):
    x = numpy.ones((1, 4, 4, 4), numpy.float32)
    x[0, 0, 0, 0] = numpy.nan
    y = _call(mode, x, numpy.array([[0., 0., 4., 4.]], numpy.float32),
              numpy.array([0], numpy.int32), 2, 1.0, 2).array
    # Bin (0, 0) reads channel 0 around pixel (0, 0); the others read
    # channels without NaN.
    assert numpy.isnan(y[0, 0, 0, 0])
    assert not numpy.isnan(y[0, 0]).ravel()[1:].any()


@pytest.mark.parametrize('mode', ['max_align', 'max_pooling'])
def test_max_over_an_empty_bin_is_minus_infinity(mode):
    x = numpy.ones((1, 4, 4, 4), numpy.float32)
    rois = numpy.array([[10., 10., 20., 20.]], numpy.float32)
    y = _call(mode, x, rois, numpy.array([0], numpy.int32), 2, 1.0, 2)
    assert numpy.all(numpy.isneginf(y.array))


def test_average_pooling_of_an_empty_bin_is_zero():
    x = numpy.ones((1, 4, 4, 4), numpy.float32)
    rois = numpy.array([[10., 10., 20., 20.]], numpy.float32)
    y = functions.ps_roi_average_pooling_2d(
        x, rois, numpy.array([0], numpy.int32), 2, 1.0, 2)
    assert not y.array.any()


@pytest.mark.parametrize('mode', _MODES)
@pytest.mark.parametrize('kwargs,argument', [
    ({'outsize': 0}, 'outsize'),
    ({'outsize': (1, 2, 3, 4)}, 'outsize'),
    ({'outsize': (0, 2, 2)}, 'outsize[0]'),
    ({'spatial_scale': -1.}, 'spatial_scale'),
    ({'group_size': 0}, 'group_size'),
    ({'group_size': 1.5}, 'group_size'),
])
def test_bad_arguments_name_the_function_and_argument(mode, kwargs,
                                                      argument):
    x, rois, roi_indices = _inputs(numpy.float32)
    args = dict(outsize=2, spatial_scale=1.0, group_size=2)
    args.update(kwargs)
    with pytest.raises(ValueError) as e:
        _FUNCTIONS[mode](x, rois, roi_indices, **args)
    assert 'ps_roi_{}_2d'.format(mode) in str(e.value)
    assert argument in str(e.value)


@pytest.mark.parametrize('mode', ['average_align', 'max_align'])
def test_bad_sampling_ratio(mode):
    x, rois, roi_indices = _inputs(numpy.float32)
    with pytest.raises(ValueError, match='ps_roi_{}_2d: sampling_ratio'
                       .format(mode)):
        _FUNCTIONS[mode](x, rois, roi_indices, 2, 1.0, 2, 0)


@pytest.mark.parametrize('mode', _MODES)
def test_channels_must_fit_the_groups(mode):
    x, rois, roi_indices = _inputs(numpy.float32, n_c=6)
    with pytest.raises(ValueError, match='ps_roi_{}_2d: x has 6 channels'
                       .format(mode)):
        _call(mode, x, rois, roi_indices, 2, 1.0, 2)
    x, rois, roi_indices = _inputs(numpy.float32)
    with pytest.raises(ValueError, match='outsize\\[0\\]'):
        _call(mode, x, rois, roi_indices, (3, 2, 2), 1.0, 2)


@pytest.mark.parametrize('mode', _MODES)
def test_region_index_outside_the_batch(mode):
    x, rois, roi_indices = _inputs(numpy.float32)
    roi_indices[0] = 2
    with pytest.raises(ValueError, match='ps_roi_{}_2d: roi_indices'
                       .format(mode)):
        _call(mode, x, rois, roi_indices, 2, 1.0, 2)


@pytest.mark.parametrize('mode', _MODES)
def test_bad_input_types(mode):
    x, rois, roi_indices = _inputs(numpy.float32)
    with pytest.raises(chainer_core.utils.type_check.InvalidType,
                       match='PSROI'):
        _call(mode, x.astype(numpy.int32), rois, roi_indices, 2, 1.0, 2)
    with pytest.raises(chainer_core.utils.type_check.InvalidType,
                       match='rois'):
        _call(mode, x, rois[:, :3], roi_indices, 2, 1.0, 2)
