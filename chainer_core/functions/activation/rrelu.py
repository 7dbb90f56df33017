"""rrelu: randomized leaky rectifier."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.configuration import config
from chainer_core.functions.activation import _params, _select
from chainer_core.utils import type_check
from chainer_core.variable import Variable


@kernels.declare('rrelu_slopes')
def _rrelu_slopes(xp, x, lower, upper, train):
    """Slopes of x's shape and dtype: uniform on [lower, upper) when train,
    else all (lower + upper) / 2."""
    if train:
        return xp.random.uniform(lower, upper, x.shape).astype(
            x.dtype, copy=False)
    return xp.full(x.shape, (lower + upper) / 2, dtype=x.dtype)


@kernels.declare('rrelu')
def _rrelu(xp, x, r):
    """y = x where x >= 0, r * x elsewhere."""
    zero = x.dtype.type(0)
    return xp.maximum(x, zero) + xp.minimum(x, zero) * r


@kernels.declare('rrelu_grad')
def _rrelu_grad(xp, x, r, gy):
    """gx = gy where x >= 0, r * gy elsewhere (x is the input)."""
    return _select.select(x >= 0, gy, gy * r)


class RReLU(function_node.FunctionNode):
    """Randomized leaky rectifier; ``r`` holds the slopes it used."""

    def __init__(self, lower=1. / 8, upper=1. / 3, r=None):
        self.lower = lower
        self.upper = upper
        self.r = r

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        type_check.expect(x_type.dtype.kind == 'f')
        if self.r is not None:
            type_check.expect(
                x_type.dtype == type_check.make_variable(self.r.dtype,
                                                         'r.dtype'),
                x_type.shape == type_check.make_variable(self.r.shape,
                                                         'r.shape'))

    def forward(self, inputs):
        x, = inputs
        train = config.train
        if self.r is None or not train:
            self.r = kernels.lookup('rrelu_slopes', x)(
                x, self.lower, self.upper, train)
        self.retain_inputs((0,))
        return kernels.lookup('rrelu', x)(x, self.r),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return RReLUGrad(x.array, self.r).apply(grad_outputs)


class RReLUGrad(function_node.FunctionNode):
    """Gradient of rrelu at a fixed input and slopes; linear in ``gy``."""

    def __init__(self, x, r):
        self.x = x
        self.r = r

    def forward(self, inputs):
        gy, = inputs
        return kernels.lookup('rrelu_grad', gy)(self.x, self.r, gy),

    def backward(self, indexes, grad_outputs):
        return RReLUGrad(self.x, self.r).apply(grad_outputs)


def rrelu(x, l=1. / 8, u=1. / 3, *, r=None,  # NOQA: E741 (Chainer's name)
          return_r=False):
    """Randomized leaky rectified linear unit: :math:`y = \\max(x, r x)`.

    In training mode (``chainer.config.train``) each element's slope
    :math:`r` is drawn from the uniform distribution on :math:`[l, u)`,
    unless ``r`` is given, in which case it is used as is. In test mode
    every slope is the mean :math:`(l + u) / 2` and a given ``r`` is
    ignored.

    Args:
        x (Variable or array): input of any shape, float16/32/64.
        l (float): lower bound of the slopes, in :math:`[0, 1)`.
        u (float): upper bound of the slopes, in :math:`[0, 1)`, above
            ``l``.
        r (array or None): slopes to use in training mode, of the shape and
            dtype of ``x`` and on its device (e.g. the ``r`` returned by an
            earlier call, to repeat it).
        return_r (bool): also return the slopes used.

    Returns:
        Variable of the shape and dtype of ``x``; with ``return_r``, the
        tuple ``(y, r)`` where ``r`` is the array of slopes.
    """
    lower = _params.real(l, 'rrelu', 'l')
    upper = _params.real(u, 'rrelu', 'u')
    for name, value in (('l', lower), ('u', upper)):
        if not 0.0 <= value < 1.0:
            raise ValueError('rrelu: {} must be in [0, 1), got {!r}'.format(
                name, value))
    if not lower < upper:
        raise ValueError('rrelu: l must be less than u, got l={!r}, u={!r}'
                         .format(lower, upper))
    if isinstance(r, Variable):
        r = r.array
    elif r is not None and not hasattr(r, 'dtype'):
        raise TypeError('rrelu: r must be an array or None, got {}'.format(
            type(r).__name__))
    func = RReLU(lower, upper, r)
    y, = func.apply((x,))
    if return_r:
        return y, func.r
    return y
