"""vstack: join arrays vertically (along the first axis)."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.functions.array.concat import check_same_except
from chainer_core.functions.array.hstack import split_back
from chainer_core.utils import type_check


@kernels.declare('vstack')
def _vstack(xp, xs):
    """numpy.vstack of the arrays xs (a tuple): along axis 0, with 0-D and
    1-D arrays taken as rows."""
    return xp.vstack(xs)


class Vstack(function_node.FunctionNode):
    """Join arrays along the first axis; 0-D and 1-D arrays are rows."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check.argname(in_types, _util.input_names(in_types, 'xs'))
        if type_check.eval(in_types[0].ndim) <= 1:
            for t in in_types[1:]:
                type_check.expect(t.dtype == in_types[0].dtype,
                                  t.shape == in_types[0].shape)
        else:
            check_same_except(in_types, 0)

    def forward(self, inputs):
        return kernels.lookup('vstack', inputs[0])(inputs),

    def backward(self, indexes, grad_outputs):
        nodes = self.inputs
        sizes = [n.shape[0] if len(n.shape) >= 2 else 1 for n in nodes]
        gxs = split_back(grad_outputs[0], nodes, 0, sizes)
        return tuple(gxs[i] for i in indexes)


def vstack(xs):
    """Join the arrays ``xs`` vertically (as ``numpy.vstack``).

    Arrays of two or more axes are joined along the first axis; 1-D arrays
    of one length (and 0-D arrays) become the rows of a 2-D output.

    Args:
        xs (list or tuple of Variable or array): inputs of one dtype and
            ndim whose shapes agree except along the first axis.

    Returns:
        Variable: the joined array, at least 2-D.
    """
    if not isinstance(xs, (list, tuple)):
        raise TypeError('vstack: xs must be a list or tuple of arrays, got '
                        '{}'.format(type(xs).__name__))
    return Vstack().apply(tuple(xs))[0]
