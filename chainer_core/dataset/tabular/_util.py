"""Index and key bookkeeping shared by the tabular datasets.

Row selections are kept as a ``range`` (from a slice) or a list of
non-negative ints; both compose by indexing and turn back into what
``get_examples`` receives (None, a slice or a list).
"""
import numbers

import numpy


def normalize_indices(indices, length, where):
    """``indices`` (None, a slice, a list/array of ints or a boolean mask)
    as a ``range`` or a list of non-negative ints below ``length``.

    Args:
        indices: the selection.
        length (int): the number of rows selected from.
        where (str): the caller, named in errors.

    Returns:
        range or list: the selected rows in order.
    """
    if indices is None:
        return range(length)
    if isinstance(indices, slice):
        return range(length)[indices]
    if isinstance(indices, range):
        indices = list(indices)
    if isinstance(indices, (numbers.Integral, str, bytes)) or \
            not hasattr(indices, '__len__'):
        raise TypeError(
            '{}: indices must be None, a slice, a list of ints or a boolean '
            'mask, got {}'.format(where, type(indices).__name__))
    array = numpy.asarray(indices)
    if array.size == 0:
        return []
    if array.ndim != 1:
        raise ValueError('{}: indices must be one-dimensional, got shape {}'
                         .format(where, array.shape))
    if array.dtype.kind == 'b':
        if len(array) != length:
            raise ValueError(
                '{}: a boolean mask must have one entry per row ({}), got {}'
                .format(where, length, len(array)))
        return numpy.flatnonzero(array).tolist()
    if array.dtype.kind not in 'iu':
        raise TypeError('{}: indices must be ints or booleans, got dtype {}'
                        .format(where, array.dtype))
    bad = (array < -length) | (array >= length)
    if bad.any():
        raise IndexError('{}: index {} is out of bounds for {} rows'.format(
            where, int(array[bad][0]), length))
    return numpy.where(array < 0, array + length, array).tolist()


def as_argument(rows, length):
    """What ``get_examples`` receives for ``rows`` (from
    :func:`normalize_indices`) taken from ``length`` rows."""
    if isinstance(rows, list):
        return rows
    if rows == range(length):
        return None
    if len(rows) == 0:
        return slice(0, 0)
    # A descending range reaching row 0 stops at -1, which a slice would
    # read as "the last row".
    return slice(rows.start, None if rows.stop < 0 else rows.stop, rows.step)


def compose(rows, indices, where):
    """The rows of the underlying data that ``indices`` (relative to
    ``rows``) selects."""
    if indices is None:
        return rows
    if isinstance(indices, slice):
        return rows[indices]
    return [rows[i] for i in normalize_indices(indices, len(rows), where)]


def normalize_key_indices(key_indices, n_keys, where):
    """``key_indices`` (None or ints) as a tuple of non-negative ints below
    ``n_keys`` (None selects every key)."""
    if key_indices is None:
        return tuple(range(n_keys))
    out = []
    for k in key_indices:
        if not isinstance(k, numbers.Integral):
            raise TypeError('{}: key indices must be ints, got {!r}'.format(
                where, k))
        if not -n_keys <= k < n_keys:
            raise IndexError('{}: key index {} is out of bounds for {} keys'
                             .format(where, k, n_keys))
        out.append(int(k) % n_keys)
    return tuple(out)


def key_selection(keys, dataset_keys, where):
    """Key indices and unarity of a key selection by name or index.

    Args:
        keys: a key (name or index), or a tuple/list of them.
        dataset_keys (tuple of str): the keys selected from.
        where (str): the caller, named in errors.

    Returns:
        tuple: ``(key_indices, single)``; ``single`` says a lone key (not a
        tuple) was given.
    """
    single = not isinstance(keys, (tuple, list))
    if single:
        keys = (keys,)
    out = []
    for key in keys:
        if isinstance(key, str):
            if key not in dataset_keys:
                raise KeyError('{}: no key {!r}; the keys are {}'.format(
                    where, key, dataset_keys))
            out.append(dataset_keys.index(key))
        else:
            out.extend(normalize_key_indices((key,), len(dataset_keys),
                                             where))
    return tuple(out), single


def as_key_tuple(keys, where):
    """``keys`` (a name or a tuple/list of names) as a tuple of names and
    whether a lone name was given."""
    single = isinstance(keys, str)
    keys = (keys,) if single else keys
    if not isinstance(keys, (tuple, list)) or \
            not all(isinstance(k, str) for k in keys):
        raise TypeError('{}: keys must be a str or a tuple of str, got {!r}'
                        .format(where, keys))
    return tuple(keys), single
