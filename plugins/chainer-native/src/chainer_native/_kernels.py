"""Native kernels for chainer-core ops: the kernel name, and a function with
the signature of its reference (docs/kernels.md of chainer-core) running on
chainer_native arrays."""
import chainer_native as cn


def _pair_ints(v):
    return tuple(int(i) for i in v)


def _matmul(a, b, transa, transb):
    if transa:
        a = a.swapaxes(-1, -2)
    if transb:
        b = b.swapaxes(-1, -2)
    return cn.matmul(a, b)


def _sum(x, axis, keepdims):
    return cn.sum(x, axis=axis, keepdims=keepdims)


def _mean(x, axis, keepdims):
    return cn.mean(x, axis=axis, keepdims=keepdims)


def _max(x, axis, keepdims):
    return cn.max(x, axis=axis, keepdims=keepdims)


def _min(x, axis, keepdims):
    return cn.min(x, axis=axis, keepdims=keepdims)


def _argmax(x, axis):
    return cn.argmax(x, axis=axis).astype(cn.int32)


def _argmin(x, axis):
    return cn.argmin(x, axis=axis).astype(cn.int32)


def _linear(x, W, b):
    return cn.linear(x, W, b)


def _softmax_cross_entropy(x, t, class_weight, ignore_label, normalize,
                           reduce):
    if class_weight is not None or reduce not in ('mean', 'no'):
        return NotImplemented  # the core's reference covers these
    if reduce == 'mean' and not normalize:
        loss = cn.softmax_cross_entropy(x, t, ignore_label=ignore_label,
                                        reduce='no')
        return (loss.sum() / max(x.shape[0], 1)).astype(x.dtype)
    return cn.softmax_cross_entropy(x, t, ignore_label=ignore_label,
                                    reduce=reduce)


def _softmax_cross_entropy_grad(x, t, gloss, class_weight, ignore_label,
                                normalize, reduce):
    if class_weight is not None or reduce not in ('mean', 'no'):
        return NotImplemented
    # The fused backward of the native routine, run by its C++ autograd on
    # a leaf view of x; forced on, since this kernel may itself run inside a
    # C++ backward pass, which turns recording off.
    with cn.force_backprop_mode():
        return _softmax_cross_entropy_grad_by_autograd(
            x, t, gloss, ignore_label, normalize, reduce)


def _softmax_cross_entropy_grad_by_autograd(x, t, gloss, ignore_label,
                                            normalize, reduce):
    xv = x.as_grad_stopped().require_grad()
    if reduce == 'mean' and normalize:
        loss = cn.softmax_cross_entropy(xv, t, ignore_label=ignore_label)
        loss.grad = cn.asarray(gloss).astype(x.dtype).reshape(())
    else:
        loss = cn.softmax_cross_entropy(xv, t, ignore_label=ignore_label,
                                        reduce='no')
        g = cn.asarray(gloss).astype(x.dtype)
        if reduce == 'mean':
            g = g / max(x.shape[0], 1)
        loss.grad = cn.ascontiguousarray(cn.broadcast_to(g, loss.shape))
    loss.backward()
    return xv.grad


def _convolution(x, W, b, stride, pad, dilate, groups, cover_all):
    return cn.conv(x, W, b, stride=_pair_ints(stride), pad=_pair_ints(pad),
                   dilation=_pair_ints(dilate), groups=groups,
                   cover_all=cover_all)


def _convolution_grad_w(x, gy, ksize, stride, pad, dilate, groups):
    return cn.conv_grad_weight(x, gy, _pair_ints(ksize), _pair_ints(stride),
                               _pair_ints(pad), _pair_ints(dilate), groups)


def _deconvolution(x, W, b, stride, pad, dilate, groups, outsize):
    return cn.conv_transpose(x, W, b, stride=_pair_ints(stride),
                             pad=_pair_ints(pad),
                             dilation=_pair_ints(dilate), groups=groups,
                             outsize=None if outsize is None
                             else _pair_ints(outsize))


def _max_pooling(x, ksize, stride, pad, cover_all):
    return cn.max_pool(x, _pair_ints(ksize), _pair_ints(stride),
                       _pair_ints(pad), cover_all, return_indexes=True)


def _average_pooling(x, ksize, stride, pad, pad_value):
    return cn.average_pool(x, _pair_ints(ksize), _pair_ints(stride),
                           _pair_ints(pad),
                           'ignore' if pad_value is None else 'zero')


def _roi_max_bins(x, batch, h_ranges, w_ranges, empty_value):
    # The ranges come from the host (NumPy int64): the extension reads them
    # in place.
    return cn.roi_max_bins(x, batch, h_ranges, w_ranges, float(empty_value))


def _fixed_batch_normalization(x, gamma, beta, mean, var, eps):
    # The statistics come in keepdims shape; the extension's routine takes
    # them without the reduced axes and runs (N, C, ...) inference in one
    # pass over x (the same operations per element as the expression below).
    if eps > 0:
        axes = tuple(i for i, n in enumerate(gamma.shape) if n == 1)
        kept = tuple(n for n in gamma.shape if n != 1)
        return cn.fixed_batch_norm(
            x, gamma.reshape(kept), beta.reshape(kept), mean.reshape(kept),
            var.reshape(kept), float(eps), axis=axes)
    return (x - mean) * (gamma * cn.rsqrt(var + eps)) + beta


