"""The failure of the ``assert_is_*`` checks.

They raise :class:`AssertionError` explicitly rather than with ``assert``
statements, so the checks still run under ``python -O``.
"""
import numpy


def require(condition, message, *args):
    if not condition:
        raise AssertionError(message.format(*args))


def require_array(x, name, dtype=None, ndim=None):
    require(isinstance(x, numpy.ndarray), '{} must be a numpy.ndarray; got '
            '{}', name, type(x).__name__)
    if dtype is not None:
        require(x.dtype == dtype, '{} must be {}; got {}', name,
                numpy.dtype(dtype).name, x.dtype)
    if ndim is not None:
        require(x.ndim == ndim, '{} must have {} axes; got shape {}', name,
                ndim, x.shape)


def examples(dataset, n_example):
    """Indices to check: all, or ``n_example`` drawn at random."""
    if n_example:
        return numpy.random.randint(0, len(dataset), size=n_example)
    return range(len(dataset))


def require_labels(label, name, n, low=0):
    require_array(label, name, numpy.int32)
    if label.size:
        require(label.min() >= low and label.max() < n,
                '{} must be in [{}, {}); got values in [{}, {}]', name, low,
                n, label.min(), label.max())
