"""Derivative rules: how an op's input gradients are computed, as data.

The core declares one rule per op that has a graph kernel (``python -m
chainer_core kernels`` lists them). Both graphs execute the same rule: the
core's Python graph calls the core's functions, a backend's graph (DESIGN.md
section 3, Graph) calls its own implementations of the rule kernels, with no
Python per node. A rule is a few statements, one per line or separated by
``;``::

    gyy = mul(gy0, y0)
    gx0 = sub(gyy, mul(y0, sum(gyy, axis=axis, keepdims=True)))

* ``gx<i>`` is the gradient of input ``i``; other targets are temporaries.
  A call may span lines. A statement may assign several targets when its
  kernel returns as many arrays (``gx0, gx1 = k(...)``).
* ``x<i>``, ``y<j>`` and ``gy<j>`` are input ``i``, output ``j`` and the
  gradient of output ``j`` (zeros where none reached it). Using ``x<i>`` or
  ``y<j>`` retains that array for backward; ``x<i>.shape`` and
  ``x<i>.dtype`` retain nothing.
* A call ``kernel(arrays..., name=value...)`` takes arrays positionally and
  the kernel's parameters by keyword, all of them. A parameter value is a
  parameter of the op's graph kernel, ``x<i>.shape``, ``x<i>.dtype``, a
  number, ``True``, ``False`` or ``None``.
* A graph computes only the statements that the requested gradients need.
  Under double backprop every kernel a rule calls is differentiable, and the
  retained arrays are connected to the graph.

A rule may instead be the single word ``fused``: then each graph computes
the op's gradients its own way (the core with the op's ``backward``, a
backend with its kernel ``<op>_grad``). Only ops whose backward needs state
of their forward that no rule kernel can name are fused.

:func:`parse` turns rule text into a :class:`Rule`; :meth:`Rule.program`
into the flat form a backend executes.
"""
import re

FUSED = 'fused'

# Argument kinds of a compiled instruction (see Rule.program).
X, Y, GY, X_SHAPE, X_DTYPE, PARAM, SLOT, CONST = range(8)

_TOKEN = re.compile(r'\s*(?:(?P<num>-?\d+\.\d*(?:e-?\d+)?|-?\d+)|'
                    r'(?P<name>[A-Za-z_]\w*(?:\.(?:shape|dtype))?)|'
                    r'(?P<op>[(),=]))')
_INDEXED = re.compile(r'(x|y|gy|gx)(\d+)$')
_LITERALS = {'True': True, 'False': False, 'None': None}


class RuleError(ValueError):
    """A rule that does not parse or names what its op does not have."""


class Call:
    """``kernel(args..., **params)`` in a rule; args are Refs or Calls,
    params map names to Refs."""

    __slots__ = ('kernel', 'args', 'params')

    def __init__(self, kernel, args, params):
        self.kernel = kernel
        self.args = tuple(args)
        self.params = dict(params)

    def __repr__(self):
        return '{}({})'.format(self.kernel, ', '.join(
            [repr(a) for a in self.args] +
            ['{}={!r}'.format(k, v) for k, v in self.params.items()]))


class Ref:
    """A value in a rule: ``kind`` one of X, Y, GY, X_SHAPE, X_DTYPE (with
    ``value`` an index), PARAM (a parameter name), SLOT (a temporary's name)
    or CONST (a literal)."""

    __slots__ = ('kind', 'value')

    def __init__(self, kind, value):
        self.kind = kind
        self.value = value

    def __eq__(self, other):
        return (isinstance(other, Ref) and self.kind == other.kind and
                self.value == other.value)

    def __hash__(self):
        return hash((self.kind, self.value))

    def __repr__(self):
        prefix = {X: 'x', Y: 'y', GY: 'gy'}.get(self.kind)
        if prefix is not None:
            return '{}{}'.format(prefix, self.value)
        if self.kind == X_SHAPE:
            return 'x{}.shape'.format(self.value)
        if self.kind == X_DTYPE:
            return 'x{}.dtype'.format(self.value)
        return str(self.value)


