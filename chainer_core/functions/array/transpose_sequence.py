"""transpose_sequence: a batch of sequences as a sequence of batches.

The sequences are sorted by decreasing length, so the batches are too, and
transposing twice gives the sequences back: the gradient of the transpose
is the transpose of the output gradients.
"""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.utils import type_check


@kernels.declare('transpose_sequence')
def _transpose_sequence(xp, xs):
    """ys (a tuple of len(xs[0]) arrays): ys[t] stacks xs[i][t] over the
    xs longer than t (xs sorted by decreasing length)."""
    lengths = [x.shape[0] for x in xs]
    ys = []
    for t in range(lengths[0]):
        count = sum(1 for n in lengths if n > t)
        ys.append(xp.stack([x[t] for x in xs[:count]]))
    return tuple(ys)


class TransposeSequence(function_node.FunctionNode):
    """Transpose a list of sequences sorted by decreasing length."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check.argname(in_types, _util.input_names(in_types, 'xs'))
        x0 = in_types[0]
        type_check.expect(x0.ndim >= 1)
        for prev, t in zip(in_types, in_types[1:]):
            type_check.expect(
                t.dtype == x0.dtype,
                t.ndim == x0.ndim,
                t.shape[1:] == x0.shape[1:],
                prev.shape[0] >= t.shape[0],
            )

    def forward(self, inputs):
        self._in_shapes = [x.shape for x in inputs]
        return kernels.lookup('transpose_sequence', inputs[0])(inputs)

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.reshape import reshape
        lengths = [s[0] for s in self._in_shapes]
        rest = self._in_shapes[0][1:]
        out_shapes = [(sum(1 for n in lengths if n > t),) + rest
                      for t in range(lengths[0])]
        gys = _util.fill_none_grads(grad_outputs, out_shapes,
                                    self.inputs[0].dtype)
        gxs = TransposeSequence().apply(gys)
        # Sequences of length 0 have no row in any batch.
        empty = reshape(gys[0][:0], (0,) + rest)
        gxs = gxs + (empty,) * (len(lengths) - len(gxs))
        return tuple(gxs[i] for i in indexes)


def transpose_sequence(xs):
    """Transposes a list of sequences into a list of batches.

    With ``xs`` sorted by decreasing length, ``ys[t]`` stacks the ``t``-th
    items of the sequences longer than ``t``:

    .. math::
        y_t = (x_{0,t}, x_{1,t}, \\ldots, x_{k_t - 1,t}),\\quad
        k_t = |\\{i : L_i > t\\}|

    so there are ``L_0`` batches of decreasing size. This is how a
    recurrent network is fed one time step of a batch of sentences at a
    time; applied to its own result it gives ``xs`` back.

    Args:
        xs (list or tuple of Variable or array): sequences of shape
            ``(L_i, ...)`` with ``L_0 >= L_1 >= ...``, of one dtype and one
            shape after the first axis.

    Returns:
        tuple of Variable: ``L_0`` batches, ``ys[t]`` of shape
        ``(k_t, ...)`` (empty when ``xs`` is, or when every sequence is).

    .. admonition:: Example

        >>> xs = [np.array([1, 2, 3], 'f'), np.array([4, 5], 'f'),
        ...       np.array([6], 'f')]
        >>> [y.array.tolist() for y in F.transpose_sequence(xs)]
        [[1.0, 4.0, 6.0], [2.0, 5.0], [3.0]]
    """
    if not isinstance(xs, (list, tuple)):
        raise TypeError('transpose_sequence: xs must be a list or tuple of '
                        'arrays, got {}'.format(type(xs).__name__))
    if not xs:
        return ()
    return TransposeSequence().apply(tuple(xs))
