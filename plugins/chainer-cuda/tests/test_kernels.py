"""Each kernel of the plugin against chainer-core's reference kernel on
NumPy, in float16, float32 and float64, with special values; and what each
declines."""
import numpy
import pytest

from chainer_core._runtime import kernels as registry
from chainer_cuda.kernels import KERNELS
from kernel_cases import (
    CASES, DTYPES, OPTIMIZER_KERNELS, TOL, WIDE_ONLY, comparable,
    optimizer_cases, run_op)

pytestmark = pytest.mark.gpu

def _send(device, value):
    if isinstance(value, numpy.ndarray):
        return device.send(value)
    return value


def _compare(device, got, expected, dtype, what):
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected), what
        for g, e in zip(got, expected):
            _compare(device, g, e, dtype, what)
        return
    if expected is None:
        assert got is None, what
        return
    assert device.is_array_supported(got), what
    got = device.to_host(got)
    expected = numpy.asarray(expected)
    assert got.dtype == expected.dtype and got.shape == expected.shape, \
        (what, got.dtype, expected.dtype, got.shape, expected.shape)
    numpy.testing.assert_allclose(
        got.astype(numpy.float64), expected.astype(numpy.float64),
        equal_nan=True, err_msg=what, **TOL[dtype])


def test_every_kernel_has_cases():
    optimizers = {n for n in KERNELS if n.endswith('_update')}
    assert set(KERNELS) - optimizers - {'dropout'} == set(CASES)
    assert optimizers == {s.name for s in registry.specs()
                          if s.name.endswith('_update')}


# The references' own warnings (inf - inf, the mean of an empty batch).
@pytest.mark.filterwarnings('ignore::RuntimeWarning')
@pytest.mark.parametrize('dtype', DTYPES, ids=lambda d: d.__name__)
@pytest.mark.parametrize('name', sorted(CASES))
def test_kernel_matches_reference(device, cupy, name, dtype):
    rng = numpy.random.RandomState(1)
    reference = registry.get_spec(name).reference
    for i, args in enumerate(CASES[name](rng, dtype)):
        what = '{} case {} ({})'.format(name, i, dtype.__name__)
        host = [None if a is None else
                (a.copy() if isinstance(a, numpy.ndarray) else a)
                for a in args]
        on_device = [_send(device, a) for a in args]
        if dtype == numpy.float16 and name in WIDE_ONLY:
            assert KERNELS[name](*on_device) is NotImplemented, what
            continue
        with numpy.errstate(all='ignore'):
            try:
                expected = reference(numpy, *host)
            except Exception as e:
                with pytest.raises(type(e)):
                    run_op(name, cupy, on_device)
                continue
        got = run_op(name, cupy, on_device)
        assert got is not NotImplemented, what
        _compare(device, comparable(name, got), comparable(name, expected),
                 dtype, what)
        # In-place results (the running statistics).
        for a, h in zip(on_device, host):
            if isinstance(h, numpy.ndarray):
                _compare(device, a, h, dtype, what + ' (in place)')


@pytest.mark.parametrize('dtype, state_dtype', [
    (numpy.float32, numpy.float32), (numpy.float64, numpy.float64),
    (numpy.float16, numpy.float32)], ids=['float32', 'float64',
                                         'float16-float32-state'])
@pytest.mark.parametrize('name', OPTIMIZER_KERNELS)
def test_update_matches_reference(device, name, dtype, state_dtype):
    rng = numpy.random.RandomState(2)
    reference = registry.get_spec(name).reference
    for i, args in enumerate(optimizer_cases(name, rng, dtype,
                                              state_dtype)):
        if name == 'sgd_update' and dtype == numpy.float16:
            continue
        what = '{} case {}'.format(name, i)
        host = [a.copy() if isinstance(a, numpy.ndarray) else a
                for a in args]
        on_device = [_send(device, a) for a in args]
        assert KERNELS[name](*on_device) is None, what
        with numpy.errstate(all='ignore'):
            reference(numpy, *host)
        for a, h in zip(on_device, host):
            if isinstance(h, numpy.ndarray):
                _compare(device, a, h, dtype if h.dtype == dtype
                         else state_dtype, what)


@pytest.mark.parametrize('name', OPTIMIZER_KERNELS)
def test_float16_state_is_declined(device, name):
    rng = numpy.random.RandomState(3)
    args = optimizer_cases(name, rng, numpy.float16, numpy.float16)[0]
    assert KERNELS[name](*[_send(device, a) for a in args]) \
        is NotImplemented


def test_dropout(device, cupy):
    x = device.send(numpy.ones((200, 300), numpy.float32))
    y, mask = KERNELS['dropout'](x, 0.25, None)
    kept = device.to_host(mask) != 0
    assert 0.7 < kept.mean() < 0.8
    numpy.testing.assert_allclose(device.to_host(mask)[kept], 1 / 0.75,
                                  rtol=1e-6)
    numpy.testing.assert_array_equal(device.to_host(y),
                                     device.to_host(mask))
    assert KERNELS['dropout'](x, 0.25, mask) is NotImplemented
    half = x.astype(numpy.float16)
    y, mask = KERNELS['dropout'](half, 0.5, None)
    assert y.dtype == mask.dtype == numpy.float16


def test_declines(device):
    x = device.send(numpy.ones((2, 3, 4), numpy.float32))
    gamma = device.send(numpy.ones((2, 1, 1), numpy.float32))
    assert KERNELS['batch_normalization'](x, gamma, gamma, (1, 2),
                                          1e-5) is NotImplemented
    assert KERNELS['relu'](x.astype(numpy.int32)) is NotImplemented
    assert KERNELS['relu_grad'](x, x.astype(numpy.float64)) \
        is NotImplemented
    assert KERNELS['leaky_relu_grad'](x, x, 2.0) is NotImplemented
    assert KERNELS['softmax'](x[:, :0], 1) is NotImplemented
    assert KERNELS['pad'](x, ((1, 1),) * 3, 'constant', 0) \
        is NotImplemented
    assert KERNELS['pow'](x, 2.0) is NotImplemented
    assert KERNELS['pow'](x.astype(numpy.float16), 0.5) is NotImplemented
    assert KERNELS['fft'](x, x, False) is NotImplemented
    assert KERNELS['max_pooling_nd'](x.reshape(1, 1, 2, 3, 2, 2), (1,) * 4,
                                     (1,) * 4, (0,) * 4, True) \
        is NotImplemented


def test_singular_matrices_raise(device):
    """As on NumPy: cuSOLVER's status is checked (a LinAlgError is a
    ValueError)."""
    singular = numpy.array([[1.0, 2.0], [2.0, 4.0]], numpy.float32)
    for a in (singular, numpy.stack([numpy.eye(2, dtype=numpy.float32),
                                     singular])):
        with pytest.raises(numpy.linalg.LinAlgError):
            KERNELS['inv'](device.send(a))
    with pytest.raises(numpy.linalg.LinAlgError):
        KERNELS['cholesky'](device.send(-numpy.eye(3, dtype=numpy.float32)))


def test_ops_dispatch_to_these_kernels(device):
    x = device.send(numpy.ones(3, numpy.float32))
    for name, fn in KERNELS.items():
        kernel = registry.lookup(name, x)
        assert getattr(kernel, '__wrapped__', None) is fn, name