# The fused optimizer update rules (in place, returning None), with the
# signatures of the core's reference kernels (declared since backend_api
# 1.1, which api_version requires). The extension loads on the
# first call: the table is built at plugin discovery.

def _sgd_update(param, grad, lr):
    cn._load()._sgd_update(param, grad, lr)


def _momentum_sgd_update(param, grad, v, lr, momentum):
    cn._load()._momentum_sgd_update(param, grad, v, lr, momentum)


def _adam_update(param, grad, m, v, vhat, alpha_t, beta1, beta2, eps, eta,
                 weight_decay_rate, lower, upper):
    cn._load()._adam_update(param, grad, m, v, vhat, alpha_t, beta1, beta2,
                            eps, eta, weight_decay_rate, lower, upper)


_UPDATE_RULES = {
    'sgd_update': _sgd_update,
    'momentum_sgd_update': _momentum_sgd_update,
    'adam_update': _adam_update,
}


def kernels():
    """Kernel name -> native implementation."""
    table = {
        'add': lambda x, y: cn.add(x, y),
        'sub': lambda x, y: cn.subtract(x, y),
        'mul': lambda x, y: cn.multiply(x, y),
        'div': lambda x, y: cn.divide(x, y),
        'pow': lambda x, y: cn.power(x, y),
        'neg': lambda x: cn.negative(x),
        'absolute': lambda x: cn.absolute(x),
        'exp': lambda x: cn.exp(x),
        'log': lambda x: cn.log(x),
        'log2': lambda x: cn.log2(x),
        'log10': lambda x: cn.log10(x),
        'log1p': lambda x: cn.log1p(x),
        'expm1': lambda x: cn.expm1(x),
        'sqrt': lambda x: cn.sqrt(x),
        'rsqrt': lambda x: cn.rsqrt(x),
        'square': lambda x: cn.square(x),
        'sin': lambda x: cn.sin(x),
        'cos': lambda x: cn.cos(x),
        'tan': lambda x: cn.tan(x),
        'sinh': lambda x: cn.sinh(x),
        'cosh': lambda x: cn.cosh(x),
        'arcsin': lambda x: cn.arcsin(x),
        'arccos': lambda x: cn.arccos(x),
        'arctan': lambda x: cn.arctan(x),
        'maximum': lambda a, b: cn.maximum(a, b),
        'minimum': lambda a, b: cn.minimum(a, b),
        'where': lambda c, x, y: cn.where(c, x, y),
        'sum': _sum,
        'mean': _mean,
        'max': _max,
        'min': _min,
        'argmax': _argmax,
        'argmin': _argmin,
        'matmul': _matmul,
        'reshape': lambda x, shape: cn.reshape(x, shape),
        'transpose': lambda x, axes: cn.transpose(x, axes),
        'swapaxes': lambda x, a1, a2: cn.swapaxes(x, a1, a2),
        'broadcast_to': lambda x, shape: cn.broadcast_to(x, shape),
        'squeeze': lambda x, axis: cn.squeeze(x, axis),
        'expand_dims': lambda x, axis: cn.expand_dims(x, axis),
        'concat': lambda xs, axis: cn.concatenate(xs, axis),
        'stack': lambda xs, axis: cn.stack(xs, axis),
        'copy': lambda x: cn.copy(x),
        'get_item': lambda x, slices: x[slices],
        'relu': lambda x: cn.relu(x),
        'relu_grad': lambda y, gy: gy * (y > 0),
        'sigmoid': lambda x: cn.sigmoid(x),
        'sigmoid_grad': lambda y, gy: gy * y * (1 - y),
        'tanh': lambda x: cn.tanh(x),
        'tanh_grad': lambda y, gy: gy * (1 - y * y),
        'linear': _linear,
        'softmax': lambda x, axis: cn.softmax(x, axis),
        'log_softmax': lambda x, axis: cn.log_softmax(x, axis),
        'softmax_cross_entropy': _softmax_cross_entropy,
        'softmax_cross_entropy_grad': _softmax_cross_entropy_grad,
        'mean_squared_error': lambda x0, x1: cn.mean_squared_error(x0, x1),
        'convolution_2d': _convolution,
        'convolution_nd': _convolution,
        'convolution_2d_grad_w': _convolution_grad_w,
        'convolution_nd_grad_w': _convolution_grad_w,
        'deconvolution_2d': _deconvolution,
        'deconvolution_nd': _deconvolution,
        'max_pooling_2d': _max_pooling,
        'max_pooling_nd': _max_pooling,
        'average_pooling_2d': _average_pooling,
        'average_pooling_nd': _average_pooling,
        'roi_max_bins': _roi_max_bins,
        'fixed_batch_normalization': _fixed_batch_normalization,
    }
    table.update(_UPDATE_RULES)
    return table
