"""Arithmetic with broadcasting: add, sub, mul, div, neg, pow, floordiv,
absolute and matmul, and their gradients.

These also back the operators of :class:`~chainer_core.Variable`
(``x + y``, ``2 * x``, ``x ** 2``, ``-x``, ``x // 2``, ``abs(x)``,
``x @ W`` ...). As in Chainer, an array operand is converted to the dtype of
the left operand (``Variable(float32) + float64 array`` is float32, with a
float32 gradient), and a scalar to the dtype of the variable.
"""
import numbers

import numpy

from chainer_core._runtime import graphs, kernels, rules
from chainer_core import function_node
from chainer_core.functions.math.absolute import (  # NOQA
    Absolute, AbsoluteGrad)
from chainer_core.functions.math import sum as _sum_kernels  # NOQA: declares rule kernels of its rules
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


def _kernel(name, like):
    return kernels.lookup(name, like)


def _sum_to(gy, shape):
    if gy.shape == shape:
        return gy
    from chainer_core.functions.math.sum import sum_to
    return sum_to(gy, shape)


def _sum_array_to(a, shape):
    if a.shape == shape:
        return a
    return _kernel('sum_to', a)(a, shape)


def _check_binary(in_types):
    type_check.expect(in_types.size() == 2)
    type_check.argname(in_types, ('lhs', 'rhs'))
    type_check.expect(in_types[0].dtype == in_types[1].dtype)
    type_check.expect_broadcast_shapes(in_types[0].shape, in_types[1].shape)


def _value_label(value):
    """A constant as Chainer's operator labels print it: negative numbers
    in parentheses, arrays as 'constant array'."""
    if numpy.ndim(value) != 0:
        return 'constant array'
    return '({})'.format(value) if value < 0 else str(value)


class _Binary(function_node.FunctionNode):
    _kernel = None
    # Chainer's labels (error messages and graph dumps show them).
    _label = None

    @property
    def label(self):
        return self._label

    def check_type_forward(self, in_types):
        _check_binary(in_types)

    def _check_data_type_forward(self, in_data):
        # Two arrays of one dtype and shape pass the check: the common case
        # is told apart at a fraction of the check's cost.
        if len(in_data) == 2:
            x, y = in_data
            if x is not None and y is not None and x.dtype == y.dtype and \
                    x.shape == y.shape:
                return
        super()._check_data_type_forward(in_data)

    def forward(self, inputs):
        x, y = inputs
        return _kernel(self._kernel, x)(x, y),


class Add(_Binary):
    _kernel = 'add'
    _label = '_ + _'
    graph_kernel = graphs.declare(
        'add', (), 'x + y of the inputs (x, y), of one dtype, with '
        'broadcasting.', checks_inputs=True, derivative='''
            gx0 = sum_to(gy0, shape=x0.shape)
            gx1 = sum_to(gy0, shape=x1.shape)''')


class MultiAdd(function_node.FunctionNode):
    """The sum of any number of arrays of one dtype, with broadcasting."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() >= 1)
        type_check.argname(in_types, tuple(
            'x{}'.format(i) for i in range(type_check.eval(in_types.size()))))
        for t in in_types[1:]:
            type_check.expect(in_types[0].dtype == t.dtype)
        type_check.expect_broadcast_shapes(*[t.shape for t in in_types])

    def forward(self, inputs):
        add_ = _kernel('add', inputs[0])
        y = inputs[0]
        for x in inputs[1:]:
            y = add_(y, x)
        if y is inputs[0]:
            y = y.copy()
        return y,

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return tuple(_sum_to(gy, self.inputs[i].shape) for i in indexes)


class Sub(_Binary):
    _kernel = 'sub'
    _label = '_ - _'
    graph_kernel = graphs.declare(
        'sub', (), 'x - y of the inputs (x, y), of one dtype, with '
        'broadcasting.', checks_inputs=True, derivative='''
            gx0 = sum_to(gy0, shape=x0.shape)
            gx1 = sum_to(neg(gy0), shape=x1.shape)''')


class Mul(_Binary):
    _kernel = 'mul'
    _label = '_ * _'
    graph_kernel = graphs.declare(
        'mul', (), 'x * y of the inputs (x, y), of one dtype, with '
        'broadcasting.', checks_inputs=True, derivative='''
            gx0 = sum_to(mul(gy0, x1), shape=x0.shape)
            gx1 = sum_to(mul(gy0, x0), shape=x1.shape)''')


class Div(_Binary):
    _kernel = 'div'
    _label = '_ / _'
    graph_kernel = graphs.declare(
        'div', (), 'x / y of the inputs (x, y), of one dtype, with '
        'broadcasting.', checks_inputs=True,
        derivative='gx0, gx1 = div_grad(x0, x1, gy0)')


class _BinaryGrad(function_node.FunctionNode):
    """``(x0, x1, gy) -> (gx0, gx1)``, the gradients of a binary op, each
    summed to its operand's shape unless ``is_elementwise`` says the
    operands already have the output's."""

    def __init__(self, is_elementwise):
        self.is_elementwise = is_elementwise

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        x0, x1, gy = inputs
        gx0, gx1 = self._grads(x0, x1, gy)
        if not self.is_elementwise:
            gx0 = _sum_array_to(gx0, x0.shape)
            gx1 = _sum_array_to(gx1, x1.shape)
        return gx0, gx1

    def backward(self, indexes, grad_outputs):
        x0, x1, gy = self.get_retained_inputs()
        g0, g1 = grad_outputs
        # _terms yields the terms of one input at a time, so that each sum
        # is built before the terms of the next input.
        terms = self._terms(indexes, x0, x1, gy, g0, g1)
        return tuple(_sum_to(add(*t), self.inputs[i].shape) if t else None
                     for i, t in zip(indexes, terms))


