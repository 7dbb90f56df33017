"""FunctionHook.forward_result: every call's FunctionNode, all its input
Variables in order and its outputs, on every device (the ONNX exporter
reads the graph from it)."""
import numpy

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core.functions.activation.relu import ReLU


class Recorder(chainer.FunctionHook):

    name = 'Recorder'

    def __init__(self):
        self.calls = []

    def forward_result(self, function, inputs, outputs):
        self.calls.append((function, inputs, outputs))


class ChainerStyleHook:
    """A hook with Chainer's callbacks only."""

    name = 'ChainerStyleHook'

    def __init__(self):
        self.seen = []

    def added(self, function):
        pass

    def deleted(self, function):
        pass

    def forward_preprocess(self, function, in_data):
        self.seen.append(function.label)

    def forward_postprocess(self, function, in_data):
        pass


def test_inputs_in_order_with_parameters_and_constants(chainer_device):
    link = L.Linear(3, 4).to_device(chainer_device)
    x = chainer.Variable(chainer_device.send(numpy.ones((2, 3), 'f')))
    t = chainer_device.send(numpy.array([1, 3], numpy.int32))
    with Recorder() as hook:
        h = link(x)
        loss = F.softmax_cross_entropy(h, t)
    (linear, l_in, l_out), (sce, s_in, s_out) = hook.calls
    assert type(linear).__name__ == 'LinearFunction'
    assert l_in[0] is x and l_in[1] is link.W and l_in[2] is link.b
    assert l_out == (h,)
    # The labels, to which no gradient flows, are there too, as the array
    # given.
    assert type(sce).__name__ == 'SoftmaxCrossEntropy'
    assert s_in[0] is h and s_in[1].array is t
    assert s_out == (loss,)
    assert sce.ignore_label == -1


def test_without_backprop_and_for_several_outputs(chainer_device):
    x = chainer.Variable(chainer_device.send(numpy.ones((2, 6), 'f')))
    with chainer.no_backprop_mode(), Recorder() as hook:
        a, b = F.split_axis(x, 2, 1)
    (split, inputs, outputs), = hook.calls
    assert split.sections == 2 and inputs == (x,)
    assert outputs[0] is a and outputs[1] is b


def test_a_hook_without_it_still_runs(chainer_device):
    hook = ChainerStyleHook()
    x = chainer.Variable(chainer_device.send(numpy.ones(3, 'f')))
    node = ReLU()
    node.add_hook(hook)
    y, = node.apply((x,))
    assert hook.seen == ['ReLU']
    numpy.testing.assert_array_equal(
        chainer.get_device('@numpy').send(y.array), [1, 1, 1])
