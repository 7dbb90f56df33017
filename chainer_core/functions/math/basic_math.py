"""Arithmetic with broadcasting: add, sub, mul, div, neg, pow.

These also back the operators of :class:`~chainer_core.Variable`
(``x + y``, ``2 * x``, ``x ** 2``, ``-x``, ``x @ W`` ...).
"""
import numbers

import numpy

from backend_api import kernels
from chainer_core import function_node
from chainer_core.utils import type_check
from chainer_core.variable import Variable, as_variable


@kernels.declare('add')
def _add(xp, x, y):
    """x + y with broadcasting; either may be a Python scalar."""
    return x + y


@kernels.declare('sub')
def _sub(xp, x, y):
    """x - y with broadcasting; either may be a Python scalar."""
    return x - y


@kernels.declare('mul')
def _mul(xp, x, y):
    """x * y with broadcasting; either may be a Python scalar."""
    return x * y


@kernels.declare('div')
def _div(xp, x, y):
    """x / y with broadcasting; either may be a Python scalar."""
    return x / y


@kernels.declare('neg')
def _neg(xp, x):
    """-x."""
    return -x


@kernels.declare('pow')
def _pow(xp, x, y):
    """x ** y with broadcasting; either may be a Python scalar."""
    return x ** y


def _sum_to(gy, shape):
    if gy.shape == shape:
        return gy
    from chainer_core.functions.math.sum import sum_to
    return sum_to(gy, shape)


def _check_binary(in_types):
    type_check.expect(in_types.size() == 2)
    type_check.argname(in_types, ('lhs', 'rhs'))
    type_check.expect(in_types[0].dtype == in_types[1].dtype)
    type_check.expect_broadcast_shapes(in_types[0].shape, in_types[1].shape)


class _Binary(function_node.FunctionNode):
    _kernel = None

    def check_type_forward(self, in_types):
        _check_binary(in_types)

    def forward(self, inputs):
        x, y = inputs
        return kernels.lookup(self._kernel, x)(x, y),


class Add(_Binary):
    _kernel = 'add'

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return tuple(_sum_to(gy, self.inputs[i].shape) for i in indexes)


class Sub(_Binary):
    _kernel = 'sub'

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return tuple(_sum_to(gy if i == 0 else -gy, self.inputs[i].shape)
                     for i in indexes)


class Mul(_Binary):
    _kernel = 'mul'

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        return super().forward(inputs)

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        gy, = grad_outputs
        return tuple(_sum_to(gy * (x1 if i == 0 else x0),
                             self.inputs[i].shape) for i in indexes)


class Div(_Binary):
    _kernel = 'div'

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        return super().forward(inputs)

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        gy, = grad_outputs
        gx0 = gy / x1
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(_sum_to(gx0, self.inputs[0].shape))
            else:
                ret.append(_sum_to(-gx0 * x0 / x1, self.inputs[1].shape))
        return tuple(ret)


class PowVarVar(_Binary):
    _kernel = 'pow'

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        self.retain_outputs((0,))
        return super().forward(inputs)

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.exponential import log
        x0, x1 = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        ret = []
        for i in indexes:
            if i == 0:
                g = gy * x1 * x0 ** (x1 - 1)
            else:
                g = gy * y * log(x0)
            ret.append(_sum_to(g, self.inputs[i].shape))
        return tuple(ret)


class Neg(function_node.FunctionNode):

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('neg', x)(x),

    def backward(self, indexes, grad_outputs):
        return -grad_outputs[0],


class _Constant(function_node.FunctionNode):
    """An op between a variable and a constant scalar."""

    _kernel = None
    _reversed = False

    def __init__(self, value):
        self.value = value

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)

    def forward(self, inputs):
        x, = inputs
        fn = kernels.lookup(self._kernel, x)
        value = x.dtype.type(self.value)
        if self._reversed:
            return fn(value, x),
        return fn(x, value),


class AddConstant(_Constant):
    _kernel = 'add'

    def backward(self, indexes, grad_outputs):
        return grad_outputs


class SubFromConstant(_Constant):
    _kernel = 'sub'
    _reversed = True

    def backward(self, indexes, grad_outputs):
        return -grad_outputs[0],


class MulConstant(_Constant):
    _kernel = 'mul'

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * self.value,


class DivFromConstant(_Constant):
    _kernel = 'div'
    _reversed = True

    def forward(self, inputs):
        self.retain_inputs((0,))
        return super().forward(inputs)

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * (-self.value) / (x * x),


class PowVarConst(_Constant):
    _kernel = 'pow'

    def forward(self, inputs):
        self.retain_inputs((0,))
        return super().forward(inputs)

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        c = self.value
        if c == 2:
            return grad_outputs[0] * (x * 2.0),
        return grad_outputs[0] * (x ** (c - 1) * c),


