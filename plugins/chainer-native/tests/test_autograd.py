"""Autograd in C++: first and second order gradients against numerical
ones, accumulation, modes, memory release, and misuse errors."""
import gc
import weakref

import numpy
import pytest

import chainer_native as cn

from conftest import analytic_grad, numerical_grad

rng = numpy.random.RandomState(0)
P = rng.uniform(0.5, 1.5, (2, 3))       # positive: log, sqrt, pow bases
S = rng.uniform(-1.0, 1.0, (2, 3))
M = rng.uniform(-1.0, 1.0, (3, 4))

UNARY = {
    'negative': (cn.negative, S), 'absolute': (cn.absolute, S + 2),
    'square': (cn.square, S), 'sqrt': (cn.sqrt, P), 'exp': (cn.exp, S),
    'log': (cn.log, P), 'log2': (cn.log2, P), 'log10': (cn.log10, P),
    'log1p': (cn.log1p, P), 'expm1': (cn.expm1, S), 'sin': (cn.sin, S),
    'cos': (cn.cos, S), 'tan': (cn.tan, S), 'tanh': (cn.tanh, S),
    'sigmoid': (cn.sigmoid, S), 'relu': (cn.relu, S + 0.05),
    'reciprocal': (cn.reciprocal, P), 'arcsin': (cn.arcsin, S * 0.5),
    'arccos': (cn.arccos, S * 0.5), 'arctan': (cn.arctan, S),
    'sinh': (cn.sinh, S), 'cosh': (cn.cosh, S), 'rsqrt': (cn.rsqrt, P),
}

BINARY = {
    'add': (cn.add, S, M[:2, :3]), 'subtract': (cn.subtract, S, S[0]),
    'multiply': (cn.multiply, S, S[:1] * 2), 'divide': (cn.divide, S, P),
    'power': (cn.power, P, S), 'maximum': (cn.maximum, S, S[::-1] + 0.1),
    'minimum': (cn.minimum, S, S[::-1] + 0.1),
    'matmul': (cn.matmul, S, M), 'matmul_batched': (
        cn.matmul, rng.uniform(-1, 1, (2, 2, 3)), M),
    'matmul_vec': (cn.matmul, S[0], M), 'dot': (cn.dot, S, M),
    'where': (lambda a, b: cn.where(cn.asarray(S > 0), a, b), S, P),
}

REDUCTIONS = {
    'sum': lambda x: cn.sum(x, axis=1), 'sum_all': lambda x: cn.sum(x),
    'mean': lambda x: cn.mean(x, axis=0, keepdims=True),
    'max': lambda x: cn.max(x, axis=1), 'min': lambda x: cn.min(x),
    'prod': lambda x: cn.prod(x, axis=0), 'var': lambda x: cn.var(x, axis=1),
    'std': lambda x: cn.std(x), 'logsumexp': lambda x: cn.logsumexp(x, 1),
    'log_softmax': lambda x: cn.log_softmax(x, 1),
    'softmax': lambda x: cn.softmax(x, 0),
    'reshape': lambda x: cn.reshape(x, (3, 2)),
    'transpose': lambda x: x.T, 'getitem': lambda x: x[:, [2, 0, 2]],
    'getitem_basic': lambda x: x[1, ::-2],
    'broadcast_to': lambda x: cn.broadcast_to(x[:1], (4, 3)),
    'concatenate': lambda x: cn.concatenate([x, x * 2], 1),
    'stack': lambda x: cn.stack([x, x], 0), 'split': lambda x: cn.split(
        x, 3, 1)[1], 'squeeze': lambda x: cn.squeeze(x[:1]),
    'expand_dims': lambda x: cn.expand_dims(x, 0),
    'take': lambda x: cn.take(x, cn.asarray(numpy.array([1, 1, 0])), 1),
    'astype': lambda x: x.astype(numpy.float64, copy=True),
    'copy': lambda x: cn.copy(x), 'clip': lambda x: cn.clip(x, -0.5, 0.5),
    'moveaxis': lambda x: cn.moveaxis(x, 0, 1),
}


