import numpy

import chainer_core as chainer
import chainer_core.functions as F


class Normalize(chainer.Link):
    """L2 normalization across channels with a learnt scale per channel
    (`ParseNet <https://arxiv.org/abs/1506.04579>`_).

    Each spatial position of the input is divided by the L2 norm of its
    channel vector, then channel ``c`` is multiplied by ``scale[c]``. SSD
    applies it to ``conv4_3`` of VGG-16, whose activations are much
    larger than those of the deeper layers.

    Args:
        n_channel (int): the number of channels.
        initial: the initializer (or a scalar) of ``scale``.
        eps (float): added to the norm against division by zero.
    """

    def __init__(self, n_channel, initial=0, eps=1e-5):
        super().__init__()
        self.eps = eps
        with self.init_scope():
            self.scale = chainer.Parameter(initial, (n_channel,))

    def forward(self, x):
        x = F.normalize(x, eps=self.eps, axis=1)
        scale = F.broadcast_to(
            self.scale[:, numpy.newaxis, numpy.newaxis], x.shape)
        return x * scale
