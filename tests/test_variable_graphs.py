"""A Variable talks to the graph holding its place through one interface,
whichever graph it is (chainer_core._variable_graphs)."""
import inspect
import warnings

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import backend
from chainer_core import _variable_graphs as vg


def _methods(cls):
    return {name for name, _ in inspect.getmembers(cls, inspect.isfunction)
            if not name.startswith('_')}


def test_both_graphs_offer_the_same_methods():
    assert _methods(vg.CoreGraph) == _methods(vg.BackendGraph)


def _devices():
    out = [backend.CpuDevice()]
    try:
        out.append(backend.get_device('native:0'))
    except Exception:
        pass
    return out


@pytest.fixture(params=_devices(), ids=lambda d: str(d))
def device(request):
    return request.param


def _host(a):
    return None if a is None else numpy.asarray(backend.CpuDevice().send(a))


def test_graph_of_a_recorded_variable(device):
    x = chainer.Variable(device.send(numpy.ones((2, 3), 'f')))
    y = F.relu(x)
    graph = y._graph_of()
    if device.xp is numpy:
        assert graph is vg.CORE
    else:
        assert graph is vg.backend_graph(y._graph)
    # A leaf lives in the core's graph until an op records it.
    assert chainer.Variable(device.send(numpy.ones(2, 'f')))._graph_of() \
        is vg.CORE


def test_gradient_life_cycle(device):
    x = chainer.Variable(device.send(numpy.arange(6, dtype='f')
                                     .reshape(2, 3)))
    y = F.sum(x * x)
    y.backward()
    numpy.testing.assert_array_equal(_host(x.grad), 2 * numpy.arange(
        6, dtype='f').reshape(2, 3))
    assert x.grad_var.array is not None
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        x.zerograd()
    numpy.testing.assert_array_equal(_host(x.grad), numpy.zeros((2, 3)))
    x.cleargrad()
    assert x.grad is None and x.grad_var is None
    g = chainer.Variable(device.send(numpy.full((2, 3), 3, 'f')),
                         requires_grad=False)
    x.grad_var = g
    numpy.testing.assert_array_equal(_host(x.grad), numpy.full((2, 3), 3))


def test_creator_rank_and_unchain(device):
    x = chainer.Variable(device.send(numpy.ones(3, 'f')))
    h = F.tanh(x)
    y = F.exp(h)
    assert x.creator is None and x.rank == 0
    assert y.creator is not None and y.rank == 2
    y.unchain_backward()
    assert h.creator is None
    y2 = F.sum(F.exp(h))
    y2.backward()
    assert x.grad is None and h.grad is not None
