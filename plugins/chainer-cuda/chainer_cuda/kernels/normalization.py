"""Batch normalization over every axis but axis 1 (Chainer's default for
(N, C, ...) inputs): the per-channel sums in one kernel with a block per
channel, the normalization in one elementwise kernel."""
import numpy

from chainer_cuda.kernels._build import (
    Elementwise, FLOATS, Raw, WIDE_FLOATS, cupy, float_dtype)

_BLOCK = 512

_REDUCE = r'''
typedef cc_wide<T>::type C;

// The sum of v over the block, in thread 0 (the others get garbage).
__device__ C cc_block_sum(C v, C* scratch) {
    for (int o = 16; o > 0; o >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, o);
    }
    if (threadIdx.x % 32 == 0) scratch[threadIdx.x / 32] = v;
    __syncthreads();
    v = threadIdx.x < blockDim.x / 32 ? scratch[threadIdx.x] : C(0);
    if (threadIdx.x < 32) {
        for (int o = 16; o > 0; o >>= 1) {
            v += __shfl_xor_sync(0xffffffffu, v, o);
        }
    }
    __syncthreads();
    return v;
}
'''

# Channel c of x (N, channels, inner) holds x[(i / inner * channels + c)
# * inner + i % inner] for i < N * inner. Two passes, as the reference:
# the mean, then the mean of the squared deviations.
_stats = Raw('batch_normalization_stats', _REDUCE + r'''
extern "C" __global__ void chainer_cuda_batch_normalization_stats(
        const T* x, C* mean, C* var, C* inv_std, long long count,
        long long channels, long long inner, double eps) {
    __shared__ C scratch[32];
    __shared__ C shared_mean;
    long long c = blockIdx.x;
    C sum = 0;
    for (long long i = threadIdx.x; i < count; i += blockDim.x) {
        sum += C(x[(i / inner * channels + c) * inner + i % inner]);
    }
    sum = cc_block_sum(sum, scratch);
    if (threadIdx.x == 0) shared_mean = sum / C(count);
    __syncthreads();
    C mu = shared_mean;
    C sq = 0;
    for (long long i = threadIdx.x; i < count; i += blockDim.x) {
        C d = C(x[(i / inner * channels + c) * inner + i % inner]) - mu;
        sq += d * d;
    }
    sq = cc_block_sum(sq, scratch);
    if (threadIdx.x == 0) {
        C v = sq / C(count);
        mean[c] = mu;
        var[c] = v;
        inv_std[c] = C(1) / sqrt(v + C(eps));
    }
}
''', {'T': WIDE_FLOATS})

_grad_sums = Raw('batch_normalization_grad_sums', _REDUCE + r'''
extern "C" __global__ void chainer_cuda_batch_normalization_grad_sums(
        const T* x, const T* gy, const C* mean, const C* inv_std, C* gbeta,
        C* ggamma, long long count, long long channels, long long inner) {
    __shared__ C scratch[32];
    long long c = blockIdx.x;
    C mu = mean[c];
    C is = inv_std[c];
    C sg = 0;
    C sgx = 0;
    for (long long i = threadIdx.x; i < count; i += blockDim.x) {
        long long at = (i / inner * channels + c) * inner + i % inner;
        C g = gy[at];
        sg += g;
        sgx += g * ((C(x[at]) - mu) * is);
    }
    sg = cc_block_sum(sg, scratch);
    sgx = cc_block_sum(sgx, scratch);
    if (threadIdx.x == 0) {
        gbeta[c] = sg;
        ggamma[c] = sgx;
    }
}
''', {'T': WIDE_FLOATS})

_normalize = Elementwise(
    'batch_normalization_apply',
    'T x, A mean, A inv_std, G gamma, G beta', 'T y',
    'y = T((C(x) - C(mean)) * (C(inv_std) * C(gamma)) + C(beta));')
_normalize_grad = Elementwise(
    'batch_normalization_grad_apply',
    'T x, T gy, A mean, A inv_std, G gamma, A gbeta, A ggamma, float64 m',
    'T gx',
    '''C xhat = (C(x) - C(mean)) * C(inv_std);
    gx = T((C(gy) - C(gbeta) / C(m) - xhat * (C(ggamma) / C(m)))
           * (C(gamma) * C(inv_std)));''')
