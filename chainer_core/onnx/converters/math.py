"""Converters of chainer_core.functions.math (and the Variable
operators)."""
import numpy
from onnx import helper

from chainer_core.onnx.converters._builder import GraphBuilder
from chainer_core.onnx.converters._builder import register


def _one(op_type, **attrs):
    """A converter to the single node ``op_type``."""
    def convert(func, opset_version, input_names, output_names, context):
        return [helper.make_node(op_type, input_names, output_names,
                                 **attrs)]
    return convert


for _name, _op in [
        ('Add', 'Add'), ('Sub', 'Sub'), ('Mul', 'Mul'), ('Div', 'Div'),
        ('PowVarVar', 'Pow'), ('MultiAdd', 'Sum'), ('Neg', 'Neg'),
        ('Absolute', 'Abs'), ('Exp', 'Exp'), ('Log', 'Log'),
        ('Sqrt', 'Sqrt'), ('Sin', 'Sin'), ('Cos', 'Cos'), ('Tan', 'Tan'),
        ('Arcsin', 'Asin'), ('Arccos', 'Acos'), ('Arctan', 'Atan'),
        ('Sinh', 'Sinh'), ('Cosh', 'Cosh'), ('Arctanh', 'Atanh'),
        ('Erf', 'Erf'), ('Maximum', 'Max'), ('Minimum', 'Min'),
        ('BatchDet', 'Det')]:
    register(_name)(_one(_op))
register('Fmod')(_one('Mod', fmod=1))


def _with_constant(op_type, reversed_):
    """``x op value`` (``value op x`` if ``reversed_``), value in x's
    dtype as the op computes it."""
    def convert(func, opset_version, input_names, output_names, context):
        gb = GraphBuilder(context)
        x = input_names[0]
        value = gb.const(func.value, context.dtype(x))
        gb.op(op_type, [value, x] if reversed_ else [x, value],
              output_names)
        return gb.nodes
    return convert


register('AddConstant')(_with_constant('Add', False))
register('SubFromConstant')(_with_constant('Sub', True))
register('MulConstant')(_with_constant('Mul', False))
register('DivFromConstant')(_with_constant('Div', True))
register('PowVarConst')(_with_constant('Pow', False))
register('PowConstVar')(_with_constant('Pow', True))


def _composed(build):
    """A converter from ``build(gb, x, dtype, outputs)``, which adds the
    nodes computing the op of its one input x into ``outputs``."""
    def convert(func, opset_version, input_names, output_names, context):
        gb = GraphBuilder(context)
        x = input_names[0]
        build(gb, x, context.dtype(x), output_names)
        return gb.nodes
    return convert


register('Square')(_composed(
    lambda gb, x, dt, out: gb.op('Mul', [x, x], out)))
register('Rsqrt')(_composed(
    lambda gb, x, dt, out: gb.op('Reciprocal', [gb.op('Sqrt', [x])], out)))
register('Log2')(_composed(lambda gb, x, dt, out: gb.op(
    'Div', [gb.op('Log', [x]), gb.const(numpy.log(2), dt)], out)))
register('Log10')(_composed(lambda gb, x, dt, out: gb.op(
    'Div', [gb.op('Log', [x]), gb.const(numpy.log(10), dt)], out)))
register('Log1p')(_composed(lambda gb, x, dt, out: gb.op(
    'Log', [gb.op('Add', [x, gb.const(1, dt)])], out)))
register('Expm1')(_composed(lambda gb, x, dt, out: gb.op(
    'Sub', [gb.op('Exp', [x]), gb.const(1, dt)], out)))
register('Erfc')(_composed(lambda gb, x, dt, out: gb.op(
    'Sub', [gb.const(1, dt), gb.op('Erf', [x])], out)))
# ndtr(x) = (1 + erf(x / sqrt(2))) / 2
register('Ndtr')(_composed(lambda gb, x, dt, out: gb.op('Mul', [
    gb.op('Add', [gb.const(1, dt), gb.op('Erf', [
        gb.op('Mul', [x, gb.const(numpy.sqrt(0.5), dt)])])]),
    gb.const(0.5, dt)], out)))


