"""Numerical gradient checks of differentiable functions."""
import numpy

from backend_api._host import device_from_array
from chainer_core.function_node import grad as _grad
from chainer_core.variable import Variable


class NondifferentiableError(Exception):
    """The function is not differentiable at the point checked."""


def _as_tuple(x):
    if x is None:
        return ()
    if isinstance(x, (tuple, list)):
        return tuple(x)
    return (x,)


def _host_array(a):
    if isinstance(a, numpy.ndarray):
        return a
    from backend_api._host import host
    return host.parse_spec('@numpy').send(a)


def numerical_grad(f, inputs, grad_outputs, eps=1e-3,
                   detect_nondifferentiable=False, diff_atol=0, diff_rtol=1e-2,
                   center_outputs=None):
    """Gradients of ``sum(f() * grad_outputs)`` by central differences.

    Args:
        f: a callable with no arguments returning a tuple of arrays; it reads
            ``inputs``, which are perturbed in place.
        inputs (tuple of arrays): the arrays to differentiate by.
        grad_outputs (tuple of arrays or None): weights of the outputs.
        eps (float): the step.
        detect_nondifferentiable (bool): raise
            :class:`NondifferentiableError` where the steps ``eps`` and
            ``eps/2`` disagree beyond ``diff_atol + diff_rtol * |g|``.

    Returns:
        tuple of arrays: the gradients, of the inputs' shapes, float64.
    """
    if eps <= 0:
        raise ValueError('numerical_grad: eps must be positive, got {}'
                         .format(eps))

    def weighted(step_outputs):
        total = 0.0
        for y, gy in zip(step_outputs, grad_outputs):
            if gy is None:
                continue
            total += float(numpy.sum(_host_array(y).astype(numpy.float64)
                                     * _host_array(gy).astype(numpy.float64)))
        return total

    def at(x, i, delta):
        orig = x[i].copy() if hasattr(x[i], 'copy') else x[i]
        x[i] = orig + delta
        try:
            return weighted(_as_tuple(f()))
        finally:
            x[i] = orig

    grads = []
    for x in inputs:
        g = numpy.zeros(x.shape, dtype=numpy.float64)
        for i in numpy.ndindex(x.shape):
            plus, minus = at(x, i, eps), at(x, i, -eps)
            g[i] = (plus - minus) / (2 * eps)
            if detect_nondifferentiable:
                half = (at(x, i, eps / 2) - at(x, i, -eps / 2)) / eps
                if abs(half - g[i]) > diff_atol + diff_rtol * abs(g[i]):
                    raise NondifferentiableError(
                        'the function is not differentiable at index {}: '
                        'slopes {} (step {}) and {} (step {})'.format(
                            i, g[i], eps, half, eps / 2))
        grads.append(g)
    return tuple(grads)


def _is_float(a):
    return a is not None and numpy.dtype(a.dtype).kind == 'f'


