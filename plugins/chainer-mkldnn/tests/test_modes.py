"""use_ideep: 'never' runs the references, 'auto' oneDNN where it covers
the case and the reference elsewhere, 'always' oneDNN or an error naming
the op."""
import numpy
import pytest

import chainer_core
import chainer_core.functions as F

import chainer_mkldnn


def _calls():
    info = chainer_mkldnn.cache_info()
    return info['hits'] + info['misses']


def _conv(device, dtype, rng):
    x = device.send(rng.randn(2, 3, 6, 6).astype(dtype))
    W = device.send(rng.randn(4, 3, 3, 3).astype(dtype))
    return lambda: F.convolution_2d(x, W, pad=1)


def _pool(device, dtype, rng):
    x = device.send(rng.randn(2, 3, 6, 6).astype(dtype))
    return lambda: F.max_pooling_2d(x, 2)


def _relu(device, dtype, rng):
    x = device.send(rng.randn(3, 4).astype(dtype))
    return lambda: F.relu(x)


def _bn(device, dtype, rng):
    x = device.send(rng.randn(4, 3, 2, 2).astype(dtype))
    g = device.send(numpy.ones(3, dtype))
    b = device.send(numpy.zeros(3, dtype))
    return lambda: F.batch_normalization(x, g, b)


def _linear(device, dtype, rng):
    x = device.send(rng.randn(4, 3).astype(dtype))
    W = device.send(rng.randn(2, 3).astype(dtype))
    return lambda: F.linear(x, W)


OPS = [('convolution_2d', _conv), ('max_pooling_2d', _pool),
       ('relu', _relu), ('batch_normalization', _bn), ('linear', _linear)]
ops = pytest.mark.parametrize('op, make', OPS, ids=[o for o, _ in OPS])


def _reference(make, dtype, rng_seed=0):
    with chainer_core.using_config('use_ideep', 'never'):
        return make(chainer_core.get_device('@intel64'), dtype,
                    numpy.random.RandomState(rng_seed))().array


@ops
def test_never_runs_the_reference(op, make, device):
    fn = make(device, numpy.float32, numpy.random.RandomState(0))
    before = _calls()
    with chainer_core.using_config('use_ideep', 'never'):
        y = fn()
    assert _calls() == before
    assert type(y.array) is chainer_mkldnn.mdarray


@ops
def test_default_is_never(op, make, device):
    assert chainer_core.config.use_ideep in ('never', 'auto', 'always')
    if chainer_core.config.use_ideep != 'never':
        pytest.skip('CHAINER_USE_IDEEP is set')
    fn = make(device, numpy.float32, numpy.random.RandomState(0))
    before = _calls()
    fn()
    assert _calls() == before


@ops
@pytest.mark.parametrize('mode', ['auto', 'always'])
def test_float32_uses_onednn(op, make, mode, device):
    fn = make(device, numpy.float32, numpy.random.RandomState(0))
    before = _calls()
    with chainer_core.using_config('use_ideep', mode):
        y = fn()
    assert _calls() > before
    numpy.testing.assert_allclose(y.array, _reference(make, numpy.float32),
                                  atol=1e-5, rtol=1e-5)


@ops
@pytest.mark.parametrize('mode', ['auto', 'always'])
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float64])
def test_other_dtypes_fall_back(op, make, dtype, mode, device):
    # As in Chainer, 'always' too runs the reference where oneDNN does
    # not cover the case.
    fn = make(device, dtype, numpy.random.RandomState(0))
    before = _calls()
    with chainer_core.using_config('use_ideep', mode):
        y = fn()
    assert _calls() == before
    assert y.dtype == dtype and type(y.array) is chainer_mkldnn.mdarray
    numpy.testing.assert_array_equal(y.array, _reference(make, dtype))


def test_auto_falls_back_on_unsupported_parameters(device, rng):
    # Normalizing over axes (0, 1) is not oneDNN's channel layout.
    x = device.send(rng.randn(4, 3, 5).astype(numpy.float32))
    g = device.send(numpy.full(5, 2, numpy.float32))
    b = device.send(numpy.zeros(5, numpy.float32))
    with chainer_core.using_config('use_ideep', 'never'):
        expected = F.batch_normalization(x, g, b, axis=(0, 1))
    for mode in ('auto', 'always'):
        with chainer_core.using_config('use_ideep', mode):
            y = F.batch_normalization(x, g, b, axis=(0, 1))
        numpy.testing.assert_array_equal(y.array, expected.array)


def test_window_in_padding_falls_back(device, rng):
    # cover_all adds a window that starts past the end of x: -inf in the
    # reference, which oneDNN does not produce.
    x = device.send(rng.randn(1, 1, 5, 5).astype(numpy.float32))
    for mode in ('auto', 'always'):
        with chainer_core.using_config('use_ideep', mode):
            y = F.max_pooling_2d(x, 2, stride=2, pad=1, cover_all=True)
        assert numpy.isneginf(y.array).any()


def test_log_softmax_uses_onednn_only_when_always(device, rng):
    x = device.send(rng.randn(4, 5).astype(numpy.float32))
    before = _calls()
    with chainer_core.using_config('use_ideep', 'auto'):
        F.log_softmax(x)
    assert _calls() == before
    with chainer_core.using_config('use_ideep', 'always'):
        F.log_softmax(x)
    assert _calls() > before


def test_numpy_arrays_never_use_onednn(device, rng):
    x = rng.randn(2, 3, 6, 6).astype(numpy.float32)
    W = rng.randn(4, 3, 3, 3).astype(numpy.float32)
    before = _calls()
    with chainer_core.using_config('use_ideep', 'always'):
        y = F.convolution_2d(x, W)
    assert _calls() == before
    assert type(y.array) is numpy.ndarray


@pytest.mark.parametrize('shape, beta', [((2, 16, 3, 3), 0.75),
                                         ((2, 7, 5), 0.75),
                                         ((2, 5, 2, 3, 2), 0.75),
                                         ((3, 16), 0.75),
                                         ((2, 16, 3, 3), 0.6)],
                         ids=['4d-defaults', '3d', '5d', '2d', 'beta0.6'])
def test_lrn_backward_runs_onednn_where_it_has_a_jit(shape, beta, device,
                                                     rng):
    from chainer_core._runtime import kernels as registry
    x = rng.uniform(-2, 2, shape).astype(numpy.float32)
    gy = rng.randn(*shape).astype(numpy.float32)
    _, u = registry.get_spec('local_response_normalization').reference(
        numpy, x, 2, 2.0, 1e-4, beta)
    args = (2, 2.0, 1e-4, beta)
    expected = registry.get_spec(
        'local_response_normalization_grad').reference(numpy, x, gy, u, *args)
    kernel = registry.lookup('local_response_normalization_grad',
                             device.send(x))
    jit = beta == 0.75
    for mode in ('auto', 'always'):
        before = _calls()
        with chainer_core.using_config('use_ideep', mode):
            gx = kernel(device.send(x), device.send(gy), device.send(u),
                        *args)
        if jit:
            assert _calls() > before
            numpy.testing.assert_allclose(gx, expected, atol=1e-5,
                                          rtol=1e-4)
        else:
            # The reference itself (a refused case is looked up in the
            # primitive cache too, so that it is refused once).
            numpy.testing.assert_array_equal(gx, expected)
