"""Type checking of op inputs with readable messages.

``check_type_forward(in_types)`` states expectations as expressions::

    x_type, w_type = in_types
    type_check.expect(x_type.dtype.kind == 'f', x_type.shape[1] == w_type.shape[1])

Ops are first checked in *light* mode, where ``in_types`` hold the real
shapes and dtypes and each expectation is a plain bool, so a passing check
costs little. When one fails, the check runs again on symbolic types to
build the message (``Expect: x.shape[1] == W.shape[1]`` / ``Actual: 3 != 4``).
"""
import contextlib
import operator
import threading

import numpy

_thread_local = threading.local()


class InvalidType(TypeError):
    """Raised when input types violate an expectation.

    Args:
        expect (str): the expectation, e.g. ``'x.ndim == 2'``.
        actual (str): what was found, e.g. ``'3 != 2'``.
        msg (str): the whole message, when the default
            ``Expect: ...\\nActual: ...`` does not fit.
    """

    def __init__(self, expect, actual, msg=None):
        if msg is None:
            msg = 'Expect: {0}\nActual: {1}'.format(expect, actual)
        super().__init__(msg)
        self.expect = expect
        self.actual = actual

    def __reduce__(self):
        return type(self), (self.expect, self.actual, str(self))


class _LightFailure(Exception):
    pass


def in_light_mode():
    """Whether type checks run in light mode in this thread.

    In light mode input types are the arrays themselves and expectations
    are plain bools; see :data:`light_mode`.
    """
    return getattr(_thread_local, 'light', False)


class LightMode:
    """The context manager behind :data:`light_mode` (reentrant, per thread).

    Example:
        >>> with type_check.light_mode:
        ...     type_check.in_light_mode()
        True
    """

    def __enter__(self):
        stack = getattr(_thread_local, 'light_stack', None)
        if stack is None:
            stack = _thread_local.light_stack = []
        stack.append(in_light_mode())
        _thread_local.light = True

    def __exit__(self, *exc):
        _thread_local.light = _thread_local.light_stack.pop()


light_mode = LightMode()


@contextlib.contextmanager
def get_function_check_context(f):
    """A context in which the inputs of the function ``f`` are checked.

    Misusing a type-check expression inside it (e.g. as a bool) reports
    ``f`` by its label.

    Args:
        f: the function (or function node) whose ``check_type_forward``
            runs in the context.

    Returns:
        A context manager.
    """
    previous = getattr(_thread_local, 'current_function', None)
    _thread_local.current_function = f
    try:
        yield
    finally:
        _thread_local.current_function = previous


# -- symbolic expressions ----------------------------------------------
# Priorities follow Python's: a higher one binds tighter.

_ATOM = 8
_UNARY = 6
_BOOL = -1


def _repr(value):
    if isinstance(value, numpy.dtype):
        # As Chainer prints them: 'Actual: float32 != int32'.
        return value.name
    if isinstance(value, type) and issubclass(value, numpy.generic):
        return 'numpy.' + value.__name__
    return repr(value)


def _eval(x):
    return x.eval() if isinstance(x, Expr) else x


def _str(x):
    if isinstance(x, Expr):
        return x._str()
    if isinstance(x, list):
        return '[' + ', '.join(_str(v) for v in x) + ']'
    if isinstance(x, tuple):
        inner = ', '.join(_str(v) for v in x)
        return '(' + inner + (',)' if len(x) == 1 else ')')
    return _repr(x)


def _operand(x, priority, parens_on_equal):
    s = _str(x)
    p = x.priority if isinstance(x, Expr) else _ATOM
    if p < priority or (p == priority and parens_on_equal):
        return '(' + s + ')'
    return s


def _binary(priority, exp, func, right_associative=False):
    def forward(self, other):
        return BinaryOperator(priority, self, other, exp, func,
                              right_associative)

    def backward(self, other):
        return BinaryOperator(priority, other, self, exp, func,
                              right_associative)

    return forward, backward


def _compare(exp, inv, func):
    def method(self, other):
        return BoolBinaryOperator(self, other, exp, inv, func)
    return method


def _unary(exp, func):
    def method(self):
        return UnaryOperator(_UNARY, self, exp, func)
    return method


