"""linear: the fully-connected layer y = x W^T + b."""
from chainer_core._runtime import graphs, kernels
from chainer_core import function_node
from chainer_core.functions.math import sum as _sum_kernels  # NOQA: declares rule kernels of its rules
from chainer_core.functions.math.matmul import as_dtype, matmul, promote
from chainer_core.utils import type_check


@kernels.declare('linear')
def _linear(xp, x, W, b):
    """y = x @ W.T (+ b); x is (N, in), W (out, in), b (out,) or None."""
    y = x.dot(W.T)
    if b is not None:
        y += b
    return y


class LinearFunction(function_node.FunctionNode):
    """``y = x W^T + b`` on a 2-D ``x``, in the dtype of ``x``; ``W`` and
    ``b`` may have other float dtypes (the product is computed in the
    widest)."""

    graph_kernel = graphs.declare(
        'linear', (), 'x @ W.T (+ b) of the inputs (x, W) or (x, W, b): x '
        '(N, in), W (out, in), b (out,), of float dtypes; W and b may have '
        "float dtypes other than x's, the result has x's.",
        checks_inputs=True, derivative='''
            gx0 = cast(matmul(gy0, x1, transa=False, transb=False),
                       dtype=x0.dtype)
            gx1 = cast(matmul(gy0, x0, transa=True, transb=False),
                       dtype=x1.dtype)
            gx2 = cast(sum(gy0, axis=0, keepdims=False), dtype=x2.dtype)''')

    def check_type_forward(self, in_types):
        n_in = in_types.size()
        type_check.expect(2 <= n_in, n_in <= 3)
        type_check.argname(in_types, ('x', 'W', 'b'))
        x_type, w_type = in_types[:2]
        type_check.expect(
            x_type.dtype.kind == 'f',
            w_type.dtype.kind == 'f',
            x_type.ndim == 2,
            w_type.ndim == 2,
            x_type.shape[1] == w_type.shape[1],
        )
        if type_check.eval(n_in) == 3:
            b_type = in_types[2]
            type_check.expect(
                b_type.dtype.kind == 'f',
                b_type.ndim == 1,
                b_type.shape[0] == w_type.shape[0],
            )

    def forward(self, inputs):
        b = inputs[2] if len(inputs) == 3 else None
        x, W, b = promote(inputs[0], inputs[1], b)
        y = kernels.lookup('linear', x)(x, W, b)
        return y.astype(inputs[0].dtype, copy=False),


def linear(x, W, b=None, n_batch_axes=1):
    """Fully-connected layer: :math:`y = x W^\\top + b`.

    Args:
        x (Variable or array): input of shape ``(s_1, ..., s_n, ...)``; the
            first ``n_batch_axes`` axes are batch axes and the rest are
            flattened into the input size.
        W (Variable or array): weight of shape ``(out_size, in_size)``.
        b (Variable or array): bias of shape ``(out_size,)``, or None.
            ``W`` and ``b`` may have float dtypes other than ``x``'s; the
            product is computed in the widest, and each gradient has the
            dtype of its input.
        n_batch_axes (int): number of leading batch axes of ``x``.

    Returns:
        Variable of shape ``(s_1, ..., s_n, out_size)`` and the dtype of
        ``x``.
    """
    if not isinstance(n_batch_axes, int) or n_batch_axes < 1:
        raise ValueError('linear: n_batch_axes must be an int >= 1, got {!r}'
                         .format(n_batch_axes))
    batch_shape = x.shape[:n_batch_axes]
    if x.ndim != 2 or n_batch_axes != 1:
        from chainer_core.functions.array.reshape import reshape
        if x.ndim < n_batch_axes:
            raise ValueError('linear: x has ndim {} but n_batch_axes is {}'
                             .format(x.ndim, n_batch_axes))
        batch = 1
        for s in batch_shape:
            batch *= s
        x = reshape(x, (batch, -1) if batch else (0, W.shape[1]))
    args = (x, W) if b is None else (x, W, b)
    y, = LinearFunction().apply(args)
    if n_batch_axes > 1:
        from chainer_core.functions.array.reshape import reshape
        y = reshape(y, batch_shape + (y.shape[-1],))
    return y