@register('Identity')
def convert_identity(func, opset_version, input_names, output_names,
                     context):
    return [helper.make_node('Identity', [x], [y])
            for x, y in zip(input_names, output_names)]


@register('SquaredDifference')
def convert_squared_difference(func, opset_version, input_names,
                               output_names, context):
    gb = GraphBuilder(context)
    d = gb.op('Sub', input_names)
    gb.op('Mul', [d, d], output_names)
    return gb.nodes


@register('LinearInterpolate')
def convert_linear_interpolate(func, opset_version, input_names,
                               output_names, context):
    # p x + (1 - p) y
    gb = GraphBuilder(context)
    p, x, y = input_names
    one_minus_p = gb.op('Sub', [gb.const(1, context.dtype(p)), p])
    gb.op('Add', [gb.op('Mul', [p, x]), gb.op('Mul', [one_minus_p, y])],
          output_names)
    return gb.nodes


@register('Clip')
def convert_clip(func, opset_version, input_names, output_names, context):
    gb = GraphBuilder(context)
    x = input_names[0]
    dtype = context.dtype(x)
    bounds = ['' if v is None else gb.const(v, dtype)
              for v in (func.x_min, func.x_max)]
    gb.op('Clip', [x] + bounds, output_names)
    return gb.nodes


@register('Arctan2')
def convert_arctan2(func, opset_version, input_names, output_names,
                    context):
    # atan(y / x) moved to the quadrant of (x, y); on x = 0, +-pi/2 by the
    # sign of y (0 at the origin).
    gb = GraphBuilder(context)
    y, x = input_names
    dtype = context.dtype(y)
    zero, pi = gb.const(0, dtype), gb.const(numpy.pi, dtype)
    half_pi = gb.const(numpy.pi / 2, dtype)
    safe_x = gb.op('Where', [gb.op('Equal', [x, zero]),
                             gb.const(1, dtype), x])
    base = gb.op('Atan', [gb.op('Div', [y, safe_x])])
    negative_y = gb.op('Less', [y, zero])
    shifted = gb.op('Add', [base, gb.op('Where', [
        negative_y, gb.op('Neg', [pi]), pi])])
    on_axis = gb.op('Where', [
        negative_y, gb.op('Neg', [half_pi]),
        gb.op('Where', [gb.op('Greater', [y, zero]), half_pi, zero])])
    gb.op('Where', [gb.op('Greater', [x, zero]), base, gb.op('Where', [
        gb.op('Less', [x, zero]), shifted, on_axis])], output_names)
    return gb.nodes


def _reduction(op_type):
    """``op_type`` over ``func.axis`` (None: all axes), keeping the axes
    if ``func.keepdims``."""
    def convert(func, opset_version, input_names, output_names, context):
        gb = GraphBuilder(context)
        axis = func.axis
        if isinstance(axis, int):
            axis = (axis,)
        gb.reduce(op_type, input_names[0], axis,
                  getattr(func, 'keepdims', False), output_names)
        return gb.nodes
    return convert


register('Sum')(_reduction('ReduceSum'))
register('Mean')(_reduction('ReduceMean'))
register('Prod')(_reduction('ReduceProd'))
register('Max')(_reduction('ReduceMax'))
register('Min')(_reduction('ReduceMin'))
register('LogSumExp')(_reduction('ReduceLogSumExp'))


@register('SumTo')
def convert_sum_to(func, opset_version, input_names, output_names,
                   context):
    # Leading axes, and axes of size 1 in the target, summed away.
    gb = GraphBuilder(context)
    x = input_names[0]
    in_shape = context.shape(x)
    out_shape = context.shape(output_names[0])
    lead = len(in_shape) - len(out_shape)
    axes = list(range(lead)) + [
        lead + i for i, n in enumerate(out_shape)
        if n == 1 and in_shape[lead + i] != 1]
    if axes:
        x = gb.reduce('ReduceSum', x, axes, keepdims=True)
    gb.reshape(x, out_shape, output_names)
    return gb.nodes


