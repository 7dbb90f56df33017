"""softmax, log_softmax and softmax_cross_entropy (labels), one warp per row.

A row is the axis the op reduces over; for an array of shape (pre, n, post)
(C order) row r holds the n elements ``(r / post * n + k) * post + r % post``.
Each kernel reads a row two or three times (maximum, sum of exponentials,
result) instead of launching one kernel per step of the reference.
"""
import numpy

from chainer_cuda.kernels._build import Raw, WIDE_FLOATS, cupy

_WARPS_PER_BLOCK = 8
_LABELS = (numpy.dtype(numpy.int8), numpy.dtype(numpy.int16),
           numpy.dtype(numpy.int32), numpy.dtype(numpy.int64))

_ROW = r'''
typedef cc_wide<T>::type C;

__device__ C cc_warp_max(C v) {
    for (int o = 16; o > 0; o >>= 1) {
        v = cc_max(v, __shfl_xor_sync(0xffffffffu, v, o));
    }
    return v;
}

__device__ C cc_warp_sum(C v) {
    for (int o = 16; o > 0; o >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, o);
    }
    return v;
}

// The maximum of the row and the sum of exp(x - maximum), in every lane.
__device__ void cc_row_stats(const T* x, long long base, long long n,
                             long long post, int lane, C* m, C* s) {
    C mx = x[base];
    for (long long k = lane; k < n; k += 32) {
        mx = cc_max(mx, C(x[base + k * post]));
    }
    mx = cc_warp_max(mx);
    C sum = 0;
    for (long long k = lane; k < n; k += 32) {
        sum += exp(C(x[base + k * post]) - mx);
    }
    *m = mx;
    *s = cc_warp_sum(sum);
}
'''

_softmax = Raw('softmax', _ROW + r'''
extern "C" __global__ void chainer_cuda_softmax(
        const T* x, T* y, long long rows, long long n, long long post,
        int log_mode) {
    long long row = (long long)blockIdx.x * (blockDim.x / 32)
        + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    if (row >= rows) return;
    long long base = row / post * n * post + row % post;
    C m, s;
    cc_row_stats(x, base, n, post, lane, &m, &s);
    C lse = m + log(s);
    for (long long k = lane; k < n; k += 32) {
        long long at = base + k * post;
        C v = x[at];
        y[at] = T(log_mode ? v - lse : exp(v - m) / s);
    }
}
''', {'T': WIDE_FLOATS})

# Per row (position): the log-probability of its label, weighted, 0 where
# the label is ignore_label; for reduce='no' the loss itself.
_sce_rows = Raw('softmax_cross_entropy_rows', _ROW + r'''
extern "C" __global__ void chainer_cuda_softmax_cross_entropy_rows(
        const T* x, const L* t, const T* w, int has_w, C* log_p, T* loss,
        long long rows, long long n, long long post, long long ignore) {
    long long row = (long long)blockIdx.x * (blockDim.x / 32)
        + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    if (row >= rows) return;
    long long base = row / post * n * post + row % post;
    C m, s;
    cc_row_stats(x, base, n, post, lane, &m, &s);
    if (lane != 0) return;
    long long label = t[row];
    C lp = 0;
    if (label != ignore) {
        lp = (C(x[base + label * post]) - m) - log(s);
        if (has_w) lp *= C(w[label]);
    }
    log_p[row] = lp;
    loss[row] = T(-lp);
}
''', {'T': WIDE_FLOATS, 'L': _LABELS})

# reduce='mean': -sum(log_p) / count in one block, count being the labels
# that are not ignore_label (normalize) or the batch size.
_sce_mean = Raw('softmax_cross_entropy_mean', r'''
typedef cc_wide<T>::type C;
extern "C" __global__ void chainer_cuda_softmax_cross_entropy_mean(
        const C* log_p, const L* t, T* out, long long rows,
        long long ignore, int normalize, long long batch) {
    __shared__ C sums[1024];
    __shared__ long long counts[1024];
    C sum = 0;
    long long count = 0;
    for (long long r = threadIdx.x; r < rows; r += blockDim.x) {
        sum += log_p[r];
        count += t[r] != ignore;
    }
    sums[threadIdx.x] = sum;
    counts[threadIdx.x] = count;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half >>= 1) {
        if (threadIdx.x < half) {
            sums[threadIdx.x] += sums[threadIdx.x + half];
            counts[threadIdx.x] += counts[threadIdx.x + half];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        long long c = normalize ? counts[0] : batch;
        out[0] = T(-sums[0] / C(c > 1 ? c : 1));
    }
}
''', {'T': WIDE_FLOATS, 'L': _LABELS})

