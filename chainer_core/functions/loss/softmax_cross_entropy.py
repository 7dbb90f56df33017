"""softmax_cross_entropy: the classification loss on unnormalised scores."""
import numpy

from chainer_core._runtime import graphs, kernels
from chainer_core import function_node
from chainer_core.utils import type_check


def _log_softmax_c(xp, x):
    """log-softmax along axis 1, in float32 at least."""
    if x.dtype.itemsize < 4:
        x = x.astype(numpy.float32)
    m = x.max(axis=1, keepdims=True)
    z = x - m
    return z - xp.log(xp.exp(z).sum(axis=1, keepdims=True))


def _picked(xp, a, t):
    """a[n, t[n, ...], ...] for a of shape (N, C, ...), t of (N, ...)."""
    return xp.take_along_axis(a, t[:, None], axis=1)[:, 0]


def _count(xp, mask, n, normalize):
    if normalize:
        return max(int(mask.sum()), 1)
    return max(n, 1)


@kernels.declare('softmax_cross_entropy')
def _softmax_cross_entropy(xp, x, t, class_weight, ignore_label, normalize,
                           reduce):
    """Loss of scores x (N, C, ...) for labels t (N, ...): 0-dim if reduce
    is 'mean', else of t's shape; labels equal to ignore_label count 0."""
    log_y = _log_softmax_c(xp, x)
    mask = t != ignore_label
    tt = xp.where(mask, t, 0)
    log_p = _picked(xp, log_y, tt)
    if class_weight is not None:
        log_p = log_p * class_weight[tt]
    log_p = xp.where(mask, log_p, 0)
    if reduce == 'mean':
        loss = -log_p.sum() / _count(xp, mask, x.shape[0], normalize)
        return xp.asarray(loss, dtype=x.dtype)
    return (-log_p).astype(x.dtype)


@kernels.declare('softmax_cross_entropy_grad')
def _softmax_cross_entropy_grad(xp, x, t, gloss, class_weight, ignore_label,
                                normalize, reduce):
    """Gradient of softmax_cross_entropy with respect to x, given gloss."""
    log_y = _log_softmax_c(xp, x)
    y = xp.exp(log_y)
    mask = t != ignore_label
    tt = xp.where(mask, t, 0)
    onehot = xp.zeros_like(y)
    xp.put_along_axis(onehot, tt[:, None], 1, axis=1)
    gx = y - onehot
    scale = mask.astype(y.dtype)
    if class_weight is not None:
        scale = scale * class_weight[tt].astype(y.dtype)
    if reduce == 'mean':
        scale = scale * (gloss.astype(y.dtype) /
                         _count(xp, mask, x.shape[0], normalize))
    else:
        scale = scale * gloss.astype(y.dtype)
    gx *= scale[:, None]
    return gx.astype(x.dtype)


# Keeps log(t) finite where a soft target is 0 (as Chainer v7 does).
_KL_EPS = 1e-7


def _class_weight_c(class_weight, ndim):
    """class_weight reshaped to broadcast along axis 1 of an ndim array."""
    return class_weight.reshape((1, -1) + (1,) * (ndim - 2))


@kernels.declare('softmax_cross_entropy_soft')
def _softmax_cross_entropy_soft(xp, x, t, class_weight, kl, reduce):
    """Loss of scores x (N, C, ...) for target distributions t of x's shape:
    -sum_c w_c t_c log softmax(x)_c over axis 1 (plus sum_c t_c log(t_c +
    1e-7) when kl); the mean over the N * d_1 * ... positions when reduce is
    'mean', else of shape (N, d_1, ...)."""
    log_y = _log_softmax_c(xp, x)
    tt = t.astype(log_y.dtype)
    wt = tt if class_weight is None else \
        tt * _class_weight_c(class_weight, x.ndim).astype(log_y.dtype)
    loss = -(wt * log_y).sum(axis=1)
    if kl:
        loss += (tt * xp.log(tt + _KL_EPS)).sum(axis=1)
    if reduce == 'mean':
        return xp.asarray(loss.sum() / max(loss.size, 1), dtype=x.dtype)
    return loss.astype(x.dtype)


@kernels.declare('softmax_cross_entropy_soft_grad')
def _softmax_cross_entropy_soft_grad(xp, x, t, gloss, class_weight, reduce):
    """Gradient of softmax_cross_entropy_soft with respect to x:
    softmax(x) * sum_c(w_c t_c) - w t, scaled by gloss."""
    y = xp.exp(_log_softmax_c(xp, x))
    wt = t.astype(y.dtype)
    if class_weight is not None:
        wt = wt * _class_weight_c(class_weight, x.ndim).astype(y.dtype)
    gx = y * wt.sum(axis=1, keepdims=True) - wt
    if reduce == 'mean':
        n = x.size // x.shape[1] if x.shape[1] else 0
        gx *= gloss.astype(y.dtype) / max(n, 1)
    else:
        gx *= xp.expand_dims(gloss.astype(y.dtype), 1)
    return gx.astype(x.dtype)


