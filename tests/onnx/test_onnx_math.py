"""Converters of chainer_core.functions.math and the Variable operators,
against ONNX Runtime."""
import numpy
import pytest

import chainer_core.functions as F
from onnx_check import case_ids, check, f32, OPSETS

x = f32(2, 3, 4)
y = f32(2, 3, 4, seed=1)
pos = f32(2, 3, 4, low=0.5, high=2)
unit = f32(2, 3, 4, low=-0.9, high=0.9)
CASES = [
    ('add', lambda a, b: a + b, [x, y]),
    ('add_broadcast', lambda a, b: a + b, [x, f32(3, 1, seed=2)]),
    ('sub', lambda a, b: a - b, [x, y]),
    ('mul', lambda a, b: a * b, [x, y]),
    ('div', lambda a, b: a / b, [x, pos]),
    ('pow_var_var', lambda a, b: a ** b, [pos, y]),
    ('add_constant', lambda a: a + 2.5, [x]),
    ('add_constant_array', lambda a: a + numpy.arange(4, dtype='f'), [x]),
    ('sub_from_constant', lambda a: 2 - a, [x]),
    ('sub_constant', lambda a: a - 2, [x]),
    ('mul_constant', lambda a: a * -3, [x]),
    ('div_constant', lambda a: a / 4, [x]),
    ('div_from_constant', lambda a: 3 / a, [pos]),
    ('pow_var_const', lambda a: a ** 3, [x]),
    ('pow_const_var', lambda a: 2 ** a, [x]),
    ('neg', lambda a: -a, [x]),
    ('multi_add', lambda a, b: F.add(a, b, a), [x, y]),
    ('absolute', abs, [x]),
    ('exp', F.exp, [x]),
    ('log', F.log, [pos]),
    ('log2', F.log2, [pos]),
    ('log10', F.log10, [pos]),
    ('log1p', F.log1p, [pos]),
    ('expm1', F.expm1, [x]),
    ('sqrt', F.sqrt, [pos]),
    ('rsqrt', F.rsqrt, [pos]),
    ('square', F.square, [x]),
    ('sin', F.sin, [x]),
    ('cos', F.cos, [x]),
    ('tan', F.tan, [x]),
    ('arcsin', F.arcsin, [unit]),
    ('arccos', F.arccos, [unit]),
    ('arctan', F.arctan, [x]),
    ('arctan2', F.arctan2, [
        numpy.array([1, -1, 1, -1, 0, 0, 1, -1, 0], 'f'),
        numpy.array([1, 1, -1, -1, 1, -1, 0, 0, 0], 'f')]),
    ('sinh', F.sinh, [x]),
    ('cosh', F.cosh, [x]),
    ('arctanh', F.arctanh, [unit]),
    ('erf', F.erf, [x]),
    ('erfc', F.erfc, [x]),
    ('ndtr', F.ndtr, [x * 3]),
    ('fmod', F.fmod, [x * 5, pos]),
    ('identity', lambda a, b: F.identity(a, b), [x, y]),
    ('maximum', F.maximum, [x, y]),
    ('minimum', F.minimum, [x, y]),
    ('clip', lambda a: F.clip(a, -0.5, 0.25), [x]),
    ('clip_max_only', lambda a: F.clip(a, None, 0.25), [x]),
    ('squared_difference', F.squared_difference, [x, y]),
    ('linear_interpolate', F.linear_interpolate,
     [f32(2, 3, 4, low=0, seed=3), x, y]),
    ('sum', F.sum, [x]),
    ('sum_axis', lambda a: F.sum(a, axis=(0, 2), keepdims=True), [x]),
    ('sum_to', lambda a: F.sum_to(a, (3, 1)), [x]),
    ('mean', lambda a: F.mean(a, axis=1), [x]),
    ('mean_all', F.mean, [x]),
    ('prod', lambda a: F.prod(a, axis=2), [x]),
    ('max', lambda a: F.max(a, axis=1, keepdims=True), [x]),
    ('max_all', F.max, [x]),
    ('min', lambda a: F.min(a, axis=(1, 2)), [x]),
    ('argmax', lambda a: F.argmax(a, axis=1), [x]),
    ('argmax_flat', F.argmax, [x]),
    ('argmin', lambda a: F.argmin(a, axis=2), [x]),
    ('logsumexp', lambda a: F.logsumexp(a, axis=1), [x]),
    ('logsumexp_all', F.logsumexp, [x]),
    ('batch_l2_norm_squared', F.batch_l2_norm_squared, [x]),
    ('matmul', F.matmul, [f32(3, 4), f32(4, 5, seed=1)]),
    ('matmul_trans', lambda a, b: F.matmul(a, b, transa=True, transb=True),
     [f32(4, 3), f32(5, 4, seed=1)]),
    ('matmul_batch', F.matmul, [f32(2, 3, 4), f32(2, 4, 5, seed=1)]),
    ('matmul_broadcast', F.matmul, [f32(2, 3, 4), f32(4, 5, seed=1)]),
    ('cumsum', lambda a: F.cumsum(a, axis=1), [x]),
    ('einsum', lambda a, b: F.einsum('ijk,ikl->ijl', a, b),
     [x, f32(2, 4, 3, seed=1)]),
    ('tensordot', lambda a, b: F.tensordot(a, b, axes=([1, 2], [0, 1])),
     [x, f32(3, 4, 5, seed=1)]),
    ('tensordot_int', lambda a, b: F.tensordot(a, b, axes=1),
     [x, f32(4, 2, seed=1)]),
    ('det', F.det, [f32(3, 3) + numpy.eye(3, dtype='f')]),
    ('batch_det', F.batch_det, [f32(2, 3, 3) + numpy.eye(3, dtype='f')]),
]


@pytest.mark.parametrize('opset_version', OPSETS)
@pytest.mark.parametrize('case', CASES, ids=case_ids(CASES))
class TestMath:

    def test_output(self, case, opset_version):
        _, fn, args = case
        check(fn, args, opset_version)
