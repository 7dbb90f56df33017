"""Converters of chainer_core.functions.loss."""
import numpy

from chainer_core.onnx.converters._builder import GraphBuilder
from chainer_core.onnx.converters._builder import register


def _computing(gb, context, names):
    """``(names, dtype)``: the inputs cast to the float dtype the losses
    compute in (float32 at least)."""
    dtype = numpy.promote_types(context.dtype(names[0]), numpy.float32)
    return [n if context.dtype(n) == dtype else gb.cast(n, dtype)
            for n in names], dtype


def _finish(gb, context, y, output_names):
    """``y`` cast to the output's dtype as the output."""
    dtype = context.dtype(output_names[0])
    gb.cast(y, dtype, output_names)
    return gb.nodes


@register('SoftmaxCrossEntropy')
def convert_softmax_cross_entropy(func, opset_version, input_names,
                                  output_names, context):
    # Written out rather than ONNX's SoftmaxCrossEntropyLoss, whose mean
    # with class weights divides by the weights' sum where this op divides
    # by the count of labels not ignored.
    gb = GraphBuilder(context)
    x, t = input_names
    soft = context.dtype(t).kind == 'f'
    (x,), dtype = _computing(gb, context, [x])
    log_y = gb.op('LogSoftmax', [x], axis=1)
    weight = None
    if func.class_weight is not None:
        weight = gb.const(numpy.asarray(func.class_weight), dtype)
    if soft:
        loss = _soft_target_loss(gb, context, func, log_y, t, weight,
                                 dtype)
    else:
        loss = _label_loss(gb, context, func, log_y, t, weight, dtype)
    return _finish(gb, context, loss, output_names)


def _label_loss(gb, context, func, log_y, t, weight, dtype):
    # -log_y[n, t[n]] (times the class weight), 0 where t is ignored.
    kept = gb.op('Not', [gb.op('Equal', [
        t, gb.const(func.ignore_label, context.dtype(t))])])
    labels = gb.cast(gb.op('Where', [kept, t, gb.const(0, context.dtype(t))]),
                     numpy.int64)
    log_p = gb.squeeze(gb.op('GatherElements', [
        log_y, gb.unsqueeze(labels, [1])], axis=1), [1])
    if weight is not None:
        log_p = gb.op('Mul', [log_p, gb.op('Gather', [weight, labels],
                                           axis=0)])
    zero = gb.const(0, dtype)
    log_p = gb.op('Where', [kept, log_p, zero])
    if func.reduce != 'mean':
        return gb.op('Neg', [log_p])
    if func.normalize:
        count = gb.op('Max', [gb.reduce('ReduceSum', gb.cast(kept, dtype),
                                        keepdims=False),
                              gb.const(1, dtype)])
    else:
        count = gb.const(max(context.shape(t)[0], 1), dtype)
    total = gb.reduce('ReduceSum', log_p, keepdims=False)
    return gb.op('Neg', [gb.op('Div', [total, count])])


def _soft_target_loss(gb, context, func, log_y, t, weight, dtype):
    # -sum_c w_c t_c log_y_c (+ sum_c t_c log(t_c + 1e-7) for the KL
    # divergence) per position, averaged over positions for 'mean'.
    if context.dtype(t) != dtype:
        t = gb.cast(t, dtype)
    wt = t
    if weight is not None:
        shape = (1, -1) + (1,) * (len(context.shape(t)) - 2)
        wt = gb.op('Mul', [t, gb.reshape(weight, shape)])
    loss = gb.op('Neg', [gb.reduce('ReduceSum', gb.op('Mul', [wt, log_y]),
                                   [1], keepdims=False)])
    if func.soft_target_loss == 'kl-divergence':
        log_t = gb.op('Log', [gb.op('Add', [t, gb.const(1e-7, dtype)])])
        loss = gb.op('Add', [loss, gb.reduce(
            'ReduceSum', gb.op('Mul', [t, log_t]), [1], keepdims=False)])
    if func.reduce == 'mean':
        loss = gb.reduce('ReduceMean', loss, keepdims=False)
    return loss


@register('SigmoidCrossEntropy')
def convert_sigmoid_cross_entropy(func, opset_version, input_names,
                                  output_names, context):
    # max(x, 0) + log(1 + exp(-|x|)) - t x, 0 where t is ignored; the sum
    # over the count for 'mean'.
    gb = GraphBuilder(context)
    x, t = input_names
    (x,), dtype = _computing(gb, context, [x])
    zero = gb.const(0, dtype)
    loss = gb.op('Sub', [
        gb.op('Add', [gb.op('Max', [x, zero]), gb.op('Softplus', [
            gb.op('Neg', [gb.op('Abs', [x])])])]),
        gb.op('Mul', [x, gb.cast(t, dtype)])])
    kept = gb.op('Not', [gb.op('Equal', [
        t, gb.const(func.ignore_label, context.dtype(t))])])
    loss = gb.op('Where', [kept, loss, zero])
    if func.reduce == 'mean':
        if func.normalize:
            count = gb.op('Max', [gb.reduce(
                'ReduceSum', gb.cast(kept, dtype), keepdims=False),
                gb.const(1, dtype)])
        else:
            count = gb.const(max(context.shape(t)[0], 1), dtype)
        loss = gb.op('Div', [gb.reduce('ReduceSum', loss, keepdims=False),
                             count])
    return _finish(gb, context, loss, output_names)


def _difference(reduce_mean, absolute):
    """(x0 - x1)^2 or |x0 - x1|, elementwise or their mean."""
    def convert(func, opset_version, input_names, output_names, context):
        gb = GraphBuilder(context)
        d = gb.op('Sub', input_names)
        out = None if reduce_mean else output_names
        y = gb.op('Abs', [d], out) if absolute else gb.op('Mul', [d, d], out)
        if reduce_mean:
            gb.reduce('ReduceMean', y, keepdims=False, outputs=output_names)
        return gb.nodes
    return convert


register('MeanSquaredError')(_difference(True, False))
register('MeanAbsoluteError')(_difference(True, True))
register('SquaredError')(_difference(False, False))
register('AbsoluteError')(_difference(False, True))


@register('HuberLoss')
def convert_huber_loss(func, opset_version, input_names, output_names,
                       context):
    # With a = |x - t|: (a^2 - max(a - delta, 0)^2) / 2, summed over axis
    # 1 for 'sum_along_second_axis'.
    gb = GraphBuilder(context)
    (x, t), dtype = _computing(gb, context, input_names)
    a = gb.op('Abs', [gb.op('Sub', [x, t])])
    over = gb.op('Max', [gb.op('Sub', [a, gb.const(func.delta, dtype)]),
                         gb.const(0, dtype)])
    y = gb.op('Mul', [gb.op('Sub', [gb.op('Mul', [a, a]),
                                    gb.op('Mul', [over, over])]),
                      gb.const(0.5, dtype)])
    if func.reduce == 'sum_along_second_axis':
        y = gb.reduce('ReduceSum', y, [1], keepdims=False)
    return _finish(gb, context, y, output_names)
