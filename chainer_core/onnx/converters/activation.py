"""Converters of chainer_core.functions.activation."""
from onnx import helper

from chainer_core.onnx.converters._builder import GraphBuilder
from chainer_core.onnx.converters._builder import register


def _one(op_type, **attrs):
    """A converter to the single node ``op_type``."""
    def convert(func, opset_version, input_names, output_names, context):
        return [helper.make_node(op_type, input_names, output_names,
                                 **attrs)]
    return convert


register('ReLU')(_one('Relu'))
register('Sigmoid')(_one('Sigmoid'))
register('Tanh')(_one('Tanh'))
# Chainer's hard sigmoid is clip(0.2 x + 0.5, 0, 1), ONNX's default.
register('HardSigmoid')(_one('HardSigmoid', alpha=0.2, beta=0.5))


@register('ClippedReLU')
def convert_clipped_relu(func, opset_version, input_names, output_names,
                         context):
    gb = GraphBuilder(context)
    dtype = context.dtype(input_names[0])
    gb.op('Clip', [input_names[0], gb.const(0, dtype),
                   gb.const(func.cap, dtype)], output_names)
    return gb.nodes


@register('ELU')
def convert_elu(func, opset_version, input_names, output_names, context):
    return [helper.make_node('Elu', input_names, output_names,
                             alpha=float(func.alpha))]


@register('SELU')
def convert_selu(func, opset_version, input_names, output_names, context):
    return [helper.make_node('Selu', input_names, output_names,
                             alpha=float(func.alpha),
                             gamma=float(func.scale))]


@register('LeakyReLU')
def convert_leaky_relu(func, opset_version, input_names, output_names,
                       context):
    return [helper.make_node('LeakyRelu', input_names, output_names,
                             alpha=float(func.slope))]


@register('Softmax')
def convert_softmax(func, opset_version, input_names, output_names,
                    context):
    return [helper.make_node('Softmax', input_names, output_names,
                             axis=int(func.axis))]


@register('LogSoftmax')
def convert_log_softmax(func, opset_version, input_names, output_names,
                        context):
    return [helper.make_node('LogSoftmax', input_names, output_names,
                             axis=int(func.axis))]


@register('Softplus')
def convert_softplus(func, opset_version, input_names, output_names,
                     context):
    if func.beta == 1:
        return [helper.make_node('Softplus', input_names, output_names)]
    # log(1 + exp(beta x)) / beta
    gb = GraphBuilder(context)
    x = input_names[0]
    beta = gb.const(func.beta, context.dtype(x))
    t = gb.op('Softplus', [gb.op('Mul', [x, beta])])
    gb.op('Div', [t, beta], output_names)
    return gb.nodes


def _channel_parameter(gb, context, x, w):
    """``w``, whose shape is that of x's axes from 1 on, reshaped to
    broadcast against x (ONNX broadcasts from the last axis)."""
    n_x = len(context.shape(x))
    shape = context.shape(w)
    if len(shape) == n_x - 1:
        return w
    return gb.reshape(w, tuple(shape) + (1,) * (n_x - 1 - len(shape)))


@register('PReLU')
def convert_prelu(func, opset_version, input_names, output_names, context):
    gb = GraphBuilder(context)
    x, w = input_names
    gb.op('PRelu', [x, _channel_parameter(gb, context, x, w)], output_names)
    return gb.nodes


@register('RReLU')
def convert_rrelu(func, opset_version, input_names, output_names, context):
    # The slopes the run used (their mean outside training, as drawn in
    # it) are a constant of the export.
    gb = GraphBuilder(context)
    x = input_names[0]
    gb.op('PRelu', [x, gb.const(func.r, context.dtype(x))], output_names)
    return gb.nodes


@register('Swish')
def convert_swish(func, opset_version, input_names, output_names, context):
    # x sigmoid(beta x)
    gb = GraphBuilder(context)
    x, beta = input_names
    beta = _channel_parameter(gb, context, x, beta)
    gb.op('Mul', [x, gb.op('Sigmoid', [gb.op('Mul', [x, beta])])],
          output_names)
    return gb.nodes


@register('Maxout')
def convert_maxout(func, opset_version, input_names, output_names,
                   context):
    # The maximum over groups of pool_size consecutive channels: reshape
    # the axis into (groups, pool_size) and reduce the second.
    gb = GraphBuilder(context)
    x = input_names[0]
    shape = context.shape(x)
    axis = func.axis % len(shape)
    grouped = shape[:axis] + (shape[axis] // func.pool_size,
                              func.pool_size) + shape[axis + 1:]
    gb.reduce('ReduceMax', gb.reshape(x, grouped), [axis + 1],
              keepdims=False, outputs=output_names)
    return gb.nodes


@register('CReLU')
def convert_crelu(func, opset_version, input_names, output_names, context):
    gb = GraphBuilder(context)
    x = input_names[0]
    gb.op('Concat', [gb.op('Relu', [x]), gb.op('Relu', [gb.op('Neg', [x])])],
          output_names, axis=int(func.axis))
    return gb.nodes


@register('LSTM')
def convert_lstm(func, opset_version, input_names, output_names, context):
    # With a, i, f, o the gates of x, interleaved per unit along axis 1,
    # and B = len(x): c = tanh(a) sigmoid(i) + sigmoid(f) c_prev[:B],
    # h = sigmoid(o) tanh(c); rows of c_prev from B on pass through to c.
    gb = GraphBuilder(context)
    c_prev, x = input_names
    x_shape = context.shape(x)
    rows = context.shape(c_prev)[0]
    batch, units = x_shape[0], x_shape[1] // 4
    gates = gb.reshape(x, (batch, units, 4) + tuple(x_shape[2:]))
    a, i, f, o = [gb.squeeze(g, [2]) for g in gb.split(gates, [1] * 4, 2)]
    c_top = c_prev
    if batch < rows:
        c_top = gb.slice(c_prev, [0], [batch], [0])
    c_out, h_out = output_names
    c_new = c_out if batch == rows else None
    c = gb.op('Add', [
        gb.op('Mul', [gb.op('Tanh', [a]), gb.op('Sigmoid', [i])]),
        gb.op('Mul', [gb.op('Sigmoid', [f]), c_top])], c_new and [c_new])
    gb.op('Mul', [gb.op('Sigmoid', [o]), gb.op('Tanh', [c])], [h_out])
    if batch < rows:
        gb.op('Concat', [c, gb.slice(c_prev, [batch], [rows], [0])], [c_out],
              axis=0)
    return gb.nodes
