"""PAL: DQN with the persistent advantage learning operator."""
import chainer_core as chainer
import chainer_core.functions as F

from chainer_rl import _arrays
from chainer_rl.agents import dqn


class PAL(dqn.DQN):
    """Persistent Advantage Learning, from "Increasing the Action Gap: New
    Operators for Reinforcement Learning" (Bellemare et al., 2016).

    The Q-learning target is raised by ``alpha`` times the larger of the
    taken action's advantages at ``s`` and at ``s'`` (both measured by the
    target network); being non-positive, they push suboptimal actions
    down and widen the gap to the greedy one.

    Args:
        alpha (float): weight of the advantage term, in [0, 1].
        (others): as :class:`~chainer_rl.agents.DQN`.
    """

    def __init__(self, *args, alpha=0.9, **kwargs):
        self.alpha = self._check_unit(type(self).__name__, 'alpha', alpha)
        super().__init__(*args, **kwargs)

    def _compute_y_and_t(self, exp_batch):
        batch_size = exp_batch['reward'].shape[0]
        qout = self._forward_batch(self.model, exp_batch, 'state')
        y = F.reshape(qout.evaluate_actions(exp_batch['action']),
                      (batch_size, 1))
        with chainer.no_backprop_mode():
            t = self._compute_pal_targets(exp_batch, qout)
        return y, _arrays.unwrap(t).reshape((batch_size, 1))

    def _compute_pal_targets(self, exp_batch, qout):
        actions = exp_batch['action']
        target_cur = self._forward_target(exp_batch, 'state')
        target_next = self._forward_target(exp_batch, 'next_state')
        t_q = self._bootstrap(exp_batch, target_next.max)
        cur_advantage = target_cur.compute_advantage(actions)
        next_advantage = target_next.compute_advantage(actions)
        return t_q + self.alpha * F.maximum(cur_advantage,
                                            next_advantage).array
