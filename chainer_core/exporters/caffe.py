"""Export a model to Caffe (Chainer's ``chainer.exporters.caffe``).

:func:`export` runs the model once and writes the graph of that run as
``chainer_model.prototxt`` (the network, in Caffe's text format) and
``chainer_model.caffemodel`` (the network with its weights, in protocol
buffers' binary format). The binary is encoded by
:mod:`chainer_core.exporters._protobuf`, so neither Caffe nor the protobuf
package is needed.

Functions that have a Caffe layer:

======================================  ==============================
function                                Caffe layer
======================================  ==============================
``convolution_2d``                      Convolution
``deconvolution_2d``                    Deconvolution
``linear``                              InnerProduct
``fixed_batch_normalization``           BatchNorm followed by Scale
``relu``, ``leaky_relu``                ReLU
``sigmoid``                             Sigmoid
``softmax``                             Softmax
``max_pooling_2d``                      Pooling (MAX)
``average_pooling_2d``                  Pooling (AVE)
``local_response_normalization``        LRN
``concat``                              Concat
``reshape``                             Reshape
``x + y``                               Eltwise (SUM)
======================================  ==============================
"""
import collections
import heapq
import os

import numpy

from chainer_core import backend
from chainer_core import configuration
from chainer_core import function_hook
from chainer_core import variable as _variable
from chainer_core.exporters import _protobuf as pb

# Field numbers of caffe.proto.
_NET_LAYER = 100
_LAYER_NAME, _LAYER_TYPE, _LAYER_BOTTOM, _LAYER_TOP = 1, 2, 3, 4
_LAYER_BLOBS, _LAYER_PHASE = 7, 10
_BLOB_DATA, _BLOB_SHAPE, _SHAPE_DIM = 5, 7, 1
_PHASE_TEST = 1
_PARAM_FIELDS = {
    'concat_param': 104, 'convolution_param': 106, 'eltwise_param': 110,
    'inner_product_param': 117, 'lrn_param': 118, 'pooling_param': 121,
    'relu_param': 123, 'softmax_param': 125, 'reshape_param': 133,
    'batch_norm_param': 139, 'scale_param': 142,
}
_FIELDS = {
    'convolution_param': {
        'num_output': 1, 'bias_term': 2, 'group': 5, 'pad_h': 9, 'pad_w': 10,
        'kernel_h': 11, 'kernel_w': 12, 'stride_h': 13, 'stride_w': 14,
        'dilation': 18},
    'inner_product_param': {'num_output': 1, 'bias_term': 2},
    'batch_norm_param': {'use_global_stats': 1, 'eps': 3},
    'scale_param': {'axis': 1, 'bias_term': 4},
    'pooling_param': {
        'pool': 1, 'kernel_h': 5, 'kernel_w': 6, 'stride_h': 7,
        'stride_w': 8, 'pad_h': 9, 'pad_w': 10},
    'lrn_param': {
        'local_size': 1, 'alpha': 2, 'beta': 3, 'norm_region': 4, 'k': 5},
    'relu_param': {'negative_slope': 1},
    'concat_param': {'axis': 2},
    'softmax_param': {'axis': 2},
}
_FLOAT_FIELDS = frozenset(['eps', 'alpha', 'beta', 'k', 'negative_slope'])
_POOL_MAX, _POOL_AVE = 0, 1
_ACROSS_CHANNELS = 0

# Layer names follow Chainer's labels, so that exported files name their
# layers as Chainer's exporter does.
_CHAINER_LABELS = {'MaxPooling2D': 'MaxPoolingND'}


class _Layer:
    """One Caffe layer: its type, name, inputs, parameters and blobs."""

    def __init__(self, type_, name, bottoms, top, param_name=None,
                 params=(), blobs=()):
        # ``blobs`` holds arrays, or indexes of the function's inputs whose
        # arrays are the blobs; ``inputs`` is set to those arrays.
        self.type = type_
        self.name = name
        self.bottoms = bottoms
        self.top = top
        self.param_name = param_name
        self.params = list(params)
        self.blobs = list(blobs)
        self.inputs = ()


class _InputRecorder(function_hook.FunctionHook):
    """Keeps the input arrays of every function applied (statistics such
    as a batch normalization's running mean are inputs the graph does not
    keep)."""

    name = 'CaffeExportInputRecorder'

    def __init__(self):
        self.inputs = {}

    def forward_preprocess(self, function, in_data):
        self.inputs[id(function)] = in_data


def _format(value):
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if isinstance(value, float):
        return '{:g}'.format(value)
    return str(value)


def _convolution(node, name, bottoms, deconv):
    x, w = node.inputs[:2]
    has_bias = len(node.inputs) == 3
    (sy, sx), (ph, pw) = node.stride, node.pad
    kh, kw = w.shape[2:]
    groups = getattr(node, 'groups', 1)
    out = w.shape[1] * groups if deconv else w.shape[0]
    params = [('num_output', out), ('bias_term', has_bias),
              ('pad_w', pw), ('pad_h', ph), ('stride_w', sx),
              ('stride_h', sy), ('kernel_w', kw), ('kernel_h', kh),
              ('group', groups)]
    dilate = tuple(getattr(node, 'dilate', (1, 1)))
    if dilate != (1, 1):
        dy, dx = dilate
        params += [('dilation', dy)] if dy == dx else \
            [('dilation', dy), ('dilation', dx)]
    blobs = [1, 2] if has_bias else [1]
    return [_Layer('Deconvolution' if deconv else 'Convolution', name,
                   bottoms[:1], name, 'convolution_param', params, blobs)]