class PowConstVar(_Constant):
    _kernel = 'pow'
    _reversed = True

    def forward(self, inputs):
        self.retain_outputs((0,))
        return super().forward(inputs)

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] * y * float(numpy.log(self.value)),


def _is_scalar(value):
    return isinstance(value, (numbers.Number, numpy.generic))


def _check_operand(value, op):
    if isinstance(value, Variable) or _is_scalar(value) or \
            hasattr(value, 'shape'):
        return
    raise TypeError('{}: unsupported operand of type {}; expected a '
                    'Variable, an array or a scalar'.format(
                        op, type(value).__name__))


def add(lhs, rhs):
    """Elementwise sum with broadcasting: :math:`y = a + b`.

    Args:
        lhs, rhs (Variable, array or scalar): operands; arrays and variables
            must share the dtype and broadcast together.

    Returns:
        Variable: the sum.
    """
    _check_operand(rhs, 'add')
    if _is_scalar(rhs):
        return AddConstant(rhs).apply((lhs,))[0]
    if _is_scalar(lhs):
        return AddConstant(lhs).apply((rhs,))[0]
    return Add().apply((lhs, rhs))[0]


def sub(lhs, rhs):
    """Elementwise difference with broadcasting: :math:`y = a - b`."""
    _check_operand(rhs, 'sub')
    if _is_scalar(rhs):
        return AddConstant(-rhs).apply((lhs,))[0]
    if _is_scalar(lhs):
        return SubFromConstant(lhs).apply((rhs,))[0]
    return Sub().apply((lhs, rhs))[0]


def mul(lhs, rhs):
    """Elementwise product with broadcasting: :math:`y = a b`."""
    _check_operand(rhs, 'mul')
    if _is_scalar(rhs):
        return MulConstant(rhs).apply((lhs,))[0]
    if _is_scalar(lhs):
        return MulConstant(lhs).apply((rhs,))[0]
    return Mul().apply((lhs, rhs))[0]


def div(lhs, rhs):
    """Elementwise quotient with broadcasting: :math:`y = a / b`."""
    _check_operand(rhs, 'div')
    if _is_scalar(rhs):
        # A NumPy float32 divisor would round 1/rhs to float32.
        return MulConstant(1.0 / float(rhs)).apply((lhs,))[0]
    if _is_scalar(lhs):
        return DivFromConstant(lhs).apply((rhs,))[0]
    return Div().apply((lhs, rhs))[0]


def neg(x):
    """Elementwise negation: :math:`y = -x`."""
    return Neg().apply((x,))[0]


def pow(lhs, rhs):
    """Elementwise power with broadcasting: :math:`y = a^b`.

    Gradients: :math:`\\partial y/\\partial a = b a^{b-1}`,
    :math:`\\partial y/\\partial b = a^b \\log a`.
    """
    _check_operand(rhs, 'pow')
    if _is_scalar(rhs):
        return PowVarConst(rhs).apply((lhs,))[0]
    if _is_scalar(lhs):
        return PowConstVar(lhs).apply((rhs,))[0]
    return PowVarVar().apply((lhs, rhs))[0]


def _matmul(a, b):
    from chainer_core.functions.math.matmul import matmul
    return matmul(a, b)


def _rsub(self, lhs):
    return sub(lhs, self)


def _rdiv(self, lhs):
    return div(lhs, self)


def _rpow(self, lhs):
    return pow(lhs, self)


def _rmatmul(self, lhs):
    return _matmul(lhs, self)


def _getitem(self, slices):
    from chainer_core.functions.array.get_item import get_item
    return get_item(self, slices)


def install_variable_arithmetics():
    """Give Variable its operators (``+ - * / ** @ []``, unary ``-``)."""
    Variable.__neg__ = neg
    Variable.__pos__ = lambda self: self
    Variable.__add__ = add
    Variable.__radd__ = add
    Variable.__sub__ = sub
    Variable.__rsub__ = _rsub
    Variable.__mul__ = mul
    Variable.__rmul__ = mul
    Variable.__truediv__ = div
    Variable.__rtruediv__ = _rdiv
    Variable.__pow__ = pow
    Variable.__rpow__ = _rpow
    Variable.__matmul__ = _matmul
    Variable.__rmatmul__ = _rmatmul
    Variable.__getitem__ = _getitem
    from chainer_core.functions.math.absolute import absolute
    Variable.__abs__ = absolute


__all__ = ['add', 'sub', 'mul', 'div', 'neg', 'pow', 'as_variable']
