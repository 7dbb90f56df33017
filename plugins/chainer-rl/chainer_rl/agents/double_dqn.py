"""Double DQN: the online network picks the next action, the target
network values it."""
from chainer_rl.agents import dqn


class DoubleDQN(dqn.DQN):
    """Double DQN, from "Deep Reinforcement Learning with Double
    Q-learning" (van Hasselt et al., 2016).

    Choosing and evaluating the next action with the same network biases
    the target upwards; here the online network chooses
    (``argmax_a Q(s', a)``) and the target network evaluates. Same
    arguments as :class:`~chainer_rl.agents.DQN`.
    """

    def _compute_target_values(self, exp_batch):
        next_online = self._forward_online_no_grad(exp_batch, 'next_state')
        target_next = self._forward_target(exp_batch, 'next_state')
        return self._bootstrap(exp_batch, target_next.evaluate_actions(
            next_online.greedy_actions))
