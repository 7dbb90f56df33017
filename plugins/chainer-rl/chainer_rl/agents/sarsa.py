"""SARSA: on-policy TD learning of the explorer's own Q-function."""
import chainer_core as chainer

from chainer_rl import _arrays
from chainer_rl.agents import dqn


class SARSA(dqn.DQN):
    """SARSA with experience replay and a target network, after "On-line
    Q-learning using connectionist systems" (Rummery and Niranjan, 1994).

    The target bootstraps from the next action the agent actually took,
    ``r + discount * Q_target(s', a')``, so it learns the value of the
    exploring policy rather than of the greedy one. A transition is
    therefore stored one step late, once ``a'`` is chosen; at a terminal
    state ``a'`` does not matter, and when an episode is cut short (reset
    without terminating) ``a'`` is drawn from the explorer at the last
    observation. Same arguments as :class:`~chainer_rl.agents.DQN`.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._pending = []

    def _compute_target_values(self, exp_batch):
        if 'next_action' not in exp_batch:
            raise ValueError('{}: the sampled transitions lack next_action; '
                             'SARSA needs the replay buffer filled by SARSA '
                             'itself'.format(type(self).__name__))
        target_next = self._forward_target(exp_batch, 'next_state')
        return self._bootstrap(exp_batch, target_next.evaluate_actions(
            exp_batch['next_action']))

    def _batch_act_train(self, batch_obs):
        actions = super()._batch_act_train(batch_obs)
        pending, self._pending = self._pending, []
        for i, transition in pending:
            if i < len(actions):
                transition['next_action'] = actions[i]
                self.replay_buffer.append(env_id=i, **transition)
        return actions

    def _next_actions_at(self, batch_obs, indices):
        """Exploratory actions at the last observations of the envs
        ``indices`` (their episodes were cut short)."""
        with chainer.using_config('train', False), \
                chainer.no_backprop_mode():
            x = self._batch_obs(batch_obs)
            if self.recurrent:
                av, _ = self._recurrence.step(self.model, x,
                                              self.train_recurrent_states)
            else:
                av = self.model(x)
            greedy = _arrays.to_host(av.greedy_actions)
        return {i: (self.explorer.select_action(
            self.t, lambda: greedy[i], action_value=av[i])
            if self._explorer_needs_values else
            self.explorer.select_action(self.t, lambda: greedy[i]))
            for i in indices}

    def _batch_observe_train(self, batch_obs, batch_reward, batch_done,
                             batch_reset):
        owner = self._check_observe(batch_obs, batch_reward, batch_done,
                                    batch_reset, 'batch_observe_and_train')
        self._check_batch_len(owner, batch_obs)
        cut = [i for i in range(len(batch_obs))
               if self.batch_last_obs[i] is not None and batch_reset[i]
               and not batch_done[i]]
        cut_actions = self._next_actions_at(batch_obs, cut) if cut else {}
        for i in range(len(batch_obs)):
            self.t += 1
            if self.t % self.target_update_interval == 0:
                self.sync_target_network()
            if self.batch_last_obs[i] is not None:
                transition = self._transition(i, batch_obs, batch_reward,
                                              batch_done)
                if batch_done[i] or batch_reset[i]:
                    # At a terminal state a' is masked out; any action will
                    # do.
                    transition['next_action'] = cut_actions.get(
                        i, self.batch_last_action[i])
                    self.replay_buffer.append(env_id=i, **transition)
                    self.replay_buffer.stop_current_episode(env_id=i)
                    self.batch_last_obs[i] = None
                    self.batch_last_action[i] = None
                else:
                    self._pending.append((i, transition))
            self.replay_updater.update_if_necessary(self.t)
        self._reset_ended_train_states(batch_done, batch_reset)