def check_first(f, inputs, rtol=1e-5, atol=1e-7):
    inputs = [numpy.array(x, numpy.float64) for x in inputs]
    y = numpy.asarray(f(*[cn.asarray(x) for x in inputs]))
    gy = rng.uniform(-1, 1, y.shape)
    for a, n in zip(analytic_grad(f, inputs, gy),
                    numerical_grad(f, inputs, gy)):
        numpy.testing.assert_allclose(a, n, rtol=rtol, atol=atol)


def check_second(f, inputs, rtol=1e-4, atol=1e-6):
    """Gradient of sum(grad_x(sum(f * gy)) * ggx) against numerical."""
    inputs = [numpy.array(x, numpy.float64) for x in inputs]
    y = numpy.asarray(f(*[cn.asarray(x) for x in inputs]))
    gy = rng.uniform(-1, 1, y.shape)
    ggx = [rng.uniform(-1, 1, x.shape) for x in inputs]

    def first(*xs):
        xs = [x.require_grad() if not x.is_grad_required() else x
              for x in xs]
        out = f(*xs)
        out.grad = cn.asarray(gy)
        out.backward(enable_double_backprop=True)
        total = None
        for x, g in zip(xs, ggx):
            term = cn.sum(x.grad * cn.asarray(g))
            total = term if total is None else total + term
        return total

    xs = [cn.array(x).require_grad() for x in inputs]
    z = first(*xs)
    for x in xs:
        x.cleargrad()
    if z.is_grad_required():
        z.backward()
    # An input the first-order gradients do not depend on gets none.
    analytic = [numpy.zeros_like(a) if x.grad is None else
                numpy.asarray(x.grad) for x, a in zip(xs, inputs)]

    def scalar(*arrays):
        with cn.force_backprop_mode():
            return first(*[cn.array(a) for a in arrays]).as_grad_stopped()

    numeric = numerical_grad(scalar, inputs, numpy.ones(()))
    for a, n in zip(analytic, numeric):
        numpy.testing.assert_allclose(a, n, rtol=rtol, atol=atol)


@pytest.mark.parametrize('name', sorted(UNARY))
def test_unary_first_and_second_order(name):
    f, x = UNARY[name]
    check_first(f, [x])
    if name != 'relu':
        check_second(f, [x])


@pytest.mark.parametrize('name', sorted(BINARY))
def test_binary_first_and_second_order(name):
    f, a, b = BINARY[name]
    check_first(f, [a, b])
    check_second(f, [a, b])


@pytest.mark.parametrize('name', sorted(REDUCTIONS))
def test_reductions_and_views_first_and_second_order(name):
    f = REDUCTIONS[name]
    check_first(f, [S])
    check_second(f, [S])


def test_scalar_operands():
    check_first(lambda x: 2.0 * x ** 3 - 1 / x + 4, [P])
    check_second(lambda x: 2.0 * x ** 3 - 1 / x + 4, [P])


def test_gradients_accumulate_and_cleargrad():
    x = cn.asarray(numpy.array([1.0, 2.0])).require_grad()
    (x * x).sum().backward()
    (x * 3).sum().backward()
    numpy.testing.assert_allclose(numpy.asarray(x.grad), [5.0, 7.0])
    x.cleargrad()
    assert x.grad is None
    (x + x).sum().backward()
    numpy.testing.assert_allclose(numpy.asarray(x.grad), [2.0, 2.0])


def test_shared_gradients_are_not_aliased():
    a = cn.asarray(numpy.ones(3)).require_grad()
    b = cn.asarray(numpy.ones(3)).require_grad()
    (a + b).sum().backward()
    a.grad *= 5
    numpy.testing.assert_allclose(numpy.asarray(b.grad), [1.0, 1.0, 1.0])


def test_retain_grad_and_root_grad():
    x = cn.asarray(numpy.array([1.0, 2.0])).require_grad()
    h = x * 2
    y = (h * h).sum()
    y.backward(retain_grad=True)
    numpy.testing.assert_allclose(numpy.asarray(h.grad), [4.0, 8.0])
    assert float(y.grad) == 1.0


def test_modes():
    x = cn.asarray(numpy.ones(2)).require_grad()
    with cn.no_backprop_mode():
        y = x * 2
        with cn.force_backprop_mode():
            z = x * 2
    assert not y.is_grad_required()
    assert z.is_grad_required()
    assert cn.is_backprop_required()


