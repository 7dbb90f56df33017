"""Converters of chainer_core.functions.array."""
import numbers

import numpy
from onnx import helper

from chainer_core.onnx.converters._builder import GraphBuilder
from chainer_core.onnx.converters._builder import register
from chainer_core.onnx.converters._builder import unsupported


def _identity(func, opset_version, input_names, output_names, context):
    return [helper.make_node('Identity', input_names, output_names)]


# A copy within the graph is the value itself; _CopyAcross is the copy to
# another device.
register('Copy', '_CopyAcross')(_identity)


def _reshape_to_output(func, opset_version, input_names, output_names,
                       context):
    gb = GraphBuilder(context)
    gb.reshape(input_names[0], context.shape(output_names[0]), output_names)
    return gb.nodes


# The output's shape is known, so -1 entries need no working out.
register('Reshape', 'Flatten')(_reshape_to_output)


def _permutation(func, opset_version, input_names, output_names, context,
                 move):
    """Transpose by the axis order that ``move`` (a NumPy function of an
    array) gives: read from the shape it gives an array whose axes all
    have distinct sizes (a broadcast view, so it takes no memory)."""
    ndim = len(context.shape(input_names[0]))
    sizes = tuple(range(1, ndim + 1))
    moved = move(numpy.broadcast_to(numpy.zeros(()), sizes)).shape
    return [helper.make_node('Transpose', input_names, output_names,
                             perm=[sizes.index(n) for n in moved])]


@register('Transpose')
def convert_transpose(func, opset_version, input_names, output_names,
                      context):
    return _permutation(func, opset_version, input_names, output_names,
                        context, lambda a: numpy.transpose(a, func.axes))


@register('Swapaxes')
def convert_swapaxes(func, opset_version, input_names, output_names,
                     context):
    return _permutation(func, opset_version, input_names, output_names,
                        context,
                        lambda a: numpy.swapaxes(a, func.axis1, func.axis2))


@register('Moveaxis')
def convert_moveaxis(func, opset_version, input_names, output_names,
                     context):
    return _permutation(
        func, opset_version, input_names, output_names, context,
        lambda a: numpy.moveaxis(a, func.source, func.destination))


@register('Rollaxis')
def convert_rollaxis(func, opset_version, input_names, output_names,
                     context):
    return _permutation(func, opset_version, input_names, output_names,
                        context,
                        lambda a: numpy.rollaxis(a, func.axis, func.start))


@register('Cast')
def convert_cast(func, opset_version, input_names, output_names, context):
    gb = GraphBuilder(context)
    gb.cast(input_names[0], func.type, output_names)
    return gb.nodes


@register('Concat')
def convert_concat(func, opset_version, input_names, output_names, context):
    return [helper.make_node('Concat', input_names, output_names,
                             axis=int(func.axis))]


def _stack_along(axis, least_ndim):
    """numpy's hstack/vstack/dstack: each input reshaped as
    ``numpy.atleast_{least_ndim}d`` would, then concatenated."""
    def convert(func, opset_version, input_names, output_names, context):
        gb = GraphBuilder(context)
        at_least = (None, numpy.atleast_1d, numpy.atleast_2d,
                    numpy.atleast_3d)[least_ndim]
        parts = []
        for x in input_names:
            shape = context.shape(x)
            wanted = at_least(numpy.empty(shape, 'b')).shape
            parts.append(x if wanted == shape else gb.reshape(x, wanted))
        ndim = len(context.shape(output_names[0]))
        gb.op('Concat', parts, output_names, axis=min(axis, ndim - 1))
        return gb.nodes
    return convert


# hstack joins 1-D arrays along axis 0 (min(axis, ndim - 1) above).
register('Hstack')(_stack_along(1, 1))
register('Vstack')(_stack_along(0, 2))
register('Dstack')(_stack_along(2, 3))


@register('Stack')
def convert_stack(func, opset_version, input_names, output_names, context):
    gb = GraphBuilder(context)
    axis = func.axis % len(context.shape(output_names[0]))
    gb.op('Concat', [gb.unsqueeze(x, [axis]) for x in input_names],
          output_names, axis=axis)
    return gb.nodes