def _linear(node, name, bottoms):
    w = node.inputs[1]
    has_bias = len(node.inputs) == 3
    return [_Layer('InnerProduct', name, bottoms[:1], name,
                   'inner_product_param',
                   [('num_output', w.shape[0]), ('bias_term', has_bias)],
                   [1, 2] if has_bias else [1])]


def _batch_normalization(node, name, bottoms):
    # Caffe's BatchNorm keeps the statistics scaled by a factor (its third
    # blob); 1 stores them as they are.
    bn = _Layer('BatchNorm', name + '_bn', bottoms[:1], name + '_bn',
                'batch_norm_param',
                [('use_global_stats', True), ('eps', float(node.eps))],
                [3, 4, numpy.ones(1, numpy.float32)])
    scale = _Layer('Scale', name, [bn.top], name, 'scale_param',
                   [('axis', 1), ('bias_term', True)], [1, 2])
    return [bn, scale]


def _pooling(node, name, bottoms, pool):
    (kh, kw), (sy, sx), (ph, pw) = node.ksize, node.stride, node.pad
    return [_Layer('Pooling', name, bottoms, name, 'pooling_param', [
        ('pool', pool), ('pad_w', pw), ('pad_h', ph), ('stride_w', sx),
        ('stride_h', sy), ('kernel_w', kw), ('kernel_h', kh)])]


def _lrn(node, name, bottoms):
    # Caffe divides alpha by the window size; Chainer does not.
    return [_Layer('LRN', name, bottoms, name, 'lrn_param', [
        ('norm_region', _ACROSS_CHANNELS), ('local_size', node.n),
        ('k', float(node.k)), ('alpha', float(node.alpha) * node.n),
        ('beta', float(node.beta))])]


def _softmax(node, name, bottoms):
    axis = node.axis
    params = [] if axis == 1 else [('axis', axis)]
    return [_Layer('Softmax', name, bottoms, name,
                   'softmax_param' if params else None, params)]


def _simple(type_, param_name=None, params=lambda node: ()):
    def convert(node, name, bottoms):
        return [_Layer(type_, name, bottoms, name, param_name,
                       params(node))]
    return convert


_CONVERTERS = {
    'Convolution2DFunction':
        lambda n, name, b: _convolution(n, name, b, False),
    'Deconvolution2DFunction':
        lambda n, name, b: _convolution(n, name, b, True),
    'LinearFunction': _linear,
    'FixedBatchNormalization': _batch_normalization,
    'ReLU': _simple('ReLU'),
    'LeakyReLU': _simple('ReLU', 'relu_param',
                         lambda n: [('negative_slope', float(n.slope))]),
    'Sigmoid': _simple('Sigmoid'),
    'Softmax': _softmax,
    'MaxPooling2D': lambda n, name, b: _pooling(n, name, b, _POOL_MAX),
    'AveragePooling2D': lambda n, name, b: _pooling(n, name, b, _POOL_AVE),
    'LocalResponseNormalization': _lrn,
    'Concat': _simple('Concat', 'concat_param', lambda n: [('axis', n.axis)]),
    'Reshape': _simple('Reshape', 'reshape_param',
                       lambda n: [('shape', tuple(n.shape))]),
    '_ + _': _simple('Eltwise'),
}


def _functions(output):
    """The function nodes behind ``output``, in Chainer's exporter order:
    found from the output down (higher ranks first, ties in the order
    found) and named ``label-rank-k``, then listed by rank."""
    found, names, counts = [], {}, collections.Counter()
    heap, order = [], 0
    seen = set()
    creator = output.creator_node
    if creator is not None:
        heapq.heappush(heap, (-creator.rank, order, creator))
        seen.add(id(creator))
    while heap:
        _, _, node = heapq.heappop(heap)
        label = _CHAINER_LABELS.get(node.label, node.label)
        counts[label, node.rank] += 1
        names[id(node)] = '{}-{}-{}'.format(label, node.rank,
                                            counts[label, node.rank])
        found.append(node)
        for input_node in node.inputs:
            parent = input_node.creator_node
            if parent is not None and id(parent) not in seen:
                seen.add(id(parent))
                order += 1
                heapq.heappush(heap, (-parent.rank, order, parent))
    found.sort(key=lambda n: n.rank)
    return found, names


def _layers(input_node, output, recorded):
    functions, names = _functions(output)
    layers = []
    for node in functions:
        convert = _CONVERTERS.get(node.label)
        if convert is None:
            raise NotImplementedError(
                'caffe.export: {} ({}) has no Caffe layer; the exporter '
                'supports {}'.format(names[id(node)], node.label,
                                     ', '.join(sorted(_CONVERTERS))))
        bottoms = []
        for i in node.inputs:
            if i is input_node:
                bottoms.append('data')
            elif i.creator_node is not None:
                bottoms.append(names[id(i.creator_node)])
        converted = convert(node, names[id(node)], bottoms)
        for layer in converted:
            layer.inputs = recorded[id(node)]
        layers.extend(converted)
    return layers


