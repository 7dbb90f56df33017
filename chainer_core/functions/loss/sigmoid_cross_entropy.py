"""sigmoid_cross_entropy: the binary classification loss on logits."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.loss import _util
from chainer_core.utils import type_check


def _count(mask, n_batch, normalize):
    if normalize:
        return max(int(mask.sum()), 1)
    return max(n_batch, 1)


@kernels.declare('sigmoid_cross_entropy')
def _sigmoid_cross_entropy(xp, x, t, ignore_label, count, reduce):
    """Loss of logits x for labels t (0 or 1, of x's shape):
    log(1 + exp(x)) - t x, 0 where t == ignore_label; summed and divided by
    count when reduce is 'mean', else elementwise."""
    xf = x.astype(_util.float_type(x.dtype), copy=False)
    mask = t != ignore_label
    # max(x, 0) + log(1 + exp(-|x|)) is log(1 + exp(x)) without overflow.
    loss = xp.maximum(xf, 0) + xp.log1p(xp.exp(-abs(xf))) - \
        xf * t.astype(xf.dtype)
    loss = xp.where(mask, loss, 0)
    if reduce == 'mean':
        return xp.asarray(loss.sum() / count, dtype=x.dtype)
    return loss.astype(x.dtype)


@kernels.declare('sigmoid_cross_entropy_grad')
def _sigmoid_cross_entropy_grad(xp, x, t, gy, ignore_label, count, reduce):
    """gx = gy (sigmoid(x) - t) where t != ignore_label (divided by count
    when reduce is 'mean'), 0 elsewhere."""
    xf = x.astype(_util.float_type(x.dtype), copy=False)
    half = xf.dtype.type(0.5)
    y = xp.tanh(xf * half) * half + half
    g = xp.where(t != ignore_label, y - t.astype(xf.dtype), 0) * \
        gy.astype(xf.dtype)
    if reduce == 'mean':
        g /= count
    return g.astype(x.dtype)


class SigmoidCrossEntropy(function_node.FunctionNode):
    """Sigmoid followed by the binary cross entropy."""

    def __init__(self, normalize=True, reduce='mean', ignore_label=-1):
        self.normalize = normalize
        self.reduce = reduce
        self.ignore_label = ignore_label
        self.count = 1

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            t_type.dtype.kind == 'i',
            x_type.shape == t_type.shape,
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, t = inputs
        if self.reduce == 'mean':
            self.count = _count(t != self.ignore_label,
                                x.shape[0] if x.ndim else 1, self.normalize)
        return kernels.lookup('sigmoid_cross_entropy', x)(
            x, t, self.ignore_label, self.count, self.reduce),

    def backward(self, indexes, grad_outputs):
        x, t = self.get_retained_inputs()
        gx, = SigmoidCrossEntropyGrad(self, t.array).apply(
            (x, grad_outputs[0]))
        return gx, None


class SigmoidCrossEntropyGrad(function_node.FunctionNode):
    """The gradient of sigmoid_cross_entropy as a function of x and gy."""

    def __init__(self, forward_node, t):
        self._fwd = forward_node
        self.t = t

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        f = self._fwd
        return kernels.lookup('sigmoid_cross_entropy_grad', x)(
            x, self.t, gy, f.ignore_label, f.count, f.reduce),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.activation.sigmoid import sigmoid
        from chainer_core.functions.math.sum import sum as sum_
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        f = self._fwd
        scale = (self.t != f.ignore_label).astype(x.dtype)
        if f.reduce == 'mean':
            scale /= x.dtype.type(f.count)
        y = sigmoid(x)
        ret = []
        if 0 in indexes:
            gy_b = _util.broadcast_like(gy, x.shape)
            ret.append(ggx * gy_b * y * (1 - y) * scale)
        if 1 in indexes:
            ggy = ggx * (y - self.t.astype(x.dtype)) * scale
            ret.append(sum_(ggy) if f.reduce == 'mean' else ggy)
        return tuple(ret)


def sigmoid_cross_entropy(x, t, normalize=True, reduce='mean',
                          ignore_label=-1):
    """Cross entropy of the sigmoid of logits ``x`` against binary labels.

    .. math::
        \\ell_i = -t_i \\log \\sigma(x_i) - (1 - t_i) \\log(1 - \\sigma(x_i))

    computed stably as :math:`\\max(x_i, 0) + \\log(1 + e^{-|x_i|}) - t_i x_i`.
    Elements whose label is ``ignore_label`` contribute 0.

    Args:
        x (Variable or array): logits of any shape, float16/32/64.
        t (Variable or array): signed integer labels (0 or 1, or
            ``ignore_label``) of the shape of ``x``.
        normalize (bool): with ``reduce='mean'``, divide the sum by the
            number of labels that are not ignored (True) or by the batch
            size ``x.shape[0]`` (False); at least 1 either way.
        reduce (str): ``'mean'`` for a 0-dim loss, ``'no'`` for the
            elementwise losses (shape of ``x``).
        ignore_label (int): label value that is left out (-1, as in Chainer).

    Returns:
        Variable: the loss, of ``x``'s dtype; differentiable by ``x`` only.
    """
    _util.check_reduce('sigmoid_cross_entropy', reduce, ('mean', 'no'))
    return SigmoidCrossEntropy(normalize, reduce, ignore_label).apply(
        (x, t))[0]