class DivGrad(_BinaryGrad):
    """``(x0, x1, gy) -> (gy / x1, -gy x0 / x1^2)``, the gradients of
    ``x0 / x1``."""

    def _grads(self, x0, x1, gy):
        div_ = _kernel('div', gy)
        gx0 = div_(gy, x1)
        gx1 = _kernel('neg', gy)(div_(_kernel('mul', gy)(gx0, x0), x1))
        return gx0, gx1

    def _terms(self, indexes, x0, x1, gy, g0, g1):
        r = 1.0 / x1
        t = gy * r * r
        for i in indexes:
            terms = []
            if i == 0 and g1 is not None:
                terms.append(-(g1 * t))
            elif i == 1:
                if g0 is not None:
                    terms.append(-(g0 * t))
                if g1 is not None:
                    terms.append(2.0 * g1 * t * x0 * r)
            elif i == 2:
                if g0 is not None:
                    terms.append(g0 * r)
                if g1 is not None:
                    terms.append(-(g1 * x0 * r * r))
            yield terms


class PowVarVar(_Binary):
    _kernel = 'pow'
    _label = '_ ** _'

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        self.retain_outputs((0,))
        return super().forward(inputs)

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        elementwise = x0.shape == x1.shape
        return PowVarVarGrad(elementwise, y.array).apply(
            (x0, x1, grad_outputs[0]))


class PowVarVarGrad(_BinaryGrad):
    """``(x0, x1, gy) -> (gy x1 x0^(x1 - 1), gy y log x0)`` with
    ``y = x0^x1`` given, the gradients of ``x0 ** x1``."""

    def __init__(self, is_elementwise, y):
        super().__init__(is_elementwise)
        self.y = y

    def _grads(self, x0, x1, gy):
        mul_ = _kernel('mul', gy)
        x1_m1 = _kernel('sub', x1)(x1, x1.dtype.type(1))
        gx0 = mul_(mul_(gy, x1), _kernel('pow', x0)(x0, x1_m1))
        gx1 = mul_(mul_(gy, self.y), _kernel('log', x0)(x0))
        return gx0, gx1

    def _terms(self, indexes, x0, x1, gy, g0, g1):
        from chainer_core.functions.math.exponential import log
        log_x0 = log(x0)
        p = x0 ** (x1 - 1.0)
        # gx0 = gy x1 p and gx1 = gy x0 p log x0, as functions of
        # (x0, x1, gy); d p/d x0 = (x1 - 1) p / x0, d p/d x1 = p log x0.
        for i in indexes:
            terms = []
            if i == 0:
                if g0 is not None:
                    terms.append(g0 * gy * x1 * (x1 - 1.0) * p / x0)
                if g1 is not None:
                    terms.append(g1 * gy * p * (x1 * log_x0 + 1.0))
            elif i == 1:
                if g0 is not None:
                    terms.append(g0 * gy * p * (x1 * log_x0 + 1.0))
                if g1 is not None:
                    terms.append(g1 * gy * x0 * p * log_x0 * log_x0)
            else:
                if g0 is not None:
                    terms.append(g0 * x1 * p)
                if g1 is not None:
                    terms.append(g1 * x0 * p * log_x0)
            yield terms


