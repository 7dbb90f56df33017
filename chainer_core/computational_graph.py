"""The computational graph behind variables, as Graphviz dot (Chainer's
``chainer.computational_graph``).

Example:
    >>> y = F.relu(x) * 2
    >>> g = build_computational_graph([y])
    >>> with open('graph.dot', 'w') as f:
    ...     f.write(g.dump())

``dot -Tpng graph.dot -o graph.png`` draws it. The graph is found by
walking each variable node's ``creator_node`` and each function node's
``inputs``, so it needs a backend whose graph exposes its nodes (the core's
Python graph does).
"""
import collections

from chainer_core import variable as _variable

_DEFAULT_VARIABLE_STYLE = {'shape': 'octagon', 'fillcolor': '#E0E0E0',
                           'style': 'filled'}
_DEFAULT_FUNCTION_STYLE = {'shape': 'record', 'fillcolor': '#6495ED',
                           'style': 'filled'}
_RANKDIRS = ('TB', 'BT', 'LR', 'RL')


def _is_variable_node(node):
    return isinstance(node, _variable.VariableNode)


def _quote(value):
    return '"{}"'.format(
        str(value).replace('\\', '\\\\').replace('"', '\\"'))


class DotNode:
    """One node of the graph as a dot statement.

    Args:
        node: a variable node or a function node.
        attribute (dict): dot attributes; they override the defaults
            (``label``, and ``shape`` ``oval`` for a variable, ``box`` for
            a function).
        show_name (bool): prefix a named variable's label with its name.

    Example:
        >>> DotNode(x.node, {'shape': 'box'}).label
        '140... [label="x: (2, 3), float32",shape="box"];'
    """

    def __init__(self, node, attribute=None, show_name=True):
        self.node = node
        self.id_ = id(node)
        if _is_variable_node(node):
            label = node.label
            name = getattr(node, 'name', None)
            if show_name and name is not None:
                label = '{}: {}'.format(name, label)
            self.attribute = {'label': label, 'shape': 'oval'}
        else:
            self.attribute = {'label': node.label, 'shape': 'box'}
        if attribute is not None:
            self.attribute.update(attribute)

    @property
    def label(self):
        """The dot statement declaring the node."""
        return '{} [{}];'.format(self.id_, ','.join(
            '{}={}'.format(k, _quote(v)) for k, v in self.attribute.items()))


class ComputationalGraph:
    """Nodes and edges of a computational graph, printable as dot.

    Usually made by :func:`build_computational_graph`.

    Args:
        nodes (list): variable nodes and function nodes.
        edges (list): ``(source, destination)`` pairs of nodes: from an
            input variable to the function, from a function to its output.
        variable_style (dict): dot attributes of variable nodes.
        function_style (dict): dot attributes of function nodes.
        rankdir (str): the direction of the drawing: ``'TB'``, ``'BT'``,
            ``'LR'`` or ``'RL'``.
        remove_variable (bool): draw functions only, with an edge from a
            function to each function using one of its outputs.
        show_name (bool): show the names of named variables.
    """

    def __init__(self, nodes, edges, variable_style=None,
                 function_style=None, rankdir='TB', remove_variable=False,
                 show_name=True):
        if rankdir not in _RANKDIRS:
            raise ValueError(
                'ComputationalGraph: rankdir must be one of {}, got {!r}'
                .format(', '.join(_RANKDIRS), rankdir))
        self.nodes = nodes
        self.edges = edges
        self.variable_style = variable_style
        self.function_style = function_style
        self.rankdir = rankdir
        self.remove_variable = remove_variable
        self.show_name = show_name

    def _nodes_and_edges(self):
        if not self.remove_variable:
            return self.nodes, self.edges
        producers = {}
        for src, dst in self.edges:
            if _is_variable_node(dst):
                producers.setdefault(id(dst), []).append(src)
        edges = []
        for src, dst in self.edges:
            if _is_variable_node(src):
                for producer in producers.get(id(src), ()):
                    if (producer, dst) not in edges:
                        edges.append((producer, dst))
        nodes = [n for n in self.nodes if not _is_variable_node(n)]
        return nodes, edges

    def _to_dot(self):
        nodes, edges = self._nodes_and_edges()
        parts = ['digraph graphname{rankdir=%s;' % self.rankdir]
        for node in nodes:
            style = (self.variable_style if _is_variable_node(node)
                     else self.function_style)
            parts.append(DotNode(node, style, self.show_name).label)
        for src, dst in edges:
            parts.append('{} -> {};'.format(id(src), id(dst)))
        parts.append('}')
        return ''.join(parts)

    def dump(self, format='dot'):
        """The graph as text.

        Args:
            format (str): ``'dot'`` (the only format).

        Returns:
            str: the Graphviz source.
        """
        if format != 'dot':
            raise NotImplementedError(
                'ComputationalGraph.dump: only format=\'dot\' is supported, '
                'got {!r}'.format(format))
        return self._to_dot()


