"""GroupNormalization: group normalization with a learnt scale and
shift."""
import copy

import numpy

from chainer_core import initializers
from chainer_core.configuration import get_dtype
from chainer_core.functions.normalization.group_normalization import (
    group_normalization)
from chainer_core.link import Link
from chainer_core.variable import Parameter


class GroupNormalization(Link):
    """Group normalization layer (Wu and He, 2018; see
    :func:`~chainer_core.functions.group_normalization`): the channels of
    each sample are standardized in ``groups`` groups, then scaled and
    shifted per channel.

    Args:
        groups (int): the number of groups; it must divide the channels.
        size (int or None): the number of channels; None allocates the
            parameters on the first call.
        eps (float): added to the variance, for stability.
        initial_gamma: initializer of ``gamma`` (default: ones).
        initial_beta: initializer of ``beta`` (default: zeros).

    Attributes:
        gamma (Parameter): scale ``(size,)``.
        beta (Parameter): shift ``(size,)``.
    """

    def __init__(self, groups, size=None, eps=1e-5, initial_gamma=None,
                 initial_beta=None):
        super().__init__()
        if initial_gamma is None:
            initial_gamma = 1
        if initial_beta is None:
            initial_beta = 0
        self.groups = groups
        self.eps = eps
        with self.init_scope():
            self.gamma = Parameter(initializers._get_initializer(
                initial_gamma))
            self.beta = Parameter(initializers._get_initializer(initial_beta))
        if size is not None:
            self._initialize_params(size)

    def _initialize_params(self, size):
        for param in (self.gamma, self.beta):
            if getattr(param.initializer, 'dtype', None) is None:
                # Under mixed16 the scale and shift stay float32, as in
                # BatchNormalization; a copy, so that the caller's
                # initializer is not changed.
                param.initializer = copy.copy(param.initializer)
                param.initializer.dtype = get_dtype(
                    map_mixed16=numpy.float32)
        self.gamma.initialize(size)
        self.beta.initialize(size)

    @property
    def printable_specs(self):
        yield 'groups', self.groups
        yield 'size', None if self.gamma.array is None else \
            self.gamma.shape[0]
        yield 'eps', self.eps

    def forward(self, x):
        """Normalize ``x`` of shape ``(N, C, ...)`` (at least 3 axes)."""
        if x.ndim <= 2:
            raise ValueError('GroupNormalization: the input must have more '
                             'than 2 axes (the batch, the channels and at '
                             'least one more), got shape {}'.format(x.shape))
        if self.gamma.array is None:
            self._initialize_params(x.shape[1])
        return group_normalization(x, self.groups, self.gamma, self.beta,
                                   self.eps)