def test_only_float_arrays_require_grad():
    with pytest.raises(TypeError, match='floating'):
        cn.asarray(numpy.arange(3)).require_grad()


def test_backward_from_non_scalar_needs_a_gradient():
    x = cn.asarray(numpy.ones(3)).require_grad()
    with pytest.raises(RuntimeError, match='initial gradient'):
        (x * 2).backward()
    y = x * 2
    y.grad = cn.asarray(numpy.array([1.0, 2.0, 3.0]))
    y.backward()
    numpy.testing.assert_allclose(numpy.asarray(x.grad), [2.0, 4.0, 6.0])


def test_grad_shape_and_dtype_mismatch():
    y = cn.asarray(numpy.ones(3)).require_grad() * 2
    with pytest.raises(ValueError, match='shape'):
        y.grad = cn.asarray(numpy.ones(4))
    with pytest.raises(TypeError, match='dtype'):
        y.grad = cn.asarray(numpy.ones(3, numpy.float32))


def test_backward_without_graph_raises():
    with pytest.raises(RuntimeError, match='does not require grad'):
        cn.asarray(numpy.ones(1)).backward()


def test_second_backward_without_retain_graph_raises():
    x = cn.asarray(numpy.ones(3)).require_grad()
    y = (cn.exp(x) * x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match='retain_graph'):
        y.backward()
    y2 = (cn.exp(x) * x).sum()
    y2.backward(retain_graph=True)
    y2.backward()


def test_inplace_on_recorded_array_raises():
    x = cn.asarray(numpy.ones(3)).require_grad()
    y = x * 2
    with pytest.raises(RuntimeError, match='in-place'):
        y += 1
    with cn.no_backprop_mode():
        x -= 0.5
    numpy.testing.assert_allclose(numpy.asarray(x), [0.5] * 3)


def _buffer_ref(a):
    """A weak reference to the NumPy array owning a's buffer."""
    return weakref.ref(a)


def test_retained_buffers_are_released_by_backward():
    owner = numpy.ones(1000)
    ref = _buffer_ref(owner)
    x = cn.asarray(numpy.ones(1000)).require_grad()
    w = cn.asarray(owner)         # retained by multiply for x's gradient
    del owner
    y = (x * w).sum()
    del w
    gc.collect()
    assert ref() is not None      # the graph keeps it for backward
    y.backward()
    gc.collect()
    assert ref() is None          # released once backward used it
    numpy.testing.assert_allclose(numpy.asarray(x.grad), numpy.ones(1000))


def test_graph_is_freed_with_its_output():
    owner = numpy.ones(10)
    ref = _buffer_ref(owner)
    x = cn.asarray(numpy.ones(10)).require_grad()
    y = cn.exp(x * cn.asarray(owner))
    del owner
    gc.collect()
    assert ref() is not None
    del y
    gc.collect()
    assert ref() is None


def test_no_graph_no_retention():
    owner = numpy.ones(10)
    ref = _buffer_ref(owner)
    x = cn.asarray(numpy.ones(10))
    y = x * cn.asarray(owner)
    del owner
    gc.collect()
    assert ref() is None
    assert not y.is_grad_required()


_DEEP = '''
import numpy, chainer_native as cn
x = cn.asarray(numpy.ones(2)).require_grad()
h = x
for i in range(150000):
    h = h * 1.0 if i % 2 else cn._record('id', [h], [h], lambda t, g: [g[0]])[1][0]
cn.sum(h).backward()
assert float(x.grad[0]) == 1.0
h2 = x
for i in range(150000):
    h2 = h2 * 1.0
del h, h2        # graphs of 150k ops, one never backpropagated
print('ok')
'''


def test_deep_graphs_are_freed_without_deep_recursion():
    # Freeing op after op recursively overflowed the stack near 100k ops:
    # run in a subprocess, so that a crash fails the test, not the run.
    import subprocess
    import sys
    proc = subprocess.run([sys.executable, '-c', _DEEP], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip() == 'ok', \
        proc.stderr[-2000:]
