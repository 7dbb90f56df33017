"""gumbel_softmax: a relaxed sample of a categorical distribution."""
import numbers

from chainer_core._runtime import kernels
from chainer_core.functions.noise import _util as _noise
from chainer_core.functions.normalization import _util


@kernels.declare('gumbel_softmax_noise')
def _gumbel_noise(xp, log_pi):
    """Standard Gumbel samples of the shape and dtype of log_pi."""
    g = _noise.random_module(xp).gumbel(size=log_pi.shape)
    return xp.asarray(g).astype(log_pi.dtype, copy=False)


def perturbed_softmax(log_pi, noise, tau, axis):
    """``softmax((log_pi + noise) / tau, axis)``: the differentiable part
    of :func:`gumbel_softmax` for given noise."""
    from chainer_core.functions.activation.softmax import softmax
    return softmax((log_pi + noise) * (1.0 / tau), axis=axis)


def gumbel_softmax(log_pi, tau=0.1, axis=1):
    """Gumbel-softmax: a differentiable relaxation of sampling a category.

    .. math:: y = \\mathrm{softmax}\\left(\\frac{\\log \\pi + g}{\\tau}
        \\right), \\quad g_i = -\\log(-\\log u_i), \\ u_i \\sim U(0, 1)

    along ``axis``. As ``tau`` goes to 0 the output tends to the one-hot
    vector of a category drawn with probabilities ``softmax(log_pi)`` (the
    Gumbel-max trick). The noise is drawn in training and test mode alike
    (from ``numpy.random`` for NumPy arrays); the result is differentiable
    in ``log_pi`` for that noise, at any order.

    Args:
        log_pi (Variable or array): unnormalised log-probabilities,
            float16/32/64.
        tau (float): the temperature, positive.
        axis (int): the axis of the categories.

    Returns:
        Variable of the shape and dtype of ``log_pi``; a 0-dim ``log_pi``
        gives 1.
    """
    from chainer_core.variable import Variable, as_variable
    op = 'gumbel_softmax'
    tau = _util.check_number(op, 'tau', tau, low=0, low_inclusive=False)
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError('{}: axis must be an int, got {!r}'.format(op, axis))
    try:
        log_pi = as_variable(log_pi)
    except TypeError:
        raise TypeError('{}: log_pi must be a Variable or an array, got {}'
                        .format(op, type(log_pi).__name__)) from None
    if log_pi.dtype.kind != 'f':
        raise TypeError('{}: log_pi must be of a float dtype, got {}'.format(
            op, log_pi.dtype))
    if log_pi.ndim < 1:
        return Variable(log_pi.xp.ones((), log_pi.dtype))
    if not -log_pi.ndim <= axis < log_pi.ndim:
        raise ValueError('{}: axis {} is out of bounds for log_pi of ndim {}'
                         .format(op, axis, log_pi.ndim))
    noise = kernels.lookup('gumbel_softmax_noise', log_pi.array)(
        log_pi.array)
    return perturbed_softmax(log_pi, noise, tau, axis)
