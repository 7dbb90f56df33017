"""DumpGraph: write the computational graph behind a reported variable
as a Graphviz dot file."""
import os

from chainer_core.configuration import config
from chainer_core.training import extension
from chainer_core.training.extensions import _util
from chainer_core.variable import Variable

_VAR_STYLE = {'shape': 'octagon', 'fillcolor': '#E0E0E0', 'style': 'filled'}
_FUNC_STYLE = {'shape': 'record', 'fillcolor': '#6495ED', 'style': 'filled'}


def _attributes(label, style):
    items = [('label', label)] + sorted(style.items())
    return ','.join('{}="{}"'.format(
        k, str(v).replace('\\', '\\\\').replace('"', '\\"'))
        for k, v in items)


def _variable_label(node):
    shape_dtype = node.label
    if node.name:
        return '{}: {}'.format(node.name, shape_dtype)
    return shape_dtype


def dump_graph_dot(root, variable_style=None, function_style=None):
    """The dot source of the graph behind the Variable ``root``: its
    variable nodes and function nodes, found by walking each variable
    node's ``creator_node`` and each function node's ``inputs``, with edges
    from inputs to functions and from functions to their outputs."""
    variable_style = _VAR_STYLE if variable_style is None else \
        variable_style
    function_style = _FUNC_STYLE if function_style is None else \
        function_style
    nodes = {}
    edges = []
    stack = [root.node]
    seen = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if hasattr(node, 'creator_node'):
            nodes[id(node)] = _attributes(_variable_label(node),
                                          variable_style)
            creator = node.creator_node
            if creator is not None:
                edges.append((id(creator), id(node)))
                stack.append(creator)
        else:
            nodes[id(node)] = _attributes(node.label, function_style)
            for input_node in node.inputs or ():
                edges.append((id(input_node), id(node)))
                stack.append(input_node)
    lines = ['digraph graphname{rankdir=TB;']
    for node_id, attrs in nodes.items():
        lines.append('{} [{}];'.format(node_id, attrs))
    for src, dst in sorted(set(edges)):
        lines.append('{} -> {};'.format(src, dst))
    lines.append('}')
    return '\n'.join(lines) + '\n'


class DumpGraph(extension.Extension):
    """Write the graph behind the observed variable ``root_name`` (e.g.
    ``'main/loss'``) to ``<out>/<filename>`` in Graphviz dot format, once,
    at the first iteration (``dot -Tpng cg.dot -o cg.png`` draws it).

    The reporter normally copies reported variables without their graph;
    this extension turns ``keep_graph_on_report`` on from its
    :meth:`initialize` until it has written the file.

    Args:
        root_name (str): the observation key of the variable.
        filename (str): the output file (``cg.dot``).
        variable_style (dict): dot attributes of variable nodes.
        function_style (dict): dot attributes of function nodes.
    """

    default_name = 'dump_graph'
    priority = extension.PRIORITY_READER

    def __init__(self, root_name, filename=None, variable_style=None,
                 function_style=None, **kwargs):
        out_name = kwargs.pop('out_name', 'cg.dot')
        if kwargs:
            raise TypeError('DumpGraph: unexpected arguments {}'.format(
                sorted(kwargs)))
        self._root_name = root_name
        self._filename = filename or out_name
        self._variable_style = variable_style
        self._function_style = function_style
        self._original_flag = None
        self._flag_called = False

    def initialize(self, trainer):
        if not self._flag_called:
            self._original_flag = config.keep_graph_on_report
            config.keep_graph_on_report = True

    def trigger(self, trainer):
        return not self._flag_called

    def __call__(self, trainer):
        if self._flag_called:
            return
        try:
            if self._root_name not in trainer.observation:
                raise KeyError('DumpGraph: {!r} is not in the observation '
                               '(observed: {})'.format(
                                   self._root_name,
                                   sorted(trainer.observation)))
            var = trainer.observation[self._root_name]
            if not isinstance(var, Variable):
                raise TypeError('DumpGraph: the observed {!r} is a {}, not '
                                'a Variable'.format(self._root_name,
                                                    type(var).__name__))
            dot = dump_graph_dot(var, self._variable_style,
                                 self._function_style)
            _util.replace_atomic(os.path.join(trainer.out, self._filename),
                                 lambda f: f.write(dot))
        finally:
            self._restore()
            self._flag_called = True

    def _restore(self):
        if self._original_flag is not None:
            config.keep_graph_on_report = self._original_flag
            self._original_flag = None

    def finalize(self):
        self._restore()

    def serialize(self, serializer):
        self._flag_called = bool(serializer('_flag_called', self._flag_called))