def check_backward(func, x_data, y_grad, params=(), eps=1e-3, atol=1e-5,
                   rtol=1e-4, no_grads=None, dtype=None,
                   detect_nondifferentiable=False):
    """Check ``func``'s backward against a numerical directional derivative.

    A random direction ``d`` over all inputs (and ``params``) is chosen; the
    derivative of ``sum(func(x + t d) * y_grad)`` at ``t = 0`` by central
    differences must match ``sum(gx * d)`` from backprop.

    Args:
        func: callable taking Variables, returning a Variable or a tuple.
        x_data (array or tuple of arrays): inputs.
        y_grad (array, tuple, or None): output gradients (None for scalar
            outputs).
        params (Variable or tuple of Variable): parameters also checked.
        eps (float): numerical step.
        atol, rtol (float): tolerances.
        no_grads (list of bool): inputs to leave unchecked (default: those
            of non-float dtype).
        dtype: dtype to cast float inputs to for the numerical part.
        detect_nondifferentiable (bool): also detect kinks near the point.

    Raises:
        AssertionError: the gradients disagree.
    """
    x_data = _as_tuple(x_data)
    params = _as_tuple(params)
    if no_grads is None:
        no_grads = [not _is_float(x) for x in x_data]
    elif len(no_grads) != len(x_data):
        raise ValueError('check_backward: {} inputs but {} no_grads'.format(
            len(x_data), len(no_grads)))
    for x, skip in zip(x_data, no_grads):
        if not skip and not _is_float(x):
            raise ValueError('check_backward: input of dtype {} needs '
                             'no_grads=True'.format(x.dtype))

    xs = [Variable(x, requires_grad=not skip)
          for x, skip in zip(x_data, no_grads)]
    ys = _as_tuple(func(*xs))
    ys = [y if isinstance(y, Variable) else Variable(y) for y in ys]
    y_grad = _as_tuple(y_grad)
    if not y_grad:
        for y in ys:
            if y.size != 1:
                raise ValueError('check_backward: y_grad is None but an '
                                 'output has shape {}'.format(y.shape))
        y_grad = tuple(y.xp.ones_like(y.array) for y in ys)
    if len(y_grad) != len(ys):
        raise ValueError('check_backward: {} outputs but {} y_grad'.format(
            len(ys), len(y_grad)))
    targets = [x for x, skip in zip(xs, no_grads) if not skip] + list(params)
    gys = [None if g is None else Variable(g, requires_grad=False)
           for g in y_grad]
    live = [(y, g) for y, g in zip(ys, gys) if g is not None]
    gxs = _grad([y for y, _ in live], targets, [g for _, g in live])

    rng = numpy.random.RandomState(0)
    directions = []
    for t in targets:
        d = rng.normal(size=t.shape)
        directions.append(d)
    norm = numpy.sqrt(sum(float((d * d).sum()) for d in directions)) or 1.0
    directions = [d / norm for d in directions]

    analytic = 0.0
    for gx, d, t in zip(gxs, directions, targets):
        if gx is None:
            continue
        if gx.shape != t.shape:
            raise AssertionError('gradient shape {} differs from input '
                                 'shape {}'.format(gx.shape, t.shape))
        analytic += float((_host_array(gx.array).astype(numpy.float64)
                           * d).sum())

    cast = [x if dtype is None or not _is_float(x) else x.astype(dtype)
            for x in x_data]
    param_orig = [p.array for p in params]
    if dtype is not None:
        for p in params:
            p.array = p.array.astype(dtype)
    target_arrays = [c for c, skip in zip(cast, no_grads) if not skip] + \
        [p.array for p in params]
    originals = [a.copy() for a in target_arrays]

    def evaluate(t):
        for a, o, d in zip(target_arrays, originals, directions):
            xp = device_from_array(a).xp
            a[...] = o + xp.asarray(d * t).astype(a.dtype)
        # Inputs require grad so that a func computing gradients itself
        # (check_double_backward's first-order function) can.
        outs = _as_tuple(func(*[Variable(c) for c in cast]))
        total = 0.0
        for y, g in zip(outs, y_grad):
            if g is None:
                continue
            ya = y.array if isinstance(y, Variable) else y
            total += float((_host_array(ya).astype(numpy.float64)
                            * _host_array(g).astype(numpy.float64)).sum())
        return total

    try:
        numeric = (evaluate(eps) - evaluate(-eps)) / (2 * eps)
        if detect_nondifferentiable:
            half = (evaluate(eps / 2) - evaluate(-eps / 2)) / eps
            if abs(half - numeric) > atol + rtol * abs(numeric) * 10:
                raise NondifferentiableError(
                    'the function is not differentiable near the point: '
                    'slopes {} (step {}) and {} (step {})'.format(
                        numeric, eps, half, eps / 2))
    finally:
        for a, o in zip(target_arrays, originals):
            a[...] = o
        for p, o in zip(params, param_orig):
            p.array = o
    if not abs(analytic - numeric) <= atol + rtol * abs(numeric):
        raise AssertionError(
            'check_backward failed: the directional derivative by backprop is '
            '{!r} but numerically it is {!r} (difference {!r}; atol {}, rtol '
            '{}, eps {})'.format(analytic, numeric, analytic - numeric, atol,
                                 rtol, eps))


def check_double_backward(func, x_data, y_grad, x_grad_grad, params=(),
                          params_grad_grad=(), eps=1e-3, atol=1e-4, rtol=1e-3,
                          no_grads=None, dtype=None,
                          detect_nondifferentiable=False):
    """Check second-order gradients of ``func`` numerically.

    The first-order gradient ``(x, gy) -> gx`` (computed by backprop with
    ``enable_double_backprop=True``) is itself checked with
    :func:`check_backward`, with ``x_grad_grad`` as its output gradient.
    """
    x_data = _as_tuple(x_data)
    params = _as_tuple(params)
    y_grad = _as_tuple(y_grad)
    n_x = len(x_data)
    if no_grads is None:
        no_grads = [not _is_float(x) for x in x_data]

    def first_order_grad(*inputs):
        xs, gys = inputs[:n_x], inputs[n_x:]
        ys = _as_tuple(func(*xs))
        if not gys:
            gys = [Variable(y.xp.ones_like(y.array), requires_grad=False)
                   for y in ys]
        targets = [x for x, skip in zip(xs, no_grads) if not skip] + \
            list(params)
        gxs = _grad(list(ys), targets, list(gys), enable_double_backprop=True)
        out = []
        for gx, t in zip(gxs, targets):
            if gx is None:
                gx = Variable(t.xp.zeros_like(t.array), requires_grad=False)
            out.append(gx)
        return tuple(out)

    ggs = _as_tuple(x_grad_grad) + _as_tuple(params_grad_grad)
    check_backward(first_order_grad, x_data + y_grad, ggs, params=params,
                   eps=eps, atol=atol, rtol=rtol,
                   no_grads=list(no_grads) + [False] * len(y_grad),
                   dtype=dtype,
                   detect_nondifferentiable=detect_nondifferentiable)
