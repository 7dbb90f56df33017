"""Quickstart: Double DQN on CartPole-v1, first with a hand-written training
loop, then with chainer_rl.experiments.

    python examples/quickstart.py
    python examples/quickstart.py --device @numpy --episodes 100

1. A Q-function written as a chainer-core Chain that returns a
   ``DiscreteActionValue``, an optimizer, an explorer, a replay buffer and
   the agent.
2. ChainerRL's loop: ``agent.act_and_train(obs, reward)`` at every step,
   ``agent.stop_episode_and_train(obs, reward, done)`` at the end of each
   episode; then a few greedy test episodes (``agent.act`` and
   ``agent.stop_episode``) and ``agent.save``.
3. ``experiments.train_agent_with_evaluation``, which goes on training,
   evaluates every ``--eval-interval`` steps, writes ``scores.txt`` and keeps
   the best agent; ``experiments.plot_scores`` draws the learning curve.
"""
import argparse
import os
import sys

import gymnasium as gym
import numpy as np

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L

import chainer_rl
from chainer_rl import experiments
from chainer_rl import misc


NAME = 'quickstart'


class QFunction(chainer.Chain):
    """Observation -> one Q-value per action, through two hidden layers."""

    def __init__(self, obs_size, n_actions, n_hidden_channels=50):
        super().__init__()
        with self.init_scope():
            self.l0 = L.Linear(obs_size, n_hidden_channels)
            self.l1 = L.Linear(n_hidden_channels, n_hidden_channels)
            self.l2 = L.Linear(n_hidden_channels, n_actions)

    def forward(self, x):
        h = F.tanh(self.l0(x))
        h = F.tanh(self.l1(h))
        return chainer_rl.action_value.DiscreteActionValue(self.l2(h))


def parse_args(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--device', default=None,
                        help="chainer-core device ('@numpy', 'native:0', "
                        "'@intel64', ...; default: the best installed)")
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--episodes', type=int, default=200,
                        help='episodes of the hand-written loop')
    parser.add_argument('--max-episode-len', type=int, default=200,
                        help='training episodes are cut after this many '
                        'steps')
    parser.add_argument('--steps', type=int, default=10000,
                        help='further training steps through '
                        'train_agent_with_evaluation')
    parser.add_argument('--outdir', default=os.path.join('results', NAME))
    parser.add_argument('--eval-n-episodes', type=int, default=10)
    parser.add_argument('--eval-interval', type=int, default=1000)
    return parser.parse_args(argv)


def phi(obs):
    # CartPole's observations are float64 in some gymnasium versions; the
    # model's parameters are float32.
    return np.asarray(obs, dtype=np.float32)


def main(argv=None):
    args = parse_args(argv)
    misc.set_random_seed(args.seed)
    device = chainer.get_device(args.device)
    device.use()
    print('Device: {}'.format(device))

    env = gym.make('CartPole-v1')
    env.reset(seed=args.seed)
    env.action_space.seed(args.seed)
    obs_size = env.observation_space.shape[0]
    n_actions = env.action_space.n

    # 1. The agent's parts.
    q_func = QFunction(obs_size, n_actions)
    q_func.to_device(device)
    optimizer = chainer.optimizers.Adam(eps=1e-2)
    optimizer.setup(q_func)
    explorer = chainer_rl.explorers.ConstantEpsilonGreedy(
        epsilon=0.3, random_action_func=env.action_space.sample)
    replay_buffer = chainer_rl.replay_buffers.ReplayBuffer(capacity=10 ** 6)
    agent = chainer_rl.agents.DoubleDQN(
        q_func, optimizer, replay_buffer, gamma=0.95, explorer=explorer,
        replay_start_size=500, update_interval=1, target_update_interval=100,
        phi=phi)

    # 2. ChainerRL's training loop, by hand.
    for episode in range(1, args.episodes + 1):
        obs, _ = env.reset()
        reward = 0.0
        episode_return = 0.0
        terminated = truncated = False
        t = 0
        while not (terminated or truncated) and t < args.max_episode_len:
            action = agent.act_and_train(obs, reward)
            obs, reward, terminated, truncated, _ = env.step(action)
            episode_return += reward
            t += 1
        if episode % 10 == 0:
            print('episode: {}  R: {}  statistics: {}'.format(
                episode, episode_return, agent.get_statistics()))
        # done=False for an episode cut short: its last state is not
        # terminal and the agent bootstraps from it.
        agent.stop_episode_and_train(obs, reward, terminated)
    print('Finished the hand-written loop.')

    # Greedy test episodes.
    for episode in range(3):
        obs, _ = env.reset()
        episode_return = 0.0
        terminated = truncated = False
        t = 0
        while not (terminated or truncated) and t < args.max_episode_len:
            obs, reward, terminated, truncated, _ = env.step(agent.act(obs))
            episode_return += reward
            t += 1
        print('test episode: {}  R: {}'.format(episode, episode_return))
        agent.stop_episode()
    os.makedirs(args.outdir, exist_ok=True)
    agent.save(os.path.join(args.outdir, 'agent'))

    # 3. The same agent through the experiments module.
    eval_env = gym.make('CartPole-v1')
    eval_env.reset(seed=2 ** 31 - 1 - args.seed)
    experiments.train_agent_with_evaluation(
        agent, env, steps=args.steps, eval_n_steps=None,
        eval_n_episodes=args.eval_n_episodes,
        eval_interval=args.eval_interval, outdir=args.outdir,
        train_max_episode_len=args.max_episode_len, eval_env=eval_env)
    try:
        png = experiments.plot_scores(args.outdir,
                                      os.path.join(args.outdir, 'scores.png'))
    except ImportError:
        png = None
        print('No learning curve: matplotlib is not installed (pip install '
              '"chainer-core-rl[plot]")')
    scores = experiments.read_scores(args.outdir)
    for steps, mean in zip(scores['steps'], scores['mean']):
        print('step {:>6.0f}  evaluation mean return {:.1f}'.format(steps,
                                                                    mean))
    print('Scores: {}'.format(os.path.join(args.outdir, 'scores.txt')))
    if png:
        print('Learning curve: {}'.format(png))
    print('Agent after the hand-written loop: {}'.format(
        os.path.join(args.outdir, 'agent')))
    print('Best agent: {}'.format(os.path.join(args.outdir, 'best')))
    return {'outdir': args.outdir, 'png': png}


if __name__ == '__main__':
    main(sys.argv[1:])