class Expr:
    """A lazily evaluated expression over input types.

    Args:
        priority (int): how tightly the expression binds when printed
            (Python's precedence; higher binds tighter).
    """

    def __init__(self, priority):
        self.__dict__['priority'] = priority

    def eval(self):
        """The value of the expression."""
        raise NotImplementedError

    def __str__(self):
        return self._str()

    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        return GetAttr(self, name)

    def __getitem__(self, key):
        return GetItem(self, key)

    def __call__(self, *args):
        return Call(self, args)

    __hash__ = object.__hash__

    def __bool__(self):
        f = getattr(_thread_local, 'current_function', None)
        where = '' if f is None else ' (in the type check of {})'.format(
            getattr(f, 'label', type(f).__name__))
        raise RuntimeError(
            'a type-check expression cannot be used as a bool{}; pass it to '
            'type_check.expect (or use type_check.eval)'.format(where))

    __eq__ = _compare('==', '!=', operator.eq)
    __ne__ = _compare('!=', '==', operator.ne)
    __lt__ = _compare('<', '>=', operator.lt)
    __le__ = _compare('<=', '>', operator.le)
    __gt__ = _compare('>', '<=', operator.gt)
    __ge__ = _compare('>=', '<', operator.ge)

    __add__, __radd__ = _binary(4, '+', operator.add)
    __sub__, __rsub__ = _binary(4, '-', operator.sub)
    __mul__, __rmul__ = _binary(5, '*', operator.mul)
    __truediv__, __rtruediv__ = _binary(5, '/', operator.truediv)
    __floordiv__, __rfloordiv__ = _binary(5, '//', operator.floordiv)
    __mod__, __rmod__ = _binary(5, '%', operator.mod)
    __pow__, __rpow__ = _binary(7, '**', operator.pow, True)
    __lshift__, __rlshift__ = _binary(3, '<<', operator.lshift)
    __rshift__, __rrshift__ = _binary(3, '>>', operator.rshift)
    __and__, __rand__ = _binary(2, '&', operator.and_)
    __xor__, __rxor__ = _binary(1, '^', operator.xor)
    __or__, __ror__ = _binary(0, '|', operator.or_)

    __neg__ = _unary('-', operator.neg)
    __pos__ = _unary('+', operator.pos)
    __invert__ = _unary('~', operator.invert)


class Atom(Expr):
    """An expression printed without parentheses: a name, a constant, an
    attribute, an item or a call."""

    def __init__(self):
        super().__init__(_ATOM)


class Variable(Atom):
    """A named value, e.g. ``in_types[0]`` or ``x``.

    Args:
        value: the value the expression evaluates to.
        name (str): how it is printed.
    """

    def __init__(self, value, name):
        super().__init__()
        self.__dict__['value'] = value
        self.__dict__['name'] = name

    def eval(self):
        return self.value

    def _str(self):
        return self.name


class Constant(Atom):
    """A value printed as its ``repr`` (a dtype by its name).

    Args:
        value: the value.
    """

    def __init__(self, value):
        super().__init__()
        self.__dict__['value'] = value

    def eval(self):
        return self.value

    def _str(self):
        return _repr(self.value)


class GetAttr(Atom):
    """``obj.name``.

    Args:
        obj: the expression (or value) to take the attribute of.
        name (str): the attribute.
    """

    def __init__(self, obj, name):
        super().__init__()
        self.__dict__['obj'] = obj
        self.__dict__['attr'] = name

    def eval(self):
        return getattr(_eval(self.obj), _eval(self.attr))

    def _str(self):
        return '{}.{}'.format(_operand(self.obj, _ATOM, False), self.attr)


def _key_str(key):
    if isinstance(key, slice):
        return '{}:{}{}'.format(
            '' if key.start is None else _str(key.start),
            '' if key.stop is None else _str(key.stop),
            '' if key.step is None else ':' + _str(key.step))
    if isinstance(key, tuple):
        return ', '.join(_key_str(k) for k in key)
    return _str(key)


class GetItem(Atom):
    """``obj[key]``.

    Args:
        obj: the expression (or value) to index.
        key: the index (an int, slice, tuple or expression).
    """

    def __init__(self, obj, key):
        super().__init__()
        self.__dict__['obj'] = obj
        self.__dict__['key'] = key

    def eval(self):
        return _eval(self.obj)[_eval(self.key)]

    def _str(self):
        return '{}[{}]'.format(_operand(self.obj, _ATOM, False),
                               _key_str(self.key))


class Call(Atom):
    """``obj(*args)``.

    Args:
        obj: the callable (an expression or a value).
        args (tuple): the arguments (expressions or values).
    """

    def __init__(self, obj, args):
        super().__init__()
        self.__dict__['obj'] = obj
        self.__dict__['args'] = tuple(args)

    def eval(self):
        return _eval(self.obj)(*[_eval(a) for a in self.args])

    def _str(self):
        return '{}({})'.format(_operand(self.obj, _ATOM, False),
                               ', '.join(_str(a) for a in self.args))


