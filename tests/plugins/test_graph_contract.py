"""The graph delegation contract: validation of a backend's graph and of
graph kernels, with clear errors naming the plugin, and how the core calls
a graph kernel: by its declared name, with the op's label and declared
parameters, falling back to the op's forward when it declines. How a
working graph computes gradients is tested with chainer-native, which has
one."""
import numpy
import pytest

import backend_api
import chainer_core
import chainer_core.functions as F
from chainer_core._runtime import graphs
from chainer_core.functions.activation.relu import ReLU
from chainer_core.utils import type_check

INCOMPLETE_GRAPH = '''
class HalfGraph:
    def leaf(self, array):
        return array


Backend.get_graph = lambda self: HalfGraph()
'''

# A graph that only records which ops it was given: enough to see which
# route an op took. Graph arrays are views marked `in_graph`.
RECORDING_GRAPH = '''
graph_calls = []
recorded = []


class RecordingGraph:
    def leaf(self, array):
        view = array.view(Array)
        view.in_graph = True
        return view

    def detach(self, array):
        return array.view(Array)

    def requires_grad(self, array):
        return getattr(array, 'in_graph', False)

    def get_grad(self, array, keep_graph):
        return None

    def set_grad(self, array, grad):
        pass

    def backward(self, array, retain_grad, enable_double_backprop,
                 retain_graph):
        raise NotImplementedError

    def grad(self, outputs, inputs, grad_outputs, retain_grad,
             enable_double_backprop, retain_graph):
        raise NotImplementedError

    def record(self, label, inputs, outputs, backward):
        recorded.append(label)
        return None, tuple(self.leaf(y) for y in outputs)

    def retained_output(self, handle, index, data):
        return self.leaf(data)


GRAPH = RecordingGraph()
Backend.get_graph = lambda self: GRAPH


def graph_softmax(label, inputs, axis):
    graph_calls.append(('softmax', label, axis))
    e = numpy.exp(inputs[0])
    return GRAPH.leaf(e / e.sum(axis=axis, keepdims=True)),


def graph_relu(label, inputs):
    graph_calls.append(('relu', label))
    return NotImplemented


def graph_max_pooling(label, inputs, ksize, stride, pad, cover_all):
    graph_calls.append(('max_pooling_nd', label, ksize, stride, pad,
                        cover_all))
    return NotImplemented


def graph_exp(label, inputs):
    return None


@hookimpl
def chainer_core_register_kernels(registry):
    registry.register_kernel('relu', NAME, relu)
    registry.register_graph_kernel('softmax', NAME, graph_softmax)
    registry.register_graph_kernel('relu', NAME, graph_relu)
    registry.register_graph_kernel('max_pooling_nd', NAME, graph_max_pooling)
    registry.register_graph_kernel('exp', NAME, graph_exp)
'''


def _refusal(sandbox, registration):
    sandbox.add_backend('tgraph', extra='''
        @hookimpl
        def chainer_core_register_kernels(registry):
            {}
        '''.format(registration))
    with pytest.raises(backend_api.PluginError) as info:
        chainer_core.get_device('tgraph:0')
    message = str(info.value.__cause__ or info.value)
    assert 'tgraph-dist' in message
    assert 'chainer_core_register_kernels' in message
    return message


def test_incomplete_graph_is_refused_naming_the_backend(sandbox):
    sandbox.add_backend('tgraph', api_version=(2, 0), extra=INCOMPLETE_GRAPH)
    device = chainer_core.get_device('tgraph:0')
    x = device.send(numpy.ones(3, numpy.float32))
    with pytest.raises(backend_api.PluginError) as info:
        chainer_core.Variable(x)
    message = str(info.value)
    for part in ("backend 'tgraph'", 'get_graph()', 'backward', 'record',
                 'CHAINER_DEVICE=@numpy'):
        assert part in message


def test_unknown_graph_kernel_name_is_refused(sandbox):
    message = _refusal(sandbox, "registry.register_graph_kernel("
                                "'ReLU', NAME, lambda label, inputs: None)")
    assert "unknown graph kernel 'ReLU'" in message
    assert 'python -m chainer_core kernels' in message


def test_graph_kernel_class_key_is_refused(sandbox):
    message = _refusal(sandbox, "from chainer_core.functions.activation"
                                ".relu import ReLU; "
                                "registry.register_graph_kernel("
                                "ReLU, NAME, lambda node, inputs: None)")
    assert 'unknown graph kernel' in message and 'ReLU' in message


@pytest.mark.parametrize('fn, missing', [
    ('lambda label, inputs: None', 'axis'),
    ('lambda node, inputs, axis, extra: None', 'extra'),
    ('lambda inputs: None', ''),
])
def test_graph_kernel_that_cannot_take_the_parameters_is_refused(
        sandbox, fn, missing):
    message = _refusal(sandbox, "registry.register_graph_kernel("
                                "'softmax', NAME, {})".format(fn))
    assert "graph kernel 'softmax'" in message
    assert 'fn(label, inputs, axis)' in message
    assert missing in message


def test_graph_kernel_taking_keywords_is_accepted(sandbox):
    sandbox.add_backend('tgraph', extra='''
        @hookimpl
        def chainer_core_register_kernels(registry):
            registry.register_graph_kernel(
                'convolution_nd', NAME, lambda label, inputs, **params: None)
        ''')
    chainer_core.get_device('tgraph:0')
    assert 'tgraph' in graphs._specs['convolution_nd'].implementations


