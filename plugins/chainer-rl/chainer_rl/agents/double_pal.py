"""Double PAL: persistent advantage learning with double Q-learning's
action selection."""
import chainer_core.functions as F

from chainer_rl.agents import pal


class DoublePAL(pal.PAL):
    """PAL whose greedy actions come from the online network and whose
    values from the target network, combining "Increasing the Action Gap:
    New Operators for Reinforcement Learning" (Bellemare et al., 2016) and
    "Deep Reinforcement Learning with Double Q-learning" (van Hasselt et
    al., 2016).

    Args:
        alpha (float): weight of the advantage term, in [0, 1].
        (others): as :class:`~chainer_rl.agents.DQN`.
    """

    def _compute_pal_targets(self, exp_batch, qout):
        actions = exp_batch['action']
        next_online = self._forward_online_no_grad(exp_batch, 'next_state')
        target_cur = self._forward_target(exp_batch, 'state')
        target_next = self._forward_target(exp_batch, 'next_state')
        next_greedy = next_online.greedy_actions
        t_q = self._bootstrap(exp_batch,
                              target_next.evaluate_actions(next_greedy))
        cur_advantage = target_cur.compute_double_advantage(
            actions, qout.greedy_actions)
        next_advantage = target_next.compute_double_advantage(
            actions, next_greedy)
        return t_q + self.alpha * F.maximum(cur_advantage,
                                            next_advantage).array
