"""Converters of chainer_core.functions.noise."""
from chainer_core.onnx.converters._builder import GraphBuilder
from chainer_core.onnx.converters._builder import register


@register('Dropout')
def convert_dropout(func, opset_version, input_names, output_names,
                    context):
    # Recorded only when exporting with train=True; ONNX's Dropout is the
    # identity at inference, as dropout is outside training.
    gb = GraphBuilder(context)
    x = input_names[0]
    gb.op('Dropout', [x, gb.const(func.dropout_ratio, context.dtype(x))],
          output_names)
    return gb.nodes
