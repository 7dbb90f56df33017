"""Helpers shared by the noise functions."""
import numpy


def random_module(xp):
    """Where random numbers for arrays of ``xp`` come from: ``numpy.random``
    for NumPy (so that ``numpy.random.seed`` makes them reproducible),
    ``xp.random`` otherwise."""
    return numpy.random if xp is numpy else xp.random


def uniform(xp, shape):
    """Uniform samples in [0, 1) of ``shape``, as an array of ``xp``."""
    return xp.asarray(random_module(xp).random_sample(shape))
