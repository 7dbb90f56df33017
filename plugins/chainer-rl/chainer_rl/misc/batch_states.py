"""Turn a list of observations into one batched array on a device."""
import numpy

import chainer_core


def device_of_xp(xp, where='device_of_xp'):
    """The chainer_core Device an agent's ``xp`` refers to.

    ``xp`` may be a Device already, a device spec ('@numpy', 'native:0'), or
    an array module (``numpy`` or the ``xp`` of an installed device).
    """
    if isinstance(xp, chainer_core.backend.Device):
        return xp
    if isinstance(xp, str):
        return chainer_core.get_device(xp)
    if xp is numpy:
        return chainer_core.get_device('@numpy')
    for device in chainer_core.backend.available_devices():
        if device.xp is xp:
            return device
    raise ValueError(
        '{}: xp must be an array module of an installed device, a device '
        'spec or a Device, got {!r}'.format(where, xp))


def batch_states(states, xp, phi):
    """Stack observations into a batch on the device of ``xp``.

    Args:
        states (list): observations, one per batch entry.
        xp: array module (``numpy``, a device's ``xp``), a chainer_core
            Device or a device spec; the batch is sent there.
        phi (callable): feature extractor applied to each observation first.
            When it returns tuples, the result is a tuple of batched arrays.

    Returns:
        The batched array (or tuple/dict of batched arrays).
    """
    if not callable(phi):
        raise TypeError('batch_states: phi must be callable, got {}'
                        .format(type(phi).__name__))
    device = device_of_xp(xp, 'batch_states')
    features = [phi(s) for s in states]
    if not features:
        raise ValueError('batch_states: states is empty; expected at least '
                         'one observation')
    return chainer_core.dataset.concat_examples(features, device=device)
