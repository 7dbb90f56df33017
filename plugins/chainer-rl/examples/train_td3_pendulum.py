"""TD3 on Pendulum-v1.

    python examples/train_td3_pendulum.py                  # best device
    python examples/train_td3_pendulum.py --device @numpy --seed 1

Settings after rl-baselines3-zoo's Pendulum-v1 TD3 (Adam at 1e-3, gamma
0.98, Gaussian exploration noise of standard deviation 0.1 in the
normalized action space, one update per step, a 200k buffer), with 64-64
ReLU networks and updates from 1000 transitions on (the zoo's TD3 has
400-300 networks and explores at random for 10000 steps), so that it
learns within fewer steps at a fraction of the cost per step
(``--n-hidden-channels 256`` for wider networks). The rest is TD3's:
minibatches of 256, twin critics, the policy and the targets updated every
second critic update, target actions smoothed with noise of standard
deviation 0.2 clipped to 0.5, target networks averaged with tau 0.005.
Actions are scaled to [-1, 1] (``wrappers.NormalizeActionSpace``).
Pendulum's returns are negative; about -200 or above is solved.

Writes ``scores.txt``, the best agent (``best/``), the final one
(``<steps>_finish/``) and the learning curve (``scores.png``) to
``--outdir``.
"""
import sys

from chainer_rl import agents
from chainer_rl import explorers
from chainer_rl import policies
from chainer_rl import replay_buffers

import example_utils as U


NAME = 'td3_pendulum'
ENV_ID = 'Pendulum-v1'


def parse_args(argv=None):
    parser = U.make_parser(__doc__, NAME, steps=20000, eval_interval=1000)
    U.add_off_policy_options(parser, gamma=0.98, replay_start_size=1000)
    parser.add_argument('--exploration-noise', type=float, default=0.1)
    return parser.parse_args(argv)


def make_env(seed):
    return U.make_env(ENV_ID, seed, normalize_actions=True)


def make_agent(args, env, device):
    obs_size = env.observation_space.shape[0]
    action_size = env.action_space.shape[0]
    low = env.action_space.low
    high = env.action_space.high
    policy = policies.FCDeterministicPolicy(
        obs_size, n_hidden_layers=2, n_hidden_channels=args.n_hidden_channels,
        action_size=action_size, min_action=low, max_action=high)
    q1, q2, optimizers = U.make_twin_critics(args, env, policy, device)
    return agents.TD3(
        policy, q1, q2, optimizers[0], optimizers[1], optimizers[2],
        replay_buffers.ReplayBuffer(capacity=200000), gamma=args.gamma,
        explorer=explorers.AdditiveGaussian(args.exploration_noise, low,
                                            high),
        replay_start_size=args.replay_start_size,
        minibatch_size=args.minibatch_size, update_interval=1,
        phi=U.float32, soft_update_tau=args.soft_update_tau,
        burnin_action_func=U.uniform_actions(env.action_space))


def main(argv=None):
    return U.run(parse_args(argv), make_env, make_agent, every=200)


if __name__ == '__main__':
    main(sys.argv[1:])