class SoftmaxCrossEntropy(function_node.FunctionNode):
    """Softmax followed by the cross entropy with integer labels or target
    distributions (soft targets)."""

    graph_kernel = graphs.declare(
        'softmax_cross_entropy',
        ('class_weight', 'ignore_label', 'normalize', 'reduce'),
        'The loss of the kernel softmax_cross_entropy for the inputs (x, t), '
        'scores x (N, C, ...) of a float dtype and signed integer labels t '
        '(N, ...) in [0, C) or equal to ignore_label; class_weight (C,) of '
        "x's dtype or None, reduce 'mean' or 'no'. Differentiable by x only.",
        checks_inputs=True,
        # Its gradient reads the softmax its forward computed.
        derivative='fused')

    def __init__(self, normalize=True, class_weight=None, ignore_label=-1,
                 reduce='mean', soft_target_loss='cross-entropy'):
        self.normalize = normalize
        self.class_weight = class_weight
        self.ignore_label = ignore_label
        self.reduce = reduce
        self.soft_target_loss = soft_target_loss

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        if type_check.eval(t_type.dtype).kind == 'f':
            type_check.expect(
                x_type.dtype.kind == 'f',
                x_type.ndim >= 2,
                t_type.shape == x_type.shape,
            )
            return
        type_check.expect(
            x_type.dtype.kind == 'f',
            t_type.dtype.kind == 'i',
            x_type.ndim >= 2,
            t_type.ndim == x_type.ndim - 1,
            x_type.shape[0] == t_type.shape[0],
            x_type.shape[2:] == t_type.shape[1:],
        )

    def _check_labels(self, x, t):
        n_class = x.shape[1]
        bad = (t != self.ignore_label) & ((t < 0) | (t >= n_class))
        if bad.any():
            value = int(t[bad].ravel()[0])
            raise ValueError(
                'softmax_cross_entropy: t holds the label {}, outside '
                '[0, {}) and not ignore_label ({})'.format(
                    value, n_class, self.ignore_label))

    def _class_weight_like(self, x):
        cw = self.class_weight
        if cw is not None and cw.dtype != x.dtype:
            cw = cw.astype(x.dtype)
        return cw

    def graph_kernel_params(self, inputs):
        # Soft targets are another computation; other inputs than two are
        # the type check's to report. The kernel checks the labels.
        if len(inputs) != 2 or inputs[1].dtype.kind == 'f':
            return None
        return {'class_weight': self._class_weight_like(inputs[0]),
                'ignore_label': self.ignore_label,
                'normalize': self.normalize, 'reduce': self.reduce}

    def forward(self, inputs):
        x, t = inputs
        cw = self._class_weight_like(x)
        self.retain_inputs((0, 1))
        if t.dtype.kind == 'f':
            return kernels.lookup('softmax_cross_entropy_soft', x)(
                x, t, cw, self.soft_target_loss == 'kl-divergence',
                self.reduce),
        self._check_labels(x, t)
        return kernels.lookup('softmax_cross_entropy', x)(
            x, t, cw, self.ignore_label, self.normalize, self.reduce),

    def backward(self, indexes, grad_outputs):
        x, t = self.get_retained_inputs()
        gloss, = grad_outputs
        return SoftmaxCrossEntropyGrad(self).apply((x, gloss))[:1] + (None,)


class SoftmaxCrossEntropyGrad(function_node.FunctionNode):
    """The fused gradient; it is not differentiable again."""

    def __init__(self, forward_node):
        self._fwd = forward_node

    def forward(self, inputs):
        x, gloss = inputs
        f = self._fwd
        t = f._retained_input_data[1]
        cw = f._class_weight_like(x)
        if t.dtype.kind == 'f':
            return kernels.lookup('softmax_cross_entropy_soft_grad', x)(
                x, t, gloss, cw, f.reduce),
        return kernels.lookup('softmax_cross_entropy_grad', x)(
            x, t, gloss, cw, f.ignore_label, f.normalize, f.reduce),

    def backward(self, indexes, grad_outputs):
        raise RuntimeError(
            'softmax_cross_entropy supports double backprop only when called '
            'with enable_double_backprop=True')


def _double_backprop_soft_loss(xp, log_y, t, class_weight, reduce,
                               soft_target_loss):
    from chainer_core.functions.math.sum import sum as sum_
    tt = t.astype(log_y.dtype)
    wt = tt
    if class_weight is not None:
        wt = tt * _class_weight_c(class_weight, tt.ndim).astype(tt.dtype)
    loss = -sum_(log_y * wt, axis=1)
    if soft_target_loss == 'kl-divergence':
        loss = loss + (tt * xp.log(tt + _KL_EPS)).sum(axis=1)
    if reduce == 'mean':
        return sum_(loss) * (1.0 / max(loss.size, 1))
    return loss