_fixed = Elementwise(
    'fixed_batch_normalization',
    'T x, G gamma, G beta, M mean, M var, float64 eps', 'T y',
    '''C scale = C(gamma) / sqrt(C(var) + C(eps));
    y = T((C(x) - C(mean)) * scale + C(beta));''')
_update_statistics = Elementwise(
    'batch_normalization_update_statistics',
    'M mean, M var, float64 decay, float64 adjust',
    'R running_mean, R running_var',
    '''running_mean = R(C(running_mean) * C(decay)
                        + C(1 - decay) * C(mean));
    running_var = R(C(running_var) * C(decay)
                    + C((1 - decay) * adjust) * C(var));''', wide='R')


def _channel_layout(x, axis):
    """(count, channels, inner) when ``axis`` is every axis but 1, else
    None."""
    if x.ndim < 2 or tuple(sorted(axis)) != (0,) + tuple(range(2, x.ndim)):
        return None
    inner = 1
    for d in x.shape[2:]:
        inner *= d
    return x.shape[0] * inner, x.shape[1], inner


def _wide(dtype):
    return numpy.dtype(numpy.float64 if dtype == numpy.float64
                       else numpy.float32)


def batch_normalization(x, gamma, beta, axis, eps):
    layout = _channel_layout(x, axis)
    if layout is None or x.dtype not in WIDE_FLOATS or layout[0] == 0 or \
            float_dtype(gamma, beta) is None:
        return NotImplemented
    xp = cupy()
    count, channels, inner = layout
    x = xp.ascontiguousarray(x)
    shape = gamma.shape
    mean, var, inv_std = (xp.empty(shape, dtype=_wide(x.dtype))
                          for _ in range(3))
    _stats((channels,), (_BLOCK,), (
        x, mean, var, inv_std, numpy.int64(count), numpy.int64(channels),
        numpy.int64(inner), numpy.float64(eps)), T=x.dtype)
    return _normalize(x, mean, inv_std, gamma, beta), mean, var, inv_std


def batch_normalization_grad(x, gamma, gy, mean, inv_std, axis):
    layout = _channel_layout(x, axis)
    wide = _wide(x.dtype)
    if layout is None or x.dtype not in WIDE_FLOATS or layout[0] == 0 or \
            gy.dtype != x.dtype or gamma.dtype not in FLOATS or \
            mean.dtype != wide or inv_std.dtype != wide:
        return NotImplemented
    xp = cupy()
    count, channels, inner = layout
    x = xp.ascontiguousarray(x)
    gy = xp.ascontiguousarray(gy)
    mean = xp.ascontiguousarray(mean)
    inv_std = xp.ascontiguousarray(inv_std)
    gbeta = xp.empty(mean.shape, dtype=wide)
    ggamma = xp.empty(mean.shape, dtype=wide)
    _grad_sums((channels,), (_BLOCK,), (
        x, gy, mean, inv_std, gbeta, ggamma, numpy.int64(count),
        numpy.int64(channels), numpy.int64(inner)), T=x.dtype)
    gx = _normalize_grad(x, gy, mean, inv_std, gamma, gbeta, ggamma,
                         float(count))
    return (gx, ggamma.astype(gamma.dtype, copy=False),
            gbeta.astype(gamma.dtype, copy=False))


def fixed_batch_normalization(x, gamma, beta, mean, var, eps):
    if x.dtype not in FLOATS or float_dtype(gamma, beta) is None or \
            float_dtype(mean, var) is None:
        return NotImplemented
    wide = _wide(x.dtype)
    # Computed in the widened dtype of x, which must hold the others.
    if any(a.dtype not in (x.dtype, wide) for a in (gamma, mean)):
        return NotImplemented
    return _fixed(x, gamma, beta, mean, var, float(eps))


def batch_normalization_update_statistics(running_mean, running_var, mean,
                                          var, decay, adjust):
    if float_dtype(running_mean, running_var) is None or \
            float_dtype(mean, var) is None:
        return NotImplemented
    _update_statistics(mean, var, float(decay), float(adjust),
                       running_mean, running_var)
    return running_mean, running_var


KERNELS = {
    'batch_normalization': batch_normalization,
    'batch_normalization_grad': batch_normalization_grad,
    'fixed_batch_normalization': fixed_batch_normalization,
    'batch_normalization_update_statistics':
        batch_normalization_update_statistics,
}
