"""exp and the logarithms: log, log2, log10."""
import math

from chainer_core._runtime import graphs, kernels, rules
from chainer_core import function_node
from chainer_core.functions.math import basic_math as _arith_kernels  # NOQA: declares rule kernels of its rules
from chainer_core.utils import type_check


@kernels.declare('exp')
def _exp(xp, x):
    """y = e ** x."""
    return xp.exp(x)


@kernels.declare('log')
def _log(xp, x):
    """y = natural logarithm of x."""
    return xp.log(x)


@kernels.declare('log2')
def _log2(xp, x):
    """y = base-2 logarithm of x."""
    return xp.log2(x)


@kernels.declare('log10')
def _log10(xp, x):
    """y = base-10 logarithm of x."""
    return xp.log10(x)


def _check_float(in_types):
    type_check.expect(in_types.size() == 1)
    type_check.argname(in_types, ('x',))
    type_check.expect(in_types[0].dtype.kind == 'f')


class Exp(function_node.FunctionNode):
    """Elementwise exponential."""

    graph_kernel = graphs.declare('exp', (), 'e ** x, x of a float dtype.',
                                  checks_inputs=True,
                                  derivative='gx0 = mul(gy0, y0)')

    check_type_forward = staticmethod(_check_float)

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('exp', x)(x),


class Log(function_node.FunctionNode):
    """Elementwise natural logarithm."""

    graph_kernel = graphs.declare(
        'log', (), 'The natural logarithm of x, of a float dtype.',
        checks_inputs=True, derivative='gx0 = div(gy0, x0)')

    check_type_forward = staticmethod(_check_float)

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('log', x)(x),


class _LogBase(function_node.FunctionNode):
    """Logarithm to a fixed base: its derivative is 1 / (x ln base)."""

    _kernel = None
    _base = None

    check_type_forward = staticmethod(_check_float)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return kernels.lookup(self._kernel, x)(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] / x * (1.0 / math.log(self._base)),


class Log2(_LogBase):
    """Elementwise base-2 logarithm."""

    _kernel = 'log2'
    _base = 2.0


class Log10(_LogBase):
    """Elementwise base-10 logarithm."""

    _kernel = 'log10'
    _base = 10.0


@rules.kernel('exp', ('a',))
def _exp_rule(a):
    """e ** a."""
    return Exp().apply((a,))[0]


def exp(x):
    """Elementwise exponential: :math:`y = e^x`.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return Exp().apply((x,))[0]


def log(x):
    """Elementwise natural logarithm: :math:`y = \\ln x`.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return Log().apply((x,))[0]


def log2(x):
    """Elementwise base-2 logarithm: :math:`y = \\log_2 x`.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return Log2().apply((x,))[0]


def log10(x):
    """Elementwise base-10 logarithm: :math:`y = \\log_{10} x`.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return Log10().apply((x,))[0]
