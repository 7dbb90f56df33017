"""Seed every random generator an experiment may draw from."""
import os
import random

import numpy

import chainer_core



def _seed_device(device, seed):
    module = getattr(device.xp, 'random', None)
    if module is None or module is numpy.random:
        return
    seed_func = getattr(module, 'seed', None)
    if seed_func is None:
        return
    with chainer_core.using_device(device):
        seed_func(seed)


def set_random_seed(seed, gpus=()):
    """Seed Python's ``random``, NumPy's global generator and the generator
    of every installed chainer-core device that has one.

    Args:
        seed (int): the seed, in [0, 2**32).
        gpus: further devices to seed (GPU ids as ints, negative ids being
            ignored as in ChainerRL, device specs, or Devices).
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, numpy.integer)):
        raise TypeError('set_random_seed: seed must be an int, got {}'
                        .format(type(seed).__name__))
    seed = int(seed)
    if not 0 <= seed < 2 ** 32:
        raise ValueError('set_random_seed: seed must be in [0, 2**32), got '
                         '{}'.format(seed))
    random.seed(seed)
    numpy.random.seed(seed)
    os.environ['CHAINER_SEED'] = str(seed)
    for device in chainer_core.backend.available_devices():
        _seed_device(device, seed)
    for gpu in gpus:
        if isinstance(gpu, (int, numpy.integer)) and gpu < 0:
            continue
        try:
            device = chainer_core.get_device(gpu)
        except Exception as e:
            raise ValueError('set_random_seed: cannot use gpus entry {!r} '
                             'as a device ({})'.format(gpu, e))
        _seed_device(device, seed)
