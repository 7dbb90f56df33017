"""The LSTM cell and its gradient, one elementwise kernel each.

x holds the four gates a, i, f, o interleaved per unit along axis 1: for
the element u of c (of B * units * inner elements, inner the size of the
trailing axes) gate k is x[(u / inner * 4 + k) * inner + u % inner].
float16 is computed in float32, as the reference does.
"""
from chainer_cuda.kernels._build import Elementwise, cupy, float_dtype

_GATES = r'''
template <typename C, typename A>
__device__ void cc_gates(A& x, ptrdiff_t u, long long inner, C* a,
                         C* i, C* f, C* o) {
    ptrdiff_t at = (u / inner * 4) * inner + u % inner;
    const C h = 0.5;
    *a = tanh(C(x[at]));
    *i = tanh(C(x[at + inner]) * h) * h + h;
    *f = tanh(C(x[at + 2 * inner]) * h) * h + h;
    *o = tanh(C(x[at + 3 * inner]) * h) * h + h;
}
'''

_lstm = Elementwise(
    'lstm', 'T c_prev, raw T x, int64 inner', 'T c, T h',
    '''C a, ig, fg, og;
    cc_gates(x, i, inner, &a, &ig, &fg, &og);
    C cn = a * ig + fg * C(c_prev);
    c = T(cn);
    h = T(og * tanh(cn));''', preamble=_GATES)

_lstm_grad = Elementwise(
    'lstm_grad',
    'T c_prev, raw T x, T gc, T gh, bool has_gc, bool has_gh, int64 inner',
    'T gc_prev, raw T gx',
    '''C a, ig, fg, og;
    cc_gates(x, i, inner, &a, &ig, &fg, &og);
    C cw = c_prev;
    C co = tanh(a * ig + fg * cw);
    C gct = has_gc ? C(gc) : C(0);
    C go = 0;
    if (has_gh) {
        C g = gh;
        gct = gct + g * og * (C(1) - co * co);
        go = g * co * og * (C(1) - og);
    }
    ptrdiff_t at = (i / inner * 4) * inner + i % inner;
    gx[at] = T(gct * ig * (C(1) - a * a));
    gx[at + inner] = T(gct * a * ig * (C(1) - ig));
    gx[at + 2 * inner] = T(gct * cw * fg * (C(1) - fg));
    gx[at + 3 * inner] = T(go);
    gc_prev = T(gct * fg);''', preamble=_GATES)


def _inner(c_prev):
    inner = 1
    for d in c_prev.shape[2:]:
        inner *= d
    return inner


def lstm(c_prev, x):
    if float_dtype(c_prev, x) is None:
        return NotImplemented
    xp = cupy()
    batch = x.shape[0]
    x = xp.ascontiguousarray(x)
    c, h = _lstm(c_prev[:batch], x, _inner(c_prev))
    if batch < c_prev.shape[0]:
        c = xp.concatenate((c, c_prev[batch:]))
    return c, h


def lstm_grad(c_prev, x, gc, gh):
    if float_dtype(c_prev, x, gc, gh) is None:
        return NotImplemented
    xp = cupy()
    batch = x.shape[0]
    x = xp.ascontiguousarray(x)
    head = c_prev[:batch]
    # A raw output is never allocated by CuPy, so both outputs are given.
    gc_prev = xp.empty_like(head)
    gx = xp.empty_like(x)
    _lstm_grad(head, x, head if gc is None else gc[:batch],
               head if gh is None else gh, gc is not None, gh is not None,
               _inner(c_prev), gc_prev, gx)
    if batch < c_prev.shape[0]:
        rest = xp.zeros_like(c_prev[batch:]) if gc is None else gc[batch:]
        gc_prev = xp.concatenate((gc_prev, rest))
    return gc_prev, gx


KERNELS = {'lstm': lstm, 'lstm_grad': lstm_grad}
