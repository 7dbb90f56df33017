"""hstack: join arrays horizontally (along the second axis)."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.functions.array.concat import check_same_except
from chainer_core.utils import type_check


@kernels.declare('hstack')
def _hstack(xp, xs):
    """numpy.hstack of the arrays xs (a tuple): along axis 1, or along axis
    0 for 0-D and 1-D arrays."""
    return xp.hstack(xs)


def split_back(gy, nodes, axis, sizes):
    """Cut ``gy`` along ``axis`` into pieces of ``sizes`` and give each the
    shape of its input node (the backward of the stacking functions)."""
    from chainer_core.functions.array.reshape import reshape
    from chainer_core.functions.array.split_axis import split_axis
    bounds = []
    end = 0
    for s in sizes[:-1]:
        end += s
        bounds.append(end)
    pieces = split_axis(gy, bounds, axis)
    return [reshape(p, n.shape) for p, n in zip(pieces, nodes)]


class Hstack(function_node.FunctionNode):
    """Join arrays along the second axis (the first for 0-D and 1-D)."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check.argname(in_types, _util.input_names(in_types, 'xs'))
        ndim = type_check.eval(in_types[0].ndim)
        if ndim <= 1:
            for t in in_types[1:]:
                type_check.expect(t.dtype == in_types[0].dtype,
                                  t.ndim == in_types[0].ndim)
        else:
            check_same_except(in_types, 1)

    def forward(self, inputs):
        return kernels.lookup('hstack', inputs[0])(inputs),

    def backward(self, indexes, grad_outputs):
        nodes = self.inputs
        if len(nodes[0].shape) <= 1:
            axis, sizes = 0, [n.shape[0] if n.shape else 1 for n in nodes]
        else:
            axis, sizes = 1, [n.shape[1] for n in nodes]
        gxs = split_back(grad_outputs[0], nodes, axis, sizes)
        return tuple(gxs[i] for i in indexes)


def hstack(xs):
    """Join the arrays ``xs`` horizontally (as ``numpy.hstack``).

    Arrays of two or more axes are joined along the second axis, 1-D (and
    0-D) arrays along the first.

    Args:
        xs (list or tuple of Variable or array): inputs of one dtype and
            ndim whose shapes agree except along the joined axis.

    Returns:
        Variable: the joined array.
    """
    if not isinstance(xs, (list, tuple)):
        raise TypeError('hstack: xs must be a list or tuple of arrays, got '
                        '{}'.format(type(xs).__name__))
    return Hstack().apply(tuple(xs))[0]