class Neg(function_node.FunctionNode):
    graph_kernel = graphs.declare('neg', (), '-x, x of a float dtype.',
                                  checks_inputs=True,
                                  derivative='gx0 = neg(gy0)')

    @property
    def label(self):
        return '__neg__'

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)

    def forward(self, inputs):
        x, = inputs
        return _kernel('neg', x)(x),


class _Constant(function_node.FunctionNode):
    """An op between a variable and a constant scalar."""

    _kernel = None
    _reversed = False
    # The operator between '_' and the constant in Chainer's label.
    _symbol = None

    def __init__(self, value):
        self.value = value

    @property
    def label(self):
        value = _value_label(self.value)
        if self._reversed:
            return '{} {} _'.format(value, self._symbol)
        return '_ {} {}'.format(self._symbol, value)

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)

    def graph_kernel_params(self, inputs):
        return {'value': inputs[0].dtype.type(self.value)}

    def forward(self, inputs):
        x, = inputs
        fn = _kernel(self._kernel, x)
        value = x.dtype.type(self.value)
        if self._reversed:
            return fn(value, x),
        return fn(x, value),


class _ConstantGrad(function_node.FunctionNode):
    """``(x, gy) -> gx = _derivative(x) gy`` of an op of ``x`` and the
    constant ``value``; linear in ``gy``, so its gradient in ``gy`` is the
    node itself, and ``_derivative_grad(x, g)`` is ``_derivative'(x) g``."""

    def __init__(self, value):
        self.value = value

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        return _kernel('mul', gy)(self._derivative(x), gy),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        return tuple(self._derivative_grad(x, gy * ggx) if i == 0 else
                     type(self)(self.value).apply((x, ggx))[0]
                     for i in indexes)


class _ConstantWithGrad(_Constant):
    """A constant op whose gradient is the node ``_grad`` of its input."""

    _grad = None

    def forward(self, inputs):
        self.retain_inputs((0,))
        return super().forward(inputs)

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return self._grad(self.value).apply((x, grad_outputs[0]))


class AddConstant(_Constant):
    _kernel = 'add'
    _symbol = '+'
    graph_kernel = graphs.declare(
        'add_constant', ('value',), 'x + value, value a scalar of the '
        'dtype of x.', derivative='gx0 = gy0')


class SubFromConstant(_Constant):
    _kernel = 'sub'
    _symbol = '-'
    _reversed = True
    graph_kernel = graphs.declare(
        'sub_from_constant', ('value',), 'value - x, value a scalar of the '
        'dtype of x.', derivative='gx0 = neg(gy0)')


class MulConstant(_Constant):
    _kernel = 'mul'
    _symbol = '*'
    graph_kernel = graphs.declare(
        'mul_constant', ('value',), 'x * value, value a scalar of the '
        'dtype of x.', derivative='gx0 = mul_constant(gy0, value=value)')


class DivFromConstantGrad(_ConstantGrad):
    """``(x, gy) -> -value gy / x^2``, the gradient of ``value / x``."""

    def _derivative(self, x):
        value = x.dtype.type(-self.value)
        return _kernel('div', x)(value, _kernel('mul', x)(x, x))

    def _derivative_grad(self, x, g):
        # d/dx (-value / x^2) = (-value / x^2) (-2 / x)
        return DivFromConstantGrad(self.value).apply((x, g))[0] * (-2.0 / x)


class DivFromConstant(_Constant):
    _kernel = 'div'
    _symbol = '/'
    _reversed = True
    graph_kernel = graphs.declare(
        'div_from_constant', ('value',), 'value / x, value a scalar of the '
        'dtype of x.',
        derivative='gx0 = div_from_constant_grad(x0, gy0, value=value)')


class PowVarConstGrad(_ConstantGrad):
    """``(x, gy) -> value x^(value - 1) gy``, the gradient of
    ``x ** value``."""

    def _derivative(self, x):
        c = self.value
        p = _kernel('pow', x)(x, x.dtype.type(c - 1))
        return _kernel('mul', x)(p, x.dtype.type(c))

    def _derivative_grad(self, x, g):
        return PowVarConstGrad(self.value - 1).apply((x, g))[0] * self.value


