"""The region poolings on an empty set of regions: an empty output, and
zero gradients (first and second order), as in Chainer."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

CASES = {
    'roi_max_align_2d': dict(sampling_ratio=2),
    'roi_average_align_2d': dict(sampling_ratio=2),
    'roi_max_pooling_2d': {},
    'roi_average_pooling_2d': {},
}


@pytest.mark.parametrize('name', sorted(CASES))
def test_no_regions(chainer_device, name):
    fn = getattr(F, name)
    x = chainer.Variable(chainer_device.send(
        numpy.random.RandomState(0).rand(2, 3, 6, 5).astype(numpy.float32)))
    rois = chainer_device.send(numpy.zeros((0, 4), numpy.float32))
    indices = chainer_device.send(numpy.zeros((0,), numpy.int32))
    y = fn(x, rois, indices, 2, 1.0, **CASES[name])
    assert y.shape == (0, 3, 2, 2)
    gy = chainer.Variable(chainer_device.send(
        numpy.zeros(y.shape, numpy.float32)))
    gx, = chainer.grad([y], [x], [gy], enable_double_backprop=True)
    numpy.testing.assert_array_equal(
        numpy.asarray(chainer.backend.CpuDevice().send(gx.array)),
        numpy.zeros(x.shape, numpy.float32))
    ggx = chainer_device.send(numpy.ones(x.shape, numpy.float32))
    ggy, = chainer.grad([gx], [gy], [chainer.Variable(ggx)])
    assert ggy.shape == y.shape