class Rule:
    """A parsed derivative rule.

    ``statements``: tuple of ``(targets, Call or Ref)``; ``retain_inputs``
    and ``retain_outputs``: the indexes of the inputs and outputs it reads;
    ``kernels``: the names of the kernels it calls; ``fused``: whether the
    rule is ``fused``; ``text``: as declared; ``params``: the op's
    graph-kernel parameters it was parsed for.
    """

    def __init__(self, text, statements, params=(), fused=False):
        self.text = text
        self.params = tuple(params)
        self.statements = tuple(statements)
        self.fused = fused
        xs, ys, names = set(), set(), []

        def visit(e):
            if isinstance(e, Call):
                if e.kernel not in names:
                    names.append(e.kernel)
                for a in e.args:
                    visit(a)
            elif e.kind == X:
                xs.add(e.value)
            elif e.kind == Y:
                ys.add(e.value)

        for _, e in self.statements:
            visit(e)
        self.retain_inputs = tuple(sorted(xs))
        self.retain_outputs = tuple(sorted(ys))
        self.kernels = tuple(names)

    def __repr__(self):
        return 'Rule({!r})'.format(self.text)

    def program(self, params=None):
        """The rule flattened for a backend: one call per instruction.

        ``params`` is the op's graph-kernel parameter names, in order (by
        default those the rule was parsed for).
        Returns ``(n_slots, instructions, grads)``: each instruction is
        ``(kernel, args, param_names, param_values, outs)`` with ``args``
        and ``param_values`` tuples of ``(kind, value)`` (PARAM's value an
        index into ``params``, SLOT's a slot number, CONST's the literal),
        ``outs`` the slot numbers it writes; ``grads[i]`` is the slot of
        ``gx<i>``, or -1 where the rule gives input ``i`` no gradient.
        Instructions come in execution order; a backend runs those whose
        outputs the requested gradients need.
        """
        params = self.params if params is None else tuple(params)
        slots = {}
        instructions = []

        def slot(name=None):
            n = len(slots)
            slots[name if name is not None else ('#', n)] = n
            return n

        def operand(e):
            if isinstance(e, Call):
                out = slot()
                emit(e, (out,))
                return SLOT, out
            if e.kind == SLOT:
                return SLOT, slots[e.value]
            if e.kind == PARAM:
                return PARAM, params.index(e.value)
            return e.kind, e.value

        def emit(call, outs):
            args = tuple(operand(a) for a in call.args)
            names = tuple(call.params)
            values = tuple(operand(call.params[k]) for k in names)
            instructions.append((call.kernel, args, names, values, outs))

        for targets, e in self.statements:
            if isinstance(e, Call):
                outs = tuple(slot(t) for t in targets)
                emit(e, outs)
            else:
                kind, value = operand(e)
                # A plain copy: an identity instruction keeps the form flat.
                outs = (slot(targets[0]),)
                instructions.append(('identity', ((kind, value),), (), (),
                                     outs))
        n_in = 1 + max([int(t[2:]) for targets, _ in self.statements
                        for t in targets if _INDEXED.match(t)] or [-1])
        grads = tuple(slots.get('gx{}'.format(i), -1) for i in range(n_in))
        return len(slots), tuple(instructions), grads


def parse(text, params=(), kernels=None):
    """Parse rule ``text`` for an op whose graph kernel has the parameters
    ``params``. With ``kernels`` (``{name: (n_arrays, param_names,
    n_outputs)}``) every call is checked against the kernel's signature.
    Raises :class:`RuleError` naming the statement at fault."""
    text = text.strip()
    params = tuple(params)
    if text == FUSED:
        return Rule(text, (), params, fused=True)
    statements = []
    defined = set()
    for line in _split_statements(text):
        line = ' '.join(line.split())
        if not line:
            continue
        try:
            statements.append(_statement(line, params, defined, kernels))
        except IndexError:
            raise RuleError('derivative rule statement {!r}: unbalanced '
                            'parentheses'.format(line)) from None
        except RuleError as e:
            raise RuleError('derivative rule statement {!r}: {}'
                            .format(line, e)) from None
    if not statements:
        raise RuleError('derivative rule {!r} has no statement'.format(text))
    return Rule(text, statements, params)


def _split_statements(text):
    """The statements of ``text``: separated by ``;`` or a line break
    outside parentheses (a call may span lines)."""
    depth, start = 0, 0
    for i, c in enumerate(text):
        if c == '(':
            depth += 1
        elif c == ')':
            depth -= 1
        elif c in ';\n' and depth <= 0:
            yield text[start:i]
            start = i + 1
    yield text[start:]


def _tokens(line):
    pos = 0
    out = []
    while pos < len(line):
        m = _TOKEN.match(line, pos)
        if m is None or m.end() == pos:
            if not line[pos:].strip():
                break
            raise RuleError('cannot read {!r}'.format(line[pos:]))
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
        pos = m.end()
    return out


