import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L


class SEBlock(chainer.Chain):
    """Squeeze-and-excitation block (`SENet
    <https://arxiv.org/abs/1709.01507>`_).

    The channels of the input are rescaled by weights in ``(0, 1)``
    computed from their spatial means by two fully connected layers,
    ``down`` (to ``n_channel // ratio`` units, ReLU) and ``up`` (back to
    ``n_channel``, sigmoid).

    Args:
        n_channel (int): channels of the input.
        ratio (int): reduction ratio of the hidden layer.
    """

    def __init__(self, n_channel, ratio=16):
        super().__init__()
        reduction_size = n_channel // ratio
        with self.init_scope():
            self.down = L.Linear(n_channel, reduction_size)
            self.up = L.Linear(reduction_size, n_channel)

    def forward(self, u):
        b, c = u.shape[:2]
        z = F.average(u, axis=(2, 3))
        x = F.sigmoid(self.up(F.relu(self.down(z))))
        return u * F.broadcast_to(F.reshape(x, (b, c, 1, 1)), u.shape)
