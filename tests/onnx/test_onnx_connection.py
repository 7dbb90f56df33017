"""Converters of chainer_core.functions.connection, against ONNX
Runtime."""
import numpy
import pytest

import chainer_core.functions as F
from onnx_check import case_ids, check, f32, OPSETS

x = f32(2, 4, 7, 6)
w = f32(6, 4, 3, 3, seed=1)
b = f32(6, seed=2)
CASES = [
    ('convolution_2d', lambda a: F.convolution_2d(a, w, b), [x]),
    ('convolution_2d_stride_pad', lambda a: F.convolution_2d(
        a, w, b, stride=2, pad=1), [x]),
    ('convolution_2d_cover_all', lambda a: F.convolution_2d(
        a, w, None, stride=(2, 3), pad=(1, 0), cover_all=True), [x]),
    ('convolution_2d_dilate_groups', lambda a: F.convolution_2d(
        a, f32(6, 2, 2, 2, seed=1), b, dilate=2, groups=2), [x]),
    ('dilated_convolution_2d', lambda a: F.dilated_convolution_2d(
        a, w, b, dilate=2), [x]),
    ('convolution_1d', lambda a: F.convolution_1d(
        a, f32(5, 4, 3, seed=1), f32(5, seed=2), stride=2, pad=1),
     [f32(2, 4, 9)]),
    ('convolution_3d', lambda a: F.convolution_nd(
        a, f32(3, 4, 2, 3, 2, seed=1), None, pad=(1, 0, 1)),
     [f32(1, 4, 4, 5, 3)]),
    ('deconvolution_2d', lambda a: F.deconvolution_2d(
        a, f32(4, 3, 3, 3, seed=1), f32(3, seed=2), stride=2, pad=1), [x]),
    ('deconvolution_2d_outsize', lambda a: F.deconvolution_2d(
        a, f32(4, 3, 3, 3, seed=1), None, stride=2, pad=1,
        outsize=(14, 12)), [x]),
    ('deconvolution_2d_outsize_cover_all', lambda a: F.deconvolution_2d(
        a, f32(4, 3, 3, 3, seed=1), None, stride=3, pad=1,
        outsize=(17, 14)), [x]),
    ('deconvolution_2d_groups', lambda a: F.deconvolution_2d(
        a, f32(4, 2, 2, 3, seed=1), None, stride=(1, 2), dilate=2,
        groups=2), [x]),
    ('deconvolution_1d', lambda a: F.deconvolution_1d(
        a, f32(4, 2, 3, seed=1), f32(2, seed=2), stride=2),
     [f32(2, 4, 5)]),
    ('depthwise_convolution_2d', lambda a: F.depthwise_convolution_2d(
        a, f32(2, 4, 3, 3, seed=1), f32(8, seed=2), stride=2, pad=1), [x]),
    ('linear', lambda a: F.linear(a, f32(5, 6, seed=1), f32(5, seed=2)),
     [f32(3, 6)]),
    ('linear_no_bias', lambda a: F.linear(a, f32(5, 6, seed=1)),
     [f32(3, 6)]),
    ('linear_batch_axes', lambda a: F.linear(a, f32(5, 6, seed=1),
                                             n_batch_axes=2),
     [f32(2, 3, 6)]),
    ('linear_float64_weight', lambda a: F.linear(
        a, f32(5, 6, seed=1).astype(numpy.float64)), [f32(3, 6)]),
    ('embed_id', lambda i: F.embed_id(i, f32(10, 4, seed=1)),
     [numpy.array([[1, 9], [0, 3]], numpy.int32)]),
    ('embed_id_ignore', lambda i: F.embed_id(i, f32(10, 4, seed=1),
                                             ignore_label=-1),
     [numpy.array([[1, -1], [0, 3]], numpy.int32)]),
    ('bilinear', lambda a, c: F.bilinear(a, c, f32(3, 4, 2, seed=1)),
     [f32(5, 3), f32(5, 4, seed=2)]),
    ('bilinear_full', lambda a, c: F.bilinear(
        a, c, f32(3, 4, 2, seed=1), f32(3, 2, seed=3), f32(4, 2, seed=4),
        f32(2, seed=5)), [f32(5, 3), f32(5, 4, seed=2)]),
]


@pytest.mark.parametrize('opset_version', OPSETS)
@pytest.mark.parametrize('case', CASES, ids=case_ids(CASES))
class TestConnection:

    def test_output(self, case, opset_version):
        _, fn, args = case
        check(fn, args, opset_version)
