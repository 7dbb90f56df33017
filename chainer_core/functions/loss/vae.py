"""Losses of variational auto-encoders: gaussian_kl_divergence,
bernoulli_nll and gaussian_nll."""
import math

import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.loss import _util
from chainer_core.utils import type_check

_LOG_2PI = math.log(2 * math.pi)


def _finish(xp, loss, reduce, dtype):
    if reduce == 'sum':
        return xp.asarray(loss.sum(), dtype=dtype)
    return loss.astype(dtype)


def _widen(x):
    return x.astype(_util.float_type(x.dtype), copy=False)


@kernels.declare('gaussian_kl_divergence')
def _gaussian_kl_divergence(xp, mean, ln_var, reduce):
    """(mean**2 + exp(ln_var) - ln_var - 1) / 2, elementwise; summed when
    reduce is 'sum'."""
    m, v = _widen(mean), _widen(ln_var)
    loss = (m * m + xp.exp(v) - v - 1) * m.dtype.type(0.5)
    return _finish(xp, loss, reduce, mean.dtype)


@kernels.declare('bernoulli_nll')
def _bernoulli_nll(xp, x, y, reduce):
    """log(1 + exp(y)) - x y, elementwise; summed when reduce is 'sum'."""
    xf, yf = _widen(x), _widen(y)
    loss = xp.maximum(yf, 0) + xp.log1p(xp.exp(-abs(yf))) - xf * yf
    return _finish(xp, loss, reduce, x.dtype)


@kernels.declare('gaussian_nll')
def _gaussian_nll(xp, x, mean, ln_var, reduce):
    """(ln_var + log(2 pi) + (x - mean)**2 exp(-ln_var)) / 2, elementwise;
    summed when reduce is 'sum'."""
    d = _widen(x) - _widen(mean)
    v = _widen(ln_var)
    loss = (v + _LOG_2PI + d * d * xp.exp(-v)) * d.dtype.type(0.5)
    return _finish(xp, loss, reduce, x.dtype)


class _ElementwiseLoss(function_node.FunctionNode):
    """A loss of inputs that broadcast together (as Chainer v7's arithmetic
    does); subclasses give the kernel and the gradients of the broadcast
    inputs."""

    _kernel = None
    _names = ()

    def __init__(self, reduce):
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == len(self._names))
        type_check.argname(in_types, self._names)
        first = in_types[0]
        type_check.expect(first.dtype.kind == 'f')
        for other in in_types[1:]:
            type_check.expect(other.dtype == first.dtype)
        type_check.expect_broadcast_shapes(*[t.shape for t in in_types])

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        return kernels.lookup(self._kernel, inputs[0])(
            *inputs, self.reduce),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.sum import sum_to
        inputs = self.get_retained_inputs()
        shape = numpy.broadcast_shapes(*[x.shape for x in inputs])
        grads = self._grads(
            [_util.broadcast_like(x, shape) for x in inputs],
            _util.broadcast_like(grad_outputs[0], shape))
        return tuple(sum_to(grads[i](), inputs[i].shape) for i in indexes)


class GaussianKLDivergence(_ElementwiseLoss):
    _kernel = 'gaussian_kl_divergence'
    _names = ('mean', 'ln_var')

    def _grads(self, inputs, gy):
        from chainer_core.functions.math.exponential import exp
        mean, ln_var = inputs
        return {0: lambda: gy * mean,
                1: lambda: gy * (exp(ln_var) - 1) * 0.5}


class BernoulliNLL(_ElementwiseLoss):
    _kernel = 'bernoulli_nll'
    _names = ('x', 'y')

    def _grads(self, inputs, gy):
        from chainer_core.functions.activation.sigmoid import sigmoid
        x, y = inputs
        return {0: lambda: -(gy * y), 1: lambda: gy * (sigmoid(y) - x)}


class GaussianNLL(_ElementwiseLoss):
    _kernel = 'gaussian_nll'
    _names = ('x', 'mean', 'ln_var')

    def _grads(self, inputs, gy):
        from chainer_core.functions.math.exponential import exp
        x, mean, ln_var = inputs
        diff = x - mean
        scaled = diff * exp(-ln_var)
        gx = gy * scaled
        return {0: lambda: gx, 1: lambda: -gx,
                2: lambda: gy * (1 - diff * scaled) * 0.5}


def _check(func, reduce):
    _util.check_reduce(func, reduce, ('sum', 'no'))


def gaussian_kl_divergence(mean, ln_var, reduce='sum'):
    """KL divergence of :math:`N(\\mu, \\mathrm{diag}(\\sigma^2))` from the
    standard normal, elementwise.

    .. math:: \\frac{1}{2} (\\mu^2 + \\sigma^2 - \\log \\sigma^2 - 1)

    Args:
        mean (Variable or array): :math:`\\mu`, float16/32/64.
        ln_var (Variable or array): :math:`\\log \\sigma^2`, of ``mean``'s
            dtype, broadcasting with it.
        reduce (str): ``'sum'`` for the 0-dim sum, ``'no'`` for the
            elementwise values (of the broadcast shape).

    Returns:
        Variable: of ``mean``'s dtype.
    """
    _check('gaussian_kl_divergence', reduce)
    return GaussianKLDivergence(reduce).apply((mean, ln_var))[0]


def bernoulli_nll(x, y, reduce='sum'):
    """Negative log-likelihood of ``x`` under Bernoulli distributions of
    logits ``y``, elementwise.

    .. math:: -x \\log p - (1 - x) \\log(1 - p) = \\log(1 + e^y) - x y,
        \\quad p = \\sigma(y)

    Args:
        x (Variable or array): observations (usually in [0, 1]),
            float16/32/64.
        y (Variable or array): logits of the probabilities, of ``x``'s
            dtype, broadcasting with ``x``.
        reduce (str): ``'sum'`` for the 0-dim sum, ``'no'`` for the
            elementwise values.

    Returns:
        Variable: of ``x``'s dtype.
    """
    _check('bernoulli_nll', reduce)
    return BernoulliNLL(reduce).apply((x, y))[0]


def gaussian_nll(x, mean, ln_var, reduce='sum'):
    """Negative log-likelihood of ``x`` under
    :math:`N(\\mu, \\mathrm{diag}(\\sigma^2))`, elementwise.

    .. math:: \\frac{1}{2} \\left(\\log(2\\pi) + \\log \\sigma^2
        + \\frac{(x - \\mu)^2}{\\sigma^2}\\right)

    Args:
        x (Variable or array): observations, float16/32/64.
        mean (Variable or array): :math:`\\mu`, of ``x``'s dtype.
        ln_var (Variable or array): :math:`\\log \\sigma^2`, of ``x``'s
            dtype; the three broadcast together.
        reduce (str): ``'sum'`` for the 0-dim sum, ``'no'`` for the
            elementwise values.

    Returns:
        Variable: of ``x``'s dtype.
    """
    _check('gaussian_nll', reduce)
    return GaussianNLL(reduce).apply((x, mean, ln_var))[0]