class PowVarConst(_ConstantWithGrad):
    _kernel = 'pow'
    _symbol = '**'
    _grad = PowVarConstGrad


class PowConstVarGrad(_ConstantGrad):
    """``(x, gy) -> value^x log(value) gy``, the gradient of
    ``value ** x``."""

    def _log_value(self):
        # In double precision: a float16 constant would round its log.
        return float(numpy.log(float(self.value)))

    def _derivative(self, x):
        y = _kernel('pow', x)(x.dtype.type(self.value), x)
        return _kernel('mul', x)(y, x.dtype.type(self._log_value()))

    def _derivative_grad(self, x, g):
        return PowConstVarGrad(self.value).apply((x, g))[0] * \
            self._log_value()


class PowConstVar(_ConstantWithGrad):
    _kernel = 'pow'
    _symbol = '**'
    _reversed = True
    _grad = PowConstVarGrad


@rules.kernel('neg', ('a',))
def _neg_rule(a):
    """-a."""
    return Neg().apply((a,))[0]


def _binary_rule_kernel(node_class):
    """The rule kernel of the binary op ``node_class``: its graph kernel's
    name and description."""
    def apply(a, b):
        return node_class().apply((a, b))[0]
    apply.__doc__ = graphs.get_spec(node_class.graph_kernel).doc
    rules.kernel(node_class.graph_kernel, ('a', 'b'))(apply)


for _node_class in (Add, Sub, Mul, Div):
    _binary_rule_kernel(_node_class)


@rules.kernel('mul_constant', ('a',), ('value',))
def _mul_constant_rule(a, value):
    """a * value, value a scalar."""
    return MulConstant(value).apply((a,))[0]


@rules.kernel('div_from_constant_grad', ('x', 'gy'), ('value',))
def _div_from_constant_grad_rule(x, gy, value):
    """-value gy / x^2, the gradient of value / x."""
    return DivFromConstantGrad(value).apply((x, gy))[0]


@rules.kernel('div_grad', ('a', 'b', 'gy'), n_outputs=2)
def _div_grad_rule(a, b, gy):
    """(gy / b, -gy a / b^2), the gradients of a / b, each summed to its
    operand's shape."""
    return DivGrad(a.shape == b.shape).apply((a, b, gy))


def _is_scalar(value):
    return isinstance(value, (numbers.Number, numpy.generic))


def _check_operand(value, op):
    if isinstance(value, Variable) or _is_scalar(value) or \
            hasattr(value, 'shape'):
        return
    raise TypeError('{}: unsupported operand of type {}; expected a '
                    'Variable, an array or a scalar'.format(
                        op, type(value).__name__))


def _preprocess_rhs(self, rhs, op):
    """``rhs`` ready to meet ``self``: an array is converted to the dtype
    of ``self``, as Chainer converts it."""
    _check_operand(rhs, op)
    if isinstance(rhs, Variable) or _is_scalar(rhs) or \
            not hasattr(self, 'dtype') or rhs.dtype == self.dtype:
        return rhs
    return rhs.astype(self.dtype)


def add(*xs):
    """Elementwise sum with broadcasting: :math:`y = x_1 + x_2 + \\cdots`.

    With two operands either may be a scalar, and an array ``rhs`` is
    converted to the dtype of ``lhs``; three or more must be Variables or
    arrays of one dtype.

    Args:
        xs (Variable, array or scalar): the operands, at least one.

    Returns:
        Variable: the sum.
    """
    if not xs:
        raise TypeError('add: takes at least one operand, got none')
    if len(xs) == 1:
        _check_operand(xs[0], 'add')
        return as_variable(xs[0])
    if len(xs) > 2:
        for x in xs:
            if _is_scalar(x):
                raise TypeError('add: a scalar operand ({!r}) needs exactly '
                                'two operands, got {}'.format(x, len(xs)))
            _check_operand(x, 'add')
        return MultiAdd().apply(xs)[0]
    return _binary_op('add', *xs)


def _add_negated(value):
    return AddConstant(-value)


def _mul_by_reciprocal(value):
    # A NumPy float32 divisor would round 1/value to float32.
    return MulConstant(1.0 / float(value))


# op: (the node of two variables, of a variable and a constant, of a
# constant and a variable)
_NODES = {
    'add': (Add, AddConstant, AddConstant),
    'sub': (Sub, _add_negated, SubFromConstant),
    'mul': (Mul, MulConstant, MulConstant),
    'div': (Div, _mul_by_reciprocal, DivFromConstant),
    'pow': (PowVarVar, PowVarConst, PowConstVar),
}