def _resolve_style(style, default, argname):
    if style == 'default':
        return dict(default)
    if style is None or isinstance(style, dict):
        return style
    raise TypeError(
        "build_computational_graph: {} must be 'default', None or a dict "
        'of dot attributes, got {!r}'.format(argname, style))


def build_computational_graph(outputs, remove_split=True,
                              variable_style='default',
                              function_style='default', rankdir='TB',
                              remove_variable=False, show_name=True):
    """The graph that computed ``outputs``.

    Args:
        outputs: a Variable or variable node, or a sequence of them.
        remove_split (bool): must be ``True`` (split nodes no longer exist).
        variable_style: dot attributes of variable nodes: ``'default'``
            (grey octagons), ``None`` (Graphviz's ovals) or a dict.
        function_style: the same for function nodes (``'default'``: blue
            records, ``None``: boxes).
        rankdir (str): ``'TB'``, ``'BT'``, ``'LR'`` or ``'RL'``.
        remove_variable (bool): leave variable nodes out, linking functions
            directly.
        show_name (bool): show the names of named variables.

    Returns:
        ComputationalGraph: its ``nodes`` (variable and function nodes,
        each once) and ``edges`` (``(input variable, function)`` and
        ``(function, output variable)`` pairs).

    Example:
        >>> x = chainer.Variable(numpy.ones((2, 3), numpy.float32), name='x')
        >>> g = build_computational_graph([F.sum(F.relu(x))])
        >>> print(g.dump())  # doctest: +ELLIPSIS
        digraph graphname{rankdir=TB;...
    """
    if not remove_split:
        raise ValueError('build_computational_graph: remove_split=False is '
                         'not supported (split nodes no longer exist)')
    variable_style = _resolve_style(variable_style, _DEFAULT_VARIABLE_STYLE,
                                    'variable_style')
    function_style = _resolve_style(function_style, _DEFAULT_FUNCTION_STYLE,
                                    'function_style')
    if isinstance(outputs, (_variable.Variable, _variable.VariableNode)):
        outputs = (outputs,)
    roots = []
    for out in outputs:
        if isinstance(out, _variable.Variable):
            out = out.node
        elif not _is_variable_node(out):
            raise TypeError(
                'build_computational_graph: outputs must hold Variables or '
                'variable nodes, got {}'.format(type(out).__name__))
        roots.append(out)

    nodes, edges, queue = [], [], collections.deque()
    seen_nodes, seen_edges = set(), set()

    def visit(node):
        if id(node) not in seen_nodes:
            seen_nodes.add(id(node))
            nodes.append(node)
            queue.append(node)

    def connect(src, dst):
        key = (id(src), id(dst))
        if key not in seen_edges:
            seen_edges.add(key)
            edges.append((src, dst))

    for node in roots:
        visit(node)
    while queue:
        node = queue.popleft()
        if _is_variable_node(node):
            creator = node.creator_node
            if creator is not None:
                connect(creator, node)
                visit(creator)
        else:
            for input_node in node.inputs:
                connect(input_node, node)
                visit(input_node)
    return ComputationalGraph(nodes, edges, variable_style, function_style,
                              rankdir, remove_variable, show_name)
