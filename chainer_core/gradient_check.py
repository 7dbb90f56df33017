"""Numerical gradient checks of differentiable functions."""
import numpy

from chainer_core._runtime.host import device_from_array
from chainer_core.configuration import using_config
from chainer_core.function_node import grad as _grad
from chainer_core.variable import Variable, as_array


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
    from chainer_core._runtime.host import host
    return host.parse_spec('@numpy').send(a)


def _host_float64(y):
    """An output as a float64 NumPy array (a copy, never a view of it)."""
    return numpy.array(_host_array(as_array(y)), dtype=numpy.float64)


# Where the nondifferentiability check samples, in units of eps: the
# quadratic through five points exposes a kink or a jump among them.
_SAMPLES = (-1.0, -0.5, 0.0, 0.5, 1.0)


def _check_differentiable(samples, diff_atol, diff_rtol, describe):
    """Raise NondifferentiableError unless each output is smooth over samples.

    Args:
        samples: one list of float64 output arrays per point of _SAMPLES.
        describe: callable returning text that locates the point.
    """
    t = numpy.array(_SAMPLES)
    for i_out in range(len(samples[0])):
        ys = numpy.stack([s[i_out] for s in samples]).reshape(len(t), -1)
        finite = numpy.isfinite(ys)
        if (finite != finite[0]).any():
            # Finite on one side, not on the other: a pole or a domain edge
            # lies between the samples.
            raise NondifferentiableError(
                'output {} changes between finite and non-finite values '
                'near {}:\n{}'.format(i_out, describe(), ys))
        columns = finite.all(axis=0)
        if not columns.any():
            continue
        ys = ys[:, columns]
        coef = numpy.polynomial.polynomial.polyfit(t, ys, 2)
        fitted = numpy.polynomial.polynomial.polyval(t, coef).T
        residual = numpy.sqrt(((fitted - ys) ** 2).mean(axis=0))
        spread = ys.max(axis=0) - ys.min(axis=0)
        bad = (residual > diff_atol + diff_rtol * spread) & (spread > 0)
        if bad.any():
            j = int(numpy.argmax(bad))
            raise NondifferentiableError(
                'output {} is not differentiable near {}: its values at '
                'offsets {} x eps are {}, {} off the best quadratic (allowed '
                '{} + {} x spread {})'.format(
                    i_out, describe(), list(_SAMPLES), ys[:, j].tolist(),
                    residual[j], diff_atol, diff_rtol, spread[j]))


def _derivative(samples, grad_outputs, eps, points):
    """The derivative of ``sum(y * gy)`` from outputs at ``points`` x eps."""
    at = dict(zip(points, samples))
    total = 0.0
    for i_out, gy in enumerate(grad_outputs):
        if gy is None:
            continue
        gy = _host_array(gy).astype(numpy.float64)
        if len(points) == 2:
            diff = (at[1.0][i_out] - at[-1.0][i_out]) / (2 * eps)
        else:
            # Fourth-order central difference with step eps / 2.
            diff = (8 * (at[0.5][i_out] - at[-0.5][i_out])
                    - (at[1.0][i_out] - at[-1.0][i_out])) / (6 * eps)
        total += float((diff * gy).sum())
    return total


def numerical_grad(f, inputs, grad_outputs, eps=1e-3,
                   detect_nondifferentiable=False, diff_atol=0, diff_rtol=1e-2,
                   center_outputs=None):
    """Gradients of ``sum(f() * grad_outputs)`` by central differences.

    Args:
        f: a callable with no arguments returning a tuple of arrays; it reads
            ``inputs``, which are perturbed in place (and restored).
        inputs (tuple of arrays): the float arrays to differentiate by.
        grad_outputs (tuple of arrays or None): weights of the outputs; a
            None entry leaves that output out.
        eps (float): the step.
        detect_nondifferentiable (bool): also sample ``f`` at five points
            per element and raise :class:`NondifferentiableError` where the
            outputs do not follow a quadratic (a kink or a jump nearby) or
            turn non-finite on one side only. The gradient is then of
            fourth order in ``eps``.
        diff_atol, diff_rtol (float): tolerance of that fit, absolute and
            relative to the spread of the sampled outputs.
        center_outputs (tuple of arrays): ``f()`` at ``inputs``, if known.

    Returns:
        list of arrays: the gradients, of the inputs' shapes and dtypes.
    """
    if eps <= 0:
        raise ValueError('numerical_grad: eps must be positive, got {}'
                         .format(eps))
    inputs = tuple(inputs)
    grad_outputs = tuple(grad_outputs)
    for x in inputs:
        if numpy.dtype(x.dtype).kind != 'f':
            raise RuntimeError('numerical_grad: inputs must be of a float '
                               'dtype, got {}'.format(x.dtype))
    points = _SAMPLES if detect_nondifferentiable else (-1.0, 1.0)

    def outputs():
        return [_host_float64(y) for y in _as_tuple(f())]

    grads = []
    # Chainer checks types once, in the forward the caller already ran.
    with using_config('type_check', False):
        center = None
        if detect_nondifferentiable:
            center = [_host_float64(y) for y in center_outputs] \
                if center_outputs is not None else outputs()
        for i_in, x in enumerate(inputs):
            g = numpy.zeros(x.shape, dtype=numpy.float64)
            original = x.copy()
            for i in numpy.ndindex(x.shape):
                samples = []
                try:
                    for p in points:
                        if p == 0.0:
                            samples.append(center)
                            continue
                        x[i] = original[i] + p * eps
                        samples.append(outputs())
                finally:
                    x[i] = original[i]
                if detect_nondifferentiable:
                    _check_differentiable(
                        samples, diff_atol, diff_rtol,
                        lambda: 'inputs[{}][{}] = {}'.format(
                            i_in, i, original[i]))
                g[i] = _derivative(samples, grad_outputs, eps, points)
            grads.append(device_from_array(x).send(g.astype(x.dtype)))
    return grads


