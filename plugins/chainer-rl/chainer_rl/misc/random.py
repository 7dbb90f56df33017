"""Sampling functions drawing from NumPy's global generator (seeded by
``set_random_seed``)."""
import numpy


def sample_n_k(n, k):
    """Draw ``k`` distinct integers uniformly from ``range(n)``.

    Faster than ``numpy.random.choice(n, k, replace=False)`` when ``k`` is
    much smaller than ``n`` (replay buffer sampling), as it does not
    permute the whole population.

    Returns:
        numpy.ndarray of int64 and length ``k``.
    """
    for name, value in (('n', n), ('k', k)):
        if isinstance(value, bool) or not isinstance(
                value, (int, numpy.integer)):
            raise TypeError('sample_n_k: {} must be an int, got {}'
                            .format(name, type(value).__name__))
    n, k = int(n), int(k)
    if not 0 <= k <= n:
        raise ValueError('sample_n_k: expected 0 <= k <= n, got n={}, k={}'
                         .format(n, k))
    if k == 0:
        return numpy.empty((0,), dtype=numpy.int64)
    if 3 * k >= n:
        return numpy.random.choice(n, k, replace=False).astype(numpy.int64)
    # Rejection sampling: with k < n / 3 a draw is a repeat with
    # probability below 1/3, so few extra draws are needed.
    chosen = []
    seen = set()
    while len(chosen) < k:
        for x in numpy.random.randint(0, n,
                                      size=2 * (k - len(chosen))).tolist():
            if x not in seen:
                seen.add(x)
                chosen.append(x)
                if len(chosen) == k:
                    break
    return numpy.asarray(chosen, dtype=numpy.int64)
