"""Chainer's graph patterns on native:0 give the answers of @numpy.

native:0 keeps the graph of its Variables in C++; these tests run the same
program on @numpy and native:0 and compare what Chainer code observes:
gradients, creators, graph dumps.
"""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.computational_graph as c
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import backend

pytest.importorskip('chainer_native')


@pytest.fixture(scope='module')
def native():
    try:
        return backend.get_device('native:0')
    except Exception as e:  # the plugin is installed but cannot load
        pytest.skip('native:0 is not available: {}'.format(e))


CPU = backend.CpuDevice()


def _host(a):
    return None if a is None else numpy.asarray(CPU.send(a))


def _both(native):
    return [CPU, native]


# -- unchain_backward: truncated backprop through time ---------------------

def _truncated_bptt(device, retain_graph):
    """Chainer's PTB pattern: an LSTM over 9 steps, backward and
    unchain_backward every 3 steps; the gradients of every segment."""
    rng = numpy.random.RandomState(0)
    xs = rng.randn(9, 2, 3).astype(numpy.float32)
    ts = rng.randint(0, 2, (9, 2)).astype(numpy.int32)
    numpy.random.seed(1)
    lstm = L.LSTM(3, 4)
    out = L.Linear(4, 2)
    lstm.to_device(device)
    out.to_device(device)
    params = sorted(list(lstm.namedparams(include_uninit=False))
                    + [('out' + n, p) for n, p in out.namedparams()])
    grads = []
    loss = 0
    for i in range(9):
        h = lstm(device.send(xs[i]))
        loss += F.softmax_cross_entropy(out(h), device.send(ts[i]))
        if (i + 1) % 3 == 0:
            lstm.cleargrads()
            out.cleargrads()
            loss.backward(retain_graph=retain_graph)
            loss.unchain_backward()
            loss = 0
            grads.append({n: _host(p.grad) for n, p in params})
    return grads


@pytest.mark.parametrize('retain_graph', [None, False])
def test_truncated_bptt_with_an_lstm_matches_numpy(native, retain_graph):
    expected = _truncated_bptt(CPU, retain_graph)
    actual = _truncated_bptt(native, retain_graph)
    assert len(actual) == 3
    for step, (e, a) in enumerate(zip(expected, actual)):
        assert sorted(e) == sorted(a)
        for name in e:
            numpy.testing.assert_allclose(
                a[name], e[name], rtol=1e-4, atol=1e-6,
                err_msg='segment {} {}'.format(step, name))


def _leaf_and_chain(device):
    x = chainer.Variable(device.send(numpy.array([1., 2., 3.], 'f')))
    h = F.tanh(x * x)
    return x, h


def test_unchain_backward_stops_gradients(native):
    for device in _both(native):
        x, h = _leaf_and_chain(device)
        y = F.sum(h * 2.0)
        y.unchain_backward()
        assert h.creator is None
        F.sum(h * 3.0).backward()
        assert x.grad is None, device
        numpy.testing.assert_allclose(_host(h.grad), [3, 3, 3])


def test_unchain_makes_a_leaf_that_takes_its_gradient(native):
    results = []
    for device in _both(native):
        x, h = _leaf_and_chain(device)
        y = F.sum(h * h)
        h.unchain()
        assert h.creator is None and h.requires_grad
        y.backward()
        results.append((_host(x.grad), _host(h.grad)))
    (ex, eh), (ax, ah) = results
    assert ex is None and ax is None
    numpy.testing.assert_allclose(ah, eh, rtol=1e-6)


def test_unchain_keeps_sibling_paths(native):
    # Only the unchained output stops; its sibling still reaches x.
    results = []
    for device in _both(native):
        x = chainer.Variable(device.send(numpy.array([1., 2.], 'f')))
        a, b = F.split_axis(x * 2.0, 2, 0)
        a.unchain()
        F.sum(a * 5.0 + b * 7.0).backward()
        results.append(_host(x.grad))
    numpy.testing.assert_allclose(results[1], results[0])
    numpy.testing.assert_allclose(results[0], [0, 14])


# -- creator / creator_node -------------------------------------------------

def test_creator_is_none_exactly_for_leaves(native):
    x = chainer.Variable(native.send(numpy.ones((2, 3), 'f')))
    assert x.creator is None and x.creator_node is None
    y = F.tanh(x)
    z = F.sum(y * y)
    assert y.creator is not None and z.creator is not None
    assert y.creator is y.creator_node
    assert y.creator.label == 'Tanh'
    assert z.creator.label == 'Sum'
    assert (x.rank, y.rank, z.rank) == (0, 1, 3)
    assert z.creator.rank == 2
    mul = z.creator.inputs[0].creator_node
    assert mul.inputs[0] is y.node and mul.inputs[1] is y.node
    assert mul.outputs[0]() is z.creator.inputs[0]
    # A leaf joined to the graph by an op is still a leaf.
    assert x.creator is None
    assert y.creator.inputs[0] is x.node
    with chainer.no_backprop_mode():
        assert F.tanh(x).creator is None


def test_creator_of_an_op_recorded_from_python(native):
    x = chainer.Variable(native.send(numpy.ones(3, 'f')))
    y = F.elu(x)
    assert y.creator.label == 'ELU'
    assert y.creator.inputs[0] is x.node


def test_creator_unchain_cuts_the_graph(native):
    x = chainer.Variable(native.send(numpy.ones(3, 'f')))
    y = F.tanh(x)
    y.creator.unchain()
    assert y.creator is None
    F.sum(y).backward()
    assert x.grad is None