@register('Separate')
def convert_separate(func, opset_version, input_names, output_names,
                     context):
    gb = GraphBuilder(context)
    x = input_names[0]
    axis = func.axis % len(context.shape(x))
    parts = gb.split(x, [1] * len(output_names), axis)
    for part, y in zip(parts, output_names):
        gb.squeeze(part, [axis], [y])
    return gb.nodes


@register('SplitAxis')
def convert_split_axis(func, opset_version, input_names, output_names,
                       context):
    gb = GraphBuilder(context)
    x = input_names[0]
    axis = func.axis % len(context.shape(x))
    gb.split(x, [context.shape(y)[axis] for y in output_names], axis,
             output_names)
    return gb.nodes


@register('ExpandDims')
def convert_expand_dims(func, opset_version, input_names, output_names,
                        context):
    gb = GraphBuilder(context)
    gb.unsqueeze(input_names[0], [func.axis], output_names)
    return gb.nodes


@register('Squeeze')
def convert_squeeze(func, opset_version, input_names, output_names,
                    context):
    gb = GraphBuilder(context)
    shape = context.shape(input_names[0])
    axes = func.axis
    if axes is None:
        axes = [i for i, n in enumerate(shape) if n == 1]
    if not axes:
        return _identity(func, opset_version, input_names, output_names,
                         context)
    gb.squeeze(input_names[0], axes, output_names)
    return gb.nodes


@register('BroadcastTo')
def convert_broadcast_to(func, opset_version, input_names, output_names,
                         context):
    gb = GraphBuilder(context)
    gb.op('Expand', [input_names[0], gb.ints(context.shape(output_names[0]))],
          output_names)
    return gb.nodes


@register('Broadcast')
def convert_broadcast(func, opset_version, input_names, output_names,
                      context):
    gb = GraphBuilder(context)
    for x, y in zip(input_names, output_names):
        gb.op('Expand', [x, gb.ints(context.shape(y))], [y])
    return gb.nodes


@register('Tile')
def convert_tile(func, opset_version, input_names, output_names, context):
    # numpy.tile: reps shorter than x.ndim repeat the last axes; longer
    # ones first give x leading axes of size 1.
    gb = GraphBuilder(context)
    x = input_names[0]
    shape = context.shape(x)
    reps = tuple(func.reps)
    if len(reps) > len(shape):
        shape = (1,) * (len(reps) - len(shape)) + tuple(shape)
        x = gb.reshape(x, shape)
    reps = (1,) * (len(shape) - len(reps)) + reps
    gb.op('Tile', [x, gb.ints(reps)], output_names)
    return gb.nodes


@register('Repeat')
def convert_repeat(func, opset_version, input_names, output_names, context):
    # numpy.repeat picks element i repeats[i] times: a gather of those
    # indices (along the flattened array when axis is None).
    gb = GraphBuilder(context)
    x = input_names[0]
    shape = context.shape(x)
    axis = func.axis
    if axis is None:
        x = gb.reshape(x, (int(numpy.prod(shape)),))
        size, axis = int(numpy.prod(shape)), 0
    else:
        axis %= len(shape)
        size = shape[axis]
    repeats = func.repeats * size if len(func.repeats) == 1 else func.repeats
    indices = numpy.repeat(numpy.arange(size), repeats)
    gb.op('Gather', [x, gb.ints(indices)], output_names, axis=axis)
    return gb.nodes


@register('Where')
def convert_where(func, opset_version, input_names, output_names, context):
    return [helper.make_node('Where', input_names, output_names)]


@register('Depth2Space')
def convert_depth2space(func, opset_version, input_names, output_names,
                        context):
    # y[b, c, h r + i, w r + j] = x[b, (i r + j) C + c, h, w]: ONNX's DCR.
    return [helper.make_node('DepthToSpace', input_names, output_names,
                             blocksize=int(func.r), mode='DCR')]


