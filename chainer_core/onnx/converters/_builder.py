"""What converters are written with: the registry, GraphBuilder and the
error for what ONNX cannot express."""
import numpy
from onnx import helper

#: Converters by the class name of the FunctionNode they convert.
registry = {}


def register(*names):
    """Register the decorated converter for the FunctionNodes ``names``
    (class names, e.g. ``'ReLU'``).

    A converter is called as ``converter(func, opset_version, input_names,
    output_names, context)`` and returns the ONNX nodes (a sequence of
    ``onnx.NodeProto``) computing ``output_names`` from ``input_names``;
    ``func`` is the FunctionNode with its parameters and ``context`` the
    :class:`~chainer_core.onnx.converters.GraphBuilder`'s source of names,
    constants, shapes and dtypes.

    Example:
        >>> @register('ReLU')
        ... def convert_relu(func, opset_version, input_names,
        ...                  output_names, context):
        ...     return [onnx.helper.make_node('Relu', input_names,
        ...                                   output_names)]
    """
    def decorator(converter):
        for name in names:
            registry[name] = converter
        return converter
    return decorator


def unsupported(func, opset_version, why):
    """The error for a call of ``func`` that ONNX cannot express.

    Args:
        func: the FunctionNode.
        opset_version (int): the opset exported to.
        why (str): what about this call is not expressible.

    Returns:
        NotImplementedError: to raise.
    """
    name = type(func).__name__
    return NotImplementedError(
        'ONNX export: {} (opset {}) cannot be converted: {}; pass '
        'external_converters={{{!r}: converter}} to export it your '
        'own way'.format(name, opset_version, why, name))


class GraphBuilder:
    """Appends ONNX nodes for one converter call.

    Args:
        context: the converter's ``context`` argument.

    Attributes:
        nodes (list of onnx.NodeProto): the nodes made so far, which the
            converter returns.
        opset_version (int): the opset exported to.

    Example:
        >>> gb = GraphBuilder(context)
        >>> t = gb.op('Mul', [input_names[0], gb.const(2.0, 'f')])
        >>> gb.op('Relu', [t], outputs=output_names)
        >>> return gb.nodes
    """

    def __init__(self, context):
        self.context = context
        self.opset_version = context.opset_version
        self.nodes = []

    def op(self, op_type, inputs, outputs=None, n_outputs=1, **attrs):
        """Add the node ``op_type`` of ``inputs`` (value names; '' for an
        omitted optional input) with the attributes ``attrs``.

        Args:
            outputs (list of str): names of the outputs; new names when
                omitted.
            n_outputs (int): how many new names, when ``outputs`` is
                omitted.

        Returns:
            str, or a list of str for more than one output: the outputs.
        """
        if outputs is None:
            outputs = [self.context.new_name(op_type)
                       for _ in range(n_outputs)]
        outputs = list(outputs)
        self.nodes.append(helper.make_node(op_type, list(inputs), outputs,
                                           **attrs))
        return outputs[0] if len(outputs) == 1 else outputs

    def const(self, value, dtype=None):
        """The name of a constant holding ``value`` (an array or a
        number, as ``dtype`` if given)."""
        return self.context.const(numpy.asarray(value, dtype=dtype))

    def ints(self, values):
        """The name of a 1-D int64 constant: shapes, axes, indices."""
        return self.const(numpy.asarray(values, numpy.int64).reshape(-1))

    def reduce(self, op_type, x, axes=None, keepdims=True, outputs=None):
        """``op_type`` (ReduceSum, ReduceMax, ...) over ``axes`` (None: all
        of them), with the axes an input or an attribute as the opset
        wants."""
        attrs = {'keepdims': int(keepdims)}
        inputs = [x]
        if axes is not None:
            axes = [int(a) for a in axes]
            # ReduceSum takes its axes as an input from opset 13, the
            # other reductions from opset 18.
            if op_type == 'ReduceSum' or self.opset_version >= 18:
                inputs.append(self.ints(axes))
            else:
                attrs['axes'] = axes
        return self.op(op_type, inputs, outputs, **attrs)

    def squeeze(self, x, axes, outputs=None):
        return self.op('Squeeze', [x, self.ints(axes)], outputs)

    def unsqueeze(self, x, axes, outputs=None):
        return self.op('Unsqueeze', [x, self.ints(axes)], outputs)

    def reshape(self, x, shape, outputs=None):
        """``x`` reshaped to ``shape``, whose zeros mean zero (not "as the
        input")."""
        attrs = {}
        if 0 in tuple(shape) and self.opset_version >= 14:
            attrs['allowzero'] = 1
        return self.op('Reshape', [x, self.ints(shape)], outputs, **attrs)

    def transpose(self, x, perm, outputs=None):
        return self.op('Transpose', [x], outputs,
                       perm=[int(p) for p in perm])

    def slice(self, x, starts, ends, axes, steps=None, outputs=None):
        inputs = [x, self.ints(starts), self.ints(ends), self.ints(axes)]
        if steps is not None:
            inputs.append(self.ints(steps))
        return self.op('Slice', inputs, outputs)

    def split(self, x, sizes, axis, outputs=None):
        """``x`` split along ``axis`` into pieces of ``sizes``; a list."""
        outputs = outputs or [self.context.new_name('Split')
                              for _ in sizes]
        self.op('Split', [x, self.ints(sizes)], outputs, axis=int(axis))
        return list(outputs)

    def cast(self, x, dtype, outputs=None):
        return self.op('Cast', [x], outputs,
                       to=helper.np_dtype_to_tensor_dtype(
                           numpy.dtype(dtype)))
