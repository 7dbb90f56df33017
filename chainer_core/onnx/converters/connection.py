"""Converters of chainer_core.functions.connection."""
import numpy

from chainer_core.onnx.converters._builder import GraphBuilder
from chainer_core.onnx.converters._builder import register


def _as_dtype_of(gb, context, names, x):
    """``names`` (weights, bias) cast to the dtype of ``x`` where theirs
    differs: the ops compute in the widest float dtype and give x's,
    while ONNX wants one dtype."""
    dtype = context.dtype(x)
    return [n if context.dtype(n) == dtype else gb.cast(n, dtype)
            for n in names]


@register('Convolution2DFunction', 'ConvolutionND',
          'DilatedConvolution2DFunction')
def convert_convolution(func, opset_version, input_names, output_names,
                        context):
    gb = GraphBuilder(context)
    x = input_names[0]
    params = _as_dtype_of(gb, context, input_names[1:], x)
    ksize = context.shape(input_names[1])[2:]
    # cover_all adds stride - 1 to the end padding, as the op's im2col
    # does, so that the last window covers the input's end.
    extra = [s - 1 if func.cover_all else 0 for s in func.stride]
    gb.op('Conv', [x] + params, output_names,
          kernel_shape=list(ksize), strides=list(func.stride),
          pads=list(func.pad) + [p + e for p, e in zip(func.pad, extra)],
          dilations=list(func.dilate), group=int(func.groups))
    return gb.nodes


def transposed_pads(in_dims, out_dims, ksize, stride, pad, dilate):
    """``(pads, output_padding)`` of a ConvTranspose giving ``out_dims``:
    without either its size is s (in - 1) + dilated k - 2 p; a larger
    output is output padding, a smaller one more padding at the end."""
    pads_end, output_padding = [], []
    for d, o, k, s, p, dl in zip(in_dims, out_dims, ksize, stride, pad,
                                 dilate):
        extra = o - (s * (d - 1) + (k - 1) * dl + 1 - 2 * p)
        pads_end.append(p - min(extra, 0))
        output_padding.append(max(extra, 0))
    return list(pad) + pads_end, output_padding


@register('Deconvolution2DFunction', 'DeconvolutionND')
def convert_deconvolution(func, opset_version, input_names, output_names,
                          context):
    gb = GraphBuilder(context)
    x = input_names[0]
    params = _as_dtype_of(gb, context, input_names[1:], x)
    ksize = context.shape(input_names[1])[2:]
    pads, output_padding = transposed_pads(
        context.shape(x)[2:], context.shape(output_names[0])[2:], ksize,
        func.stride, func.pad, func.dilate)
    gb.op('ConvTranspose', [x] + params, output_names,
          kernel_shape=list(ksize), strides=list(func.stride), pads=pads,
          dilations=list(func.dilate), group=int(func.groups),
          output_padding=output_padding)
    return gb.nodes


@register('DepthwiseConvolution2D')
def convert_depthwise_convolution_2d(func, opset_version, input_names,
                                     output_names, context):
    # A convolution with one group per input channel, W (m, c, kh, kw)
    # as c * m filters of one channel, channel by channel.
    gb = GraphBuilder(context)
    x = input_names[0]
    w, *b = _as_dtype_of(gb, context, input_names[1:], x)
    m, c, kh, kw = context.shape(input_names[1])
    w = gb.reshape(gb.transpose(w, (1, 0, 2, 3)), (c * m, 1, kh, kw))
    gb.op('Conv', [x, w] + b, output_names, kernel_shape=[kh, kw],
          strides=list(func.stride), pads=list(func.pad) * 2, group=c)
    return gb.nodes


@register('LinearFunction')
def convert_linear(func, opset_version, input_names, output_names,
                   context):
    # y = x W^T + b
    gb = GraphBuilder(context)
    x = input_names[0]
    gb.op('Gemm', [x] + _as_dtype_of(gb, context, input_names[1:], x),
          output_names, transB=1)
    return gb.nodes


@register('EmbedIDFunction')
def convert_embed_id(func, opset_version, input_names, output_names,
                     context):
    # y = W[x], with zero rows where x is ignore_label.
    gb = GraphBuilder(context)
    x, w = input_names
    if func.ignore_label is None:
        gb.op('Gather', [w, x], output_names, axis=0)
        return gb.nodes
    ignored = gb.op('Equal', [x, gb.const(func.ignore_label,
                                          context.dtype(x))])
    ids = gb.op('Where', [ignored, gb.const(0, context.dtype(x)), x])
    rows = gb.op('Gather', [w, ids], axis=0)
    gb.op('Where', [gb.unsqueeze(ignored, [-1]),
                    gb.const(0, context.dtype(w)), rows], output_names)
    return gb.nodes


@register('BilinearFunction')
def convert_bilinear(func, opset_version, input_names, output_names,
                     context):
    # y[i, l] = sum_jk e1[i, j] e2[i, k] W[j, k, l]
    #           (+ e1 V1 + e2 V2 + b)
    gb = GraphBuilder(context)
    e1, e2, w = input_names[:3]
    flat = []
    for e in (e1, e2):
        shape = context.shape(e)
        flat.append(e if len(shape) == 2 else gb.reshape(
            e, (shape[0], int(numpy.prod(shape[1:])))))
    e1, e2 = flat
    if len(input_names) == 3:
        gb.op('Einsum', [e1, e2, w], output_names, equation='ij,ik,jkl->il')
        return gb.nodes
    v1, v2, b = input_names[3:]
    y = gb.op('Einsum', [e1, e2, w], equation='ij,ik,jkl->il')
    y = gb.op('Add', [y, gb.op('MatMul', [e1, v1])])
    y = gb.op('Add', [y, gb.op('MatMul', [e2, v2])])
    gb.op('Add', [y, b], output_names)
    return gb.nodes
