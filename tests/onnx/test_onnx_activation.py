"""Converters of chainer_core.functions.activation, against ONNX
Runtime."""
import pytest

import chainer_core.functions as F
from onnx_check import case_ids, check, f32, OPSETS

x = f32(2, 3, 4, 5)
c = f32(3, 4, seed=1)
CASES = [
    ('relu', F.relu, [x]),
    ('sigmoid', F.sigmoid, [x]),
    ('tanh', F.tanh, [x]),
    ('hard_sigmoid', F.hard_sigmoid, [f32(3, 4, low=-4, high=4)]),
    ('clipped_relu', lambda a: F.clipped_relu(a, 0.5), [x]),
    ('elu', lambda a: F.elu(a, alpha=0.7), [x]),
    ('selu', F.selu, [x]),
    ('leaky_relu', lambda a: F.leaky_relu(a, slope=0.1), [x]),
    ('softmax', F.softmax, [x]),
    ('softmax_axis3', lambda a: F.softmax(a, axis=3), [x]),
    ('log_softmax', F.log_softmax, [x]),
    ('log_softmax_axis0', lambda a: F.log_softmax(a, axis=0), [x]),
    ('softplus', F.softplus, [x]),
    ('softplus_beta', lambda a: F.softplus(a, beta=2.5), [x]),
    ('prelu', lambda a: F.prelu(a, f32(3, seed=2)), [x]),
    ('prelu_2d_w', lambda a: F.prelu(a, f32(3, 4, seed=2)), [x]),
    ('swish', lambda a: F.swish(a, f32(3, seed=3)), [x]),
    ('maxout', lambda a: F.maxout(a, 2, axis=2), [x]),
    ('crelu', F.crelu, [x]),
    ('rrelu', F.rrelu, [x]),
    ('lstm', lambda c_, a: F.lstm(c_, a), [c, f32(3, 16, seed=4)]),
    ('lstm_short_batch', lambda c_, a: F.lstm(c_, a),
     [c, f32(2, 16, seed=4)]),
]


@pytest.mark.parametrize('opset_version', OPSETS)
@pytest.mark.parametrize('case', CASES, ids=case_ids(CASES))
class TestActivation:

    def test_output(self, case, opset_version):
        _, fn, args = case
        check(fn, args, opset_version)


@pytest.mark.parametrize('opset_version', OPSETS)
def test_rrelu_in_training_keeps_the_slopes_it_drew(opset_version):
    check(F.rrelu, [x], opset_version, train=True)
