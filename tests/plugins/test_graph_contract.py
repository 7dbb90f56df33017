"""The graph delegation contract: validation of a
backend's graph and of graph kernels, with clear errors naming the plugin.
How a working graph behaves is tested with chainer-native, which has one."""
import numpy
import pytest

import backend_api
import chainer_core
import chainer_core.functions as F

INCOMPLETE_GRAPH = '''
class HalfGraph:
    def leaf(self, array):
        return array


Backend.get_graph = lambda self: HalfGraph()
'''

BAD_GRAPH_KERNEL = '''
@hookimpl
def chainer_core_register_kernels(registry):
    registry.register_graph_kernel('ReLU', NAME, lambda node, xs: None)
'''


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


def test_graph_kernel_needs_a_node_class(sandbox):
    sandbox.add_backend('tgraph', api_version=(2, 0), extra=BAD_GRAPH_KERNEL)
    with pytest.raises(backend_api.PluginError) as info:
        chainer_core.get_device('tgraph:0')
    message = str(info.value.__cause__ or info.value)
    assert 'tgraph-dist' in message and 'chainer_core_register_kernels' \
        in message and 'FunctionNode class' in message


def test_backend_without_graph_keeps_the_core_graph(sandbox):
    sandbox.add_backend('tgraph', api_version=(2, 0))
    device = chainer_core.get_device('tgraph:0')
    x = chainer_core.Variable(device.send(numpy.array([-1.0, 2.0])))
    y = F.relu(x)
    assert x._graph is None and y.creator is not None
    F.sum(y).backward()
    numpy.testing.assert_array_equal(numpy.asarray(x.grad), [0.0, 1.0])
