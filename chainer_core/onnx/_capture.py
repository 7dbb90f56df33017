"""The graph of one forward run, as the exporter reads it.

A function hook sees every op the run applies: the
:class:`~chainer_core.FunctionNode` with its parameters, all its input
Variables in order and its output Variables
(:meth:`~chainer_core.FunctionHook.forward_result`). The graph is the part
of those calls the outputs depend on, found by walking back from the
outputs. It is read this way rather than from ``Variable.creator_node``
because a backend that records autograd itself (``native:0``) keeps in its
graph only what backward needs: neither an op's parameters (stride, pad,
...) nor its inputs that no gradient flows to (labels, masks, running
statistics) are in its nodes, while the hook sees them on every backend.
"""
from chainer_core import function_hook
from chainer_core import variable as _variable
from chainer_core.functions.array.copy import _CopyAcross


class Call:
    """One op applied during the run.

    Attributes:
        function: the FunctionNode.
        inputs (tuple of Variable): its inputs, in order.
        outputs (tuple of Variable): its outputs.
    """

    __slots__ = ('function', 'inputs', 'outputs')

    def __init__(self, function, inputs, outputs):
        self.function = function
        self.inputs = inputs
        self.outputs = outputs


class Tracer(function_hook.FunctionHook):
    """Records every op applied while it is installed (``with Tracer() as
    t: model(x)``).

    The calls keep their Variables alive, so that identities stay unique
    until the graph is read.
    """

    name = 'ONNXExportTracer'

    def __init__(self):
        self.calls = []

    def forward_result(self, function, inputs, outputs):
        if type(function) is _CopyAcross and \
                isinstance(function._x, _variable.Variable):
            # A copy into another graph (@numpy to native:0) takes a
            # stand-in of its source as input; the graph goes on from the
            # source itself.
            inputs = (function._x,)
        self.calls.append(Call(function, inputs, outputs))


def needed_calls(calls, outputs):
    """The calls that ``outputs`` (Variables) depend on, in the order they
    ran.

    Args:
        calls (list of Call): every call of the run, in order.
        outputs (list of Variable): the model's outputs.

    Returns:
        list of Call: those on a path to an output.
    """
    producer = {}
    for call in calls:
        for y in call.outputs:
            producer[id(y)] = call
    needed = set()
    stack = [producer.get(id(y)) for y in outputs]
    while stack:
        call = stack.pop()
        if call is None or id(call) in needed:
            continue
        needed.add(id(call))
        stack.extend(producer.get(id(x)) for x in call.inputs)
    return [c for c in calls if id(c) in needed]


def as_output_variables(result):
    """The outputs a model returned, as ``[(name or None, Variable)]``.

    Args:
        result: a Variable, or a list, tuple or dict of them.

    Returns:
        list of pairs: the key of a dict result as the name, else None.

    Raises:
        TypeError: for anything else, naming what was returned.
    """
    if isinstance(result, dict):
        items = list(result.items())
    elif isinstance(result, (list, tuple)):
        items = [(None, y) for y in result]
    else:
        items = [(None, result)]
    if not items:
        raise TypeError('ONNX export: the model returned no outputs '
                        '({!r})'.format(result))
    for key, y in items:
        if not isinstance(y, _variable.Variable):
            what = 'a Python scalar' if isinstance(
                y, (bool, int, float, complex)) else 'an object'
            raise TypeError(
                'ONNX export: the model must return Variables (or a list, '
                'tuple or dict of them), but {}returned {} of type {} '
                '({!r}); compute it with chainer functions so that it is '
                'part of the graph'.format(
                    '' if key is None else 'output {!r} '.format(key),
                    what, type(y).__name__, y))
    return items
