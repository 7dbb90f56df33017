"""``linear`` and two-dimensional ``matmul`` without cuBLAS, inside a graph
step only.

CuPy refuses every cuBLAS call on a capturing stream (its ``setStream``
raises NotImplementedError), so a step with a fully-connected layer could
not be captured. While :func:`chainer_cuda.graph_step` warms up and
captures a step, these kernels compute the products themselves: a thread
per output element, summing in the compute type ``C`` (float for float16
and float32, double for float64) as cuBLAS's ``gemmEx`` does for CuPy.
Elsewhere they decline and the references run on cuBLAS, which is faster.
"""
from chainer_cuda import _capture
from chainer_cuda.kernels._build import Elementwise, FLOATS, cupy

# op(a) is (rows, depth) and op(b) (depth, cols); the strides say where
# element (r, k) of op(a) and (k, c) of op(b) are in the contiguous arrays,
# so that a transposed operand is read in place.
_gemm = Elementwise(
    'graph_gemm',
    'raw T a, raw T b, raw T bias, bool has_bias, int64 depth, int64 cols, '
    'int64 a_row, int64 a_depth, int64 b_depth, int64 b_col',
    'T y',
    '''ptrdiff_t r = i / cols, c = i % cols;
    C acc = 0;
    for (ptrdiff_t k = 0; k < depth; ++k) {
        acc += C(a[r * a_row + k * a_depth]) * C(b[k * b_depth + c * b_col]);
    }
    y = has_bias ? T(C(T(acc)) + C(bias[c])) : T(acc);''', wide='T')


def _product(a, b, bias, transa, transb):
    xp = cupy()
    a = xp.ascontiguousarray(a)
    b = xp.ascontiguousarray(b)
    rows, depth = a.shape[::-1] if transa else a.shape
    cols = b.shape[0] if transb else b.shape[1]
    a_row, a_depth = (1, rows) if transa else (depth, 1)
    b_depth, b_col = (1, depth) if transb else (cols, 1)
    y = xp.empty((rows, cols), dtype=a.dtype)
    _gemm(a, b, a if bias is None else xp.ascontiguousarray(bias),
          bias is not None, depth, cols, a_row, a_depth, b_depth, b_col, y)
    return y


def _covered(*arrays):
    present = [x for x in arrays if x is not None]
    return (_capture.current() is not None
            and all(x.ndim == 2 for x in present[:2])
            and len({x.dtype for x in present}) == 1
            and present[0].dtype in FLOATS)


def linear(x, W, b):
    if not _covered(x, W, b):
        return NotImplemented
    return _product(x, W, b, False, True)


def matmul(a, b, transa, transb):
    if not _covered(a, b):
        return NotImplemented
    return _product(a, b, None, transa, transb)


KERNELS = {'linear': linear, 'matmul': matmul}
