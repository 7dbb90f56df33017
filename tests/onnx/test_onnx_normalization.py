"""Converters of chainer_core.functions.normalization and noise, against
ONNX Runtime."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from onnx_check import case_ids, check, f32, OPSETS

x = f32(3, 4, 5, 6)
g4, b4 = f32(4, seed=1), f32(4, seed=2)
mean4, var4 = f32(4, seed=3), f32(4, seed=4, low=0.5, high=2)
CASES = [
    ('fixed_batch_normalization', lambda a: F.fixed_batch_normalization(
        a, g4, b4, mean4, var4, eps=1e-3), [x]),
    ('fixed_batch_normalization_2d', lambda a: F.fixed_batch_normalization(
        a, g4, b4, mean4, var4), [f32(3, 4)]),
    ('fixed_batch_normalization_axis', lambda a: F.fixed_batch_normalization(
        a, f32(6, seed=1), f32(6, seed=2), f32(6, seed=3),
        f32(6, seed=4, low=0.5, high=2), axis=(0, 1, 2)), [x]),
    ('fixed_batch_normalization_float64_stats',
     lambda a: F.fixed_batch_normalization(
         a, *[v.astype(numpy.float64) for v in (g4, b4, mean4, var4)]),
     [x]),
    ('batch_normalization', lambda a: F.batch_normalization(a, g4, b4),
     [x]),
    ('batch_normalization_2d_gamma', lambda a: F.batch_normalization(
        a, f32(4, 5, seed=1), f32(4, 5, seed=2)), [x]),
    ('group_normalization', lambda a: F.group_normalization(a, 2, g4, b4),
     [x]),
    ('layer_normalization', lambda a: F.layer_normalization(
        a, f32(6, seed=1), f32(6, seed=2)), [f32(5, 6)]),
    ('local_response_normalization', F.local_response_normalization, [x]),
    ('local_response_normalization_even', lambda a:
     F.local_response_normalization(a, n=4, k=1, alpha=1e-2, beta=0.5),
     [x]),
    ('normalize', F.normalize, [x]),
    ('normalize_axes', lambda a: F.normalize(a, eps=1e-3, axis=(1, 3)),
     [x]),
]


def _in_training_mode(fn):
    def run(*args):
        with chainer.using_config('train', True):
            return fn(*args)
    return run


@pytest.mark.parametrize('opset_version', OPSETS)
@pytest.mark.parametrize('case', CASES, ids=case_ids(CASES))
class TestNormalization:

    def test_output(self, case, opset_version):
        _, fn, args = case
        check(fn, args, opset_version)


@pytest.mark.parametrize('opset_version', [16, 17])
def test_layer_normalization_with_and_without_the_operator(opset_version):
    model = check(lambda a: F.layer_normalization(
        a, f32(6, seed=1), f32(6, seed=2)), [f32(5, 6)], opset_version)
    ops = {n.op_type for n in model.graph.node}
    assert ('LayerNormalization' in ops) == (opset_version >= 17)


@pytest.mark.parametrize('opset_version', OPSETS)
def test_dropout_in_training_mode_is_onnx_dropout(opset_version):
    # ONNX Runtime runs Dropout as the identity (inference).
    model = check(lambda a: F.dropout(a, 0.3) * 0 + a, [x], opset_version,
                  train=True)
    assert 'Dropout' in {n.op_type for n in model.graph.node}


@pytest.mark.parametrize('opset_version', OPSETS)
def test_dropout_outside_training_leaves_no_node(opset_version):
    model = check(lambda a: F.dropout(a, 0.3) * 2, [x], opset_version)
    assert [n.op_type for n in model.graph.node] == ['Mul']
