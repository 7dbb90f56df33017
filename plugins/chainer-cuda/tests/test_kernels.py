"""Each kernel of the plugin against chainer-core's reference kernel on
NumPy, in float16, float32 and float64, with special values; and what each
declines."""
import numpy
import pytest

from chainer_core._runtime import kernels as registry
from chainer_cuda.kernels import KERNELS

pytestmark = pytest.mark.gpu

DTYPES = (numpy.float16, numpy.float32, numpy.float64)
TOL = {numpy.float16: dict(atol=2e-3, rtol=4e-3),
       numpy.float32: dict(atol=1e-5, rtol=1e-5),
       numpy.float64: dict(atol=1e-12, rtol=1e-10)}
SPECIAL = [numpy.nan, numpy.inf, -numpy.inf, 0.0, -0.0, 1.0, -1.0, 0.5,
           -2.5, 2.5, 30.0, -30.0]


def _u(rng, shape, dtype, lo=-3.0, hi=3.0):
    return rng.uniform(lo, hi, shape).astype(dtype)


def _special(dtype):
    return numpy.array(SPECIAL, dtype=dtype)


def _unary(*params):
    return lambda rng, dt: [(_u(rng, (4, 5), dt),) + params,
                            (_special(dt),) + params]


def _grad(*params, first=None):
    def make(rng, dt):
        x = _u(rng, (4, 5), dt)
        y = first(x) if first else x
        cases = [(y, _u(rng, (4, 5), dt)) + params]
        s = _special(dt)
        ys = first(s) if first else s
        cases.append((ys, _special(dt)[::-1].copy()) + params)
        return cases
    return make


def _sigmoid(x):
    return (numpy.tanh(x.astype(numpy.float64) / 2) / 2 + .5).astype(x.dtype)


def _softmax_cases(rng, dt):
    return [(_u(rng, (5, 7), dt), 1), (_u(rng, (3, 4, 6), dt), 1),
            (_u(rng, (3, 4, 6), dt), -1), (_u(rng, (2, 40), dt), 1)]


def _sce_cases(rng, dt, grad=False):
    cases = []
    for shape in ((6, 5), (3, 4, 2)):
        x = _u(rng, shape, dt)
        t = rng.randint(0, shape[1], (shape[0],) + shape[2:]).astype(
            numpy.int32)
        t.flat[0] = -1
        for cw in (None, rng.uniform(0.5, 2, shape[1]).astype(dt)):
            for normalize in (True, False):
                for reduce in ('mean', 'no'):
                    if grad:
                        gshape = () if reduce == 'mean' else t.shape
                        g = _u(rng, gshape, dt)
                        cases.append((x, t, g, cw, -1, normalize, reduce))
                    else:
                        cases.append((x, t, cw, -1, normalize, reduce))
    return cases


def _bn_cases(rng, dt):
    return [(_u(rng, (4, 3, 5, 2), dt), _u(rng, (1, 3, 1, 1), dt),
             _u(rng, (1, 3, 1, 1), dt), (0, 2, 3), 2e-5),
            (_u(rng, (6, 4), dt), _u(rng, (1, 4), dt), _u(rng, (1, 4), dt),
             (0,), 1e-5)]


def _bn_grad_cases(rng, dt):
    out = []
    for x, gamma, beta, axis, eps in _bn_cases(rng, dt):
        _, mean, _, inv_std = registry.get_spec(
            'batch_normalization').reference(numpy, x, gamma, beta, axis,
                                             eps)
        out.append((x, gamma, _u(rng, x.shape, dt), mean, inv_std, axis))
    return out


def _fixed_bn_cases(rng, dt):
    return [(_u(rng, (4, 3, 5), dt), _u(rng, (1, 3, 1), dt),
             _u(rng, (1, 3, 1), dt), _u(rng, (1, 3, 1), dt),
             _u(rng, (1, 3, 1), dt, 0.5, 2), 2e-5)]


def _stats_cases(rng, dt):
    return [(_u(rng, (3,), dt), _u(rng, (3,), dt, 0, 1), _u(rng, (3,), dt),
             _u(rng, (3,), dt, 0, 1), 0.9, 1.1)]


def _lstm_cases(rng, dt):
    return [(_u(rng, (4, 3), dt), _u(rng, (4, 12), dt)),
            (_u(rng, (5, 2, 3), dt), _u(rng, (3, 8, 3), dt))]


def _lstm_grad_cases(rng, dt):
    out = []
    for c, x in _lstm_cases(rng, dt):
        gc = _u(rng, c.shape, dt)
        gh = _u(rng, (x.shape[0],) + c.shape[1:], dt)
        out += [(c, x, gc, gh), (c, x, None, gh), (c, x, gc, None)]
    return out


