"""The inputs the kernel tests give each kernel of the plugin, and their
tolerances: shared by the GPU tests and the CPU emulation of the
elementwise kernels."""
import numpy

from chainer_core._runtime import kernels as registry
from chainer_cuda.kernels import KERNELS

DTYPES = (numpy.float16, numpy.float32, numpy.float64)
TOL = {numpy.float16: dict(atol=2e-3, rtol=4e-3),
       numpy.float32: dict(atol=1e-5, rtol=1e-5),
       numpy.float64: dict(atol=1e-12, rtol=1e-10)}
SPECIAL = [numpy.nan, numpy.inf, -numpy.inf, 0.0, -0.0, 1.0, -1.0, 0.5,
           -2.5, 2.5, 30.0, -30.0]


def u(rng, shape, dtype, lo=-3.0, hi=3.0):
    return rng.uniform(lo, hi, shape).astype(dtype)


def _special(dtype):
    return numpy.array(SPECIAL, dtype=dtype)


def _unary(*params):
    return lambda rng, dt: [(u(rng, (4, 5), dt),) + params,
                            (_special(dt),) + params]


def _grad(*params, first=None):
    def make(rng, dt):
        x = u(rng, (4, 5), dt)
        y = first(x) if first else x
        cases = [(y, u(rng, (4, 5), dt)) + params]
        s = _special(dt)
        ys = first(s) if first else s
        cases.append((ys, _special(dt)[::-1].copy()) + params)
        return cases
    return make


def _sigmoid(x):
    return (numpy.tanh(x.astype(numpy.float64) / 2) / 2 + .5).astype(x.dtype)


def _softmax_cases(rng, dt):
    return [(u(rng, (5, 7), dt), 1), (u(rng, (3, 4, 6), dt), 1),
            (u(rng, (3, 4, 6), dt), -1), (u(rng, (2, 40), dt), 1)]


def _sce_cases(rng, dt, grad=False):
    cases = []
    for shape in ((6, 5), (3, 4, 2)):
        x = u(rng, shape, dt)
        t = rng.randint(0, shape[1], (shape[0],) + shape[2:]).astype(
            numpy.int32)
        t.flat[0] = -1
        for cw in (None, rng.uniform(0.5, 2, shape[1]).astype(dt)):
            for normalize in (True, False):
                for reduce in ('mean', 'no'):
                    if grad:
                        gshape = () if reduce == 'mean' else t.shape
                        g = u(rng, gshape, dt)
                        cases.append((x, t, g, cw, -1, normalize, reduce))
                    else:
                        cases.append((x, t, cw, -1, normalize, reduce))
    return cases


def _bn_cases(rng, dt):
    return [(u(rng, (4, 3, 5, 2), dt), u(rng, (1, 3, 1, 1), dt),
             u(rng, (1, 3, 1, 1), dt), (0, 2, 3), 2e-5),
            (u(rng, (6, 4), dt), u(rng, (1, 4), dt), u(rng, (1, 4), dt),
             (0,), 1e-5)]


def _bn_grad_cases(rng, dt):
    out = []
    for x, gamma, beta, axis, eps in _bn_cases(rng, dt):
        _, mean, _, inv_std = registry.get_spec(
            'batch_normalization').reference(numpy, x, gamma, beta, axis,
                                             eps)
        out.append((x, gamma, u(rng, x.shape, dt), mean, inv_std, axis))
    return out


def _fixed_bn_cases(rng, dt):
    return [(u(rng, (4, 3, 5), dt), u(rng, (1, 3, 1), dt),
             u(rng, (1, 3, 1), dt), u(rng, (1, 3, 1), dt),
             u(rng, (1, 3, 1), dt, 0.5, 2), 2e-5)]


def _stats_cases(rng, dt):
    return [(u(rng, (3,), dt), u(rng, (3,), dt, 0, 1), u(rng, (3,), dt),
             u(rng, (3,), dt, 0, 1), 0.9, 1.1)]


def _lstm_cases(rng, dt):
    return [(u(rng, (4, 3), dt), u(rng, (4, 12), dt)),
            (u(rng, (5, 2, 3), dt), u(rng, (3, 8, 3), dt))]


def _lstm_grad_cases(rng, dt):
    out = []
    for c, x in _lstm_cases(rng, dt):
        gc = u(rng, c.shape, dt)
        gh = u(rng, (x.shape[0],) + c.shape[1:], dt)
        out += [(c, x, gc, gh), (c, x, None, gh), (c, x, gc, None)]
    return out


def _pad_cases(rng, dt):
    x = u(rng, (2, 3), dt)
    s = _special(dt).reshape(3, 4)
    # Borders wider than the axis too (where cupy.pad's 'wrap' errs).
    return [(a, w, m, 0) for a in (x, s)
            for w in (((1, 2), (4, 1)), ((0, 0), (2, 7)), ((3, 3), (0, 0)))
            for m in ('edge', 'reflect', 'symmetric', 'wrap')]


