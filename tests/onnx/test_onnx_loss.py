"""Converters of chainer_core.functions.loss, against ONNX Runtime."""
import numpy
import pytest

import chainer_core.functions as F
from onnx_check import case_ids, check, f32, OPSETS

x = f32(4, 5, low=-3, high=3)
t = numpy.array([1, 0, 4, 2], numpy.int32)
t_ignored = numpy.array([1, -1, 4, -1], numpy.int32)
x3 = f32(2, 5, 3, low=-3, high=3)
t3 = numpy.array([[0, 4, -1], [2, 2, 1]], numpy.int32)
soft = numpy.abs(f32(4, 5, seed=3))
soft /= soft.sum(axis=1, keepdims=True)
weight = numpy.array([1, 2, 0.5, 1, 3], numpy.float32)
CASES = [
    ('softmax_cross_entropy', F.softmax_cross_entropy, [x, t]),
    ('softmax_cross_entropy_ignored', F.softmax_cross_entropy,
     [x, t_ignored]),
    ('softmax_cross_entropy_not_normalized',
     lambda a, b: F.softmax_cross_entropy(a, b, normalize=False),
     [x, t_ignored]),
    ('softmax_cross_entropy_no_reduce',
     lambda a, b: F.softmax_cross_entropy(a, b, reduce='no'), [x3, t3]),
    ('softmax_cross_entropy_class_weight',
     lambda a, b: F.softmax_cross_entropy(a, b, class_weight=weight),
     [x, t_ignored]),
    ('softmax_cross_entropy_soft', F.softmax_cross_entropy, [x, soft]),
    ('softmax_cross_entropy_kl', lambda a, b: F.softmax_cross_entropy(
        a, b, soft_target_loss='kl-divergence', class_weight=weight),
     [x, soft]),
    ('sigmoid_cross_entropy', F.sigmoid_cross_entropy,
     [x, numpy.array([[0, 1, -1, 1, 0]] * 4, numpy.int32)]),
    ('sigmoid_cross_entropy_no_reduce', lambda a, b: F.sigmoid_cross_entropy(
        a, b, reduce='no'), [x, numpy.array([[0, 1, -1, 1, 0]] * 4,
                                            numpy.int32)]),
    ('mean_squared_error', F.mean_squared_error, [x, f32(4, 5, seed=1)]),
    ('mean_absolute_error', F.mean_absolute_error, [x, f32(4, 5, seed=1)]),
    ('squared_error', F.squared_error, [x, f32(4, 5, seed=1)]),
    ('absolute_error', F.absolute_error, [x, f32(4, 5, seed=1)]),
    ('huber_loss', lambda a, b: F.huber_loss(a, b, 1.0), [x, f32(4, 5)]),
    ('huber_loss_no_reduce', lambda a, b: F.huber_loss(
        a, b, 0.5, reduce='no'), [x, f32(4, 5, seed=2)]),
]


@pytest.mark.parametrize('opset_version', OPSETS)
@pytest.mark.parametrize('case', CASES, ids=case_ids(CASES))
class TestLoss:

    def test_output(self, case, opset_version):
        _, fn, args = case
        check(fn, args, opset_version)
