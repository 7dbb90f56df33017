"""Maximum-entropy mellowmax policy over the model's action values."""
import chainer_core as chainer

from chainer_rl import _arrays
from chainer_rl import distribution
from chainer_rl.policies.softmax_policy import check_model
from chainer_rl.policy import Policy


class MellowmaxPolicy(chainer.Chain, Policy):
    """Policy given by MellowmaxDistribution of the model's outputs.

    Args:
        model (~chainer_core.Link): states -> ``(batch_size, n_actions)``
            values.
        omega (float): the mellowmax parameter.
    """

    def __init__(self, model, omega=1.):
        owner = 'MellowmaxPolicy'
        self.omega = _arrays.check_real(owner, 'omega', omega)
        if self.omega <= 0:
            raise ValueError('{}: omega must be positive, got {}'.format(
                owner, omega))
        super().__init__()
        with self.init_scope():
            self.model = check_model(owner, model)

    def forward(self, x):
        """MellowmaxDistribution of the states ``x``."""
        return distribution.MellowmaxDistribution(self.model(x),
                                                  omega=self.omega)
