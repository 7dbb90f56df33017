"""Write a computational graph as Graphviz source (and PNG if ``dot`` is
installed)."""
import shutil

import chainer_core

from chainer_rl.misc.is_return_code_zero import is_return_code_zero


def is_graphviz_available():
    """True if Graphviz's ``dot`` command is on the PATH."""
    return shutil.which('dot') is not None


def draw_computational_graph(outputs, filepath):
    """Write the graph leading to ``outputs`` to ``filepath + '.gv'``, and
    render it to ``filepath + '.png'`` when Graphviz is available.

    Args:
        outputs: a Variable or a list of Variables.
        filepath (str): output path without extension.
    """
    if isinstance(outputs, chainer_core.Variable):
        outputs = [outputs]
    graph = chainer_core.computational_graph.build_computational_graph(
        outputs)
    gv_path = filepath + '.gv'
    with open(gv_path, 'w') as f:
        f.write(graph.dump())
    if is_graphviz_available():
        is_return_code_zero(['dot', '-Tpng', gv_path, '-o',
                             filepath + '.png'])
