"""The kernels registered for the ``mkldnn`` backend.

Each kernel has the signature of the core's kernel of the same name (see
``python -m chainer_core kernels``) and decides per call, from
``config.use_ideep``, between oneDNN and the core's NumPy reference:

* ``'never'``: the reference;
* ``'auto'``: oneDNN when it covers the case, else the reference;
* ``'always'``: as ``'auto'``, and also the kernels that ``'auto'`` leaves
  to the reference (where oneDNN is not the faster one). As in Chainer, a
  case oneDNN does not cover (another dtype, a layout it lacks) runs the
  reference under any mode.

Output shapes and oneDNN's asymmetric paddings are worked out here; the
primitives themselves live in the extension (``src/ops.cpp``).
"""
import numpy

from chainer_core.configuration import config as _config

import chainer_mkldnn
from chainer_mkldnn import _native, mdarray

_F32 = numpy.dtype(numpy.float32)
_POOL_MAX, _POOL_AVG_INCLUDE, _POOL_AVG_EXCLUDE = 0, 1, 2
_RELU, _RELU_DST, _ELU, _TANH, _TANH_DST, _LOGISTIC, _LOGISTIC_DST = range(7)

_C = None


class _Skip(Exception):
    """oneDNN does not cover this case; the message says why."""


class _Trivial(Exception):
    """An empty array: the reference handles it, whatever the mode."""


def _lib():
    global _C
    if _C is None:
        _C = _native.lib()
    return _C


def kernel(name, auto=True):
    """Make ``fast`` (same signature as kernel ``name``) the oneDNN kernel
    ``name``: it declines (``NotImplemented``, and the core runs its
    reference) in a mode that leaves the op to the reference and for a case
    oneDNN does not cover. ``auto=False`` keeps the reference under
    ``'auto'`` (oneDNN only under ``'always'``)."""
    modes = ('auto', 'always') if auto else ('always',)

    def wrap(fast):
        def run(*args, **kwargs):
            if _config.use_ideep in modes:
                try:
                    return fast(*args, **kwargs)
                except (_Trivial, _Skip, chainer_mkldnn.UnsupportedError):
                    pass
            return NotImplemented

        run.__name__ = run.__qualname__ = name
        run.__doc__ = 'oneDNN kernel {!r}; declines where the reference ' \
            'runs.'.format(name)
        run.fast = fast
        KERNELS[name] = run
        return run
    return wrap


KERNELS = {}


# -- helpers

def _f32(*arrays):
    for a in arrays:
        if a is not None and a.dtype != _F32:
            raise _Skip('oneDNN kernels here take float32, got {}'.format(
                a.dtype))


def _c(a):
    return a if a.flags.c_contiguous else numpy.ascontiguousarray(a)


def _empty(shape):
    return mdarray(shape, _F32)


def _nonempty(*arrays):
    for a in arrays:
        if a.size == 0:
            raise _Trivial


def _finite(*arrays):
    """Decline when an array holds NaN or inf where oneDNN's answer is not
    the reference's: its relu and max pooling drop NaN, its softmax gives 0
    beside a NaN or +inf, and its convolutions skip the padding, whose
    zeros the reference multiplies (0 * inf is NaN there). A divergence
    must show as NaN on every device.

    The sum is NaN or inf when an element is: one read of the array and no
    temporary, a third cheaper than ``isfinite(a).all()``; finite values
    whose sum overflows only cost a fallback."""
    for a in arrays:
        if not numpy.isfinite(a.sum()):
            raise _Skip('NaN or inf in the input')


def _padded(pad, right_pads):
    return any(pad) or any(r > 0 for r in right_pads)


def _spatial(name, x, low=1, high=3):
    n = x.ndim - 2
    if not low <= n <= high:
        raise _Skip('{} spatial axes (oneDNN takes {} to {})'.format(
            n, low, high))
    return n