class UnaryOperator(Expr):
    """A prefix operator, e.g. ``-x``.

    Args:
        priority (int): its binding priority.
        term: the operand.
        exp (str): the operator as printed.
        func: computes the value from the operand's value.
    """

    def __init__(self, priority, term, exp, func):
        super().__init__(priority)
        self.__dict__.update(term=term, exp=exp, func=func)

    def eval(self):
        return self.func(_eval(self.term))

    def _str(self):
        return self.exp + _operand(self.term, self.priority, False)


class BinaryOperator(Expr):
    """An infix operator, e.g. ``x + y``.

    Args:
        priority (int): its binding priority.
        lhs, rhs: the operands.
        exp (str): the operator as printed.
        func: computes the value from the operands' values.
        right_associative (bool): ``a ** b ** c`` is ``a ** (b ** c)``.
    """

    def __init__(self, priority, lhs, rhs, exp, func,
                 right_associative=False):
        super().__init__(priority)
        self.__dict__.update(lhs=lhs, rhs=rhs, exp=exp, func=func,
                             right_associative=right_associative)

    def eval(self):
        return self.func(_eval(self.lhs), _eval(self.rhs))

    def _str(self):
        # An operand of equal priority on the side the operator does not
        # associate to keeps its parentheses: a - (b - c), (a ** b) ** c.
        lhs = _operand(self.lhs, self.priority, self.right_associative)
        rhs = _operand(self.rhs, self.priority, not self.right_associative)
        return '{} {} {}'.format(lhs, self.exp, rhs)


class Testable:
    """An expression :func:`expect` can test."""

    def expect(self):
        raise NotImplementedError


class BoolBinaryOperator(BinaryOperator, Testable):
    """A comparison, e.g. ``x.ndim == 2``; :func:`expect` tests it.

    Args:
        lhs, rhs: the operands.
        exp (str): the comparison as printed (``'=='``).
        inv (str): its negation, printed when it fails (``'!='``).
        func: the comparison of the operands' values.
    """

    def __init__(self, lhs, rhs, exp, inv, func):
        super().__init__(_BOOL, lhs, rhs, exp, func)
        self.__dict__['inv'] = inv

    def expect(self):
        left, right = _eval(self.lhs), _eval(self.rhs)
        if not self.func(left, right):
            raise InvalidType(self._str(), '{} {} {}'.format(
                _repr(left), self.inv, _repr(right)))


# Another name of comparisons, kept for code that uses it.
Compare = BoolBinaryOperator


class _Conjunction(Testable):
    def __init__(self, *conds):
        self.conds = conds

    def expect(self):
        for c in self.conds:
            _expect_one(c)


def _expect_one(cond):
    if isinstance(cond, Testable):
        cond.expect()
    elif isinstance(cond, (bool, numpy.bool_)):
        if not cond:
            raise InvalidType('a true condition', 'False')
    else:
        raise TypeError('type_check.expect takes comparisons; got {!r}'
                        .format(cond))


def expect(*bool_exprs):
    """Check each expectation; raise :class:`InvalidType` on the first false.

    Args:
        bool_exprs: comparisons of type expressions (plain bools in light
            mode).

    Example:
        >>> x = type_check.Variable(3, 'x')
        >>> type_check.expect(x == 3)
    """
    for cond in bool_exprs:
        # Light mode passes plain bools: a true one is the common case and
        # must cost nothing; the mode is only looked at on failure.
        if cond is True:
            continue
        if not isinstance(cond, Testable) and in_light_mode():
            if not cond:
                raise _LightFailure()
            continue
        _expect_one(cond)


def eval(exp):
    """The value of ``exp`` (plain values, as in light mode, pass through).

    Args:
        exp: an expression or a value.

    Returns:
        Its value.
    """
    return _eval(exp)


def make_variable(value, name):
    """``value`` as a named expression, or ``value`` itself in light mode.

    Args:
        value: the value.
        name (str): its name in messages.
    """
    return value if in_light_mode() else Variable(value, name)


def _product(xs):
    result = 1
    for x in xs:
        result *= _eval(x)
    return result


_PROD = Variable(_product, 'prod')


def prod(xs):
    """The product of ``xs`` (e.g. the size of a shape) as an expression.

    Args:
        xs: a sequence of expressions or values.

    Returns:
        An expression printed ``prod([...])``; the value itself in light
        mode.

    Example:
        >>> x = type_check.Variable(numpy.zeros((2, 3)), 'x')
        >>> type_check.eval(type_check.prod(x.shape))
        6
    """
    if in_light_mode():
        return _product(xs)
    return Call(_PROD, (xs,))


# -- input types ---------------------------------------------------------