@register('BatchL2NormSquared')
def convert_batch_l2_norm_squared(func, opset_version, input_names,
                                  output_names, context):
    gb = GraphBuilder(context)
    x = input_names[0]
    gb.reduce('ReduceSumSquare', x, range(1, len(context.shape(x))),
              keepdims=False, outputs=output_names)
    return gb.nodes


def _arg_reduction(op_type):
    """The index of the first extreme element along ``func.axis`` (None:
    of the flattened array), in the op's dtype (int32)."""
    def convert(func, opset_version, input_names, output_names, context):
        gb = GraphBuilder(context)
        x = input_names[0]
        axis = func.axis
        if axis is None:
            x = gb.reshape(x, (int(numpy.prod(context.shape(x))),))
            axis = 0
        elif isinstance(axis, tuple):
            axis, = axis
        index = gb.op(op_type, [x], axis=int(axis), keepdims=0)
        gb.cast(index, context.dtype(output_names[0]), output_names)
        return gb.nodes
    return convert


register('ArgMax')(_arg_reduction('ArgMax'))
register('ArgMin')(_arg_reduction('ArgMin'))


@register('MatMul')
def convert_matmul(func, opset_version, input_names, output_names,
                   context):
    gb = GraphBuilder(context)
    dtype = context.dtype(output_names[0])
    operands = []
    for name, trans in zip(input_names, (func.transa, func.transb)):
        if context.dtype(name) != dtype:
            name = gb.cast(name, dtype)
        if trans:
            ndim = len(context.shape(input_names[len(operands)]))
            perm = list(range(ndim - 2)) + [ndim - 1, ndim - 2]
            name = gb.transpose(name, perm)
        operands.append(name)
    gb.op('MatMul', operands, output_names)
    return gb.nodes


@register('Cumsum')
def convert_cumsum(func, opset_version, input_names, output_names,
                   context):
    gb = GraphBuilder(context)
    gb.op('CumSum', [input_names[0], gb.const(func.axis, numpy.int64)],
          output_names, reverse=int(bool(func.reverse)))
    return gb.nodes


def _einsum(gb, context, equation, input_names, output_names):
    dtype = context.dtype(output_names[0])
    operands = [n if context.dtype(n) == dtype else gb.cast(n, dtype)
                for n in input_names]
    gb.op('Einsum', operands, output_names, equation=equation)
    return gb.nodes


@register('EinSum')
def convert_einsum(func, opset_version, input_names, output_names,
                   context):
    equation = '{}->{}'.format(','.join(func.in_subs), func.out_sub)
    return _einsum(GraphBuilder(context), context, equation, input_names,
                   output_names)


@register('TensorDot')
def convert_tensordot(func, opset_version, input_names, output_names,
                      context):
    # One letter per axis, contracted axes of b sharing a's letters; the
    # result's axes are a's free axes then b's, permuted by perm.
    a, b = input_names
    n_a, n_b = len(context.shape(a)), len(context.shape(b))
    letters = iter('abcdefghijklmnopqrstuvwxyz')
    a_subs = [next(letters) for _ in range(n_a)]
    b_subs = [None] * n_b
    for i, j in zip(func.a_axes, func.b_axes):
        b_subs[j % n_b] = a_subs[i % n_a]
    b_subs = [s or next(letters) for s in b_subs]
    contracted = {i % n_a for i in func.a_axes}
    out = [s for i, s in enumerate(a_subs) if i not in contracted] + [
        s for j, s in enumerate(b_subs)
        if j not in {k % n_b for k in func.b_axes}]
    if func.perm is not None:
        out = [out[p] for p in func.perm]
    equation = '{},{}->{}'.format(''.join(a_subs), ''.join(b_subs),
                                  ''.join(out))
    return _einsum(GraphBuilder(context), context, equation, input_names,
                   output_names)