def _binary_op(op, self, rhs, reflected=False):
    """``self op rhs``, or ``rhs op self`` if ``reflected``, where either
    operand may be a scalar."""
    rhs = _preprocess_rhs(self, rhs, op)
    node, var_const, const_var = _NODES[op]
    if _is_scalar(rhs):
        return (const_var if reflected else var_const)(rhs).apply(
            (self,))[0]
    if reflected:
        return node().apply((rhs, self))[0]
    if _is_scalar(self):
        return const_var(self).apply((rhs,))[0]
    return node().apply((self, rhs))[0]


def sub(self, rhs):
    """Elementwise difference with broadcasting: :math:`y = a - b`."""
    return _binary_op('sub', self, rhs)


def rsub(self, rhs):
    """``rhs - self`` (the reflected ``-``)."""
    return _binary_op('sub', self, rhs, reflected=True)


def mul(self, rhs):
    """Elementwise product with broadcasting: :math:`y = a b`."""
    return _binary_op('mul', self, rhs)


def div(self, rhs):
    """Elementwise quotient with broadcasting: :math:`y = a / b`."""
    return _binary_op('div', self, rhs)


def rdiv(self, rhs):
    """``rhs / self`` (the reflected ``/``)."""
    return _binary_op('div', self, rhs, reflected=True)


def floordiv(self, rhs):
    """``floor(self / rhs)``, elementwise; like :func:`floor`, outside the
    graph (its gradient is zero almost everywhere)."""
    from chainer_core.functions.math.floor import floor
    return floor(div(self, rhs))


def rfloordiv(self, rhs):
    """``floor(rhs / self)`` (the reflected ``//``), outside the graph."""
    from chainer_core.functions.math.floor import floor
    return floor(rdiv(self, rhs))


def neg(self):
    """Elementwise negation: :math:`y = -x`."""
    return Neg().apply((self,))[0]


def absolute(self):
    """Elementwise absolute value: :math:`y = |x|` (gradient 0 at 0)."""
    return Absolute().apply((self,))[0]


def pow(self, rhs):
    """Elementwise power with broadcasting: :math:`y = a^b`.

    Gradients: :math:`\\partial y/\\partial a = b a^{b-1}`,
    :math:`\\partial y/\\partial b = a^b \\log a`.
    """
    return _binary_op('pow', self, rhs)


def rpow(self, rhs):
    """``rhs ** self`` (the reflected ``**``)."""
    return _binary_op('pow', self, rhs, reflected=True)


def matmul(self, rhs):
    """Matrix product ``self @ rhs`` (see
    :func:`chainer_core.functions.matmul`)."""
    from chainer_core.functions.math.matmul import matmul as matmul_
    return matmul_(self, _preprocess_rhs(self, rhs, 'matmul'))


def rmatmul(self, rhs):
    """``rhs @ self`` (the reflected ``@``)."""
    from chainer_core.functions.math.matmul import matmul as matmul_
    return matmul_(_preprocess_rhs(self, rhs, 'matmul'), self)


def _getitem(self, slices):
    from chainer_core.functions.array.get_item import get_item
    return get_item(self, slices)


def install_variable_arithmetics():
    """Give Variable its operators (``+ - * / // ** @ []``, unary ``-``,
    ``abs``)."""
    Variable.__neg__ = neg
    Variable.__pos__ = lambda self: self
    Variable.__abs__ = absolute
    Variable.__add__ = function_node.binary_operator(Add, add)
    Variable.__radd__ = add
    Variable.__sub__ = function_node.binary_operator(Sub, sub)
    Variable.__rsub__ = rsub
    Variable.__mul__ = function_node.binary_operator(Mul, mul)
    Variable.__rmul__ = mul
    Variable.__truediv__ = function_node.binary_operator(Div, div)
    Variable.__rtruediv__ = rdiv
    Variable.__floordiv__ = floordiv
    Variable.__rfloordiv__ = rfloordiv
    Variable.__pow__ = pow
    Variable.__rpow__ = rpow
    Variable.__matmul__ = matmul
    Variable.__rmatmul__ = rmatmul
    Variable.__getitem__ = _getitem


__all__ = ['add', 'sub', 'mul', 'div', 'neg', 'pow', 'as_variable']
