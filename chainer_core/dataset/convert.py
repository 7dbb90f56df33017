"""Converters: turn a list of examples into batched arrays on a device."""
import collections.abc
import functools

import numpy

from chainer_core._runtime.host import device_from_array, get_device


class Converter:
    """Base of converters: ``converter(batch, device)`` returns the batch as
    arrays on ``device``."""

    def __call__(self, batch, device):
        raise NotImplementedError


class _DecoratedConverter(Converter):
    def __init__(self, func):
        self._func = func
        functools.update_wrapper(self, func)

    def __call__(self, batch, device=None, *args, **kwargs):
        if device is not None and not hasattr(device, 'send'):
            device = get_device(device)
        return self._func(batch, device, *args, **kwargs)


def converter():
    """Decorator making ``f(batch, device)`` a :class:`Converter` that also
    accepts device specifiers (``'@numpy'``, ``-1``, ...)."""
    return _DecoratedConverter


def to_device(device, x):
    """Send ``x`` to ``device`` (a device or a specifier); None leaves it."""
    if device is None:
        return x
    if not hasattr(device, 'send'):
        device = get_device(device)
    return device.send(x)


def _concat_arrays(arrays, padding):
    first = arrays[0]
    if isinstance(first, numpy.generic) or not hasattr(first, 'shape'):
        arrays = [numpy.asarray(a) for a in arrays]
        first = arrays[0]
    # A backend's own namespace keeps the batch on its device (ndarray
    # subclasses included, which NumPy's functions would turn into plain
    # ndarrays).
    xp = numpy if type(first) is numpy.ndarray else \
        device_from_array(first).xp
    if padding is None:
        shapes = {a.shape for a in arrays}
        if len(shapes) != 1:
            raise ValueError(
                'concat_examples: examples have different shapes {}; pass '
                'padding= to pad them'.format(sorted(shapes)))
        return xp.stack(arrays)
    shape = tuple(max(sizes) for sizes in zip(*[a.shape for a in arrays]))
    out = xp.full((len(arrays),) + shape, padding, dtype=first.dtype)
    for i, a in enumerate(arrays):
        out[(i,) + tuple(slice(s) for s in a.shape)] = a
    return out


@converter()
def concat_examples(batch, device=None, padding=None):
    """Stack a list of examples into batch arrays on ``device``.

    Examples may be arrays, tuples of arrays (giving a tuple of batches) or
    dicts of arrays (giving a dict).

    Args:
        batch (list): the examples.
        device: where to put the result (None: leave it where it is).
        padding: fill value to pad examples of different shapes to the
            largest (None: shapes must agree). A tuple/dict gives one value
            per component.

    Returns:
        An array, a tuple of arrays or a dict of arrays.
    """
    if len(batch) == 0:
        raise ValueError('concat_examples: the batch is empty')
    first = batch[0]
    if isinstance(first, tuple):
        pads = padding if isinstance(padding, tuple) else \
            (padding,) * len(first)
        return tuple(
            to_device(device, _concat_arrays([ex[i] for ex in batch],
                                             pads[i]))
            for i in range(len(first)))
    if isinstance(first, collections.abc.Mapping):
        pads = padding if isinstance(padding, collections.abc.Mapping) else \
            {k: padding for k in first}
        return {k: to_device(device, _concat_arrays([ex[k] for ex in batch],
                                                    pads[k]))
                for k in first}
    return to_device(device, _concat_arrays(list(batch), padding))


class ConcatWithAsyncTransfer:
    """:func:`concat_examples` under Chainer's name for the asynchronous
    variant (transfers here are synchronous on every backend)."""

    def __init__(self, stream=None, compute_stream=None):
        self.stream = stream
        self.compute_stream = compute_stream

    def __call__(self, batch, device=None, padding=None):
        return concat_examples(batch, device, padding)