@register('Space2Depth')
def convert_space2depth(func, opset_version, input_names, output_names,
                        context):
    return [helper.make_node('SpaceToDepth', input_names, output_names,
                             blocksize=int(func.r))]


@register('Pad')
def convert_pad(func, opset_version, input_names, output_names, context):
    gb = GraphBuilder(context)
    x = input_names[0]
    mode = {'constant': 'constant', 'edge': 'edge',
            'reflect': 'reflect'}.get(func.mode)
    if func.mode == 'wrap' and opset_version >= 19:
        mode = 'wrap'
    if mode is None:
        raise unsupported(func, opset_version,
                          'ONNX Pad has no mode {!r} here'.format(func.mode))
    widths = func.pad_width
    pads = [int(b) for b, _ in widths] + [int(a) for _, a in widths]
    inputs = [x, gb.ints(pads)]
    if mode == 'constant':
        value = numpy.asarray(func.constant_values)
        if value.size != 1:
            raise unsupported(func, opset_version,
                              'ONNX Pad takes one constant value, got '
                              '{!r}'.format(func.constant_values))
        inputs.append(gb.const(value.reshape(()), context.dtype(x)))
    gb.op('Pad', inputs, output_names, mode=mode)
    return gb.nodes


@register('Permutate')
def convert_permutate(func, opset_version, input_names, output_names,
                      context):
    # y = x.take(indices, axis), or with inv the inverse permutation's.
    gb = GraphBuilder(context)
    x, indices = input_names
    axis = func.axis % len(context.shape(x))
    fixed = context.constant(indices)
    if fixed is not None:
        perm = numpy.argsort(fixed) if func.inv else fixed
        indices = gb.ints(perm)
    elif func.inv:
        # inverse[indices[i]] = i
        n = context.shape(indices)[0]
        indices = gb.op('ScatterElements', [
            gb.ints(numpy.zeros(n)), gb.cast(indices, numpy.int64),
            gb.ints(numpy.arange(n))], axis=0)
    gb.op('Gather', [x, indices], output_names, axis=axis)
    return gb.nodes


@register('SelectItem')
def convert_select_item(func, opset_version, input_names, output_names,
                        context):
    # y[i] = x[i, t[i]]
    gb = GraphBuilder(context)
    x, t = input_names
    picked = gb.op('GatherElements', [x, gb.unsqueeze(t, [1])], axis=1)
    gb.squeeze(picked, [1], output_names)
    return gb.nodes


@register('TakeAlongAxis')
def convert_take_along_axis(func, opset_version, input_names, output_names,
                            context):
    return [helper.make_node('GatherElements', input_names, output_names,
                             axis=int(func.axis))]


def _flip(axis_of):
    """x reversed along the axis ``axis_of(func)``."""
    def convert(func, opset_version, input_names, output_names, context):
        gb = GraphBuilder(context)
        x = input_names[0]
        shape = context.shape(x)
        axis = axis_of(func) % len(shape)
        # From the last element down past the first.
        gb.slice(x, [-1], [-shape[axis] - 1], [axis], [-1], output_names)
        return gb.nodes
    return convert


register('Flip')(_flip(lambda func: func.axis))
register('FlipLR')(_flip(lambda func: 1))
register('FlipUD')(_flip(lambda func: 0))


def _index_entries(slices, ndim):
    """The entries of a NumPy index with the Ellipsis expanded and full
    slices added for the axes left, as a list."""
    if not isinstance(slices, tuple):
        slices = (slices,)
    slices = [numpy.asarray(s) if isinstance(s, list) else s
              for s in slices]
    consumed = sum(s.ndim if getattr(s, 'dtype', None) is not None and
                   s.dtype.kind == 'b' else 1 for s in slices
                   if s is not None and s is not Ellipsis)
    out = []
    for s in slices:
        if s is Ellipsis:
            out.extend([slice(None)] * (ndim - consumed))
            consumed = ndim
        else:
            out.append(s)
    return out + [slice(None)] * (ndim - consumed)


