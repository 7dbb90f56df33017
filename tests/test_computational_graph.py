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


class _MLP(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = chainer.links.Linear(3, 4)
            self.l2 = chainer.links.Linear(4, 2)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


def _train(tmp_path, extension):
    from chainer_core import training
    rng = numpy.random.RandomState(0)
    # 7 examples in batches of 4: the second batch has 3, so the file
    # shows which iteration it was written at.
    data = chainer.datasets.TupleDataset(
        rng.rand(7, 3).astype(numpy.float32),
        (numpy.arange(7) % 2).astype(numpy.int32))
    model = chainer.links.Classifier(_MLP())
    opt = chainer.optimizers.SGD()
    opt.setup(model)
    it = chainer.iterators.SerialIterator(data, 4, shuffle=False)
    trainer = training.Trainer(training.StandardUpdater(it, opt),
                               (2, 'iteration'), out=str(tmp_path))
    trainer.extend(extension)
    trainer.run()


def test_dump_graph_extension(tmp_path):
    from chainer_core.training import extensions
    _train(tmp_path, extensions.dump_graph('main/loss'))
    head, nodes, edges = _parse((tmp_path / 'cg.dot').read_text())
    assert head == 'digraph graphname{rankdir=TB;'
    # What Chainer 7.8.1 writes for the same model and first batch.
    assert nodes == sorted(['[label="%s"%s' % (label, _V) for label in [
        '(4), int32', '(4, 2), float32', '(4, 3), float32',
        '(4, 4), float32', '(4, 4), float32', 'W: (2, 4), float32',
        'W: (4, 3), float32', 'b: (2), float32', 'b: (4), float32',
        'float32']] + ['[label="%s"%s' % (label, _F) for label in [
            'LinearFunction', 'LinearFunction', 'ReLU',
            'SoftmaxCrossEntropy']])
    assert edges == [
        ('(4), int32', 'SoftmaxCrossEntropy'),
        ('(4, 2), float32', 'SoftmaxCrossEntropy'),
        ('(4, 3), float32', 'LinearFunction'),
        ('(4, 4), float32', 'LinearFunction'), ('(4, 4), float32', 'ReLU'),
        ('LinearFunction', '(4, 2), float32'),
        ('LinearFunction', '(4, 4), float32'),
        ('ReLU', '(4, 4), float32'), ('SoftmaxCrossEntropy', 'float32'),
        ('W: (2, 4), float32', 'LinearFunction'),
        ('W: (4, 3), float32', 'LinearFunction'),
        ('b: (2), float32', 'LinearFunction'),
        ('b: (4), float32', 'LinearFunction')]


def test_dump_graph_extension_styles_and_out_name(tmp_path):
    from chainer_core.training import extensions
    _train(tmp_path, extensions.dump_graph(
        'main/loss', out_name='g.dot', variable_style={'shape': 'box'}))
    _, nodes, _ = _parse((tmp_path / 'g.dot').read_text())
    assert '[label="float32",shape="box"]' in nodes
    assert '[label="ReLU"' + _F in nodes