def _prototxt(graph_name, input_shape, layers):
    lines = ['name: "{}"'.format(graph_name), 'layer {', '  name: "data"',
             '  type: "Input"', '  top: "data"',
             '  input_param { shape: { ' + ' '.join(
                 'dim: {}'.format(d) for d in input_shape) + ' } }', '}']
    for layer in layers:
        lines += ['layer {', '  type: "{}"'.format(layer.type),
                  '  name: "{}"'.format(layer.name)]
        lines += ['  bottom: "{}"'.format(b) for b in layer.bottoms]
        lines.append('  top: "{}"'.format(layer.top))
        if layer.param_name is not None:
            lines.append('  {} {{'.format(layer.param_name))
            for key, value in layer.params:
                if key == 'shape':
                    lines.append('    shape {')
                    lines += ['      dim: {}'.format(d) for d in value]
                    lines.append('    }')
                else:
                    lines.append('    {}: {}'.format(key, _format(value)))
            lines.append('  }')
        lines.append('}')
    return '\n'.join(lines) + '\n'


def _param_message(layer):
    if layer.param_name == 'reshape_param':
        shape, = [v for k, v in layer.params if k == 'shape']
        return [(1, [(_SHAPE_DIM, pb.Packed('int64', shape))])]
    fields = _FIELDS[layer.param_name]
    encoded = []
    for key, value in layer.params:
        if key in _FLOAT_FIELDS:
            encoded.append((fields[key], pb.Float32(value)))
        else:
            encoded.append((fields[key], pb.Varint(int(value))))
    # Fields in field-number order, as protobuf writes them.
    encoded.sort(key=lambda f: f[0])
    return encoded


def _blob(array):
    array = numpy.asarray(array, numpy.float32)
    return [(_BLOB_DATA, pb.Packed('float', array.ravel())),
            (_BLOB_SHAPE, [(_SHAPE_DIM, pb.Packed('int64', array.shape))])]


def _caffemodel(layers):
    net = []
    for layer in layers:
        fields = [(_LAYER_NAME, layer.name), (_LAYER_TYPE, layer.type)]
        fields += [(_LAYER_BOTTOM, b) for b in layer.bottoms]
        fields.append((_LAYER_TOP, layer.top))
        for blob in layer.blobs:
            if isinstance(blob, int):
                blob = backend.CpuDevice().send(layer.inputs[blob])
            fields.append((_LAYER_BLOBS, _blob(blob)))
        fields.append((_LAYER_PHASE, pb.Varint(_PHASE_TEST)))
        if layer.param_name is not None and layer.params:
            fields.append((_PARAM_FIELDS[layer.param_name],
                           _param_message(layer)))
        net.append((_NET_LAYER, fields))
    return pb.message(net)


def export(model, args, directory=None, export_params=True,
           graph_name='Graph'):
    """Export ``model`` to Caffe's formats.

    The model is called once on ``args`` with ``chainer.config.train`` off
    (so batch normalization uses its running statistics), and the graph of
    that call is converted layer by layer.

    Args:
        model (callable): a Chain (or any callable) taking ``args``.
        args (list or tuple): the one input: a Variable or an array.
        directory (str): where to write ``chainer_model.prototxt`` and
            ``chainer_model.caffemodel``; ``None`` converts without writing
            (which checks that the model can be exported).
        export_params (bool): write the ``.caffemodel`` with the weights.
        graph_name (str): the network's name in the ``.prototxt``.

    Raises:
        NotImplementedError: for more than one input or output, or a
            function that has no Caffe layer (see the module's table).

    Example:
        >>> model = L.Classifier(MLP()).predictor
        >>> x = numpy.zeros((1, 3, 32, 32), numpy.float32)
        >>> caffe.export(model, [x], 'out/', graph_name='MLP')
    """
    if not isinstance(args, (list, tuple)):
        args = [args]
    if len(args) != 1:
        raise NotImplementedError(
            'caffe.export: the model must take one input, got {}'
            .format(len(args)))
    x = args[0]
    if not isinstance(x, _variable.Variable):
        x = _variable.Variable(x)
    recorder = _InputRecorder()
    with configuration.using_config('train', False), recorder:
        output = model(x)
    if isinstance(output, (list, tuple)) and len(output) == 1:
        output, = output
    if not isinstance(output, _variable.Variable):
        raise NotImplementedError(
            'caffe.export: the model must return one Variable, got {}'
            .format(type(output).__name__))
    layers = _layers(x.node, output, recorder.inputs)
    if directory is None:
        return
    with open(os.path.join(directory, 'chainer_model.prototxt'), 'w') as f:
        f.write(_prototxt(graph_name, x.shape, layers))
    if export_params:
        with open(os.path.join(directory, 'chainer_model.caffemodel'),
                  'wb') as f:
            f.write(_caffemodel(layers))