def _double_backprop_loss(x, t, normalize, class_weight, ignore_label,
                          reduce, soft_target_loss):
    from chainer_core.functions.activation.log_softmax import log_softmax
    from chainer_core.functions.math.sum import sum as sum_
    from chainer_core.backend import get_array_module
    xp = get_array_module(x)
    t = t.array if hasattr(t, 'array') else t
    log_y = log_softmax(x, axis=1)
    if t.dtype.kind == 'f':
        return _double_backprop_soft_loss(xp, log_y, t, class_weight, reduce,
                                          soft_target_loss)
    mask = t != ignore_label
    tt = xp.where(mask, t, 0)
    weight = xp.zeros(log_y.shape, dtype=log_y.dtype)
    xp.put_along_axis(weight, tt[:, None], 1, axis=1)
    weight *= mask[:, None]
    if class_weight is not None:
        shape = (1, -1) + (1,) * (weight.ndim - 2)
        weight *= class_weight.astype(weight.dtype).reshape(shape)
    picked = sum_(log_y * weight, axis=1)
    if reduce == 'mean':
        count = _count(xp, mask, x.shape[0], normalize)
        return -sum_(picked) * (1.0 / count)
    return -picked


def softmax_cross_entropy(x, t, normalize=True, cache_score=True,
                          class_weight=None, ignore_label=-1, reduce='mean',
                          enable_double_backprop=False,
                          soft_target_loss='cross-entropy'):
    """Cross entropy of the softmax of ``x`` against labels or target
    distributions ``t``.

    With integer labels,
    :math:`\\ell_n = -w_{t_n} \\log \\mathrm{softmax}(x_n)_{t_n}`. With a
    float ``t`` of the shape of ``x`` (soft targets, one distribution over
    axis 1 per position),
    :math:`\\ell_n = -\\sum_c w_c t_{nc} \\log \\mathrm{softmax}(x_n)_c`
    for ``'cross-entropy'``, and that plus
    :math:`\\sum_c t_{nc} \\log(t_{nc} + 10^{-7})` (the KL divergence
    from ``t`` when ``class_weight`` is None) for ``'kl-divergence'``.

    Args:
        x (Variable or array): scores of shape ``(N, C)`` or
            ``(N, C, d_1, ..., d_k)``, float16/32/64.
        t (Variable or array): labels of shape ``(N,)`` or
            ``(N, d_1, ..., d_k)``, signed integers in ``[0, C)`` or
            ``ignore_label``; or soft targets: floats of the shape of ``x``.
        normalize (bool): with ``reduce='mean'`` and integer labels, divide
            by the number of labels that are not ignored (True) or by ``N``
            (False). The mean over soft targets divides by the number of
            positions, ``N * d_1 * ... * d_k``.
        cache_score (bool): accepted for compatibility; the fused gradient
            recomputes the softmax instead of keeping it.
        class_weight (array): per-class weights of shape ``(C,)``.
        ignore_label (int): labels equal to it add nothing to the loss.
        reduce (str): ``'mean'`` for a 0-dim loss, ``'no'`` for one loss per
            label (shape ``(N, d_1, ..., d_k)``).
        enable_double_backprop (bool): build the loss from differentiable
            pieces so that it can be differentiated twice.
        soft_target_loss (str): ``'cross-entropy'`` or ``'kl-divergence'``;
            used with soft targets only.

    Returns:
        Variable: the loss, of ``x``'s dtype. It is differentiable by ``x``
        only.
    """
    if reduce not in ('mean', 'no'):
        raise ValueError("softmax_cross_entropy: reduce must be 'mean' or "
                         "'no', got {!r}".format(reduce))
    if soft_target_loss not in ('cross-entropy', 'kl-divergence'):
        raise ValueError(
            "softmax_cross_entropy: soft_target_loss must be "
            "'cross-entropy' or 'kl-divergence', got {!r}".format(
                soft_target_loss))
    if class_weight is not None:
        if hasattr(class_weight, 'array'):
            class_weight = class_weight.array
        n_class = x.shape[1] if x.ndim >= 2 else None
        if class_weight.ndim != 1 or class_weight.shape[0] != n_class:
            raise ValueError(
                'softmax_cross_entropy: class_weight must have shape ({},), '
                'got {}'.format(n_class, class_weight.shape))
    if enable_double_backprop:
        node = SoftmaxCrossEntropy(normalize, class_weight, ignore_label,
                                   reduce, soft_target_loss)
        from chainer_core.variable import as_variable
        x_var, t_var = as_variable(x), as_variable(t)
        # Validate with the same messages as the fused path.
        node._check_data_type_forward((x_var.array, t_var.array))
        if t_var.dtype.kind != 'f':
            node._check_labels(x_var.array, t_var.array)
        return _double_backprop_loss(x_var, t_var, normalize, class_weight,
                                     ignore_label, reduce, soft_target_loss)
    return SoftmaxCrossEntropy(normalize, class_weight, ignore_label,
                               reduce, soft_target_loss).apply((x, t))[0]