def _statement(line, params, defined, kernels):
    toks = _tokens(line)
    if ('op', '=') not in toks:
        raise RuleError('expected "targets = expression"')
    eq = toks.index(('op', '='))
    targets = [v for k, v in toks[:eq] if k == 'name']
    if not targets or len(targets) * 2 - 1 != eq:
        raise RuleError('the targets must be names separated by commas')
    for t in targets:
        m = _INDEXED.match(t)
        if (m and m.group(1) != 'gx') or t in params or t in _LITERALS \
                or '.' in t or t in defined:
            raise RuleError('{!r} cannot be assigned'.format(t))
    expr, pos = _expr(toks, eq + 1, params, defined)
    if pos != len(toks):
        raise RuleError('unexpected {!r}'.format(toks[pos][1]))
    n_out = 1
    if isinstance(expr, Call) and kernels is not None:
        n_out = _check_call(expr, kernels)
    elif len(targets) > 1 and not isinstance(expr, Call):
        raise RuleError('one value cannot fill {} targets'
                        .format(len(targets)))
    if kernels is not None and len(targets) != n_out:
        raise RuleError('{} returns {} arrays, assigned to {} targets'
                        .format(expr.kernel, n_out, len(targets)))
    defined.update(targets)
    return tuple(targets), expr


def _check_call(call, kernels):
    if call.kernel not in kernels:
        raise RuleError('unknown kernel {!r}'.format(call.kernel))
    n_arrays, names, n_out = kernels[call.kernel]
    if len(call.args) != n_arrays:
        raise RuleError('{} takes {} arrays, got {}'.format(
            call.kernel, n_arrays, len(call.args)))
    if set(call.params) != set(names):
        raise RuleError('{} takes the parameters ({}), got ({})'.format(
            call.kernel, ', '.join(names), ', '.join(call.params)))
    for a in call.args:
        if isinstance(a, Call):
            if _check_call(a, kernels) != 1:
                raise RuleError('{} returns several arrays; assign them '
                                'first'.format(a.kernel))
        elif a.kind not in (X, Y, GY, SLOT):
            raise RuleError('{} takes arrays positionally, got {!r}'
                            .format(call.kernel, a))
    return n_out


def _atom(token, params, defined):
    kind, v = token
    if kind == 'num':
        return Ref(CONST, float(v) if '.' in v or 'e' in v else int(v))
    if kind != 'name':
        raise RuleError('unexpected {!r}'.format(v))
    if v in _LITERALS:
        return Ref(CONST, _LITERALS[v])
    base, _, attr = v.partition('.')
    m = _INDEXED.match(base)
    if attr:
        if not m or m.group(1) != 'x':
            raise RuleError('only inputs have .{}: {!r}'.format(attr, v))
        return Ref(X_SHAPE if attr == 'shape' else X_DTYPE, int(m.group(2)))
    if m and m.group(1) != 'gx':
        return Ref({'x': X, 'y': Y, 'gy': GY}[m.group(1)], int(m.group(2)))
    if v in params:
        return Ref(PARAM, v)
    if v in defined:
        return Ref(SLOT, v)
    raise RuleError('{!r} is neither an input, an output, a parameter nor '
                    'an earlier target'.format(v))


def _expr(toks, pos, params, defined):
    if pos >= len(toks):
        raise RuleError('missing expression')
    if pos + 1 < len(toks) and toks[pos][0] == 'name' and \
            toks[pos + 1] == ('op', '('):
        kernel = toks[pos][1]
        pos += 2
        args, kw = [], {}
        while toks[pos] != ('op', ')'):
            if toks[pos][0] == 'name' and pos + 1 < len(toks) and \
                    toks[pos + 1] == ('op', '='):
                name = toks[pos][1]
                value, pos = _expr(toks, pos + 2, params, defined)
                if isinstance(value, Call):
                    raise RuleError('parameter {} of {} must be a value, '
                                    'not a call'.format(name, kernel))
                if name in kw:
                    raise RuleError('{} given twice to {}'.format(
                        name, kernel))
                kw[name] = value
            else:
                if kw:
                    raise RuleError('{}: arrays come before parameters'
                                    .format(kernel))
                value, pos = _expr(toks, pos, params, defined)
                args.append(value)
            if toks[pos] == ('op', ','):
                pos += 1
            elif toks[pos] != ('op', ')'):
                raise RuleError('expected "," or ")" in {}(...)'
                                .format(kernel))
        return Call(kernel, args, kw), pos + 1
    return _atom(toks[pos], params, defined), pos + 1
