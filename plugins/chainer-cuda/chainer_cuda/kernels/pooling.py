"""max_pooling_2d and max_pooling_nd (1 to 3 spatial axes): one thread per
output reads its window straight from x.

The reference takes ``argmax`` of the im2col columns; CuPy's ``argmax``
returns any of several NaNs, NumPy's the first, so the gradient of a
window holding NaN went elsewhere on the GPU. Here the first maximum wins
and a NaN counts as larger than every number, as in NumPy; pixels outside
x (padding, and the extra windows of cover_all) are -inf, as the
reference pads. The windows are row-major over up to three axes; fewer
axes lead with axes of size 1.
"""
import numpy

from chainer_core.utils.conv import get_conv_outsize

from chainer_cuda.kernels._build import Elementwise, cupy, float_dtype

_AXES = 3

_max_pool = Elementwise(
    'max_pooling',
    'raw T x, int64 d0, int64 d1, int64 d2, int64 o0, int64 o1, int64 o2, '
    'int64 k0, int64 k1, int64 k2, int64 s0, int64 s1, int64 s2, '
    'int64 p0, int64 p1, int64 p2, float64 low',
    'T y, int32 index',
    '''long long r = i;
    const long long q2 = r % o2; r /= o2;
    const long long q1 = r % o1; r /= o1;
    const long long q0 = r % o0; r /= o0;
    const long long base = r * d0 * d1 * d2;
    C best = C(low);
    int arg = -1;
    int tap = 0;
    for (long long t0 = 0; t0 < k0; ++t0) {
        const long long a0 = q0 * s0 - p0 + t0;
        for (long long t1 = 0; t1 < k1; ++t1) {
            const long long a1 = q1 * s1 - p1 + t1;
            for (long long t2 = 0; t2 < k2; ++t2, ++tap) {
                const long long a2 = q2 * s2 - p2 + t2;
                const bool inside = 0 <= a0 && a0 < d0 && 0 <= a1 &&
                    a1 < d1 && 0 <= a2 && a2 < d2;
                const C v = inside ? C(x[base + (a0 * d1 + a1) * d2 + a2])
                                   : C(low);
                if (arg < 0 || (!isnan(best) && (isnan(v) || v > best))) {
                    best = v;
                    arg = tap;
                }
            }
        }
    }
    y = T(best);
    index = arg;''')


def _lead(values, fill):
    return (fill,) * (_AXES - len(values)) + tuple(values)


def _max_pooling(x, ksize, stride, pad, cover_all):
    n = len(ksize)
    if float_dtype(x) is None or not 1 <= n <= _AXES:
        return NotImplemented
    out = tuple(get_conv_outsize(d, k, s, p, cover_all)
                for d, k, s, p in zip(x.shape[2:], ksize, stride, pad))
    cp = cupy()
    y = cp.empty(x.shape[:2] + out, dtype=x.dtype)
    index = cp.empty(y.shape, dtype=numpy.int32)
    if y.size:
        _max_pool(x, *(_lead(x.shape[2:], 1) + _lead(out, 1)
                       + _lead(ksize, 1) + _lead(stride, 1)
                       + _lead(pad, 0)), -numpy.inf, y, index)
    return y, index


def max_pooling_2d(x, ksize, stride, pad, cover_all):
    return _max_pooling(x, ksize, stride, pad, cover_all)


def max_pooling_nd(x, ksize, stride, pad, cover_all):
    return _max_pooling(x, ksize, stride, pad, cover_all)


KERNELS = {'max_pooling_2d': max_pooling_2d,
           'max_pooling_nd': max_pooling_nd}
