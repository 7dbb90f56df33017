"""Type checking of op inputs with readable messages.

``check_type_forward(in_types)`` states expectations as expressions::

    x_type, w_type = in_types
    type_check.expect(x_type.dtype.kind == 'f', x_type.shape[1] == w_type.shape[1])

Ops are first checked in *light* mode, where ``in_types`` hold the real
shapes and dtypes and each expectation is a plain bool, so a passing check
costs little. When one fails, the check runs again on symbolic types to
build the message (``Expect: x.shape[1] == W.shape[1]`` / ``Actual: 3 != 4``).
"""
import operator
import threading

import numpy

_thread_local = threading.local()


class InvalidType(TypeError):
    """Raised when input types violate an expectation."""

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


def _in_light_mode():
    return getattr(_thread_local, 'light', False)


class light_mode:
    def __enter__(self):
        self._prev = _in_light_mode()
        _thread_local.light = True

    def __exit__(self, *exc):
        _thread_local.light = self._prev


# -- symbolic expressions ----------------------------------------------

_PRIORITY = {'**': 2, '*': 3, '/': 3, '//': 3, '%': 3, '+': 4, '-': 4,
             '<<': 5, '>>': 5, '&': 6, '^': 7, '|': 8}


def _repr(value):
    if isinstance(value, numpy.dtype):
        # As Chainer prints them: 'Actual: float32 != int32'.
        return value.name
    if isinstance(value, type) and issubclass(value, numpy.generic):
        return 'numpy.' + value.__name__
    return repr(value)


def _eval(x):
    return x.eval() if isinstance(x, Expr) else x


def _str(x, priority=0):
    if isinstance(x, Expr):
        s = x._str()
        if x.priority > priority > 0:
            return '(' + s + ')'
        return s
    return _repr(x)


def _binary(op, sym):
    def forward(self, other):
        return BinaryOperator(op, sym, self, other)

    def backward(self, other):
        return BinaryOperator(op, sym, other, self)

    return forward, backward


class Expr:
    """A lazily evaluated expression over input types."""

    priority = 0

    def eval(self):
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

    def __eq__(self, other):
        return Compare(operator.eq, '==', '!=', self, other)

    def __ne__(self, other):
        return Compare(operator.ne, '!=', '==', self, other)

    def __lt__(self, other):
        return Compare(operator.lt, '<', '>=', self, other)

    def __le__(self, other):
        return Compare(operator.le, '<=', '>', self, other)

    def __gt__(self, other):
        return Compare(operator.gt, '>', '<=', self, other)

    def __ge__(self, other):
        return Compare(operator.ge, '>=', '<', self, other)

    __hash__ = object.__hash__

    def __bool__(self):
        raise RuntimeError(
            'a type-check expression cannot be used as a bool; pass it to '
            'type_check.expect (or use type_check.eval)')

    def __neg__(self):
        return UnaryOperator(operator.neg, '-', self)

    def __add__(self, o):
        return BinaryOperator(operator.add, '+', self, o)

    def __radd__(self, o):
        return BinaryOperator(operator.add, '+', o, self)

    __sub__, __rsub__ = _binary(operator.sub, '-')
    __mul__, __rmul__ = _binary(operator.mul, '*')
    __truediv__, __rtruediv__ = _binary(operator.truediv, '/')
    __floordiv__, __rfloordiv__ = _binary(operator.floordiv, '//')
    __mod__, __rmod__ = _binary(operator.mod, '%')
    __pow__, __rpow__ = _binary(operator.pow, '**')


class Variable(Expr):
    """A named value, e.g. ``in_types[0]`` or ``x``."""

    def __init__(self, value, name):
        self.__dict__['value'] = value
        self.__dict__['name'] = name

    def eval(self):
        return self.value

    def _str(self):
        return self.name


class Constant(Expr):
    def __init__(self, value):
        self.__dict__['value'] = value

    def eval(self):
        return self.value

    def _str(self):
        return _repr(self.value)


class GetAttr(Expr):
    def __init__(self, obj, name):
        self.__dict__['obj'] = obj
        self.__dict__['attr'] = name

    def eval(self):
        return getattr(_eval(self.obj), _eval(self.attr))

    def _str(self):
        return '{}.{}'.format(_str(self.obj, 1), self.attr)


class GetItem(Expr):
    def __init__(self, obj, key):
        self.__dict__['obj'] = obj
        self.__dict__['key'] = key

    def eval(self):
        return _eval(self.obj)[_eval(self.key)]

    def _str(self):
        key = self.key
        if isinstance(key, slice):
            key = '{}:{}{}'.format(
                '' if key.start is None else key.start,
                '' if key.stop is None else key.stop,
                '' if key.step is None else ':{}'.format(key.step))
        else:
            key = _str(key)
        return '{}[{}]'.format(_str(self.obj, 1), key)


