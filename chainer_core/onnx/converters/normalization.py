"""Converters of chainer_core.functions.normalization."""
from chainer_core.onnx.converters._builder import GraphBuilder
from chainer_core.onnx.converters._builder import register


def _reduced_axes(func, x_ndim, gamma_ndim):
    # The op's own rule: the axes given, or the first and those after
    # gamma's channel axes.
    if func.axis is None:
        return (0,) + tuple(range(gamma_ndim + 1, x_ndim))
    return tuple(a % x_ndim for a in func.axis)


def _standardize(gb, x, mean, var, eps, dtype):
    """(x - mean) / sqrt(var + eps) (names, broadcastable)."""
    std = gb.op('Sqrt', [gb.op('Add', [var, gb.const(eps, dtype)])])
    return gb.op('Div', [gb.op('Sub', [x, mean]), std])


def _normalize(gb, context, x, mean, var, gamma, beta, eps,
               outputs=None):
    """gamma (x - mean) / sqrt(var + eps) + beta."""
    xhat = _standardize(gb, x, mean, var, eps, context.dtype(x))
    return gb.op('Add', [gb.op('Mul', [xhat, gamma]), beta], outputs)


def _statistics(gb, x, axes):
    """The mean and the biased variance of ``x`` over ``axes`` (kept)."""
    mean = gb.reduce('ReduceMean', x, axes)
    centred = gb.op('Sub', [x, mean])
    var = gb.reduce('ReduceMean', gb.op('Mul', [centred, centred]), axes)
    return mean, var


def _as_stat_shape(gb, context, names, x, axes):
    """Channel parameters reshaped to x's shape with 1 on ``axes``, in
    x's dtype."""
    shape = tuple(1 if i in axes else n
                  for i, n in enumerate(context.shape(x)))
    dtype = context.dtype(x)
    out = []
    for name in names:
        if context.dtype(name) != dtype:
            name = gb.cast(name, dtype)
        out.append(gb.reshape(name, shape))
    return out


@register('FixedBatchNormalization')
def convert_fixed_batch_normalization(func, opset_version, input_names,
                                      output_names, context):
    gb = GraphBuilder(context)
    x = input_names[0]
    x_ndim = len(context.shape(x))
    gamma_shape = context.shape(input_names[1])
    axes = _reduced_axes(func, x_ndim, len(gamma_shape))
    dtype = context.dtype(x)
    if axes == (0,) + tuple(range(2, x_ndim)) and all(
            context.dtype(n) == dtype for n in input_names[1:]):
        # One statistic per channel of axis 1: ONNX's own operator.
        gb.op('BatchNormalization', input_names, output_names,
              epsilon=float(func.eps))
        return gb.nodes
    gamma, beta, mean, var = _as_stat_shape(gb, context, input_names[1:],
                                            x, axes)
    _normalize(gb, context, x, mean, var, gamma, beta, func.eps,
               output_names)
    return gb.nodes


@register('BatchNormalization')
def convert_batch_normalization(func, opset_version, input_names,
                                output_names, context):
    # Exported in training mode: normalized with the batch's statistics.
    gb = GraphBuilder(context)
    x, gamma, beta = input_names
    axes = _reduced_axes(func, len(context.shape(x)),
                         len(context.shape(gamma)))
    gamma, beta = _as_stat_shape(gb, context, [gamma, beta], x, axes)
    mean, var = _statistics(gb, x, axes)
    _normalize(gb, context, x, mean, var, gamma, beta, func.eps,
               output_names)
    return gb.nodes


@register('GroupNormalization')
def convert_group_normalization(func, opset_version, input_names,
                                output_names, context):
    # Statistics per sample and group of channels, then per-channel gamma
    # and beta.
    gb = GraphBuilder(context)
    x, gamma, beta = input_names
    shape = context.shape(x)
    grouped = gb.reshape(x, (shape[0], func.groups, -1))
    mean, var = _statistics(gb, grouped, [2])
    xhat = gb.reshape(_standardize(gb, grouped, mean, var, func.eps,
                                   context.dtype(x)), shape)
    gamma, beta = _as_stat_shape(gb, context, [gamma, beta], x,
                                 [0] + list(range(2, len(shape))))
    gb.op('Add', [gb.op('Mul', [xhat, gamma]), beta], output_names)
    return gb.nodes


@register('LayerNormalization')
def convert_layer_normalization(func, opset_version, input_names,
                                output_names, context):
    # Each row of the 2-D x over its units.
    gb = GraphBuilder(context)
    if opset_version >= 17:
        gb.op('LayerNormalization', input_names, output_names, axis=-1,
              epsilon=float(func.eps))
        return gb.nodes
    x, gamma, beta = input_names
    mean, var = _statistics(gb, x, [1])
    _normalize(gb, context, x, mean, var, gamma, beta, func.eps,
               output_names)
    return gb.nodes


@register('LocalResponseNormalization')
def convert_local_response_normalization(func, opset_version, input_names,
                                         output_names, context):
    # x / (k + alpha sum over |j - c| <= n // 2 of x_j^2)^beta; ONNX's LRN
    # divides alpha by the window's size.
    size = 2 * (func.n // 2) + 1
    gb = GraphBuilder(context)
    gb.op('LRN', input_names, output_names, size=size,
          alpha=float(func.alpha * size), beta=float(func.beta),
          bias=float(func.k))
    return gb.nodes


@register('NormalizeL2')
def convert_normalize_l2(func, opset_version, input_names, output_names,
                         context):
    # x / (sqrt(sum x^2 over axis) + eps)
    gb = GraphBuilder(context)
    x = input_names[0]
    norm = gb.reduce('ReduceL2', x, func.axis)
    norm = gb.op('Add', [norm, gb.const(func.eps, context.dtype(x))])
    gb.op('Div', [x, norm], output_names)
    return gb.nodes