CASES = {
    'relu': _unary(),
    'relu_grad': _grad(first=lambda x: numpy.maximum(x, 0)),
    'sigmoid': _unary(),
    'sigmoid_grad': _grad(first=_sigmoid),
    'tanh_grad': _grad(first=numpy.tanh),
    'leaky_relu': lambda r, d: _unary(0.2)(r, d) + _unary(0.0)(r, d)
    + _unary(2.0)(r, d),
    'leaky_relu_grad': _grad(0.2),
    'elu': _unary(1.5),
    'elu_grad': _grad(1.5, 1.2),
    'elu_grad_grad': _grad(1.5, 1.2),
    'selu': _unary(1.67, 1.05),
    'clipped_relu': _unary(2.0),
    'clipped_relu_grad': _grad(2.0),
    'hard_sigmoid': _unary(),
    'hard_sigmoid_grad': _grad(),
    'softplus': _unary(2.0),
    'softmax': _softmax_cases,
    'log_softmax': _softmax_cases,
    'softmax_cross_entropy': _sce_cases,
    'softmax_cross_entropy_grad': lambda r, d: _sce_cases(r, d, grad=True),
    'batch_normalization': _bn_cases,
    'batch_normalization_grad': _bn_grad_cases,
    'fixed_batch_normalization': _fixed_bn_cases,
    'batch_normalization_update_statistics': _stats_cases,
    'lstm': _lstm_cases,
    'lstm_grad': _lstm_grad_cases,
}

# Kernels that leave float16 (or float16 state) to the reference.
WIDE_ONLY = {'softmax', 'log_softmax', 'softmax_cross_entropy',
             'softmax_cross_entropy_grad', 'batch_normalization',
             'batch_normalization_grad'}


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


@pytest.mark.parametrize('dtype', DTYPES, ids=lambda d: d.__name__)
@pytest.mark.parametrize('name', sorted(CASES))
def test_kernel_matches_reference(device, name, dtype):
    rng = numpy.random.RandomState(1)
    reference = registry.get_spec(name).reference
    fn = KERNELS[name]
    for i, args in enumerate(CASES[name](rng, dtype)):
        what = '{} case {} ({})'.format(name, i, dtype.__name__)
        host = [None if a is None else
                (a.copy() if isinstance(a, numpy.ndarray) else a)
                for a in args]
        on_device = [_send(device, a) for a in args]
        got = fn(*on_device)
        if dtype == numpy.float16 and name in WIDE_ONLY:
            assert got is NotImplemented, what
            continue
        assert got is not NotImplemented, what
        with numpy.errstate(all='ignore'):
            expected = reference(numpy, *host)
        _compare(device, got, expected, dtype, what)
        # In-place results (the running statistics).
        for a, h in zip(on_device, host):
            if isinstance(h, numpy.ndarray):
                _compare(device, a, h, dtype, what + ' (in place)')


def _optimizer_cases(name, rng, dtype, state_dtype):
    p = _u(rng, (5, 4), dtype)
    g = _u(rng, (5, 4), dtype)

    def s(lo=0.0, hi=1.0):
        return _u(rng, (5, 4), state_dtype, lo, hi)

    return {
        'sgd_update': [(p, g, 0.1)],
        'momentum_sgd_update': [(p, g, s(-1), 0.1, 0.9)],
        'corrected_momentum_sgd_update': [(p, g, s(-1), 0.1, 0.9)],
        'nesterov_ag_update': [(p, g, s(-1), 0.1, 0.9)],
        'ada_grad_update': [(p, g, s(), 0.1, 1e-8)],
        'ada_delta_update': [(p, g, s(), s(), 0.95, 1e-6)],
        'adam_update': [
            (p, g, s(-1), s(), None, 0.01, 0.9, 0.999, 1e-8, 1.0, 0.0,
             None, None),
            (p, g, s(-1), s(), s(), 0.01, 0.9, 0.999, 1e-8, 0.5, 0.01,
             None, None),
            (p, g, s(-1), s(), None, 0.01, 0.9, 0.999, 1e-8, 1.0, 0.0,
             0.001, 0.05)],
        'rmsprop_update': [(p, g, s(), 0.01, 0.99, 1e-8, False),
                           (p, g, s(), 0.01, 0.99, 1e-8, True)],
        'rmsprop_graves_update': [(p, g, s(1, 2), s(0, 0.5), s(-1), 1e-4,
                                   0.95, 0.9, 1e-4)],
        'smorms3_update': [(p, g, s(1, 2), s(-1), s(), 0.001, 1e-16)],
        'msvag_update': [(p, g, s(-1), s(), 0.1, 0.9, 0.5, 0.1, 1.0, 0.0),
                         (p, g, 0 * s(), 0 * s(), 0.1, 0.9, 0.5, 0.1, 1.0,
                          0.0)],
    }[name]


OPTIMIZER_KERNELS = sorted(n for n in KERNELS if n.endswith('_update'))


@pytest.mark.parametrize('dtype, state_dtype', [
    (numpy.float32, numpy.float32), (numpy.float64, numpy.float64),
    (numpy.float16, numpy.float32)], ids=['float32', 'float64',
                                         'float16-float32-state'])
@pytest.mark.parametrize('name', OPTIMIZER_KERNELS)
def test_update_matches_reference(device, name, dtype, state_dtype):
    rng = numpy.random.RandomState(2)
    reference = registry.get_spec(name).reference
    for i, args in enumerate(_optimizer_cases(name, rng, dtype,
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
    args = _optimizer_cases(name, rng, numpy.float16, numpy.float16)[0]
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


def test_ops_dispatch_to_these_kernels(device):
    x = device.send(numpy.ones(3, numpy.float32))
    for name, fn in KERNELS.items():
        kernel = registry.lookup(name, x)
        assert getattr(kernel, '__wrapped__', None) is fn, name