def assert_allclose(x, y, atol=1e-5, rtol=1e-4, verbose=True):
    """:func:`chainer_core.testing.assert_allclose` (also importable from
    here, as in Chainer)."""
    # Imported on use: chainer_core.testing needs pytest, which importing
    # chainer_core must not.
    from chainer_core.testing.array import assert_allclose as check
    check(x, y, atol=atol, rtol=rtol, verbose=verbose)


def _is_float(a):
    return a is not None and numpy.dtype(a.dtype).kind == 'f'


def check_backward(func, x_data, y_grad, params=(), eps=1e-3, atol=1e-5,
                   rtol=1e-4, no_grads=None, dtype=None,
                   detect_nondifferentiable=False):
    """Check ``func``'s backward against a numerical directional derivative.

    A random unit direction ``d`` over all checked inputs (and ``params``) is
    chosen; the derivative of ``sum(func(x + t d) * y_grad)`` at ``t = 0``
    by central differences must match ``sum(gx * d)`` from backprop within
    ``atol + rtol * |backprop value|``.

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
        dtype: float dtype the float inputs and params are cast to for the
            numerical part (e.g. float64 for precision).
        detect_nondifferentiable (bool): raise
            :class:`NondifferentiableError` if ``func`` has a kink or a jump
            within ``eps`` of the point along the direction.

    Raises:
        AssertionError: the gradients disagree.
    """
    x_data = _as_tuple(x_data)
    params = _as_tuple(params)
    if dtype is not None and numpy.dtype(dtype).kind != 'f':
        raise ValueError('check_backward: dtype must be a float dtype, got {}'
                         .format(dtype))
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
    if not targets:
        return
    live = [(y, Variable(g, requires_grad=False))
            for y, g in zip(ys, y_grad) if g is not None]
    gxs = _grad([y for y, _ in live], targets, [g for _, g in live])

    rng = numpy.random.RandomState(0)
    directions = [rng.normal(size=t.shape) for t in targets]
    norm = numpy.sqrt(sum(float((d * d).sum()) for d in directions))
    if norm:
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

    def cast(a):
        if dtype is None or not _is_float(a):
            return a
        return a.astype(dtype)

    inputs = [cast(x) for x in x_data]
    param_orig = [p.array for p in params]
    param_base = [cast(a) for a in param_orig]
    n_x = len(targets) - len(params)
    x_index = [i for i, skip in enumerate(no_grads) if not skip]

    def evaluate(t):
        # Fresh perturbed arrays: the caller's arrays are never written.
        moved = []
        for a, d in zip([inputs[i] for i in x_index] + param_base,
                        directions):
            device = device_from_array(a)
            step = device.send(numpy.asarray(d * t))
            # asarray: NumPy turns 0-dim sums into scalars; send: NumPy's
            # asarray gives a plain ndarray for a backend whose arrays are
            # an ndarray subclass and whose xp is NumPy itself.
            moved.append(device.send(device.xp.asarray(
                (a.astype(numpy.float64) + step).astype(a.dtype))))
        args = list(inputs)
        for i, a in zip(x_index, moved[:n_x]):
            args[i] = a
        for p, a in zip(params, moved[n_x:]):
            p.array = a
        # Inputs require grad so that a func computing gradients itself
        # (check_double_backward's first-order function) can.
        outs = _as_tuple(func(*[Variable(a) for a in args]))
        return [_host_float64(y) for y in outs]

    points = _SAMPLES if detect_nondifferentiable else (-1.0, 1.0)
    # The params' gradients stay aside while their arrays are cast to
    # ``dtype``: a graph that checks gradient dtypes (native:0) would
    # refuse a float32 gradient on a float64 array.
    grad_orig = [p.grad_var for p in params]
    try:
        for p in params:
            p.grad_var = None
        with using_config('type_check', False):
            samples = [evaluate(p * eps) for p in points]
    finally:
        for p, a, g in zip(params, param_orig, grad_orig):
            p.array = a
            p.grad_var = g
    if detect_nondifferentiable:
        _check_differentiable(samples, 0, 1e-2, lambda: 'the given inputs')
    numeric = _derivative(samples, y_grad, eps, points)
    if not abs(analytic - numeric) <= atol + rtol * abs(analytic):
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
    :func:`check_backward`, with ``x_grad_grad`` (and ``params_grad_grad``)
    as its output gradient. The first-order gradient is assumed correct:
    check it with :func:`check_backward` first.
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
