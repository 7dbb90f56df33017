"""chainer_core.computational_graph: dot output compared with what Chainer
7.8.1 writes for the same graph (node ids differ from run to run, so nodes
and edges are compared through their labels).

Runs on @numpy: the graph is walked through ``creator_node`` and
``inputs``, which the core's Python graph exposes.
"""
import re

import numpy
import pytest

import chainer_core as chainer
from chainer_core import computational_graph as c
import chainer_core.functions as F

_V = ',shape="octagon",fillcolor="#E0E0E0",style="filled"]'
_F = ',shape="record",fillcolor="#6495ED",style="filled"]'


def _graph():
    x = chainer.Variable(numpy.ones((2, 4), numpy.float32), name='x')
    h = F.relu(x)
    a, b = F.split_axis(h, 2, 1)
    z = F.sum(F.concat((a, b)))
    z.name = 'loss'
    return x, z


def _parse(dot):
    assert dot.endswith('}')
    head = dot[:dot.index(';') + 1]
    stmts = re.findall(r'(\d+) (\[[^\]]*\]);', dot)
    labels = {i: re.match(r'\[label="([^"]*)"', a).group(1)
              for i, a in stmts}
    edges = re.findall(r'(\d+) -> (\d+);', dot)
    return (head, sorted(a for _, a in stmts),
            sorted((labels[s], labels[d]) for s, d in edges))


def test_default_styles():
    _, z = _graph()
    head, nodes, edges = _parse(c.build_computational_graph([z]).dump())
    assert head == 'digraph graphname{rankdir=TB;'
    assert nodes == sorted(
        ['[label="(2, 2), float32"' + _V] * 2
        + ['[label="(2, 4), float32"' + _V] * 2
        + ['[label="Concat"' + _F, '[label="ReLU"' + _F,
           '[label="SplitAxis"' + _F, '[label="Sum"' + _F,
           '[label="loss: float32"' + _V, '[label="x: (2, 4), float32"' + _V])
    assert edges == [
        ('(2, 2), float32', 'Concat'), ('(2, 2), float32', 'Concat'),
        ('(2, 4), float32', 'SplitAxis'), ('(2, 4), float32', 'Sum'),
        ('Concat', '(2, 4), float32'), ('ReLU', '(2, 4), float32'),
        ('SplitAxis', '(2, 2), float32'), ('SplitAxis', '(2, 2), float32'),
        ('Sum', 'loss: float32'), ('x: (2, 4), float32', 'ReLU')]


def test_remove_variable():
    _, z = _graph()
    _, nodes, edges = _parse(
        c.build_computational_graph([z], remove_variable=True).dump())
    assert nodes == ['[label="Concat"' + _F, '[label="ReLU"' + _F,
                     '[label="SplitAxis"' + _F, '[label="Sum"' + _F]
    assert edges == [('Concat', 'Sum'), ('ReLU', 'SplitAxis'),
                     ('SplitAxis', 'Concat')]


def test_graphviz_styles_rankdir_and_no_names():
    _, z = _graph()
    head, nodes, _ = _parse(c.build_computational_graph(
        [z], variable_style=None, function_style=None, rankdir='LR',
        show_name=False).dump())
    assert head == 'digraph graphname{rankdir=LR;'
    assert nodes == sorted(
        ['[label="(2, 2), float32",shape="oval"]'] * 2
        + ['[label="(2, 4), float32",shape="oval"]'] * 3
        + ['[label="Concat",shape="box"]', '[label="ReLU",shape="box"]',
           '[label="SplitAxis",shape="box"]', '[label="Sum",shape="box"]',
           '[label="float32",shape="oval"]'])


def test_custom_style_overrides_defaults():
    x = chainer.Variable(numpy.ones(2, numpy.float32))
    dot = c.build_computational_graph(
        [F.relu(x)], variable_style={'color': 'red'},
        function_style={'shape': 'box', 'label': 'F'}).dump()
    _, nodes, _ = _parse(dot)
    assert nodes == ['[label="(2), float32",shape="oval",color="red"]'] * 2 \
        + ['[label="F",shape="box"]']


def test_nodes_and_edges():
    x, z = _graph()
    g = c.build_computational_graph(z)
    assert len(g.nodes) == 10 and len(g.edges) == 10
    assert z.node in g.nodes and x.node in g.nodes
    assert (z.creator_node, z.node) in g.edges
    assert c.build_computational_graph([z.node]).dump().count('->') == 10


def test_lone_variable():
    x = chainer.Variable(numpy.ones((4, 3), numpy.float32), name='x')
    dot = c.build_computational_graph([x]).dump()
    assert dot == ('digraph graphname{rankdir=TB;%d [label="x: (4, 3), '
                   'float32"%s;}' % (id(x.node), _V))


def test_dot_node():
    x = chainer.Variable(numpy.ones((4, 3), numpy.float32), name='x')
    d = c.DotNode(x.node, {'shape': 'box', 'label': 'X'})
    assert d.label == '%d [label="X",shape="box"];' % id(x.node)
    d = c.DotNode(x.node, None, True)
    assert d.label == '%d [label="x: (4, 3), float32",shape="oval"];' % (
        id(x.node))


def test_quotes_in_names_are_escaped():
    x = chainer.Variable(numpy.ones(2, numpy.float32), name='q"u')
    assert r'label="q\"u: (2), float32"' in \
        c.build_computational_graph([x]).dump()


@pytest.mark.parametrize('kwargs,error,match', [
    ({'remove_split': False}, ValueError, 'remove_split'),
    ({'rankdir': 'XX'}, ValueError, 'rankdir'),
    ({'variable_style': 'fancy'}, TypeError, 'variable_style'),
])
def test_bad_arguments(kwargs, error, match):
    _, z = _graph()
    with pytest.raises(error, match=match):
        c.build_computational_graph([z], **kwargs)


def test_bad_outputs_and_format():
    with pytest.raises(TypeError, match='outputs'):
        c.build_computational_graph([numpy.ones(2)])
    _, z = _graph()
    with pytest.raises(NotImplementedError, match='dot'):
        c.build_computational_graph([z]).dump('png')