def _conv_out(size, k, s, p, d, cover_all):
    dk = (k - 1) * d + 1
    if cover_all:
        return (size + 2 * p - dk + s - 1) // s + 1
    return (size + 2 * p - dk) // s + 1


def _right_pads(in_dims, out_dims, ksize, stride, pad, dilate):
    """oneDNN's right paddings that give out_dims: its output length is
    (in - dk + pad_l + pad_r) // s + 1, so any pad_r in (r - s, r] for the
    exact r below gives the same length."""
    return [(o - 1) * s + (k - 1) * d + 1 - i - p
            for i, o, k, s, p, d in zip(in_dims, out_dims, ksize, stride,
                                        pad, dilate)]


def _dnnl_dilate(dilate):
    return [d - 1 for d in dilate]


# -- convolution

def _conv_forward(name):
    @kernel(name)
    def fast(x, W, b, stride, pad, dilate, groups, cover_all):
        _f32(x, W, b)
        _spatial(name, x)
        _nonempty(x, W)
        ksize = W.shape[2:]
        out = tuple(_conv_out(i, k, s, p, d, cover_all) for i, k, s, p, d in
                    zip(x.shape[2:], ksize, stride, pad, dilate))
        right = _right_pads(x.shape[2:], out, ksize, stride, pad, dilate)
        if _padded(pad, right):
            _finite(W)
        y = _empty((x.shape[0], W.shape[0]) + out)
        _lib().conv_forward(
            name, _c(x), _c(W), None if b is None else _c(b), y,
            list(stride), _dnnl_dilate(dilate), list(pad), right, groups)
        return y


def _deconv_forward(name):
    # The transposed convolution is oneDNN's convolution backward-data, with
    # W (Cin, Cout / groups, *k) read as the convolution's (O, C / groups,
    # *k) filters; it is also the input gradient of the convolutions.
    @kernel(name)
    def fast(x, W, b, stride, pad, dilate, groups, outsize):
        _f32(x, W, b)
        n = _spatial(name, x)
        _nonempty(x, W)
        outsize = tuple(outsize)
        y = _empty((x.shape[0], W.shape[1] * groups) + outsize)
        _lib().conv_backward_data(
            name, _c(x), _c(W), y, list(stride), _dnnl_dilate(dilate),
            list(pad), _right_pads(outsize, x.shape[2:], W.shape[2:], stride,
                                   pad, dilate), groups)
        if b is not None:
            y += b.reshape((1, -1) + (1,) * n)
        return y


