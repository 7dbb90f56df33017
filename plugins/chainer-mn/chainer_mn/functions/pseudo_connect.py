"""pseudo_connect: tie a variable to a delegate so that backprop reaches
both."""
from chainer_core import backend
from chainer_core.function_node import FunctionNode
from chainer_core.variable import Variable
from chainer_mn.functions import _util


class PseudoConnect(FunctionNode):
    """Outputs its inputs after the first (the delegate) unchanged; backward
    passes their gradients through and gives the delegate a zero
    gradient, so that backprop also continues behind the delegate."""

    def forward(self, inputs):
        self._delegate_meta = (inputs[0].shape, inputs[0].dtype)
        self._xp = backend.get_array_module(inputs[0])
        return tuple(inputs[1:])

    def backward(self, target_input_indexes, grad_outputs):
        out = []
        for i in target_input_indexes:
            if i == 0:
                out.append(Variable(self._xp.zeros(*self._delegate_meta),
                                    requires_grad=False))
            else:
                out.append(grad_outputs[i - 1])
        return tuple(out)


def pseudo_connect(delegate_variable, *actual_variables):
    """The ``actual_variables``, connected in the graph behind
    ``delegate_variable``.

    A process of a model-parallel job may compute several pieces that are
    not connected by the graph: a :func:`~chainer_mn.functions.send`
    whose delegate variable no one uses, say, followed by a piece that
    produces the loss. Backprop from the loss would never reach the send
    (and the peer would wait forever for its gradient). ``pseudo_connect``
    returns variables with the values of ``actual_variables`` whose
    backward passes their gradients through unchanged and also gives
    ``delegate_variable`` a (zero) gradient, so backprop continues into
    the piece behind it afterwards.

    Args:
        delegate_variable (Variable): the delegate of an earlier piece
            (None: no delegate).
        actual_variables (Variable): the values to return.

    Returns:
        tuple of ~chainer_core.Variable: variables with the values of
        ``actual_variables``.
    """
    if not actual_variables:
        raise ValueError('chainer_mn.functions.pseudo_connect: no '
                         'actual_variables given')
    if delegate_variable is None:
        xp = backend.get_array_module(*actual_variables)
        delegate_variable = Variable(_util.delegate_array(xp),
                                     requires_grad=False)
    return PseudoConnect().apply((delegate_variable,) + actual_variables)
