"""simplified_dropconnect: a linear layer with randomly dropped weights."""
import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math.matmul import as_dtype, promote
from chainer_core.functions.noise import _util as _noise
from chainer_core.functions.normalization import _util
from chainer_core.utils import type_check


@kernels.declare('simplified_dropconnect')
def _simplified_dropconnect(xp, x, W, b, ratio, mask, batchwise):
    """(y, mask) for 2-D x (n, N), W (M, N), b (M,) or None:
    y[i] = (W * mask[i] / (1 - ratio)) @ x[i] + b with a mask of shape
    (n, M, N), or y = x @ (W * mask / (1 - ratio)).T + b with one of shape
    (M, N). Without a mask one is drawn (keep with probability 1 - ratio;
    of shape (n, M, N) if batchwise else (M, N)); mask None with ratio 0
    keeps every weight."""
    if mask is None and ratio != 0:
        shape = ((x.shape[0],) if batchwise else ()) + W.shape
        mask = _noise.uniform(xp, shape) >= ratio
    if mask is None:
        w = W
    else:
        w = W * (mask * W.dtype.type(1.0 / (1.0 - ratio)))
        w = w.astype(W.dtype, copy=False)
    if w.ndim == 3:
        y = xp.matmul(w, x[:, :, None])[:, :, 0]
    else:
        y = x.dot(w.T)
    if b is not None:
        y += b
    return y, mask


class SimplifiedDropconnect(function_node.FunctionNode):
    """``y = x (W * mask)^T / (1 - ratio) + b``, the mask per sample or
    shared; in the dtype of ``x``, ``W`` and ``b`` may have other float
    dtypes."""

    def __init__(self, ratio, mask=None, use_batchwise_mask=True):
        self.ratio = _util.check_number(
            'simplified_dropconnect', 'ratio', ratio, low=0, high=1,
            high_inclusive=False)
        self.mask = getattr(mask, 'array', mask)
        self.use_batchwise_mask = use_batchwise_mask

    def check_type_forward(self, in_types):
        n_in = in_types.size()
        type_check.expect(2 <= n_in, n_in <= 3)
        type_check.argname(in_types, ('x', 'W', 'b'))
        x_type, w_type = in_types[:2]
        type_check.expect(
            x_type.dtype.kind == 'f',
            w_type.dtype.kind == 'f',
            x_type.ndim >= 2,
            w_type.ndim == 2,
        )
        x_shape = type_check.eval(x_type.shape)
        n_units = 1
        for s in x_shape[1:]:
            n_units *= s
        type_check.expect(w_type.shape[1] == type_check.make_variable(
            n_units, 'prod(x.shape[1:])'))
        if type_check.eval(n_in) == 3:
            b_type = in_types[2]
            type_check.expect(
                b_type.dtype.kind == 'f',
                b_type.ndim == 1,
                b_type.shape[0] == w_type.shape[0],
            )
        if self.mask is not None:
            mask_shape = type_check.make_variable(self.mask.shape,
                                                  'mask.shape')
            if self.mask.ndim == 3:
                type_check.expect(
                    mask_shape[0] == x_type.shape[0],
                    mask_shape[1:] == w_type.shape,
                )
            else:
                type_check.expect(mask_shape == w_type.shape)

    def forward(self, inputs):
        b = inputs[2] if len(inputs) == 3 else None
        x, W, b = promote(inputs[0], inputs[1], b)
        x2 = x.reshape(x.shape[0], W.shape[1])
        y, self.mask = kernels.lookup('simplified_dropconnect', x)(
            x2, W, b, self.ratio, self.mask, self.use_batchwise_mask)
        self.retain_inputs((0, 1))
        return y.astype(inputs[0].dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.reshape import reshape
        from chainer_core.functions.math.matmul import matmul
        from chainer_core.functions.math.sum import sum as sum_
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        n, m_out = gy.shape
        x2 = reshape(x, (n, W.shape[1]))
        mask = self.mask
        if mask is not None:
            # Scaled as the forward scaled it, in the dtype it computed in.
            dtype = numpy.result_type(x.dtype, W.dtype)
            mask = (mask * dtype.type(1.0 / (1.0 - self.ratio))).astype(
                dtype, copy=False)
        ret = []
        for i in indexes:
            if i == 0:
                w = W if mask is None else as_dtype(W, dtype) * mask
                if w.ndim == 3:
                    gx = matmul(reshape(gy, (n, 1, m_out)), w)
                else:
                    gx = matmul(gy, w)
                ret.append(as_dtype(reshape(gx, x.shape), x.dtype))
            elif i == 1:
                if mask is not None and mask.ndim == 3:
                    outer = reshape(gy, (n, m_out, 1)) * \
                        reshape(x2, (n, 1, x2.shape[1]))
                    gw = sum_(as_dtype(outer, dtype) * mask, axis=0)
                else:
                    gw = matmul(gy, x2, transa=True)
                    if mask is not None:
                        gw = as_dtype(gw, dtype) * mask
                ret.append(as_dtype(gw, W.dtype))
            else:
                ret.append(as_dtype(sum_(gy, axis=0), self.inputs[2].dtype))
        return tuple(ret)


def simplified_dropconnect(x, W, b=None, ratio=.5, train=True, mask=None,
                           use_batchwise_mask=True):
    """A linear layer whose weights are dropped at random (simplified
    DropConnect).

    Each weight is kept with probability ``1 - ratio`` and scaled by
    ``1 / (1 - ratio)``:

    .. math:: y_i = \\frac{1}{1 - r} (W \\odot m_i) x_i + b

    with a mask :math:`m_i` per sample (``use_batchwise_mask``) or one mask
    for the batch. With ``train=False`` the ratio is 0 (a plain linear
    layer). Random numbers come from ``numpy.random`` for NumPy arrays.

    Args:
        x (Variable or array): input of shape ``(n, ...)``, float16/32/64;
            the axes after the first are flattened to ``N`` units.
        W (Variable or array): weight of shape ``(M, N)``.
        b (Variable or array or None): bias of shape ``(M,)``. ``W`` and
            ``b`` may have float dtypes other than ``x``'s; the product is
            computed in the widest, and each gradient has the dtype of its
            input.
        ratio (float): the probability of dropping a weight, in [0, 1).
        train (bool): drop weights (True) or act as a linear layer.
        mask (array or None): the 0/1 (or boolean) mask to use instead of
            drawing one, of shape ``(n, M, N)`` (per sample) or ``(M, N)``;
            its shape then decides, whatever ``use_batchwise_mask`` says.
        use_batchwise_mask (bool): draw one mask per sample (True) or one
            for the whole batch.

    Returns:
        Variable of shape ``(n, M)`` and the dtype of ``x``. Differentiable
        at any order for the fixed mask.
    """
    if not train:
        ratio = 0
    node = SimplifiedDropconnect(ratio, mask, use_batchwise_mask)
    if b is None:
        return node.apply((x, W))[0]
    return node.apply((x, W, b))[0]
