"""What the LSTM-style cells (lstm, slstm) share.

Array helpers for their kernels (written against any ``xp``), and the
second-order gradient of a cell of the form

    c = sum_k tanh(za_k) sigmoid(zi_k) + sum_j sigmoid(zf_j) c_j
    h = sigmoid(zo) tanh(c)

(za, zi, zf, zo: gate pre-activations), written with differentiable
functions so that the gradient nodes of the cells can be differentiated
again.
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

def add_all(*terms):
    """The sum of the terms that are not None (None if all are)."""
    terms = [t for t in terms if t is not None]
    if not terms:
        return None
    return functools.reduce(operator.add, terms)


def _prod(*factors):
    if any(f is None for f in factors):
        return None
    return functools.reduce(operator.mul, factors)


def grad_grad(pairs, forgets, zo, gc, gh, gg_pairs, gg_forgets, gg_zo):
    """The gradient of ``<gg, first-order gradient>`` of a cell.

    Args:
        pairs: ``[(za_k, zi_k)]``, pre-activations of the cell inputs and
            their input gates.
        forgets: ``[(zf_j, c_j)]``, forget-gate pre-activations and cells.
        zo: output-gate pre-activation.
        gc, gh: gradients of c and h given to the cell's backward (None:
            zero).
        gg_pairs, gg_forgets, gg_zo: the incoming gradients of the
            first-order results: ``[(gg_za_k, gg_zi_k)]``,
            ``[(gg_zf_j, gg_c_j)]`` and that of the output-gate
            pre-activation (None: zero).

    Returns:
        ``(d_za, d_zi, d_zf, d_c, d_zo, d_gc, d_gh)``: lists over k (d_za,
        d_zi) and over j (d_zf, d_c), then single variables; None where
        zero.
    """
    from chainer_core.functions.activation.sigmoid import sigmoid as sig
    from chainer_core.functions.activation.tanh import tanh
    a = [tanh(za) for za, _ in pairs]
    i = [sig(zi) for _, zi in pairs]
    f = [sig(zf) for zf, _ in forgets]
    cs = [c for _, c in forgets]
    o = sig(zo)
    c = add_all(*[ak * ik for ak, ik in zip(a, i)],
                *[fj * cj for fj, cj in zip(f, cs)])
    co = tanh(c)
    dco = 1 - co * co
    da = [1 - ak * ak for ak in a]
    di = [ik * (1 - ik) for ik in i]
    df = [fj * (1 - fj) for fj in f]
    do = o * (1 - o)

    # gct: the gradient reaching c in the first-order pass; G: the
    # derivative of <gg, first order> in gct; Gc: its part through
    # tanh(c), i.e. the derivative in c.
    gct = add_all(_prod(gh, o, dco), gc)
    G = add_all(*[add_all(_prod(gga, ik, dak), _prod(ggi, ak, dik))
                  for (gga, ggi), ak, ik, dak, dik
                  in zip(gg_pairs, a, i, da, di)],
                *[add_all(_prod(ggf, cj, dfj), _prod(ggc, fj))
                  for (ggf, ggc), cj, fj, dfj in zip(gg_forgets, cs, f, df)])
    Gc = add_all(_prod(G, gh, o, co, dco, -2.0), _prod(gg_zo, gh, dco, do))

    d_za, d_zi = [], []
    for (gga, ggi), ak, ik, dak, dik in zip(gg_pairs, a, i, da, di):
        d_za.append(add_all(
            _prod(Gc, ik, dak),
            _prod(gct, gga, ik, ak, dak, -2.0),
            _prod(gct, ggi, dak, dik)))
        d_zi.append(add_all(
            _prod(Gc, ak, dik),
            _prod(gct, gga, dak, dik),
            _prod(gct, ggi, ak, dik, None if ggi is None else 1 - 2 * ik)))
    d_zf, d_c = [], []
    for (ggf, ggc), cj, fj, dfj in zip(gg_forgets, cs, f, df):
        d_zf.append(add_all(
            _prod(Gc, cj, dfj),
            _prod(gct, ggf, cj, dfj, None if ggf is None else 1 - 2 * fj),
            _prod(gct, ggc, dfj)))
        d_c.append(add_all(_prod(Gc, fj), _prod(gct, ggf, dfj)))
    d_zo = add_all(
        _prod(G, gh, dco, do),
        _prod(gg_zo, gh, co, do, None if gg_zo is None else 1 - 2 * o))
    d_gh = add_all(_prod(G, o, dco), _prod(gg_zo, co, do))
    return d_za, d_zi, d_zf, d_c, d_zo, G, d_gh


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
    return reshape(add_all(*parts), shape)