_sce_grad = Raw('softmax_cross_entropy_grad', _ROW + r'''
extern "C" __global__ void chainer_cuda_softmax_cross_entropy_grad(
        const T* x, const L* t, const T* w, int has_w, const T* gloss,
        int mean, const long long* count, T* gx, long long rows,
        long long n, long long post, long long ignore) {
    long long row = (long long)blockIdx.x * (blockDim.x / 32)
        + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    if (row >= rows) return;
    long long base = row / post * n * post + row % post;
    C m, s;
    cc_row_stats(x, base, n, post, lane, &m, &s);
    C lse = log(s);
    long long label = t[row];
    C scale = 0;
    if (label != ignore) {
        scale = has_w ? C(w[label]) : C(1);
        if (mean) {
            long long c = *count;
            scale *= C(gloss[0]) / C(c > 1 ? c : 1);
        } else {
            scale *= C(gloss[row]);
        }
    }
    long long picked = label != ignore ? label : 0;
    for (long long k = lane; k < n; k += 32) {
        long long at = base + k * post;
        C y = exp((C(x[at]) - m) - lse);
        gx[at] = T((y - (k == picked ? C(1) : C(0))) * scale);
    }
}
''', {'T': WIDE_FLOATS, 'L': _LABELS})


def _layout(shape, axis):
    """(rows, n, post) of reducing ``shape`` over ``axis``."""
    n = shape[axis]
    post = 1
    for d in shape[axis + 1:]:
        post *= d
    rows = 1
    for d in shape[:axis]:
        rows *= d
    return rows * post, n, post


def _grid(rows):
    return (int((rows + _WARPS_PER_BLOCK - 1) // _WARPS_PER_BLOCK),), \
        (32 * _WARPS_PER_BLOCK,)


def _softmax_like(x, axis, log_mode):
    if x.dtype not in WIDE_FLOATS or x.size == 0:
        return NotImplemented
    xp = cupy()
    axis = axis % x.ndim
    x = xp.ascontiguousarray(x)
    y = xp.empty_like(x)
    rows, n, post = _layout(x.shape, axis)
    grid, block = _grid(rows)
    _softmax(grid, block, (x, y, numpy.int64(rows), numpy.int64(n),
                           numpy.int64(post), numpy.int32(log_mode)),
             T=x.dtype)
    return y


def softmax(x, axis):
    return _softmax_like(x, axis, False)


def log_softmax(x, axis):
    return _softmax_like(x, axis, True)


def _sce_args(x, t, class_weight):
    """Contiguous (x, t, weights, has_w) when the kernels cover the call,
    else None."""
    if x.dtype not in WIDE_FLOATS or t.dtype not in _LABELS or \
            x.ndim < 2 or x.shape[1] == 0 or t.size == 0:
        return None
    if class_weight is not None and class_weight.dtype != x.dtype:
        return None
    xp = cupy()
    x = xp.ascontiguousarray(x)
    t = xp.ascontiguousarray(t)
    w = x if class_weight is None else xp.ascontiguousarray(class_weight)
    return x, t, w, numpy.int32(class_weight is not None)


def softmax_cross_entropy(x, t, class_weight, ignore_label, normalize,
                          reduce):
    args = _sce_args(x, t, class_weight)
    if args is None or reduce not in ('mean', 'no'):
        return NotImplemented
    x, t, w, has_w = args
    xp = cupy()
    rows, n, post = _layout(x.shape, 1)
    wide = numpy.float64 if x.dtype == numpy.float64 else numpy.float32
    log_p = xp.empty(rows, dtype=wide)
    loss = xp.empty(t.shape, dtype=x.dtype)
    grid, block = _grid(rows)
    _sce_rows(grid, block, (x, t, w, has_w, log_p, loss, numpy.int64(rows),
                            numpy.int64(n), numpy.int64(post),
                            numpy.int64(ignore_label)),
              T=x.dtype, L=t.dtype)
    if reduce == 'no':
        return loss
    out = xp.empty((), dtype=x.dtype)
    _sce_mean((1,), (1024,), (log_p, t, out, numpy.int64(rows),
                              numpy.int64(ignore_label),
                              numpy.int32(bool(normalize)),
                              numpy.int64(x.shape[0])),
              T=x.dtype, L=t.dtype)
    return out


def softmax_cross_entropy_grad(x, t, gloss, class_weight, ignore_label,
                               normalize, reduce):
    args = _sce_args(x, t, class_weight)
    if args is None or reduce not in ('mean', 'no') or \
            gloss.dtype != x.dtype:
        return NotImplemented
    x, t, w, has_w = args
    xp = cupy()
    gloss = xp.ascontiguousarray(gloss)
    rows, n, post = _layout(x.shape, 1)
    gx = xp.empty_like(x)
    # The count stays on the GPU: reading it would wait for the forward.
    if normalize:
        # keepdims: an array also on NumPy (the tests' CPU emulation), as
        # CuPy's sums always are.
        count = (t != ignore_label).sum(dtype=numpy.int64, keepdims=True)
    else:
        count = xp.asarray(x.shape[0], dtype=numpy.int64)
    grid, block = _grid(rows)
    _sce_grad(grid, block, (x, t, w, has_w, gloss,
                            numpy.int32(reduce == 'mean'), count, gx,
                            numpy.int64(rows),
                            numpy.int64(n), numpy.int64(post),
                            numpy.int64(ignore_label)),
              T=x.dtype, L=t.dtype)
    return gx


KERNELS = {
    'softmax': softmax, 'log_softmax': log_softmax,
    'softmax_cross_entropy': softmax_cross_entropy,
    'softmax_cross_entropy_grad': softmax_cross_entropy_grad,
}
