"""V-functions built on a model."""
import chainer_core as chainer
import chainer_core.functions as F

from chainer_rl import _arrays
from chainer_rl.links.mlp import MLP
from chainer_rl.recurrent import RecurrentChainMixin
from chainer_rl.v_function import VFunction


class SingleModelVFunction(chainer.Chain, VFunction, RecurrentChainMixin):
    """A V-function that is its model's output.

    Args:
        model (~chainer_core.Link): states -> values ``(batch_size, 1)``.
    """

    def __init__(self, model=None):
        super().__init__()
        if model is not None:
            if not isinstance(model, chainer.Link):
                raise TypeError('{}: model must be a Link, got {}'.format(
                    type(self).__name__, type(model).__name__))
            with self.init_scope():
                self.model = model
        else:
            self.model = None

    def forward(self, x):
        """Values of the states ``x``."""
        if self.model is None:
            raise NotImplementedError('{} has no model: give one or '
                                      'override forward'.format(
                                          type(self).__name__))
        return self.model(x)


class FCVFunction(SingleModelVFunction):
    """Fully-connected V-function.

    Args:
        n_input_channels (int): size of a state.
        n_hidden_layers (int): number of hidden layers.
        n_hidden_channels (int): units per hidden layer.
        nonlinearity (callable): between layers.
        last_wscale (float): scale of the output layer's initial weights.
    """

    def __init__(self, n_input_channels, n_hidden_layers=0,
                 n_hidden_channels=None, nonlinearity=F.relu,
                 last_wscale=1):
        sizes = _arrays.hidden_sizes('FCVFunction', n_hidden_layers,
                             n_hidden_channels)
        self.n_input_channels = n_input_channels
        self.n_hidden_layers = n_hidden_layers
        self.n_hidden_channels = n_hidden_channels
        super().__init__(model=MLP(n_input_channels, 1, sizes,
                                   nonlinearity=nonlinearity,
                                   last_wscale=last_wscale))
