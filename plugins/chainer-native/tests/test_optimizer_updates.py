"""The fused in-place update rules (_sgd_update, _momentum_sgd_update,
_adam_update) against NumPy formulas, for every float dtype, strided and
large (threaded) arrays, and their registration as chainer-core kernels."""
import numpy
import pytest

import chainer_native as cn

f16, f32, f64 = numpy.float16, numpy.float32, numpy.float64
# Per parameter dtype: the reference runs in float64 and rounds once, the
# routines compute float16 in float32.
TOL = {f16: dict(rtol=2e-3, atol=2e-3), f32: dict(rtol=1e-6, atol=1e-6),
       f64: dict(rtol=1e-13, atol=1e-15)}


def _close(a, b, dtype):
    a = numpy.asarray(a)
    assert a.dtype == dtype
    numpy.testing.assert_allclose(a.astype(f64), b, **TOL[dtype])


def _arrays(rng, shape, dtype, layout):
    """A native array of dtype in the given layout and its float64 values."""
    if layout == 'strided':
        big = rng.uniform(-1, 1, shape[:-1] + (shape[-1] * 2,)).astype(dtype)
        x = cn.array(big)[..., ::2]
    elif layout == 'transposed':
        x = cn.array(rng.uniform(-1, 1, shape[::-1]).astype(dtype)).T
    else:
        x = cn.array(rng.uniform(-1, 1, shape).astype(dtype))
    return x, numpy.asarray(x).astype(f64)


LAYOUTS = ['contiguous', 'strided', 'transposed']
# Small, and large enough for the kernels to split the work over threads.
SHAPES = [(3, 5), (300, 257)]


@pytest.mark.parametrize('dtype', [f16, f32, f64])
@pytest.mark.parametrize('layout', LAYOUTS)
@pytest.mark.parametrize('shape', SHAPES)
def test_sgd(dtype, layout, shape):
    rng = numpy.random.RandomState(0)
    p, p0 = _arrays(rng, shape, dtype, layout)
    g, g0 = _arrays(rng, shape, dtype, layout)
    ptr = p.data_ptr
    assert cn._sgd_update(p, g, 0.1) is None
    assert p.data_ptr == ptr
    _close(p, p0 - 0.1 * g0, dtype)
    _close(g, g0, dtype)


@pytest.mark.parametrize('dtype, state', [(f16, f16), (f16, f32), (f32, f32),
                                          (f64, f64)])
@pytest.mark.parametrize('layout', LAYOUTS)
@pytest.mark.parametrize('shape', SHAPES)
def test_momentum_sgd(dtype, state, layout, shape):
    rng = numpy.random.RandomState(1)
    p, p0 = _arrays(rng, shape, dtype, layout)
    g, g0 = _arrays(rng, shape, dtype, layout)
    v, v0 = _arrays(rng, shape, state, layout)
    for _ in range(2):
        assert cn._momentum_sgd_update(p, g, v, 0.05, 0.9) is None
        v0 = 0.9 * v0 - 0.05 * g0
        p0 = p0 + v0
        _close(v, v0, state)
        _close(p, p0, dtype)


def _adam_reference(p, g, m, v, vhat, alpha_t, beta1, beta2, eps, eta, wd,
                    lower, upper):
    m = m + (1 - beta1) * (g - m)
    v = v + (1 - beta2) * (g * g - v)
    s = v
    if vhat is not None:
        vhat = numpy.maximum(vhat, v)
        s = vhat
    step = alpha_t / (numpy.sqrt(s) + eps)
    if lower is not None:
        step = numpy.clip(step, lower, upper)
    p = p - eta * (step * m + wd * p)
    return p, m, v, vhat


@pytest.mark.parametrize('dtype, state', [(f16, f32), (f16, f16), (f32, f32),
                                          (f64, f64)])
@pytest.mark.parametrize('amsgrad', [False, True])
@pytest.mark.parametrize('bounds', [None, (0.5e-3, 2e-3)])
@pytest.mark.parametrize('layout', LAYOUTS)
@pytest.mark.parametrize('shape', SHAPES)
def test_adam(dtype, state, amsgrad, bounds, layout, shape):
    rng = numpy.random.RandomState(2)
    p, p0 = _arrays(rng, shape, dtype, layout)
    g, g0 = _arrays(rng, shape, dtype, layout)
    m, m0 = _arrays(rng, shape, state, layout)
    v, v0 = _arrays(rng, shape, state, layout)
    # A second moment well above 0: near 0 the step is 1 / sqrt(v), which
    # float16 state cannot resolve.
    v += 2
    v0 = v0 + 2
    vhat = vhat0 = None
    if amsgrad:
        vhat, vhat0 = _arrays(rng, shape, state, layout)
        vhat += 2
        vhat0 = vhat0 + 2
    lower, upper = bounds if bounds else (None, None)
    hp = dict(alpha_t=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, eta=0.5)
    for _ in range(2):
        assert cn._adam_update(p, g, m, v, vhat, hp['alpha_t'], hp['beta1'],
                               hp['beta2'], hp['eps'], hp['eta'], 0.01,
                               lower, upper) is None
        p0, m0, v0, vhat0 = _adam_reference(
            p0, g0, m0, v0, vhat0, hp['alpha_t'], hp['beta1'], hp['beta2'],
            hp['eps'], hp['eta'], 0.01, lower, upper)
        _close(m, m0, state)
        _close(v, v0, state)
        if amsgrad:
            _close(vhat, vhat0, state)
        _close(p, p0, dtype)


