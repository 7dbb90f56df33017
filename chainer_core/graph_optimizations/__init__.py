"""Static-graph decorators (Chainer's ``chainer.graph_optimizations``).

``@static_graph`` marks a chain's ``__call__``/``forward`` as computing the
same graph on every call, and ``@static_code`` marks code inside it that
has to run on every call. Chainer uses these marks to replay a recorded
schedule instead of running Python code; here every call runs the
define-by-run code itself, so results and gradients are those of the
undecorated code.
"""
from chainer_core.graph_optimizations import static_graph  # NOQA
from chainer_core.graph_optimizations import static_graph_utilities  # NOQA
from chainer_core.graph_optimizations.static_graph_utilities import (  # NOQA
    static_code)
