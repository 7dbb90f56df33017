"""Highway: the highway network layer."""
from chainer_core.functions.activation.relu import relu
from chainer_core.functions.activation.sigmoid import sigmoid
from chainer_core.link import Chain
from chainer_core.links.connection.linear import Linear


class Highway(Chain):
    """Highway layer (Srivastava et al., 2015):
    ``y = a(W_h x + b_h) * t + x * (1 - t)`` with the transform gate
    ``t = sigmoid(W_t x + b_t)``.

    Args:
        in_out_size (int): input and output size.
        nobias (bool): no bias terms.
        activate (callable): the activation ``a`` (default: relu).
        init_Wh, init_bh: initializers of the plain layer (``plain``).
        init_Wt, init_bt: initializers of the transform gate
            (``transform``); ``init_bt`` defaults to -1 so that the layer
            starts close to the identity.
    """

    def __init__(self, in_out_size, nobias=False, activate=relu,
                 init_Wh=None, init_Wt=None, init_bh=None, init_bt=-1):
        super().__init__()
        self.activate = activate
        with self.init_scope():
            self.plain = Linear(in_out_size, in_out_size, nobias=nobias,
                                initialW=init_Wh, initial_bias=init_bh)
            self.transform = Linear(in_out_size, in_out_size, nobias=nobias,
                                    initialW=init_Wt, initial_bias=init_bt)

    def forward(self, x):
        """Apply the layer to ``x`` of shape ``(N, in_out_size)``."""
        out_plain = self.activate(self.plain(x))
        out_transform = sigmoid(self.transform(x))
        return out_plain * out_transform + x * (1 - out_transform)