def _in_place_formulas(name, p, g, state, hp):
    """The updates as NumPy in-place array expressions (NumPy's rounding in
    the arrays' own dtype)."""
    if name == 'sgd':
        p -= hp['lr'] * g
    elif name == 'momentum':
        v, = state
        v *= hp['momentum']
        v -= hp['lr'] * g
        p += v
    else:
        m, v, vhat = state
        m += (1 - hp['beta1']) * (g - m)
        v += (1 - hp['beta2']) * (g * g - v)
        s = v
        if vhat is not None:
            numpy.maximum(vhat, v, out=vhat)
            s = vhat
        step = hp['alpha_t'] / (numpy.sqrt(s) + hp['eps'])
        if hp['lower'] is not None:
            step = numpy.clip(step, hp['lower'], hp['upper'])
        p -= hp['eta'] * (step * m + hp['wd'] * p)


@pytest.mark.parametrize('dtype', [f32, f64])
@pytest.mark.parametrize('name, n_state', [('sgd', 0), ('momentum', 1),
                                           ('adam', 2), ('amsbound', 3)])
def test_float32_and_float64_match_the_array_formulas_bit_for_bit(
        dtype, name, n_state):
    rng = numpy.random.RandomState(4)
    shape = (300, 257)
    p, g = (rng.uniform(-1, 1, shape).astype(dtype) for _ in range(2))
    state = [rng.uniform(0.5, 2, shape).astype(dtype)
             for _ in range(n_state)]
    hp = dict(lr=0.05, momentum=0.9, alpha_t=1e-3, beta1=0.9, beta2=0.999,
              eps=1e-8, eta=0.5, wd=0.01, lower=None, upper=None)
    native = [cn.array(a) for a in [p, g] + state]
    if name == 'amsbound':
        hp.update(lower=0.5e-3, upper=2e-3)
    if name in ('adam', 'amsbound'):
        state.append(None)
        native.append(None)
    for _ in range(3):
        _in_place_formulas(name, p, g, state[:3] if n_state > 1 else state,
                           hp)
        if name == 'sgd':
            cn._sgd_update(*native, hp['lr'])
        elif name == 'momentum':
            cn._momentum_sgd_update(*native, hp['lr'], hp['momentum'])
        else:
            cn._adam_update(*native[:5], hp['alpha_t'], hp['beta1'],
                            hp['beta2'], hp['eps'], hp['eta'], hp['wd'],
                            hp['lower'], hp['upper'])
    for a, b in zip(native, [p, g] + state):
        if b is not None:
            numpy.testing.assert_array_equal(numpy.asarray(a), b)


def test_adam_float32_moments_keep_small_float16_gradients():
    # 1e-4 squared underflows in float16: the float32 state keeps it.
    p = cn.zeros((4,), dtype=f16)
    g = cn.full((4,), 1e-4, dtype=f16)
    m, v = cn.zeros((4,), dtype=f32), cn.zeros((4,), dtype=f32)
    cn._adam_update(p, g, m, v, None, 1e-3, 0.9, 0.999, 1e-8, 1.0, 0.0,
                    None, None)
    assert numpy.all(numpy.asarray(v) > 0)
    g16 = float(f16(1e-4))
    numpy.testing.assert_allclose(numpy.asarray(v), 0.001 * g16 * g16,
                                  rtol=1e-6)


def test_amsgrad_nan_propagates_like_numpy_maximum():
    p, g = cn.zeros((2,), dtype=f32), cn.zeros((2,), dtype=f32)
    m = cn.zeros((2,), dtype=f32)
    v = cn.asarray(numpy.array([numpy.nan, 1.0], f32))
    vhat = cn.asarray(numpy.array([1.0, numpy.nan], f32))
    cn._adam_update(p, g, m, v, vhat, 1e-3, 0.9, 0.999, 1e-8, 1.0, 0.0,
                    None, None)
    assert numpy.isnan(numpy.asarray(vhat)).all()


