import numpy
import pytest

from chainer_cv.utils import mask_iou
from chainer_cv.utils._checks import to_host


def _brute_force(a, b):
    return numpy.array([[(p & q).sum() / max((p | q).sum(), 1) for q in b]
                        for p in a]).reshape(len(a), len(b))


class TestMaskIoU:

    @pytest.mark.parametrize('n_a,n_b', [(1, 1), (4, 6), (0, 2)])
    @pytest.mark.parametrize('seed', [0, 1])
    def test_against_brute_force(self, n_a, n_b, seed):
        rng = numpy.random.RandomState(seed)
        a = rng.uniform(size=(n_a, 9, 11)) > 0.5
        b = rng.uniform(size=(n_b, 9, 11)) > 0.3
        iou = mask_iou(a, b)
        assert iou.dtype == numpy.float32 and iou.shape == (n_a, n_b)
        numpy.testing.assert_allclose(iou, _brute_force(a, b), rtol=1e-6)

    def test_empty_masks(self):
        empty = numpy.zeros((1, 3, 3), bool)
        assert mask_iou(empty, empty)[0, 0] == 0

    def test_on_device(self, device):
        rng = numpy.random.RandomState(0)
        a = rng.uniform(size=(3, 5, 5)) > 0.5
        b = rng.uniform(size=(2, 5, 5)) > 0.5
        numpy.testing.assert_allclose(
            to_host(mask_iou(device.send(a), device.send(b))),
            mask_iou(a, b))

    def test_bad_input(self):
        with pytest.raises(IndexError, match=r'same \(H, W\)'):
            mask_iou(numpy.zeros((1, 3, 3), bool), numpy.zeros((1, 3, 4), bool))
        with pytest.raises(ValueError, match=r'mask_iou: mask_a must have '
                           r'shape \(R, H, W\)'):
            mask_iou(numpy.zeros((3, 3), bool), numpy.zeros((1, 3, 3), bool))
