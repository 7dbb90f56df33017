"""Conditions for skipping doctests (for a ``:skipif:`` option): each
returns True when the doctest should be skipped."""
from chainer_core.testing import attr
from chainer_core.testing import helper


def skipif(condition):
    """``condition`` as a bool."""
    return bool(condition)


def skipif_requires_satisfied(*requirements):
    """True when every requirement is satisfied here."""
    return helper.requirements_satisfied(*requirements)


def skipif_not_enough_cuda_devices(device_count):
    """True with fewer than ``device_count`` GPUs (capped by
    ``CHAINER_TEST_GPU_LIMIT``)."""
    return attr._gpu_count() < device_count