def test_errors_name_the_routine_and_the_argument():
    p = cn.zeros((2, 3), dtype=f32)
    g = cn.zeros((2, 3), dtype=f32)
    s = cn.zeros((2, 3), dtype=f32)
    with pytest.raises(TypeError, match=r'_sgd_update: param must be a '
                       r'chainer_native.ndarray, got numpy.ndarray'):
        cn._sgd_update(numpy.zeros((2, 3), f32), g, 0.1)
    with pytest.raises(ValueError, match=r'_sgd_update: grad has shape '
                       r'\(3,\), expected \(2, 3\)'):
        cn._sgd_update(p, cn.zeros((3,), dtype=f32), 0.1)
    with pytest.raises(TypeError, match='_sgd_update: param must be a '
                       'floating-point array, got dtype int32'):
        cn._sgd_update(cn.zeros((2, 3), dtype=numpy.int32), g, 0.1)
    with pytest.raises(TypeError, match=r'_momentum_sgd_update: grad has '
                       r'dtype float64, expected float32 \(the dtype of '
                       r'param\)'):
        cn._momentum_sgd_update(p, cn.zeros((2, 3)), s, 0.1, 0.9)
    with pytest.raises(ValueError, match='_momentum_sgd_update: v is '
                       'read-only'):
        cn._momentum_sgd_update(p, g, cn.broadcast_to(s[0], (2, 3)), 0.1,
                                0.9)
    with pytest.raises(TypeError, match=r'_adam_update: vhat has dtype '
                       r'float64, expected float32 \(the dtype of m\)'):
        cn._adam_update(p, g, s, s.copy(), cn.zeros((2, 3)), 1e-3, 0.9,
                        0.999, 1e-8, 1.0, 0.0, None, None)
    with pytest.raises(ValueError, match='_adam_update: lower and upper'):
        cn._adam_update(p, g, s, s.copy(), None, 1e-3, 0.9, 0.999, 1e-8,
                        1.0, 0.0, None, 0.1)
    x = cn.zeros((2, 3), dtype=f32).require_grad()
    with pytest.raises(RuntimeError, match='_sgd_update: param is computed '
                       'by a recorded op'):
        cn._sgd_update(x * 2, g, 0.1)
    cn._sgd_update(x, cn.ones((2, 3), dtype=f32), 0.5)   # a leaf: fine
    numpy.testing.assert_allclose(numpy.asarray(x), -0.5)


def test_registered_as_core_kernels_equal_to_the_references():
    import chainer_core  # noqa: F401 (declares the kernels)
    from chainer_core._runtime import kernels
    names = ['sgd_update', 'momentum_sgd_update', 'adam_update']
    import inspect
    from chainer_native import _kernels
    rng = numpy.random.RandomState(6)
    arrays = [rng.uniform(0.5, 2, (5, 7)).astype(f32) for _ in range(5)]
    scalars = {'sgd_update': (0.1,), 'momentum_sgd_update': (0.1, 0.9),
               'adam_update': (1e-3, 0.9, 0.999, 1e-8, 1.0, 0.01, 1e-4, 1.0)}
    for name in names:
        fn = kernels.lookup(name, cn.zeros((1,), dtype=f32))
        assert fn.__wrapped__ is _kernels._UPDATE_RULES[name]
        spec = kernels.get_spec(name)
        assert str(spec.signature) == str(inspect.signature(fn.__wrapped__))
        n = len(inspect.signature(fn).parameters) - len(scalars[name])
        ref = [a.copy() for a in arrays[:n]]
        nat = [cn.array(a) for a in arrays[:n]]
        assert fn(*nat, *scalars[name]) is None
        spec.reference(numpy, *ref, *scalars[name])
        for a, b in zip(nat, ref):
            numpy.testing.assert_array_equal(numpy.asarray(a), b)


@pytest.mark.parametrize('shape', SHAPES)
def test_subnormal_states_count_as_zero_and_the_mode_is_restored(shape):
    # A moment decaying below the smallest normal float (a gradient that
    # stays zero) is flushed rather than computed at the speed of subnormal
    # arithmetic; NumPy on this thread keeps its subnormals afterwards.
    tiny = f32(1e-40)
    assert 0 < tiny < numpy.finfo(f32).tiny
    p, g = cn.zeros(shape, dtype=f32), cn.zeros(shape, dtype=f32)
    m = cn.full(shape, 1e-40, dtype=f32)
    v = cn.full(shape, 1.0, dtype=f32)
    momentum_v = cn.full(shape, 1e-40, dtype=f32)
    cn._adam_update(p, g, m, v, None, 1e-3, 0.9, 0.999, 1e-8, 1.0, 0.0,
                    None, None)
    cn._momentum_sgd_update(p, g, momentum_v, 0.1, 0.9)
    assert not numpy.asarray(m).any()
    assert not numpy.asarray(momentum_v).any()
    numpy.testing.assert_allclose(numpy.asarray(v), 0.999, rtol=1e-6)
    assert numpy.multiply(tiny, f32(1.0)) == tiny
    assert numpy.multiply(numpy.full(shape, tiny), f32(1.0)).all()
