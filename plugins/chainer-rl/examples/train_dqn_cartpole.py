"""Double DQN on CartPole-v1.

    python examples/train_dqn_cartpole.py                  # best device
    python examples/train_dqn_cartpole.py --device @numpy --seed 1

The schedule is rl-baselines3-zoo's published CartPole-v1 DQN one: Adam at
2.3e-3, minibatches of 64 from a 100k buffer once it holds 1000
transitions, 128 updates every 256 steps (the target network copied before
each burst), epsilon from 1 to 0.04 over the first 8000 steps, gamma 0.99,
gradients clipped to norm 10. The zoo's Q-network is 256-256; here it is
64-64 by default (``--n-hidden-channels 256`` for the zoo's), which learns
as well on CartPole at a fraction of the cost per update. CartPole-v1 is
solved at a mean return of 475 (episodes are cut at 500 steps).

Writes ``scores.txt`` (one line per evaluation), the best agent
(``best/``), the final one (``<steps>_finish/``) and the learning curve
(``scores.png``) to ``--outdir``.
"""
import sys


import chainer_core as chainer

from chainer_rl import agents
from chainer_rl import explorers
from chainer_rl import q_functions
from chainer_rl import replay_buffers

import example_utils as U


NAME = 'dqn_cartpole'
ENV_ID = 'CartPole-v1'


def parse_args(argv=None):
    parser = U.make_parser(__doc__, NAME, steps=100000, eval_interval=2500)
    parser.add_argument('--n-hidden-channels', type=int, default=64)
    parser.add_argument('--n-hidden-layers', type=int, default=2)
    parser.add_argument('--lr', type=float, default=2.3e-3)
    parser.add_argument('--gamma', type=float, default=0.99)
    parser.add_argument('--minibatch-size', type=int, default=64)
    parser.add_argument('--replay-start-size', type=int, default=1000)
    parser.add_argument('--update-interval', type=int, default=256)
    parser.add_argument('--n-times-update', type=int, default=128,
                        help='updates every --update-interval steps')
    parser.add_argument('--target-update-interval', type=int, default=256)
    parser.add_argument('--final-exploration-steps', type=int, default=8000)
    parser.add_argument('--final-epsilon', type=float, default=0.04)
    parser.add_argument('--max-grad-norm', type=float, default=10.0)
    return parser.parse_args(argv)


def make_env(seed):
    return U.make_env(ENV_ID, seed)


def make_agent(args, env, device):
    q_func = q_functions.FCStateQFunctionWithDiscreteAction(
        env.observation_space.shape[0], env.action_space.n,
        n_hidden_channels=args.n_hidden_channels,
        n_hidden_layers=args.n_hidden_layers)
    q_func.to_device(device)
    optimizer = chainer.optimizers.Adam(alpha=args.lr)
    optimizer.setup(q_func)
    if args.max_grad_norm:
        optimizer.add_hook(chainer.optimizer_hooks.GradientClipping(
            args.max_grad_norm))
    explorer = explorers.LinearDecayEpsilonGreedy(
        1.0, args.final_epsilon, args.final_exploration_steps,
        env.action_space.sample)
    return agents.DoubleDQN(
        q_func, optimizer, replay_buffers.ReplayBuffer(capacity=100000),
        gamma=args.gamma, explorer=explorer,
        replay_start_size=args.replay_start_size,
        minibatch_size=args.minibatch_size,
        update_interval=args.update_interval,
        n_times_update=args.n_times_update,
        target_update_interval=args.target_update_interval, phi=U.float32)


def main(argv=None):
    return U.run(parse_args(argv), make_env, make_agent)


if __name__ == '__main__':
    main(sys.argv[1:])
