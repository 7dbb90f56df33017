import numpy
import pytest

import chainer_cv as chainercv
from chainer_cv.utils import convert_bbox
from chainer_cv.utils._checks import to_host
from chainer_cv.utils.convert_bbox import _FORMATS

_BOX = numpy.array([[10, 20, 30, 60]], numpy.float32)
_EXPECTED = {
    'yxyx': [10, 20, 30, 60], 'xyxy': [20, 10, 60, 30],
    'yxhw': [10, 20, 20, 40], 'xywh': [20, 10, 40, 20],
    'cycxhw': [20, 40, 20, 40], 'cxcywh': [40, 20, 40, 20],
}


class TestConvertBBox:

    @pytest.mark.parametrize('dst', _FORMATS)
    def test_known_values(self, dst):
        out = convert_bbox(_BOX, 'yxyx', dst)
        assert out.dtype == numpy.float32
        numpy.testing.assert_array_equal(out, [_EXPECTED[dst]])

    @pytest.mark.parametrize('src', _FORMATS)
    @pytest.mark.parametrize('dst', _FORMATS)
    def test_round_trip(self, src, dst):
        numpy.random.seed(0)
        bbox = convert_bbox(
            chainercv.utils.generate_random_bbox(10, (50, 50), 2, 20),
            'yxyx', src)
        numpy.testing.assert_allclose(
            convert_bbox(convert_bbox(bbox, src, dst), dst, src), bbox,
            rtol=1e-5, atol=1e-4)

    def test_batch_axes(self):
        bbox = numpy.tile(_BOX, (2, 3, 1))
        assert convert_bbox(bbox, 'yxyx', 'xywh').shape == (2, 3, 4)

    def test_on_device(self, device):
        out = convert_bbox(device.send(_BOX), 'yxyx', 'cxcywh')
        numpy.testing.assert_array_equal(to_host(out), [_EXPECTED['cxcywh']])

    def test_bad_input(self):
        with pytest.raises(ValueError, match=r"convert_bbox: dst must be one "
                           r"of .*got 'ltrb'"):
            convert_bbox(_BOX, 'yxyx', 'ltrb')
        with pytest.raises(ValueError, match=r'bbox must have shape '
                           r'\(\.\.\., 4\); got shape \(1, 3\)'):
            convert_bbox(_BOX[:, :3])
