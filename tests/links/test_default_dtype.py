"""The dtype links create their parameters in, from the default dtype
(``config.dtype``): under mixed16 float16, except the normalization links'
float32 scale, shift and statistics (as in Chainer 7.8.1)."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.links as L

F16, F32, F64 = numpy.float16, numpy.float32, numpy.float64

_CASES = [
    (lambda: L.Linear(3, 4), F16),
    (lambda: L.Convolution2D(3, 4, 2), F16),
    (lambda: L.EmbedID(3, 4), F16),
    (lambda: L.LSTM(3, 4), F16),
    (lambda: L.NStepLSTM(1, 3, 4, 0.0), F16),
    (lambda: L.NegativeSampling(3, [1, 2, 3], 2), F16),
    (lambda: L.BinaryHierarchicalSoftmax(3, ((0, 1), 2)), F16),
    (lambda: L.StatefulMGU(3, 4), F16),
    (lambda: L.LayerNormalization(3), F16),
    (lambda: L.BatchNormalization(3), F32),
    (lambda: L.BatchRenormalization(3), F32),
    (lambda: L.GroupNormalization(1, 3), F32),
]


@pytest.mark.parametrize('make,mixed16_dtype', _CASES)
def test_mixed16(make, mixed16_dtype):
    with chainer.using_config('dtype', chainer.mixed16):
        link = make()
    for name, p in link.namedparams():
        assert p.dtype == mixed16_dtype, name


@pytest.mark.parametrize('make', [c[0] for c in _CASES])
def test_float64(make):
    with chainer.using_config('dtype', F64):
        link = make()
    for name, p in link.namedparams():
        assert p.dtype == F64, name


def test_batch_normalization_statistics_under_mixed16():
    with chainer.using_config('dtype', chainer.mixed16):
        bn = L.BatchNormalization(3)
        assert bn.avg_mean.dtype == F32 and bn.avg_var.dtype == F32
        assert L.BatchNormalization(3, dtype=F16).gamma.dtype == F16
        lazy = L.BatchNormalization(axis=0)
        lazy(numpy.ones((2, 3), F16))
        assert lazy.gamma.dtype == F32


def test_group_normalization_resolves_when_initialized():
    gn = L.GroupNormalization(1)
    with chainer.using_config('dtype', F64):
        gn(numpy.ones((2, 3, 2), F64))
    assert gn.gamma.dtype == F64
