"""dstack: join arrays depth-wise (along the third axis)."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.functions.array.concat import check_same_except
from chainer_core.functions.array.hstack import split_back
from chainer_core.utils import type_check


@kernels.declare('dstack')
def _dstack(xp, xs):
    """numpy.dstack of the arrays xs (a tuple): along axis 2, after making
    each at least 3-D ((N,) -> (1, N, 1), (M, N) -> (M, N, 1))."""
    return xp.dstack(xs)


class Dstack(function_node.FunctionNode):
    """Join arrays along the third axis (after making them 3-D)."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check.argname(in_types, _util.input_names(in_types, 'xs'))
        if type_check.eval(in_types[0].ndim) <= 2:
            for t in in_types[1:]:
                type_check.expect(t.dtype == in_types[0].dtype,
                                  t.shape == in_types[0].shape)
        else:
            check_same_except(in_types, 2)

    def forward(self, inputs):
        return kernels.lookup('dstack', inputs[0])(inputs),

    def backward(self, indexes, grad_outputs):
        nodes = self.inputs
        sizes = [n.shape[2] if len(n.shape) >= 3 else 1 for n in nodes]
        gxs = split_back(grad_outputs[0], nodes, 2, sizes)
        return tuple(gxs[i] for i in indexes)


def dstack(xs):
    """Join the arrays ``xs`` along the third axis (as ``numpy.dstack``).

    Inputs of fewer than three axes are first made 3-D: ``(N,)`` becomes
    ``(1, N, 1)`` and ``(M, N)`` becomes ``(M, N, 1)``.

    Args:
        xs (list or tuple of Variable or array): inputs of one dtype and
            ndim whose shapes agree except along the third axis.

    Returns:
        Variable: the joined array, at least 3-D.
    """
    if not isinstance(xs, (list, tuple)):
        raise TypeError('dstack: xs must be a list or tuple of arrays, got '
                        '{}'.format(type(xs).__name__))
    return Dstack().apply(tuple(xs))[0]
