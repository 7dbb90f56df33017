"""Converters of chainer_core.functions.pooling."""
import numpy

from chainer_core.onnx.converters._builder import GraphBuilder
from chainer_core.onnx.converters._builder import register
from chainer_core.onnx.converters._builder import unsupported
from chainer_core.onnx.converters.connection import transposed_pads


def _window(gb, x, ksize, pads, fill, dtype):
    """``x`` and the pads for a pooling node: ONNX Runtime takes pads
    shorter than the window only, so longer ones are added by a Pad node
    filled with ``fill`` first."""
    if all(p < k for p, k in zip(pads, list(ksize) * 2)):
        return x, pads
    n = len(ksize)
    x = gb.op('Pad', [x, gb.ints([0, 0] + pads[:n] + [0, 0] + pads[n:]),
                      gb.const(fill, dtype)], mode='constant')
    return x, [0] * (2 * n)


@register('MaxPooling2D', 'MaxPoolingND')
def convert_max_pooling(func, opset_version, input_names, output_names,
                        context):
    gb = GraphBuilder(context)
    x = input_names[0]
    # cover_all pads the end by stride - 1 more, so that the last window
    # covers the input's end (with -inf, which no maximum picks).
    extra = [s - 1 if func.cover_all else 0 for s in func.stride]
    pads = list(func.pad) + [p + e for p, e in zip(func.pad, extra)]
    dtype = context.dtype(x)
    padded = _in_padding_only(context.shape(x)[2:],
                              context.shape(output_names[0])[2:],
                              func.ksize, func.stride, func.pad)
    x, pads = _window(gb, x, func.ksize, pads, -numpy.inf, dtype)
    y = gb.op('MaxPool', [x], None if padded is not None else output_names,
              kernel_shape=list(func.ksize), strides=list(func.stride),
              pads=pads)
    if padded is not None:
        # The op's maximum of a window of padding alone is -inf, ONNX
        # Runtime's the lowest finite number.
        gb.op('Where', [gb.const(padded), gb.const(-numpy.inf, dtype), y],
              output_names)
    return gb.nodes


def _in_padding_only(in_dims, out_dims, ksize, stride, pad):
    """A boolean mask (1, 1, *out_dims) of the windows that cover padding
    only, or None where there is none."""
    mask = numpy.zeros((1, 1) + tuple(out_dims), bool)
    for axis, (d, o, k, s, p) in enumerate(
            zip(in_dims, out_dims, ksize, stride, pad)):
        start = numpy.arange(o) * s - p
        outside = (start >= d) | (start + k <= 0)
        shape = [1] * mask.ndim
        shape[2 + axis] = o
        mask |= outside.reshape(shape)
    return mask if mask.any() else None


@register('AveragePooling2D', 'AveragePoolingND')
def convert_average_pooling(func, opset_version, input_names, output_names,
                            context):
    # pad_value 0 counts the padding in the window's size; None leaves it
    # out.
    gb = GraphBuilder(context)
    x = input_names[0]
    include = func.pad_value is not None
    pads = list(func.pad) * 2
    if include:
        x, pads = _window(gb, x, func.ksize, pads, 0, context.dtype(x))
    elif any(p >= k for p, k in zip(func.pad, func.ksize)):
        raise unsupported(func, opset_version,
                          'pad_value=None with pad {} not smaller than '
                          'ksize {}'.format(func.pad, func.ksize))
    gb.op('AveragePool', [x], output_names, kernel_shape=list(func.ksize),
          strides=list(func.stride), pads=pads,
          count_include_pad=int(include))
    return gb.nodes


@register('Unpooling2D', 'UnpoolingND')
def convert_unpooling(func, opset_version, input_names, output_names,
                      context):
    # Every input pixel copied over its window, overlaps adding up: a
    # transposed convolution of each channel with a window of ones.
    gb = GraphBuilder(context)
    x = input_names[0]
    shape = context.shape(x)
    n = len(func.ksize)
    ones = gb.const(numpy.ones((shape[1], 1) + tuple(func.ksize),
                               context.dtype(x)))
    pads, output_padding = transposed_pads(
        shape[2:], context.shape(output_names[0])[2:], func.ksize,
        func.stride, func.pad, [1] * n)
    gb.op('ConvTranspose', [x, ones], output_names,
          kernel_shape=list(func.ksize), strides=list(func.stride),
          pads=pads, output_padding=output_padding, group=shape[1])
    return gb.nodes


@register('ROIPooling2D')
def convert_roi_pooling_2d(func, opset_version, input_names, output_names,
                           context):
    # rois (R, 5): batch index, x_min, y_min, x_max, y_max, as ONNX's.
    gb = GraphBuilder(context)
    x, rois = input_names
    if context.dtype(rois) != context.dtype(x):
        rois = gb.cast(rois, context.dtype(x))
    gb.op('MaxRoiPool', [x, rois], output_names,
          pooled_shape=[int(func.outh), int(func.outw)],
          spatial_scale=float(func.spatial_scale))
    return gb.nodes


@register('ROIAverageAlign2D')
def convert_roi_average_align_2d(func, opset_version, input_names,
                                 output_names, context):
    # Regions (y_min, x_min, y_max, x_max) with their batch indices; no
    # half-pixel shift (ONNX's output_half_pixel); sampling_ratio None is
    # ONNX's adaptive 0.
    gb = GraphBuilder(context)
    x, rois, indices = input_names
    spec = func.spec
    ratio_y, ratio_x = spec.sampling_ratio
    if ratio_y != ratio_x:
        raise unsupported(func, opset_version,
                          'ONNX RoiAlign takes one sampling_ratio for both '
                          'axes, got {}'.format(spec.sampling_ratio))
    dtype = context.dtype(x)
    if context.dtype(rois) != dtype:
        rois = gb.cast(rois, dtype)
    y0, x0, y1, x1 = gb.split(rois, [1] * 4, 1)
    boxes = gb.op('Concat', [x0, y0, x1, y1], axis=1)
    attrs = {}
    if opset_version >= 16:
        attrs['coordinate_transformation_mode'] = 'output_half_pixel'
    gb.op('RoiAlign', [x, boxes, gb.cast(indices, numpy.int64)],
          output_names, mode='avg', output_height=int(spec.outsize[0]),
          output_width=int(spec.outsize[1]), sampling_ratio=ratio_y or 0,
          spatial_scale=float(spec.spatial_scale), **attrs)
    return gb.nodes