@register('GetItem')
def convert_get_item(func, opset_version, input_names, output_names,
                     context):
    # Slices (ints as one-element slices) along the input's axes, then a
    # gather for an index array, then the ints' axes squeezed and the
    # Nones' axes inserted.
    gb = GraphBuilder(context)
    x = input_names[0]
    shape = context.shape(x)
    entries = _index_entries(func.slices, len(shape))
    ints = [e for e in entries if isinstance(e, numbers.Integral)]
    arrays = [e for e in entries
              if hasattr(e, 'dtype') and not isinstance(e, numbers.Integral)]
    if len(arrays) > 1 or (arrays and ints) or any(
            a.dtype.kind == 'b' and a.ndim != 1 for a in arrays):
        raise unsupported(func, opset_version,
                          'an index with more than one array, an array '
                          'and an int, or a boolean array of more than one '
                          'axis ({!r})'.format(func.slices))
    starts, ends, axes, steps = [], [], [], []
    squeezed, inserted = [], []
    gather = None
    axis = out_axis = 0
    for e in entries:
        if e is None:
            inserted.append(out_axis)
            out_axis += 1
            continue
        size = shape[axis]
        if isinstance(e, numbers.Integral):
            i = int(e) % size
            starts.append(i), ends.append(i + 1), axes.append(axis)
            steps.append(1)
            squeezed.append(axis)
        elif isinstance(e, slice):
            start, stop, step = e.indices(size)
            if (start, stop, step) != (0, size, 1):
                if step < 0 and stop < 0:
                    # Down past index 0 (a negative end counts from the
                    # end).
                    stop = -size - 1
                starts.append(start), ends.append(stop), axes.append(axis)
                steps.append(step)
            out_axis += 1
        else:
            index = numpy.flatnonzero(e) if e.dtype.kind == 'b' else e
            gather = axis, numpy.asarray(index, numpy.int64)
            out_axis += gather[1].ndim
        axis += 1
    ops = []
    if axes:
        ops.append(lambda v, out: gb.slice(v, starts, ends, axes, steps,
                                           out))
    if gather is not None:
        axis, index = gather
        ops.append(lambda v, out: gb.op('Gather', [v, gb.const(index)], out,
                                        axis=axis))
    if squeezed:
        ops.append(lambda v, out: gb.squeeze(v, squeezed, out))
    if inserted:
        ops.append(lambda v, out: gb.unsqueeze(v, inserted, out))
    if not ops:
        ops.append(lambda v, out: gb.op('Identity', [v], out))
    for op in ops[:-1]:
        x = op(x, None)
    ops[-1](x, output_names)
    return gb.nodes


@register('ResizeImages')
def convert_resize_images(func, opset_version, input_names, output_names,
                          context):
    gb = GraphBuilder(context)
    x = input_names[0]
    n, c, h, w = context.shape(x)
    if func.mode == 'nearest':
        # The source rows and columns as the op picks them (NumPy's
        # rounding, which no ONNX nearest_mode has), gathered.
        rows = _nearest(h, func.out_h, func.align_corners)
        cols = _nearest(w, func.out_w, func.align_corners)
        x = gb.op('Gather', [x, gb.ints(rows)], axis=2)
        gb.op('Gather', [x, gb.ints(cols)], output_names, axis=3)
        return gb.nodes
    # align_corners maps corners onto corners; otherwise pixel centres onto
    # pixel centres, clamped at the border as ONNX's linear mode does.
    mode = 'align_corners' if func.align_corners else 'half_pixel'
    gb.op('Resize', [x, '', '', gb.ints((n, c, func.out_h, func.out_w))],
          output_names, mode='linear', coordinate_transformation_mode=mode)
    return gb.nodes


def _nearest(size, out_size, align_corners):
    if align_corners:
        return numpy.round(numpy.linspace(0, size - 1, num=out_size))
    return numpy.minimum(
        numpy.floor(numpy.arange(out_size) * (size / out_size)), size - 1)
