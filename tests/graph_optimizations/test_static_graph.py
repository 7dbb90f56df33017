"""chainer_core.graph_optimizations: @static_graph and @static_code run
the define-by-run code on every call, giving the results and gradients of
the undecorated code."""
import numpy
import pytest

import chainer_core as chainer
from chainer_core import graph_optimizations
from chainer_core.graph_optimizations import static_graph as sg_module
from chainer_core.graph_optimizations import static_graph_utilities
import chainer_core.functions as F
import chainer_core.links as L

static_graph = sg_module.static_graph
static_code = static_graph_utilities.static_code


class _Plain(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(3, 4)
            self.l2 = L.Linear(4, 2)

    def forward(self, x):
        self.record(x)
        return self.l2(F.tanh(self.l1(x)))

    def record(self, x):
        self.calls = getattr(self, 'calls', 0) + 1


class _StaticForward(_Plain):
    @static_graph
    def forward(self, x):
        self.record(x)
        return self.l2(F.tanh(self.l1(x)))

    @static_code
    def record(self, x):
        self.calls = getattr(self, 'calls', 0) + 1


class _StaticCall(_Plain):
    @static_graph(minimize_cache_size=False, verbosity_level=1,
                  enable_double_backprop=True, min_batch_size=3)
    def __call__(self, x):
        self.record(x)
        return self.l2(F.tanh(self.l1(x)))

    @static_code(func_name='record')
    def record(self, x):
        self.calls = getattr(self, 'calls', 0) + 1


@pytest.mark.parametrize('cls', [_StaticForward, _StaticCall])
def test_same_results_and_gradients(cls):
    rng = numpy.random.RandomState(0)
    plain, static = _Plain(), cls()
    static.copyparams(plain)
    for _ in range(3):
        x = rng.randn(5, 3).astype(numpy.float32)
        outs = []
        for model in (plain, static):
            model.cleargrads()
            xv = chainer.Variable(x)
            y = model(xv)
            F.sum(y * y).backward()
            outs.append((y.array, xv.grad, model.l1.W.grad))
        for a, b in zip(*outs):
            numpy.testing.assert_array_equal(a, b)
    assert static.calls == 3


def test_double_backprop():
    model = _StaticForward()
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    y = F.sum(model(x) ** 2)
    gx, = chainer.grad([y], [x], enable_double_backprop=True)
    gx.grad = numpy.ones_like(gx.array)
    F.sum(gx).backward()
    assert model.l1.W.grad is not None


def test_static_code_passes_inputs_and_outputs():
    @static_code
    def scale(inputs, outputs):
        outputs[0][...] = inputs[0] * 2

    out = numpy.zeros(2)
    scale(inputs=[numpy.ones(2)], outputs=[out])
    numpy.testing.assert_array_equal(out, [2, 2])


def test_names():
    assert graph_optimizations.static_code is static_code
    assert graph_optimizations.static_graph is sg_module
    node = chainer.functions.math.identity.Identity()
    x = numpy.ones(2)
    y, = static_graph_utilities.static_forward_optimizations(node, (x,))
    numpy.testing.assert_array_equal(y, x)


@pytest.mark.parametrize('call', [
    lambda: static_graph(unknown=1),
    lambda: static_graph(lambda self: None, 5),
    lambda: static_code(unknown=1),
    lambda: static_code(3),
])
def test_bad_arguments(call):
    with pytest.raises(TypeError, match='static_'):
        call()
