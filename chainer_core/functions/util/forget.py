"""forget: run a function without keeping its intermediate results, and
run it again when its gradient is needed (trading computation for
memory)."""
from chainer_core import function_node
from chainer_core.configuration import config, using_config
from chainer_core.variable import Variable


def _as_outputs(outs):
    """``outs`` (what ``func`` returned) as a tuple of Variables, or a
    RuntimeError naming what it was."""
    if isinstance(outs, Variable):
        return (outs,)
    if isinstance(outs, tuple) and outs and all(
            isinstance(y, Variable) for y in outs):
        return outs
    if isinstance(outs, tuple):
        got = 'a tuple of ({})'.format(', '.join(
            type(y).__name__ for y in outs))
    else:
        got = type(outs).__name__
    raise RuntimeError('forget: func must return a Variable or a non-empty '
                       'tuple of Variables, got {}'.format(got))


class Forget(function_node.FunctionNode):
    """The outputs of ``func`` with no graph inside: the backward pass
    calls ``func`` again on the inputs and differentiates that."""

    def __init__(self, func):
        if not callable(func):
            raise TypeError('forget: func must be callable, got {}'.format(
                type(func).__name__))
        self.func = func

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        with using_config('enable_backprop', False):
            outs = _as_outputs(self.func(*[Variable(x) for x in inputs]))
        return tuple(y.array for y in outs)

    def backward(self, indexes, grad_outputs):
        xs = self.get_retained_inputs()
        targets = [xs[i] for i in indexes]
        # Backward runs with backprop enabled only for double backprop;
        # the recomputation needs a graph either way.
        double = config.enable_backprop
        with using_config('enable_backprop', True):
            outs = _as_outputs(self.func(*xs))
        pairs = [(y, gy) for y, gy in zip(outs, grad_outputs)
                 if gy is not None]
        gxs = function_node.grad([y for y, _ in pairs], targets,
                   [gy for _, gy in pairs], enable_double_backprop=double)
        return tuple(gxs)


def forget(func, *xs):
    """Calls ``func`` on ``xs`` without keeping the intermediate arrays of
    its graph, and calls it again in the backward pass.

    The result has the values of ``func(*xs)``; only the inputs are kept
    for backprop, so deep stacks of cheap layers fit in less memory at the
    cost of running their forward pass twice. ``func`` must depend on its
    arguments only (any random choice it makes, e.g. dropout's mask, is
    drawn again in the backward pass).

    Args:
        func (callable): takes ``len(xs)`` Variables and returns a Variable
            or a tuple of Variables.
        *xs (Variable or array): the arguments of ``func``.

    Returns:
        Variable or tuple of Variables: what ``func`` returns.

    .. admonition:: Example

        >>> x = chainer.Variable(np.array([1.0, 2.0]))
        >>> y = F.forget(lambda a: F.sum(F.exp(a) * a), x)
        >>> y.backward()
        >>> x.grad  # exp(x) (1 + x)
        array([ 5.43656366, 22.16716829])
    """
    outs = Forget(func).apply(xs)
    return outs[0] if len(outs) == 1 else outs
