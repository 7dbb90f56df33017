"""DumpGraph: write the computational graph behind a reported variable
as a Graphviz dot file (Chainer's ``extensions.dump_graph``)."""
import os

from chainer_core import computational_graph
from chainer_core.configuration import config
from chainer_core.training import extension
from chainer_core.training.extensions import _util
from chainer_core.variable import Variable


class DumpGraph(extension.Extension):
    """Write the graph behind the observed variable ``root_name`` (e.g.
    ``'main/loss'``) to ``<out>/<filename>`` in Graphviz dot format, once,
    after the first iteration (``dot -Tpng cg.dot -o cg.png`` draws it).

    The reporter normally copies reported variables without their graph;
    this extension turns ``keep_graph_on_report`` on from its
    :meth:`initialize` until it has written the file.

    Args:
        root_name (str): the observation key of the variable.
        filename (str): the output file (``cg.dot``; ``out_name`` is its
            older spelling).
        variable_style (dict): dot attributes of variable nodes; ``None``
            gives grey octagons.
        function_style (dict): dot attributes of function nodes; ``None``
            gives blue records.

    Example:
        >>> trainer.extend(extensions.dump_graph('main/loss'))
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
        self._variable_style = (
            'default' if variable_style is None else variable_style)
        self._function_style = (
            'default' if function_style is None else function_style)
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
            dot = computational_graph.build_computational_graph(
                [var], variable_style=self._variable_style,
                function_style=self._function_style).dump()
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


dump_graph = DumpGraph
