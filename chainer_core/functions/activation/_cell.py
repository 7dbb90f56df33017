"""What the LSTM-style cells (lstm, slstm) share.

Array helpers for their kernels (written against any ``xp``), and the
second-order gradient of a cell of the form

    c = sum_k tanh(A_k) sigmoid(I_k) + sum_j sigmoid(F_j) c_j
    h = sigmoid(O) tanh(c)

written with differentiable functions so that the gradient nodes of the
cells can be differentiated again.
"""
import functools
import operator


# -- arrays (kernels)

def sigmoid(xp, t):
    half = t.dtype.type(0.5)
    return xp.tanh(t * half) * half + half


def widen(*arrays):
    """The arrays in float32 if they are float16 (products of several gates
    lose too much in float16), else as they are; None passes through."""
    return tuple(a if a is None or a.dtype.itemsize >= 4
                 else a.astype('float32') for a in arrays)


def interleaved(x):
    """Views of the 4 gates of x, interleaved per unit along axis 1."""
    r = x.reshape((x.shape[0], x.shape[1] // 4, 4) + x.shape[2:])
    return tuple(r[:, :, k] for k in range(4))


def join_interleaved(xp, gates, shape, dtype):
    """The inverse of :func:`interleaved`: one array of ``shape``."""
    return xp.stack(gates, axis=2).reshape(shape).astype(dtype, copy=False)


# -- variables (second-order gradients)

def _sum(*terms):
    terms = [t for t in terms if t is not None]
    if not terms:
        return None
    return functools.reduce(operator.add, terms)


def _prod(*factors):
    if any(f is None for f in factors):
        return None
    return functools.reduce(operator.mul, factors)


def grad_grad(pairs, forgets, O, gc, gh, gg_pairs, gg_forgets, ggO):
    """The gradient of ``<gg, first-order gradient>`` of a cell.

    Args:
        pairs: ``[(A_k, I_k)]``, pre-activations of the cell inputs.
        forgets: ``[(F_j, c_j)]``, forget-gate pre-activations and cells.
        O: output-gate pre-activation.
        gc, gh: gradients of c and h given to the cell's backward (None:
            zero).
        gg_pairs, gg_forgets, ggO: the incoming gradients of the first-order
            results: ``[(ggA_k, ggI_k)]``, ``[(ggF_j, ggc_j)]`` and that of
            the output gate's pre-activation (None: zero).

    Returns:
        ``(dA, dI, dF, dc, dO, dgc, dgh)``: lists over k (dA, dI) and j
        (dF, dc), then single variables; None where zero.
    """
    from chainer_core.functions.activation.sigmoid import sigmoid as sig
    from chainer_core.functions.activation.tanh import tanh
    a = [tanh(A) for A, _ in pairs]
    i = [sig(I) for _, I in pairs]
    f = [sig(F) for F, _ in forgets]
    cs = [c for _, c in forgets]
    o = sig(O)
    c = _sum(*[ak * ik for ak, ik in zip(a, i)],
             *[fj * cj for fj, cj in zip(f, cs)])
    co = tanh(c)
    dco = 1 - co * co
    da = [1 - ak * ak for ak in a]
    di = [ik * (1 - ik) for ik in i]
    df = [fj * (1 - fj) for fj in f]
    do = o * (1 - o)

    # gct: the gradient reaching c in the first-order pass.
    gct = _sum(_prod(gh, o, dco), gc)
    # G = d<gg, first order>/d gct, and Gc its part through tanh(c).
    G = _sum(*[_sum(_prod(ggA, ik, dak), _prod(ggI, ak, dik))
               for (ggA, ggI), ak, ik, dak, dik in zip(gg_pairs, a, i, da, di)],
             *[_sum(_prod(ggF, cj, dfj), _prod(ggc, fj))
               for (ggF, ggc), cj, fj, dfj in zip(gg_forgets, cs, f, df)])
    Gc = _sum(_prod(G, gh, o, co, dco, -2.0), _prod(ggO, gh, dco, do))

    dA, dI = [], []
    for (ggA, ggI), ak, ik, dak, dik in zip(gg_pairs, a, i, da, di):
        dA.append(_sum(_prod(Gc, ik, dak),
                       _prod(gct, ggA, ik, ak, dak, -2.0),
                       _prod(gct, ggI, dak, dik)))
        dI.append(_sum(_prod(Gc, ak, dik),
                       _prod(gct, ggA, dak, dik),
                       _prod(gct, ggI, ak, dik, None if ggI is None
                             else 1 - 2 * ik)))
    dF, dc = [], []
    for (ggF, ggc), cj, fj, dfj in zip(gg_forgets, cs, f, df):
        dF.append(_sum(_prod(Gc, cj, dfj),
                       _prod(gct, ggF, cj, dfj, None if ggF is None
                             else 1 - 2 * fj),
                       _prod(gct, ggc, dfj)))
        dc.append(_sum(_prod(Gc, fj), _prod(gct, ggF, dfj)))
    dO = _sum(_prod(G, gh, dco, do),
              _prod(ggO, gh, co, do, None if ggO is None else 1 - 2 * o))
    dgh = _sum(_prod(G, o, dco), _prod(ggO, co, do))
    return dA, dI, dF, dc, dO, G, dgh


def split_interleaved(x):
    """The 4 gates of a variable, interleaved per unit along axis 1."""
    from chainer_core.functions.array.get_item import get_item
    from chainer_core.functions.array.reshape import reshape
    if x is None:
        return (None,) * 4
    r = reshape(x, (x.shape[0], x.shape[1] // 4, 4) + x.shape[2:])
    return tuple(get_item(r, (slice(None), slice(None), k))
                 for k in range(4))


def merge_interleaved(gates, shape):
    """The inverse of :func:`split_interleaved` (None gates are zeros; None
    when all are)."""
    from chainer_core.functions.array.get_item import GetItemGrad
    from chainer_core.functions.array.reshape import reshape
    r_shape = (shape[0], shape[1] // 4, 4) + tuple(shape[2:])
    parts = [GetItemGrad((slice(None), slice(None), k), r_shape).apply(
        (g,))[0] for k, g in enumerate(gates) if g is not None]
    if not parts:
        return None
    return reshape(_sum(*parts), shape)