def _pow_cases(rng, dt):
    return [(x, y) for x in (u(rng, (4, 5), dt, 0, 3), _special(dt))
            for y in (0.5, dt(0.5), 1.5, dt(2))]


def _matrices(rng, dt, shape):
    noise = rng.uniform(-0.3, 0.3, shape)
    return (noise + 2 * numpy.eye(shape[-1])).astype(dt)


def _with(a, value):
    a = a.copy()
    a.flat[0] = value
    a[-1] = value
    return a


def _matrix_cases(rng, dt):
    out = []
    for shape in ((3, 3), (2, 3, 3)):
        a = _matrices(rng, dt, shape)
        out += [(a,)] + [(_with(a, v),) for v in SPECIAL[:3]]
    return out


def _spd_cases(rng, dt):
    a = _matrices(rng, dt, (3, 3))
    a = ((a + a.T) / 2).astype(dt)
    return [(a,)] + [(_with(a, v),) for v in SPECIAL[:3]]


def _fft_cases(rng, dt):
    out = []
    for shape in ((2, 8), (2, 3, 5)):
        re, im = u(rng, shape, dt), u(rng, shape, dt)
        for inverse in (False, True):
            out.append((re, im, inverse))
            out += [(_with(re, v), _with(im, v), inverse)
                    for v in SPECIAL[:3]]
    return out


def _dbn_cases(rng, dt):
    out = []
    for shape, groups in (((10, 3), 1), ((6, 4, 2), 2)):
        x = u(rng, shape, dt)
        out += [(x, groups, 2e-5), (x[:0], groups, 2e-5)]
        out += [(_with(x, v), groups, 2e-5) for v in SPECIAL[:3]]
    return out


def _pool_cases(rng, dt, n):
    shape = {1: (2, 3, 7), 2: (2, 3, 5, 6), 3: (2, 2, 4, 3, 5)}[n]
    x = u(rng, shape, dt)
    # Ties, and windows of NaN alone, of NaN and inf, of -inf alone.
    x.flat[1:4] = 1.0
    s = _with(x, numpy.nan)
    s.flat[2] = numpy.inf
    t = _with(x, -numpy.inf)
    windows = [((2,) * n, (2,) * n, (0,) * n, True),
               ((3,) * n, (2,) * n, (1,) * n, True),
               ((3,) * n, (1,) * n, (1,) * n, False),
               ((2,) * n, (3,) * n, (1,) * n, True)]
    return [(a,) + w for a in (x, s, t) for w in windows]


def _linear_cases(rng, dt):
    x, W, b = u(rng, (4, 3), dt), u(rng, (5, 3), dt), u(rng, (5,), dt)
    return [(x, W, b), (x, W, None), (x[:0], W, b),
            (_with(x, numpy.nan), W, b)]


def _matmul_cases(rng, dt):
    a, b = u(rng, (4, 3), dt), u(rng, (3, 5), dt)
    return [(a, b, False, False), (a.T.copy(), b, True, False),
            (a, b.T.copy(), False, True), (a.T.copy(), b.T.copy(), True, True),
            (a[:, :0], b[:0], False, False)]


CASES = {
    'linear': _linear_cases,
    'matmul': _matmul_cases,
    'pad': _pad_cases,
    'pow': _pow_cases,
    'inv': _matrix_cases,
    'cholesky': _spd_cases,
    'fft': _fft_cases,
    'decorrelated_batch_normalization': _dbn_cases,
    'max_pooling_2d': lambda r, d: _pool_cases(r, d, 2),
    'max_pooling_nd': lambda r, d: _pool_cases(r, d, 1)
    + _pool_cases(r, d, 3),
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
def comparable(name, out):
    """What of a kernel's answer must equal the reference's: an
    eigenvector's sign is the solver's choice (cuSOLVER's and LAPACK's
    differ), so decorrelated_batch_normalization's are compared by
    magnitude."""
    if name == 'decorrelated_batch_normalization' and \
            isinstance(out, tuple):
        return out[:5] + (abs(out[5]),)
    return out


# Kernels that leave some of their cases to the reference (finite input,
# exponents other than 0.5, matrix products outside a graph step): the op's
# answer is then the reference's on CuPy.
PARTIAL = {'pow', 'fft', 'decorrelated_batch_normalization', 'linear',
           'matmul'}


def run_op(name, xp, args):
    """What the op gets: the kernel's answer, or the reference's on ``xp``
    where a kernel of PARTIAL declines."""
    got = KERNELS[name](*args)
    if got is NotImplemented and name in PARTIAL:
        return registry.get_spec(name).reference(xp, *args)
    return got


def optimizer_cases(name, rng, dtype, state_dtype):
    p = u(rng, (5, 4), dtype)
    g = u(rng, (5, 4), dtype)

    def s(lo=0.0, hi=1.0):
        return u(rng, (5, 4), state_dtype, lo, hi)

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