def _graph_signature(out):
    g = c.build_computational_graph([out])
    labels = {id(n): (type(n).__mro__[-2].__name__, n.label)
              for n in g.nodes}
    # Node kinds and labels, and edges by the labels of their ends.
    nodes = sorted(
        ('variable' if isinstance(n, chainer.variable.VariableNode)
         else 'function', n.label) for n in g.nodes)
    edges = sorted((labels[id(a)][1], labels[id(b)][1]) for a, b in g.edges)
    return nodes, edges, len(g.nodes), len(g.edges)


def test_build_computational_graph_matches_numpy(native):
    sigs = []
    for device in _both(native):
        numpy.random.seed(0)
        l1 = L.Linear(3, 4).to_device(device)
        l2 = L.Linear(4, 2).to_device(device)
        x = chainer.Variable(device.send(numpy.ones((5, 3), 'f')))
        h = F.relu(l1(x))
        y = l2(h) + l2(F.sigmoid(h))
        loss = F.sum(F.elu(y) * y)
        sigs.append(_graph_signature(loss))
    assert sigs[1] == sigs[0]
    assert sigs[0][2] > 10


# -- chainer.backward on leaves ---------------------------------------------

@pytest.mark.parametrize('make', [
    lambda x: x,
    lambda x: F.broadcast_to(x, x.shape),
    lambda x: F.dropout(x),
], ids=['leaf', 'broadcast_to_same_shape', 'test_mode_dropout'])
def test_chainer_backward_from_a_leaf(native, make):
    results = []
    for device in _both(native):
        x = chainer.Variable(device.send(numpy.array([1., 2.], 'f')))
        x.grad = device.send(numpy.array([1., 1.], 'f'))
        with chainer.using_config('train', False):
            y = make(x)
        g = chainer.Variable(device.send(numpy.array([3., 4.], 'f')))
        chainer.backward([y], [g])
        results.append(_host(x.grad))
    numpy.testing.assert_allclose(results[0], [4, 5])
    numpy.testing.assert_allclose(results[1], results[0])


# -- gradients preset on outputs --------------------------------------------

def test_gradient_preset_on_a_sibling_output_matches_numpy(native):
    results = []
    for device in _both(native):
        x = chainer.Variable(device.send(numpy.array([1., 2., 3.], 'f')))
        a, b, c_ = F.split_axis(F.tanh(x), 3, 0)
        b.grad = device.send(numpy.array([5.], 'f'))
        a.grad = device.send(numpy.array([2.], 'f'))
        a.backward()
        results.append(_host(x.grad))
    numpy.testing.assert_allclose(results[1], results[0], rtol=1e-6)
    assert results[0][2] == 0


def test_gradient_preset_on_a_reached_intermediate_is_not_added(native):
    # Chainer 7 replaces the gradient held by an intermediate variable that
    # backward reaches: d/dx sum((3x)^2) = 18x, whatever h.grad held.
    x = chainer.Variable(native.send(numpy.array([1., 2.], 'f')))
    h = x * 3.0
    w = F.sum(h * h)
    h.grad = native.send(numpy.array([10., 10.], 'f'))
    w.backward()
    numpy.testing.assert_allclose(_host(x.grad), [18, 36])


# -- 0-dim inputs ------------------------------------------------------------

_ZERO_DIM_OPS = {
    'elu': lambda x: F.elu(x),
    'selu': lambda x: F.selu(x),
    'softplus': lambda x: F.softplus(x),
    'leaky_relu': lambda x: F.leaky_relu(x),
    'clipped_relu': lambda x: F.clipped_relu(x, 0.3),
    'hard_sigmoid': lambda x: F.hard_sigmoid(x),
    'clip': lambda x: F.clip(x, -0.2, 0.2),
    'logsumexp': lambda x: F.logsumexp(x),
    'squared_difference': lambda x: F.squared_difference(x, x * 2.0),
    'squared_error': lambda x: F.squared_error(x, x * 2.0),
    'absolute_error': lambda x: F.absolute_error(x, x * 2.0),
    'fmod': lambda x: F.fmod(x, x * 0.0 + 0.3),
    'linear_interpolate': lambda x: F.linear_interpolate(x, x * 2.0, x * x),
    'absolute': lambda x: F.absolute(x),
}


@pytest.mark.parametrize('name', sorted(_ZERO_DIM_OPS))
def test_zero_dim_inputs(native, name):
    results = []
    for device in _both(native):
        x = chainer.Variable(device.send(numpy.array(0.7, 'f')))
        y = _ZERO_DIM_OPS[name](x)
        assert y.shape == ()
        y.backward()
        results.append((_host(y.array), _host(x.grad)))
    (ey, eg), (ay, ag) = results
    assert type(ay) is numpy.ndarray and ay.shape == ()
    numpy.testing.assert_allclose(ay, ey, rtol=1e-6)
    numpy.testing.assert_allclose(ag, eg, rtol=1e-6)


# -- links created lazily, copies between devices ----------------------------

def test_lazily_initialised_links(native):
    results = []
    for device in _both(native):
        numpy.random.seed(2)
        lin = L.Linear(None, 3)
        lstm = L.LSTM(None, 2)
        lin.to_device(device)
        lstm.to_device(device)
        x = device.send(numpy.arange(8, dtype='f').reshape(2, 4) / 8)
        loss = F.sum(lstm(lin(x)) * 1.0) + F.sum(lstm(lin(x)))
        loss.backward()
        results.append((_host(loss.array), _host(lin.W.grad),
                        _host(lstm.upward.W.grad)))
    for e, a in zip(*results):
        numpy.testing.assert_allclose(a, e, rtol=1e-5, atol=1e-7)
