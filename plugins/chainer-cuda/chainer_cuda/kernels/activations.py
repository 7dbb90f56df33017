"""Activations and their gradients, one launch each.

Each follows its reference kernel's formula, special values included (NaN
in, NaN out; a NaN or infinite gradient times a zero mask is NaN), so that
the GPU gives the answers @numpy gives, up to float rounding.
"""
from chainer_cuda.kernels._build import Elementwise, float_dtype

_relu = Elementwise(
    'relu', 'T x', 'T y',
    'C v = x; y = (v > C(0) || isnan(v)) ? x : T(0);')
_relu_grad = Elementwise(
    'relu_grad', 'T y, T gy', 'T gx',
    'gx = T(C(gy) * (C(y) > C(0) ? C(1) : C(0)));')
_sigmoid = Elementwise(
    'sigmoid', 'T x', 'T y',
    'const C h = 0.5; y = T(tanh(C(x) * h) * h + h);')
_sigmoid_grad = Elementwise(
    'sigmoid_grad', 'T y, T gy', 'T gx',
    'C v = y; gx = T(C(gy) * v * (C(1) - v));')
_tanh_grad = Elementwise(
    'tanh_grad', 'T y, T gy', 'T gx',
    'C v = y; gx = T(C(gy) * (C(1) - v * v));')
_leaky_relu = Elementwise(
    'leaky_relu', 'T x, float64 slope', 'T y',
    '''C v = x; C s = v * C(slope);
    y = T(slope <= 1 ? cc_max(v, s) : cc_min(v, s));''')
_leaky_relu_grad = Elementwise(
    'leaky_relu_grad', 'T x, T gy, float64 slope', 'T gx',
    'C g = gy; gx = T(C(x) < C(0) ? g * C(slope) : g);')
_elu = Elementwise(
    'elu', 'T x, float64 alpha, float64 scale', 'T y',
    '''C v = x;
    y = T((cc_max(v, C(0)) + C(alpha) * expm1(cc_min(v, C(0)))) * C(scale));
    ''')
_elu_grad = Elementwise(
    'elu_grad', 'T x, T gy, float64 scale, float64 factor', 'T gx',
    '''C v = x;
    C coef = (v >= C(0) ? C(1) : C(0)) * C(scale)
        + exp(cc_min(v, C(0))) * C(factor) * (v < C(0) ? C(1) : C(0));
    gx = T(C(gy) * coef);''')
_elu_grad_grad = Elementwise(
    'elu_grad_grad', 'T x, T g, float64 factor', 'T gx',
    '''C v = x;
    gx = T(C(g) * (exp(cc_min(v, C(0))) * C(factor)
                   * (v < C(0) ? C(1) : C(0))));''')
_clipped_relu = Elementwise(
    'clipped_relu', 'T x, float64 z', 'T y',
    'y = T(cc_min(cc_max(C(x), C(0)), C(z)));')
_clipped_relu_grad = Elementwise(
    'clipped_relu_grad', 'T x, T gy, float64 z', 'T gx',
    'C v = x; gx = T(C(gy) * ((v > C(0) && v < C(z)) ? C(1) : C(0)));')
_hard_sigmoid = Elementwise(
    'hard_sigmoid', 'T x', 'T y',
    'C t = C(x) * C(0.2) + C(0.5); y = T(cc_min(cc_max(t, C(0)), C(1)));')
_hard_sigmoid_grad = Elementwise(
    'hard_sigmoid_grad', 'T x, T gy', 'T gx',
    '''C v = x;
    gx = T(C(gy) * C(0.2) * ((v > C(-2.5) && v < C(2.5)) ? C(1) : C(0)));''')
_softplus = Elementwise(
    'softplus', 'T x, float64 beta, float64 inv_beta', 'T y',
    '''C bx = C(x) * C(beta);
    y = T((cc_max(bx, C(0)) + log1p(exp(-fabs(bx)))) * C(inv_beta));''')


def relu(x):
    if float_dtype(x) is None:
        return NotImplemented
    return _relu(x)


def relu_grad(y, gy):
    if float_dtype(y, gy) is None:
        return NotImplemented
    return _relu_grad(y, gy)


def sigmoid(x):
    if float_dtype(x) is None:
        return NotImplemented
    return _sigmoid(x)


def sigmoid_grad(y, gy):
    if float_dtype(y, gy) is None:
        return NotImplemented
    return _sigmoid_grad(y, gy)


def tanh_grad(y, gy):
    if float_dtype(y, gy) is None:
        return NotImplemented
    return _tanh_grad(y, gy)


def leaky_relu(x, slope):
    if float_dtype(x) is None:
        return NotImplemented
    return _leaky_relu(x, float(slope))


def leaky_relu_grad(x, gy, slope):
    # Outside [0, 1] the reference's select gives NaN for an infinite
    # gradient where this would not.
    if float_dtype(x, gy) is None or not 0 <= slope <= 1:
        return NotImplemented
    return _leaky_relu_grad(x, gy, float(slope))


def elu(x, alpha):
    if float_dtype(x) is None:
        return NotImplemented
    return _elu(x, float(alpha), 1.0)


def elu_grad(x, gy, alpha, scale):
    if float_dtype(x, gy) is None:
        return NotImplemented
    return _elu_grad(x, gy, float(scale), float(alpha * scale))


def elu_grad_grad(x, g, alpha, scale):
    if float_dtype(x, g) is None:
        return NotImplemented
    return _elu_grad_grad(x, g, float(alpha * scale))


def selu(x, alpha, scale):
    if float_dtype(x) is None:
        return NotImplemented
    return _elu(x, float(alpha), float(scale))


def clipped_relu(x, z):
    if float_dtype(x) is None:
        return NotImplemented
    return _clipped_relu(x, float(z))


def clipped_relu_grad(x, gy, z):
    if float_dtype(x, gy) is None:
        return NotImplemented
    return _clipped_relu_grad(x, gy, float(z))


def hard_sigmoid(x):
    if float_dtype(x) is None:
        return NotImplemented
    return _hard_sigmoid(x)


def hard_sigmoid_grad(x, gy):
    if float_dtype(x, gy) is None:
        return NotImplemented
    return _hard_sigmoid_grad(x, gy)


def softplus(x, beta):
    if float_dtype(x) is None or beta == 0:
        return NotImplemented
    return _softplus(x, float(beta), 1.0 / beta)


KERNELS = {
    'relu': relu, 'relu_grad': relu_grad,
    'sigmoid': sigmoid, 'sigmoid_grad': sigmoid_grad,
    'tanh_grad': tanh_grad,
    'leaky_relu': leaky_relu, 'leaky_relu_grad': leaky_relu_grad,
    'elu': elu, 'elu_grad': elu_grad, 'elu_grad_grad': elu_grad_grad,
    'selu': selu,
    'clipped_relu': clipped_relu, 'clipped_relu_grad': clipped_relu_grad,
    'hard_sigmoid': hard_sigmoid, 'hard_sigmoid_grad': hard_sigmoid_grad,
    'softplus': softplus,
}
