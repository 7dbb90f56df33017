"""Converters of chainer_core.functions.pooling, against ONNX Runtime."""
import numpy
import pytest

import chainer_core.functions as F
from onnx_check import case_ids, check, f32, OPSETS

x = f32(2, 3, 7, 6)
rois5 = numpy.array([[0, 1, 1, 5, 4], [1, 0, 2, 3, 6], [0, 2.6, 0.4, 4.4, 5]],
                    numpy.float32)
boxes = numpy.array([[1, 1, 5, 4], [0.5, 2, 6.5, 5.2], [2, 0, 3, 1]],
                    numpy.float32)
box_indices = numpy.array([0, 1, 1], numpy.int32)
CASES = [
    ('max_pooling_2d', lambda a: F.max_pooling_2d(a, 2), [x]),
    ('max_pooling_2d_cover_all', lambda a: F.max_pooling_2d(
        a, 3, stride=2, pad=1), [x]),
    ('max_pooling_2d_no_cover_all', lambda a: F.max_pooling_2d(
        a, 3, stride=2, pad=1, cover_all=False), [x]),
    ('max_pooling_2d_wide_stride', lambda a: F.max_pooling_2d(
        a, 2, stride=3), [x]),
    ('max_pooling_nd', lambda a: F.max_pooling_nd(a, (2, 3, 2), stride=2),
     [f32(1, 2, 5, 6, 4)]),
    ('max_pooling_1d', lambda a: F.max_pooling_1d(a, 3, pad=1),
     [f32(2, 3, 8)]),
    ('average_pooling_2d', lambda a: F.average_pooling_2d(a, 2), [x]),
    ('average_pooling_2d_pad', lambda a: F.average_pooling_2d(
        a, 3, stride=2, pad=1), [x]),
    ('average_pooling_nd', lambda a: F.average_pooling_nd(
        a, (2, 3, 2), stride=1, pad=1), [f32(1, 2, 5, 6, 4)]),
    ('average_pooling_nd_exclude_pad', lambda a: F.average_pooling_nd(
        a, 3, stride=2, pad=1, pad_value=None), [x]),
    ('unpooling_2d', lambda a: F.unpooling_2d(a, 2, cover_all=False), [x]),
    ('unpooling_2d_overlap', lambda a: F.unpooling_2d(
        a, 3, stride=2, pad=1), [x]),
    ('unpooling_2d_outsize', lambda a: F.unpooling_2d(
        a, 2, outsize=(15, 12), cover_all=False), [x]),
    ('unpooling_nd', lambda a: F.unpooling_nd(a, (2, 1, 3), cover_all=False),
     [f32(1, 2, 3, 2, 2)]),
    ('roi_pooling_2d', lambda a, r: F.roi_pooling_2d(a, r, 2, 3, 0.9),
     [x, rois5]),
    ('roi_average_align_2d', lambda a, r, i: F.roi_average_align_2d(
        a, r, i, (2, 3), 0.9, sampling_ratio=2), [x, boxes, box_indices]),
    ('roi_average_align_2d_adaptive', lambda a, r, i: F.roi_average_align_2d(
        a, r, i, 2, 1.0), [x, boxes, box_indices]),
]


@pytest.mark.parametrize('opset_version', OPSETS)
@pytest.mark.parametrize('case', CASES, ids=case_ids(CASES))
class TestPooling:

    def test_output(self, case, opset_version):
        _, fn, args = case
        check(fn, args, opset_version)