class Call(Expr):
    def __init__(self, fn, args):
        self.__dict__['fn'] = fn
        self.__dict__['args'] = args

    def eval(self):
        return _eval(self.fn)(*[_eval(a) for a in self.args])

    def _str(self):
        return '{}({})'.format(_str(self.fn, 1),
                               ', '.join(_str(a) for a in self.args))


class UnaryOperator(Expr):
    priority = 1

    def __init__(self, fn, sym, x):
        self.__dict__.update(fn=fn, sym=sym, x=x)

    def eval(self):
        return self.fn(_eval(self.x))

    def _str(self):
        return self.sym + _str(self.x, self.priority)


class BinaryOperator(Expr):
    def __init__(self, fn, sym, lhs, rhs):
        self.__dict__.update(fn=fn, sym=sym, lhs=lhs, rhs=rhs,
                             priority=_PRIORITY[sym])

    def eval(self):
        return self.fn(_eval(self.lhs), _eval(self.rhs))

    def _str(self):
        lhs = _str(self.lhs, self.priority)
        rhs = _str(self.rhs, self.priority)
        # Operators of equal priority associate to the left, except '**':
        # a - (b - c) and (a ** b) ** c need their parentheses.
        if self.sym == '**':
            if isinstance(self.lhs, Expr) and \
                    self.lhs.priority == self.priority:
                lhs = '(' + lhs + ')'
        elif isinstance(self.rhs, Expr) and \
                self.rhs.priority == self.priority:
            rhs = '(' + rhs + ')'
        return '{} {} {}'.format(lhs, self.sym, rhs)


class Testable:
    def expect(self):
        raise NotImplementedError


class Compare(Expr, Testable):
    priority = 10

    def __init__(self, fn, sym, neg_sym, lhs, rhs):
        self.__dict__.update(fn=fn, sym=sym, neg_sym=neg_sym, lhs=lhs,
                             rhs=rhs)

    def eval(self):
        return self.fn(_eval(self.lhs), _eval(self.rhs))

    def _str(self):
        return '{} {} {}'.format(_str(self.lhs, self.priority), self.sym,
                                 _str(self.rhs, self.priority))

    def expect(self):
        left, right = _eval(self.lhs), _eval(self.rhs)
        if not self.fn(left, right):
            raise InvalidType(self._str(), '{} {} {}'.format(
                _repr(left), self.neg_sym, _repr(right)))


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
    """Check each expectation; raise :class:`InvalidType` on the first false."""
    for cond in bool_exprs:
        # Light mode passes plain bools: a true one is the common case and
        # must cost nothing; the mode is only looked at on failure.
        if cond is True:
            continue
        if not isinstance(cond, Testable) and _in_light_mode():
            if not cond:
                raise _LightFailure()
            continue
        _expect_one(cond)


def eval(expr):
    """The value of ``expr`` (plain values pass through)."""
    return _eval(expr)


def make_variable(value, name):
    return value if _in_light_mode() else Variable(value, name)


# -- input types ---------------------------------------------------------

class TypeInfo:
    """Shape and dtype of one input (the actual values, in light mode)."""

    __slots__ = ('shape', 'dtype', 'ndim', 'size')

    def __init__(self, shape, dtype):
        self.shape = shape
        self.dtype = dtype
        self.ndim = len(shape)
        self.size = int(numpy.prod(shape, dtype=numpy.int64))


class TypeInfoTuple(tuple):
    """The tuple of input types with a symbolic ``size()``."""

    def _get_name(self, i):
        names = getattr(self, '_names', None)
        return names[i] if names and i < len(names) else 'in_types[{}]'.format(i)

    light = False

    def size(self):
        if self.light:
            return len(self)
        return Variable(len(self), '{}.size'.format(
            getattr(self, 'name', 'in_types')))


def get_types(data, name, accept_none, light=False):
    """Wrap arrays as type infos (symbolic unless ``light``)."""
    if light:
        # Arrays have shape, dtype, ndim and size themselves.
        info = TypeInfoTuple(data)
        info.light = True
    else:
        items = []
        for i, x in enumerate(data):
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
    if getattr(in_types, 'light', False) or _in_light_mode():
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
    pairs = [(t, eval(t)) for t in shape_types]
    if allow_none:
        pairs = [(t, s) for t, s in pairs if s is not None]
    try:
        numpy.broadcast_shapes(*[s for _, s in pairs])
    except ValueError:
        if _in_light_mode():
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