def test_graph_kernel_gets_the_label_and_declared_parameters(sandbox):
    plugin = _recording_backend(sandbox)
    x = _variable([[0.0, 1.0], [2.0, 3.0]])
    y = F.softmax(x, axis=0)
    assert plugin.graph_calls == [('softmax', 'Softmax', 0)]
    assert plugin.recorded == []
    e = numpy.exp([[0.0, 1.0], [2.0, 3.0]])
    numpy.testing.assert_allclose(numpy.asarray(y.array),
                                  e / e.sum(axis=0), rtol=1e-6)


def test_declined_graph_kernel_runs_the_op_as_a_recorded_node(sandbox):
    plugin = _recording_backend(sandbox)
    y = F.relu(_variable([-1.0, 2.0]))
    assert plugin.graph_calls == [('relu', 'ReLU')]
    # The op's forward ran, through the backend's ordinary kernel.
    assert plugin.kernel_calls == ['relu']
    assert plugin.recorded == ['ReLU']
    numpy.testing.assert_array_equal(numpy.asarray(y.array), [0.0, 2.0])


def test_parameters_are_normalised_and_some_calls_never_offered(sandbox):
    plugin = _recording_backend(sandbox)
    x = _variable(numpy.arange(16.0).reshape(1, 1, 4, 4))
    F.max_pooling_2d(x, 2, stride=[2, 1])
    assert plugin.graph_calls == [
        ('max_pooling_nd', 'MaxPooling2D', (2, 2), (2, 1), (0, 0), True)]
    # The indexes max pooling returns come from its own forward only.
    y, indexes = F.max_pooling_2d(x, 2, return_indices=True)
    assert len(plugin.graph_calls) == 1
    assert plugin.recorded == ['MaxPooling2D', 'MaxPooling2D']


def test_kernel_checking_its_inputs_runs_before_the_type_check(sandbox):
    # relu's graph kernel is declared to check its inputs: it is offered
    # the call first, and the type check reports the input it declines.
    plugin = _recording_backend(sandbox)
    with pytest.raises(type_check.InvalidType) as info:
        F.relu(_variable(numpy.array([1, 2], numpy.int32)))
    assert plugin.graph_calls == [('relu', 'ReLU')]
    assert info.value.expect == "x.dtype.kind == 'f'"


def test_graph_kernel_named_by_module_and_attribute(sandbox):
    sandbox.add_backend('tgraph', module='tgraph_plugin',
                        extra=RECORDING_GRAPH.replace(
                            "'softmax', NAME, graph_softmax",
                            "'softmax', NAME, 'tgraph_plugin:graph_softmax'"))
    chainer_core.get_device('tgraph:0')
    import tgraph_plugin
    F.softmax(_variable([[0.0, 1.0]]))
    assert tgraph_plugin.graph_calls == [('softmax', 'Softmax', 1)]


def test_graph_kernel_named_by_a_missing_attribute_fails_on_first_use(
        sandbox):
    sandbox.add_backend('tgraph', module='tgraph_plugin',
                        extra=RECORDING_GRAPH.replace(
                            "'softmax', NAME, graph_softmax",
                            "'softmax', NAME, 'tgraph_plugin:no_such_fn'"))
    x = _variable([[0.0, 1.0]])
    with pytest.raises(backend_api.PluginError) as info:
        F.softmax(x)
    message = str(info.value)
    for part in ("graph kernel 'softmax' of backend 'tgraph'",
                 'tgraph-dist', "'tgraph_plugin:no_such_fn'",
                 'CHAINER_DEVICE=@numpy'):
        assert part in message


def test_graph_kernel_named_without_an_attribute_is_refused(sandbox):
    message = _refusal(sandbox, "registry.register_graph_kernel("
                                "'softmax', NAME, 'tgraph_plugin')")
    assert "graph kernel 'softmax'" in message
    assert "'module:attribute'" in message


def test_graph_kernel_returning_no_tuple_is_an_error(sandbox):
    _recording_backend(sandbox)
    with pytest.raises(TypeError) as info:
        F.exp(_variable([1.0]))
    message = str(info.value)
    assert "graph kernel 'exp' of backend 'tgraph' returned NoneType" \
        in message and 'NotImplemented' in message


def test_graph_kernels_only_with_backprop(sandbox):
    plugin = _recording_backend(sandbox)
    with chainer_core.no_backprop_mode():
        F.softmax(_variable([[1.0, 2.0]]))
    assert plugin.graph_calls == [] and plugin.recorded == []


def test_subclass_computing_differently_drops_the_graph_kernel():
    class Leaky(ReLU):
        def forward(self, inputs):
            return inputs[0] * 2,

    class Renamed(ReLU):
        pass

    assert ReLU.graph_kernel == 'relu'
    assert Leaky.graph_kernel is None and Renamed.graph_kernel == 'relu'


def test_backend_without_graph_keeps_the_core_graph(sandbox):
    sandbox.add_backend('tgraph', api_version=(2, 0))
    device = chainer_core.get_device('tgraph:0')
    x = chainer_core.Variable(device.send(numpy.array([-1.0, 2.0])))
    y = F.relu(x)
    assert x._graph is None and y.creator is not None
    F.sum(y).backward()
    numpy.testing.assert_array_equal(numpy.asarray(x.grad), [0.0, 1.0])


def _recording_backend(sandbox):
    sandbox.add_backend('tgraph', module='tgraph_plugin',
                        extra=RECORDING_GRAPH)
    chainer_core.get_device('tgraph:0')
    import tgraph_plugin
    return tgraph_plugin


def _variable(values):
    device = chainer_core.get_device('tgraph:0')
    return chainer_core.Variable(device.send(numpy.asarray(values)))
