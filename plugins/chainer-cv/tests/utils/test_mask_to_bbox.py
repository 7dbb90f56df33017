import numpy
import pytest

from chainer_cv.utils import mask_to_bbox
from chainer_cv.utils._checks import to_host


def _brute_force(mask):
    out = numpy.zeros((len(mask), 4), numpy.float32)
    for i, m in enumerate(mask):
        ys, xs = numpy.nonzero(m)
        if len(ys):
            out[i] = ys.min(), xs.min(), ys.max() + 1, xs.max() + 1
    return out


class TestMaskToBBox:

    @pytest.mark.parametrize('seed', range(3))
    @pytest.mark.parametrize('density', [0.0, 0.01, 0.5])
    def test_against_brute_force(self, seed, density):
        rng = numpy.random.RandomState(seed)
        mask = rng.uniform(size=(5, 12, 9)) < density
        bbox = mask_to_bbox(mask)
        assert bbox.dtype == numpy.float32
        numpy.testing.assert_array_equal(bbox, _brute_force(mask))

    def test_on_device(self, device):
        mask = numpy.random.RandomState(0).uniform(size=(4, 6, 7)) < 0.2
        numpy.testing.assert_array_equal(
            to_host(mask_to_bbox(device.send(mask))), _brute_force(mask))
