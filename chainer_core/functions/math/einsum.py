"""einsum: Einstein summation over labelled axes."""
import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.utils import type_check

_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'


@kernels.declare('einsum')
def _einsum(xp, subscripts, *operands):
    """xp.einsum(subscripts, *operands); subscripts are explicit ('ij,jk->ik'),
    without '...'. The result has the dtype the operands promote to."""
    if len(operands) >= 3:
        y = xp.einsum(subscripts, *operands, optimize=True)
    else:
        y = xp.einsum(subscripts, *operands)
    return xp.asarray(y)


class EinSum(function_node.FunctionNode):
    """Einstein summation with explicit subscripts (one letter per axis).

    ``dtype`` fixes the output dtype (the operands' promoted dtype when
    None); gradients come back in the dtype of each operand.
    """

    def __init__(self, in_subs, out_sub, dtype=None):
        self.in_subs = tuple(in_subs)
        self.out_sub = out_sub
        self.dtype = dtype

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == len(self.in_subs))
        type_check.argname(in_types, tuple(
            'x{}'.format(i) for i in range(len(self.in_subs))))
        for t in in_types:
            type_check.expect(t.dtype.kind == 'f')
        first = {}
        for t, sub in zip(in_types, self.in_subs):
            type_check.expect(t.ndim == len(sub))
            for axis, c in enumerate(sub):
                if c in first:
                    type_check.expect(t.shape[axis] == first[c])
                else:
                    first[c] = t.shape[axis]

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        subscripts = '{}->{}'.format(','.join(self.in_subs), self.out_sub)
        y = kernels.lookup('einsum', inputs[0])(subscripts, *inputs)
        if self.dtype is not None and y.dtype != self.dtype:
            y = y.astype(self.dtype)
        return y,

    def backward(self, indexes, grad_outputs):
        xs = self.get_retained_inputs()
        gy, = grad_outputs
        return tuple(self._grad(i, xs, gy) for i in indexes)

    def _grad(self, i, xs, gy):
        """The gradient of operand i: an einsum of gy and the other
        operands onto the subscripts of operand i.

        Where a label repeats in operand i (a diagonal), the repeats get
        fresh labels tied to the first by identity matrices; where a label
        of operand i appears nowhere else (a sum over it), a vector of ones
        supplies it. Both are constants, so the gradient is again an einsum
        and differentiates the same way.
        """
        x = xs[i]
        sub = self.in_subs[i]
        xp = x.xp
        used = set(self.out_sub).union(*self.in_subs)
        fresh = (c for c in _LETTERS if c not in used)
        elsewhere = set(self.out_sub).union(
            *[s for j, s in enumerate(self.in_subs) if j != i])
        subs = [self.out_sub] + [s for j, s in enumerate(self.in_subs)
                                 if j != i]
        operands = [gy] + [xj for j, xj in enumerate(xs) if j != i]
        out = []
        seen = set()
        for axis, c in enumerate(sub):
            n = x.shape[axis]
            if c in seen:
                twin = next(fresh)
                subs.append(c + twin)
                operands.append(xp.eye(n, dtype=x.dtype))
                out.append(twin)
                continue
            seen.add(c)
            out.append(c)
            if c not in elsewhere and sub.count(c) == 1:
                subs.append(c)
                operands.append(xp.ones(n, dtype=x.dtype))
        return EinSum(subs, ''.join(out), x.dtype).apply(operands)[0]


def _parse_string(subscripts):
    subscripts = subscripts.replace(' ', '')
    for c in subscripts:
        if c not in _LETTERS and c not in '.,->':
            raise ValueError('einsum: subscripts may only hold letters, ",", '
                             '"->" and "...", got {!r}'.format(c))
    if '-' in subscripts or '>' in subscripts:
        if subscripts.count('->') != 1 or subscripts.count('-') != 1 or \
                subscripts.count('>') != 1:
            raise ValueError('einsum: subscripts may contain "->" at most '
                             'once, got {!r}'.format(subscripts))
        inputs, output = subscripts.split('->')
    else:
        inputs, output = subscripts, None
    inputs = inputs.replace('...', '@')
    if output is not None:
        output = output.replace('...', '@')
    if '.' in inputs or (output is not None and '.' in output):
        raise ValueError('einsum: an ellipsis is written "...", got {!r}'
                         .format(subscripts))
    return inputs.split(','), output


def _sublist(sub):
    out = ''
    for s in sub:
        if s is Ellipsis:
            out += '@'
        elif isinstance(s, (int, numpy.integer)) and \
                not isinstance(s, bool) and 0 <= s < len(_LETTERS):
            out += _LETTERS[s]
        else:
            raise TypeError('einsum: sublists hold ints in [0, {}) or '
                            'Ellipsis, got {!r}'.format(len(_LETTERS), s))
    return out


