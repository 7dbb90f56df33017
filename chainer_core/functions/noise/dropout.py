"""dropout: zero random elements, scale the others."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.configuration import config
from chainer_core.functions.noise import _util as _noise
from chainer_core.functions.normalization import _util
from chainer_core.utils import type_check


@kernels.declare('dropout')
def _dropout(xp, x, ratio, mask):
    """(y, mask): y = x * mask in x's dtype. Without a mask one is drawn:
    each element is 1 / (1 - ratio) with probability 1 - ratio and 0
    otherwise, in x's dtype."""
    if mask is None:
        keep = _noise.uniform(xp, x.shape) >= ratio
        mask = keep * x.dtype.type(1.0 / (1.0 - ratio))
    return (x * mask).astype(x.dtype, copy=False), mask


@kernels.declare('dropout_grad')
def _dropout_grad(xp, gy, mask):
    """gx = gy * mask in gy's dtype."""
    return (gy * mask).astype(gy.dtype, copy=False)


class Dropout(function_node.FunctionNode):
    """Dropout with a drawn or given (scaled) mask."""

    def __init__(self, dropout_ratio, mask=None, return_mask=False):
        self.dropout_ratio = _util.check_number(
            'dropout', 'ratio', dropout_ratio, low=0, high=1,
            high_inclusive=False)
        self.mask = getattr(mask, 'array', mask)
        self.return_mask = return_mask

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        if self.mask is not None:
            type_check.expect(x_type.shape == type_check.make_variable(
                self.mask.shape, 'mask.shape'))

    def forward(self, inputs):
        x, = inputs
        y, self.mask = kernels.lookup('dropout', x)(
            x, self.dropout_ratio, self.mask)
        return y,

    def backward(self, indexes, grad_outputs):
        return DropoutGrad(self.mask).apply(grad_outputs)


class DropoutGrad(function_node.FunctionNode):
    """Multiplication by the fixed mask; linear, so its own gradient."""

    def __init__(self, mask):
        self.mask = mask

    def forward(self, inputs):
        gy, = inputs
        return kernels.lookup('dropout_grad', gy)(gy, self.mask),

    def backward(self, indexes, grad_outputs):
        return DropoutGrad(self.mask).apply(grad_outputs)


def dropout(x, ratio=.5, **kwargs):
    """dropout(x, ratio=.5, *, mask=None, return_mask=False)

    Drop elements of ``x`` at random and scale the rest.

    In training mode (``chainer.config.train``) each element is zeroed with
    probability ``ratio`` and the kept ones are multiplied by
    ``1 / (1 - ratio)``, so the expectation is ``x``:
    ``y = x * mask``. Outside training mode ``x`` is returned as it is.
    Random numbers come from ``numpy.random`` for NumPy arrays (and from the
    array module's generator otherwise).

    Args:
        x (Variable or array): input, float16/32/64.
        ratio (float): the probability of dropping an element, in [0, 1).
        mask (array or None): the scaled mask to use instead of drawing one
            (elements 0 or ``1 / (1 - ratio)``), of the shape of ``x``.
        return_mask (bool): also return the mask used (None outside
            training mode).

    Returns:
        Variable of the shape and dtype of ``x``, or ``(y, mask)`` with
        ``return_mask``. Differentiable at any order (it is linear for the
        fixed mask).
    """
    mask, return_mask = _util.parse_kwargs(
        'dropout', kwargs, ('mask', None), ('return_mask', False))
    node = Dropout(ratio, mask, return_mask)
    if config.train:
        out = node.apply((x,))[0]
        mask = node.mask
    else:
        from chainer_core.variable import as_variable
        out = as_variable(x)
        mask = None
    if return_mask:
        return out, mask
    return out
