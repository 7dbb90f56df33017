"""Conjugate gradient solver (used by TRPO's natural gradient step)."""
import chainer_core


def conjugate_gradient(A_product_func, b, tol=1e-10, max_iter=10):
    """Approximately solve ``A x = b`` for a symmetric positive-definite
    ``A`` known only through the product ``A_product_func(v) = A v``.

    Args:
        A_product_func (callable): maps a vector to ``A`` times it.
        b: right-hand side, a 1-D array of any device.
        tol (float): stop once the squared residual norm is below this.
        max_iter (int): at most this many iterations.

    Returns:
        The solution, an array like ``b``.
    """
    if not callable(A_product_func):
        raise TypeError('conjugate_gradient: A_product_func must be callable,'
                        ' got {}'.format(type(A_product_func).__name__))
    xp = chainer_core.backend.get_array_module(b)
    x = xp.zeros_like(b)
    r = b.copy() if hasattr(b, 'copy') else b + 0
    p = r.copy() if hasattr(r, 'copy') else r + 0
    rr = float((r * r).sum())
    for _ in range(int(max_iter)):
        if rr < tol:
            break
        Ap = A_product_func(p)
        pAp = float((p * Ap).sum())
        if pAp == 0:
            break
        alpha = rr / pAp
        x = x + alpha * p
        r = r - alpha * Ap
        rr_new = float((r * r).sum())
        p = r + (rr_new / rr) * p
        rr = rr_new
    return x