def _parse(operands):
    if not operands:
        raise ValueError('einsum: no operands')
    if isinstance(operands[0], str):
        in_subs, out_sub = _parse_string(operands[0])
        arrays = list(operands[1:])
    else:
        rest = list(operands)
        arrays, in_subs = [], []
        while len(rest) >= 2:
            arrays.append(rest.pop(0))
            in_subs.append(_sublist(rest.pop(0)))
        out_sub = _sublist(rest[0]) if rest else None
    if len(in_subs) != len(arrays):
        raise ValueError('einsum: {} subscripts for {} operands'.format(
            len(in_subs), len(arrays)))
    for k, x in enumerate(arrays):
        if not hasattr(x, 'ndim'):
            raise TypeError('einsum: operand x{} must be a Variable or an '
                            'array, got {}'.format(k, type(x).__name__))
    joined = ''.join(in_subs)
    if out_sub is None:
        # Implicit output: the labels used once, sorted, after the
        # ellipsis.
        out_sub = ''.join(c for c in sorted(set(joined))
                          if c == '@' or joined.count(c) == 1)
    for c in out_sub:
        if c not in joined:
            raise ValueError('einsum: output label {!r} does not appear in '
                             'the inputs'.format('...' if c == '@' else c))
        if out_sub.count(c) > 1:
            raise ValueError('einsum: output label {!r} appears more than '
                             'once'.format('...' if c == '@' else c))
    return in_subs, out_sub, arrays


def _expand_ellipsis(in_subs, out_sub, arrays):
    """Replace '...' by fresh letters, one per axis it covers; the covered
    axes must have the same shape in every operand that has them."""
    used = set(''.join(in_subs) + out_sub)
    fresh = [c for c in _LETTERS if c not in used]
    ellipsis_shape = None
    for k, (sub, x) in enumerate(zip(in_subs, arrays)):
        labels = len(sub) - sub.count('@')
        if sub.count('@') > 1:
            raise ValueError('einsum: subscripts of x{} have more than one '
                             'ellipsis'.format(k))
        if '@' not in sub:
            if x.ndim != labels:
                raise ValueError(
                    'einsum: x{} has {} axes but its subscripts {!r} name {}'
                    .format(k, x.ndim, sub, labels))
            continue
        if x.ndim < labels:
            raise ValueError(
                'einsum: x{} has {} axes, fewer than the {} its subscripts '
                'name'.format(k, x.ndim, labels))
        start = sub.index('@')
        shape = x.shape[start:x.ndim - (labels - start)]
        if ellipsis_shape is None:
            ellipsis_shape = shape
        elif shape != ellipsis_shape:
            raise ValueError(
                'einsum: the axes covered by "..." must have the same shape '
                'in every operand, got {} and {} (x{})'.format(
                    ellipsis_shape, shape, k))
    if ellipsis_shape is None:
        return in_subs, out_sub
    if len(ellipsis_shape) > len(fresh):
        raise ValueError('einsum: too many axes to label')
    if '@' not in out_sub and ellipsis_shape:
        raise ValueError('einsum: summing over the axes of "..." is not '
                         'supported; keep "..." in the output')
    labels = ''.join(fresh[:len(ellipsis_shape)])
    return ([s.replace('@', labels) for s in in_subs],
            out_sub.replace('@', labels))


def einsum(*operands):
    """Einstein summation, as :func:`numpy.einsum`.

    Two forms are accepted:

    * ``einsum(subscripts, x0, x1, ...)`` with subscripts such as
      ``'ij,jk->ik'``; without ``'->'`` the output holds the labels used
      exactly once, in alphabetical order.
    * ``einsum(x0, sublist0, x1, sublist1, ..., [sublist_out])`` with lists
      of ints (labels) and ``Ellipsis``.

    ``...`` stands for the same leading (or inner) axes in every operand
    that has it; those axes must have the same shape everywhere (they are
    not broadcast) and must be kept in the output. Repeated labels in an
    operand take its diagonal. Gradients flow to every operand, and can be
    differentiated again.

    Args:
        operands: the subscripts and the operands (Variables or arrays of
            float dtypes).

    Returns:
        Variable: the result, of the dtype the operands promote to.

    .. admonition:: Example

        >>> a = numpy.ones((2, 3), numpy.float32)
        >>> b = numpy.ones((3, 4), numpy.float32)
        >>> F.einsum('ij,jk->ik', a, b).shape
        (2, 4)
    """
    in_subs, out_sub, arrays = _parse(operands)
    in_subs, out_sub = _expand_ellipsis(in_subs, out_sub, arrays)
    return EinSum(in_subs, out_sub).apply(arrays)[0]