class TypeInfo:
    """Shape and dtype of one input.

    Args:
        shape (tuple of ints): the shape.
        dtype (numpy.dtype): the dtype.
    """

    __slots__ = ('shape', 'dtype', 'ndim', 'size')

    def __init__(self, shape, dtype):
        self.shape = shape
        self.dtype = dtype
        self.ndim = len(shape)
        self.size = int(numpy.prod(shape, dtype=numpy.int64))


class TypeInfoTuple(tuple):
    """The tuple of symbolic input types; ``size()`` is an expression."""

    def size(self):
        return Variable(len(self), '{}.size'.format(
            getattr(self, 'name', 'in_types')))


class LightTypeInfoTuple(tuple):
    """The tuple of input types in light mode; ``size()`` is an int."""

    def size(self):
        return len(self)


def _with_shapes(data, shapes):
    if shapes is None:
        return data
    if len(shapes) != len(data):
        raise ValueError(
            'type_check: shapes has {} entries for {} inputs'.format(
                len(shapes), len(data)))
    return [None if x is None else TypeInfo(s, x.dtype)
            for x, s in zip(data, shapes)]


def get_light_types(data, *, shapes=None):
    """The input types for a light-mode check: the arrays themselves.

    Args:
        data (tuple): the input arrays.
        shapes (tuple of tuples): shapes to report instead of the arrays'.

    Returns:
        LightTypeInfoTuple: items with ``shape``, ``dtype``, ``ndim`` and
        ``size``.
    """
    return LightTypeInfoTuple(_with_shapes(data, shapes))


def get_types(data, name, accept_none, *, shapes=None, light=False):
    """Wrap arrays as symbolic type infos named ``name[i]``.

    Args:
        data (tuple): the input arrays.
        name (str): the name of the tuple in messages (``'in_types'``).
        accept_none (bool): whether an input may be ``None``.
        shapes (tuple of tuples): shapes to report instead of the arrays'.
        light (bool): return :func:`get_light_types` instead.

    Returns:
        TypeInfoTuple: one :class:`Variable` over a :class:`TypeInfo` per
        input.

    Example:
        >>> t = type_check.get_types((numpy.zeros((2, 3)),), 'in_types',
        ...                          False)
        >>> str(t[0].shape), t[0].shape.eval()
        ('in_types[0].shape', (2, 3))
    """
    if light:
        return get_light_types(data, shapes=shapes)
    items = []
    for i, x in enumerate(_with_shapes(data, shapes)):
        if x is None:
            if not accept_none:
                raise InvalidType('{}[{}] is an array'.format(name, i),
                                  'None')
            items.append(None)
        else:
            items.append(Variable(TypeInfo(x.shape, x.dtype),
                                  '{}[{}]'.format(name, i)))
    info = TypeInfoTuple(items)
    info.name = name
    return info


def argname(in_types, names):
    """Name the inputs (``argname(in_types, ('x', 'W'))``) for messages."""
    if isinstance(in_types, LightTypeInfoTuple) or in_light_mode():
        return
    if len(in_types) > len(names):
        names = tuple(names) + tuple(
            'in_types[{}]'.format(i) for i in range(len(names), len(in_types)))
    for t, name in zip(in_types, names):
        if isinstance(t, Variable):
            t.__dict__['name'] = name


def same_types(*arrays):
    """Whether all arrays are of one array type (all NumPy, all CuPy, ...)."""
    return len({type(a) for a in arrays}) <= 1


def expect_broadcast_shapes(*shape_types, **kwargs):
    """Expect the shapes to be broadcastable together."""
    allow_none = kwargs.pop('allow_none', False)
    if kwargs:
        raise TypeError('unexpected arguments: {}'.format(sorted(kwargs)))
    if len(shape_types) == 2:
        # Two equal shapes (light mode's plain tuples), the common case.
        a, b = shape_types
        if type(a) is tuple and type(b) is tuple and a == b:
            return
    pairs = [(t, eval(t)) for t in shape_types]
    if allow_none:
        pairs = [(t, s) for t, s in pairs if s is not None]
    try:
        numpy.broadcast_shapes(*[s for _, s in pairs])
    except ValueError:
        if in_light_mode():
            raise _LightFailure()
        expect_text = 'broadcastable shapes: {}'.format(', '.join(
            _str(t) for t, _ in pairs))
        actual_text = ', '.join(str(s) for _, s in pairs)
        lines = ['cannot broadcast inputs of the following shapes:']
        lines.extend('{} = {}'.format(_str(t), s) for t, s in pairs)
        raise InvalidType(expect_text, actual_text,
                          msg='\n'.join(lines)) from None


def expect_dtype(type_info, dtype_kind='f'):
    """Shorthand for ``expect(t.dtype.kind == kind)``."""
    expect(type_info.dtype.kind == dtype_kind)