def _conv_grad_w(name):
    # gy is reordered to the blocked layout here again, although the input
    # gradient (a deconvolution of the same gy, just before) did it too:
    # reusing that copy, even keyed on gy's buffer with gy kept alive, would
    # return stale results if gy were written in place between the two
    # calls (NumPy writes reach no kernel, so nothing here could tell), and
    # it would save one reorder of gy, about 2% of a small convnet's step.
    @kernel(name)
    def fast(x, gy, ksize, stride, pad, dilate, groups):
        _f32(x, gy)
        _spatial(name, x)
        ksize = tuple(ksize)
        gW = _empty((gy.shape[1], x.shape[1] // groups) + ksize)
        if x.size == 0 or gy.size == 0:
            gW[...] = 0
            return gW
        right = _right_pads(x.shape[2:], gy.shape[2:], ksize, stride, pad,
                            dilate)
        if _padded(pad, right):
            _finite(gy)
        _lib().conv_backward_weights(
            name, _c(x), _c(gy), gW, list(stride), _dnnl_dilate(dilate),
            list(pad), right, groups)
        return gW


for _n in ('convolution_2d', 'convolution_nd'):
    _conv_forward(_n)
for _n in ('deconvolution_2d', 'deconvolution_nd'):
    _deconv_forward(_n)
for _n in ('convolution_2d_grad_w', 'convolution_nd_grad_w'):
    _conv_grad_w(_n)


@kernel('linear')
def _linear(x, W, b):
    _f32(x, W, b)
    if x.ndim != 2 or W.ndim != 2:
        raise _Skip('x and W must be 2-D')
    _nonempty(x, W)
    y = _empty((x.shape[0], W.shape[0]))
    _lib().linear('linear', _c(x), _c(W), None if b is None else _c(b), y)
    return y


@kernel('matmul')
def _matmul(a, b, transa, transb):
    _f32(a, b)
    if a.ndim != b.ndim or not 2 <= a.ndim <= 5:
        raise _Skip('a and b must have the same rank, 2 to 5')
    _nonempty(a, b)
    m = a.shape[-1] if transa else a.shape[-2]
    n = b.shape[-2] if transb else b.shape[-1]
    batch = []
    for da, db in zip(a.shape[:-2], b.shape[:-2]):
        if da != db and da != 1 and db != 1:
            raise _Skip('batch axes {} and {} do not broadcast'.format(
                a.shape[:-2], b.shape[:-2]))
        batch.append(max(da, db))
    y = _empty(tuple(batch) + (m, n))
    _lib().matmul('matmul', _c(a), _c(b), y, bool(transa), bool(transb))
    return y


# -- pooling

def _pool_pads(in_dims, out_dims, ksize, stride, pad):
    """The smallest right paddings that give out_dims (never below zero).

    A window entirely in the padding (pad >= ksize, or cover_all's extra
    window past the end) is -inf or 0 / 0 in the reference; oneDNN gives
    other values there, so such cases are left to the reference.
    """
    for i, o, k, s, p in zip(in_dims, out_dims, ksize, stride, pad):
        if p >= k or (o - 1) * s - p >= i:
            raise _Skip('a pooling window lies entirely in the padding')
    return [max(0, r) for r in _right_pads(in_dims, out_dims, ksize, stride,
                                           pad, [1] * len(ksize))]


def _max_pool(name):
    @kernel(name)
    def fast(x, ksize, stride, pad, cover_all):
        _f32(x)
        _spatial(name, x)
        _nonempty(x)
        _finite(x)
        out = tuple(_conv_out(i, k, s, p, 1, cover_all) for i, k, s, p in
                    zip(x.shape[2:], ksize, stride, pad))
        shape = x.shape[:2] + out
        y = _empty(shape)
        indexes = mdarray(shape, numpy.int32)
        _lib().pool_forward(name, _POOL_MAX, _c(x), y, indexes, list(ksize),
                            list(stride), list(pad),
                            _pool_pads(x.shape[2:], out, ksize, stride, pad))
        return y, indexes


def _max_pool_grad(name):
    @kernel(name)
    def fast(gy, indexes, in_dims, ksize, stride, pad):
        _f32(gy)
        _spatial(name, gy)
        _nonempty(gy)
        if indexes.dtype != numpy.int32:
            raise _Skip('indexes must be int32')
        in_dims = tuple(in_dims)
        gx = _empty(gy.shape[:2] + in_dims)
        _lib().pool_backward(name, _POOL_MAX, _c(gy), _c(indexes), gx,
                             list(ksize), list(stride), list(pad),
                             _pool_pads(in_dims, gy.shape[2:], ksize, stride,
                                        pad))
        return gx


def _avg_alg(pad_value):
    return _POOL_AVG_EXCLUDE if pad_value is None else _POOL_AVG_INCLUDE


def _avg_pool(name):
    @kernel(name)
    def fast(x, ksize, stride, pad, pad_value):
        _f32(x)
        _spatial(name, x)
        _nonempty(x)
        out = tuple(_conv_out(i, k, s, p, 1, False) for i, k, s, p in
                    zip(x.shape[2:], ksize, stride, pad))
        y = _empty(x.shape[:2] + out)
        _lib().pool_forward(name, _avg_alg(pad_value), _c(x), y, None,
                            list(ksize), list(stride), list(pad),
                            _pool_pads(x.shape[2:], out, ksize, stride, pad))
        return y


def _avg_pool_grad(name):
    @kernel(name)
    def fast(gy, in_dims, ksize, stride, pad, pad_value):
        _f32(gy)
        _spatial(name, gy)
        _nonempty(gy)
        in_dims = tuple(in_dims)
        gx = _empty(gy.shape[:2] + in_dims)
        _lib().pool_backward(name, _avg_alg(pad_value), _c(gy), None, gx,
                             list(ksize), list(stride), list(pad),
                             _pool_pads(in_dims, gy.shape[2:], ksize, stride,
                                        pad))
        return gx


for _n in ('max_pooling_2d', 'max_pooling_nd'):
    _max_pool(_n)
    _max_pool_grad(_n + '_grad')
for _n in ('average_pooling_2d', 'average_pooling_nd'):
    _avg_pool(_n)
    _avg_pool_grad(_n + '_grad')


# -- normalization

def _channel_axes(ndim):
    return (0,) + tuple(range(2, ndim))


def _bn_supported(x, *channel_arrays):
    if not 2 <= x.ndim <= 5:
        raise _Skip('x must have 2 to 5 axes')
    shape = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    for a in channel_arrays:
        if a.shape != shape:
            raise _Skip('oneDNN normalizes over the channel axis 1 only')
    _nonempty(x)


@kernel('batch_normalization')
def _batch_normalization(x, gamma, beta, axis, eps):
    _f32(x, gamma, beta)
    if tuple(axis) != _channel_axes(x.ndim):
        raise _Skip('oneDNN normalizes over the channel axis 1 only')
    _bn_supported(x, gamma, beta)
    c = x.shape[1]
    y = _empty(x.shape)
    mean = numpy.empty(c, _F32)
    var = numpy.empty(c, _F32)
    _lib().bn_forward_training(
        'batch_normalization', _c(x), _c(gamma).reshape(c),
        _c(beta).reshape(c), y, mean, var, float(eps))
    inv_std = (1 / numpy.sqrt(var + _F32.type(eps))).astype(_F32, copy=False)
    shape = gamma.shape
    return (y, mean.reshape(shape).view(mdarray),
            var.reshape(shape).view(mdarray),
            inv_std.reshape(shape).view(mdarray))


@kernel('batch_normalization_grad')
def _batch_normalization_grad(x, gamma, gy, mean, inv_std, axis):
    _f32(x, gamma, gy, mean, inv_std)
    if tuple(axis) != _channel_axes(x.ndim):
        raise _Skip('oneDNN normalizes over the channel axis 1 only')
    _bn_supported(x, gamma, mean, inv_std)
    c = x.shape[1]
    # oneDNN takes the variance and eps; with eps 0 the variance
    # 1 / inv_std**2 gives back the forward pass's scale.
    var = (1 / numpy.square(numpy.asarray(inv_std).reshape(c))).astype(_F32)
    gx = _empty(x.shape)
    ggamma = numpy.empty(c, _F32)
    gbeta = numpy.empty(c, _F32)
    _lib().bn_backward('batch_normalization_grad', _c(x), _c(gy),
                       _c(gamma).reshape(c), _c(mean).reshape(c), var, gx,
                       ggamma, gbeta, 0.0)
    shape = gamma.shape
    return (gx, ggamma.reshape(shape).view(mdarray),
            gbeta.reshape(shape).view(mdarray))


@kernel('fixed_batch_normalization')
def _fixed_batch_normalization(x, gamma, beta, mean, var, eps):
    _f32(x, gamma, beta, mean, var)
    _bn_supported(x, gamma, beta, mean, var)
    c = x.shape[1]
    y = _empty(x.shape)
    _lib().bn_forward_inference(
        'fixed_batch_normalization', _c(x), _c(gamma).reshape(c),
        _c(beta).reshape(c), _c(mean).reshape(c), _c(var).reshape(c), y,
        float(eps))
    return y


@kernel('local_response_normalization')
def _local_response_normalization(x, half_n, k, alpha, beta):
    _f32(x)
    if not 3 <= x.ndim <= 5:
        raise _Skip('x must have 3 to 5 axes')
    _nonempty(x)
    y = _empty(x.shape)
    unit_scale = _empty(x.shape)
    _lib().lrn_forward('local_response_normalization', _c(x), y, unit_scale,
                       2 * int(half_n) + 1, float(alpha), float(beta),
                       float(k))
    return y, unit_scale


@kernel('local_response_normalization_grad')
def _local_response_normalization_grad(x, gy, unit_scale, half_n, k, alpha,
                                       beta):
    # oneDNN recomputes the scale from x and k; unit_scale is for the
    # reference.
    _f32(x, gy)
    if gy.shape != x.shape:
        raise _Skip('gy has shape {}, expected {} (the shape of x)'.format(
            gy.shape, x.shape))
    _nonempty(x)
    # The normalization runs across channels only, so the spatial axes can
    # be one: oneDNN's JIT backward passes take 4-D arrays only. As the
    # last one: its nChw16c forward pass is 2 to 3 times slower on a
    # width of 1.
    shape4 = x.shape if x.ndim == 4 else \
        x.shape[:2] + (1, x.size // (x.shape[0] * x.shape[1]))
    gx = _empty(x.shape)
    _lib().lrn_backward('local_response_normalization_grad',
                        _c(x).reshape(shape4), _c(gy).reshape(shape4),
                        gx.reshape(shape4), 2 * int(half_n) + 1, float(alpha),
                        float(beta), float(k))
    return gx


# -- activations

def _eltwise(name, alg, finite=False):
    """``finite``: oneDNN's answer differs from the reference's at NaN."""
    def forward(x, *args):
        _f32(x)
        _nonempty(x)
        if finite:
            _finite(x)
        alpha = float(args[0]) if args else 0.0
        y = _empty(x.shape)
        _lib().eltwise_forward(name, alg, _c(x), y, alpha, 0.0)
        return y
    return forward


def _eltwise_grad(name, alg, scaled=False, finite=False):
    """``finite``: oneDNN takes a NaN in ``data`` for a positive value."""
    def backward(data, gy, *args):
        _f32(data, gy)
        if data.shape != gy.shape:
            raise _Skip('the gradient must have the shape of its input')
        _nonempty(gy)
        if finite:
            _finite(data)
        alpha = float(args[0]) if args else 0.0
        gx = _empty(gy.shape)
        _lib().eltwise_backward(name, alg, _c(data), _c(gy), gx, alpha, 0.0)
        if scaled and args[1] != 1:
            gx *= _F32.type(args[1])
        return gx
    return backward


kernel('relu')(_eltwise('relu', _RELU, finite=True))
kernel('relu_grad')(_eltwise_grad('relu_grad', _RELU_DST, finite=True))
kernel('leaky_relu')(_eltwise('leaky_relu', _RELU))
kernel('leaky_relu_grad')(_eltwise_grad('leaky_relu_grad', _RELU,
                                        finite=True))
kernel('elu')(_eltwise('elu', _ELU))
kernel('elu_grad')(_eltwise_grad('elu_grad', _ELU, scaled=True,
                                 finite=True))
kernel('tanh')(_eltwise('tanh', _TANH))
kernel('tanh_grad')(_eltwise_grad('tanh_grad', _TANH_DST))
kernel('sigmoid')(_eltwise('sigmoid', _LOGISTIC))
kernel('sigmoid_grad')(_eltwise_grad('sigmoid_grad', _LOGISTIC_DST))


def _softmax(name, log):
    # oneDNN 3.2's log-softmax along the innermost axis is about 30 ulp off
    # (3e-6 absolute in float32, against 1e-7 for the reference), which
    # losses built on it (a KL divergence of near-equal distributions)
    # amplify: 'auto' keeps the reference for it.
    @kernel(name, auto=not log)
    def fast(x, axis):
        _f32(x)
        if x.ndim == 0:
            raise _Skip('x must have at least one axis')
        _nonempty(x)
        _finite(x)
        y = _empty(x.shape)
        _lib().softmax_forward(name, _c(x), y, int(axis) % x.ndim, log)
        return y


_softmax('softmax', False)
_softmax('log_softmax', True)


# -- arrays

@kernel('concat')
def _concat(xs, axis):
    if not xs:
        raise _Skip('nothing to concatenate')
    _f32(*xs)
    ndim = xs[0].ndim
    if ndim == 0:
        raise _Skip('cannot concatenate 0-dim arrays')
    axis = int(axis) % ndim
    for a in xs:
        if a.ndim != ndim:
            raise _Skip('the arrays differ in rank')
    _nonempty(*xs)
    shape = list(xs[0].shape)
    shape[axis] = sum(a.shape[axis] for a in xs)
    y = _empty(tuple(shape))
    _lib().concat('concat', [_c(a) for a in xs], y, axis)
    return y


def _scalar(v):
    """Whether v adds to a float32 array as a float32 scalar: Python
    numbers (weakly typed) and float32 NumPy scalars."""
    t = type(v)
    return t is int or t is float or t is numpy.float32


@kernel('add')
def _add(x, y):
    if _scalar(y) or _scalar(x):
        a, s = (x, y) if _scalar(y) else (y, x)
        if not isinstance(a, numpy.ndarray):
            raise _Skip('no array operand')
        _f32(a)
        _nonempty(a)
        if a.ndim == 0:
            raise _Skip('0-dim operands')
        # A broadcast one-element operand rather than oneDNN's eltwise
        # linear, whose constant would make a primitive per value.
        out = _empty(a.shape)
        _lib().binary_add('add', _c(a), numpy.full((1,) * a.ndim, s, _F32),
                          out)
        return out
    if not (isinstance(x, numpy.ndarray) and isinstance(y, numpy.ndarray)):
        raise _Skip('operands must be arrays or Python scalars')
    _f32(x, y)
    # oneDNN broadcasts its second operand only; addition commutes.
    if x.shape != y.shape and x.size < y.size:
        x, y = y, x
    if y.ndim > x.ndim:
        raise _Skip('shapes {} and {} do not broadcast into the first'
                    .format(x.shape, y.shape))
    b = (1,) * (x.ndim - y.ndim) + y.shape
    if any(bi != 1 and bi != xi for bi, xi in zip(b, x.shape)):
        raise _Skip('shapes {} and {} do not broadcast into one of them'
                    .format(x.shape, y.shape))
    _nonempty(x)
    if x.ndim == 0:
        raise _Skip('0-dim operands')
    out = _empty(x.shape)
    _lib().binary_add('add', _c(x), _c(y).reshape(b), out)
    return out


# -- optimizer updates
#
# Fused loops of the extension rather than oneDNN primitives: an update is
# one pass over a few arrays, and a primitive (two binary ones for
# MomentumSGD, a chain of them for Adam) costs a cache lookup and memory
# objects per parameter for no gain in bandwidth. The loops round as the
# reference does, so the results are the same bit for bit. The extension
# checks the arrays itself (float32 or float64, one dtype and shape,
# contiguous state) and raises UnsupportedError otherwise: models have
# many small parameters, and checks here would cost more than their
# update.


@kernel('sgd_update')
def _sgd_update(param, grad, lr):
    _lib().sgd_update('sgd_update', param, grad, lr)


@kernel('momentum_sgd_update')
def _momentum_sgd_update(param, grad, v, lr, momentum):
    _lib().momentum_sgd_update('momentum_sgd_update', param, grad, v, lr,
                               momentum)


@kernel('adam_update')
def _adam_update(param, grad, m, v, vhat, alpha_t, beta1, beta2, eps, eta,
                 weight_decay_rate, lower, upper):
    _lib().adam_update('adam_update', param, grad, m, v, vhat, alpha_t,
                       beta1, beta2, eps, eta, weight_decay_rate, lower,
                       upper)
