"""Categorical Double DQN: C51 with the next action chosen by the online
network."""
from chainer_rl.agents import categorical_dqn


class CategoricalDoubleDQN(categorical_dqn.CategoricalDQN):
    """Categorical DQN with double Q-learning's target, combining "A
    Distributional Perspective on Reinforcement Learning" (Bellemare et
    al., 2017) and "Deep Reinforcement Learning with Double Q-learning"
    (van Hasselt et al., 2016), as in Rainbow.

    The online network picks the next action by its expected return; the
    target network's distribution of that action is projected. Same
    arguments as :class:`~chainer_rl.agents.DQN`.
    """

    def _next_distribution(self, exp_batch):
        next_online = self._forward_online_no_grad(exp_batch, 'next_state')
        target_next = self._forward_target(exp_batch, 'next_state')
        return (target_next.evaluate_actions_as_distribution(
            next_online.greedy_actions), target_next.z_values)
