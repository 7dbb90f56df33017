"""Soft Actor-Critic on Pendulum-v1.

    python examples/train_sac_pendulum.py                  # best device
    python examples/train_sac_pendulum.py --device @numpy --seed 1

The defaults follow rl-baselines3-zoo's Pendulum-v1 SAC (a learning rate
of 1e-3 over Stable-Baselines3's SAC defaults) except for the width of the
networks: the policy (a tanh-squashed Gaussian) and both Q-functions are
64-64 ReLU MLPs here, where the zoo's are 256-256 (``--n-hidden-channels
256``); they solve Pendulum within as many steps at about a quarter of the
cost per step. The rest: Adam at 1e-3 for the three networks and for the
temperature (tuned towards an entropy of -1 per action dimension),
minibatches of 256 from a buffer of a million transitions, one update per
step, gamma 0.99, target networks averaged with tau 0.005. Updates start
once the buffer holds 256 transitions (uniformly random actions until
then): minibatches are drawn without replacement here, where
Stable-Baselines3 starts at 100 and draws with replacement. The env's
actions are scaled to [-1, 1] (``wrappers.NormalizeActionSpace``).
Evaluation takes the mean action.
Pendulum's returns are negative; about -200 or above is solved.

Writes ``scores.txt``, the best agent (``best/``), the final one
(``<steps>_finish/``) and the learning curve (``scores.png``) to
``--outdir``.
"""
import sys

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L

from chainer_rl import agents
from chainer_rl import distribution
from chainer_rl import replay_buffers

import example_utils as U


NAME = 'sac_pendulum'
ENV_ID = 'Pendulum-v1'


def parse_args(argv=None):
    parser = U.make_parser(__doc__, NAME, steps=20000, eval_interval=1000)
    U.add_off_policy_options(parser, gamma=0.99, replay_start_size=256)
    return parser.parse_args(argv)


def make_env(seed):
    return U.make_env(ENV_ID, seed, normalize_actions=True)


class SquashedGaussianPolicy(chainer.Chain):
    """Observations -> tanh-squashed diagonal Gaussian: an MLP outputs the
    mean and the log standard deviation (clipped to [-20, 2])."""

    def __init__(self, obs_size, action_size, n_hidden):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(obs_size, n_hidden)
            self.l2 = L.Linear(n_hidden, n_hidden)
            self.l3 = L.Linear(n_hidden, 2 * action_size)

    def forward(self, x):
        h = F.relu(self.l2(F.relu(self.l1(x))))
        mean, log_std = F.split_axis(self.l3(h), 2, axis=1)
        log_std = F.clip(log_std, -20.0, 2.0)
        return distribution.SquashedGaussianDistribution(
            mean, F.exp(2 * log_std))


def make_agent(args, env, device):
    obs_size = env.observation_space.shape[0]
    action_size = env.action_space.shape[0]
    policy = SquashedGaussianPolicy(obs_size, action_size,
                                    args.n_hidden_channels)
    q1, q2, optimizers = U.make_twin_critics(args, env, policy, device)
    return agents.SoftActorCritic(
        policy, q1, q2, optimizers[0], optimizers[1], optimizers[2],
        replay_buffers.ReplayBuffer(capacity=10 ** 6), gamma=args.gamma,
        replay_start_size=args.replay_start_size,
        minibatch_size=args.minibatch_size, update_interval=1,
        phi=U.float32, soft_update_tau=args.soft_update_tau,
        burnin_action_func=U.uniform_actions(env.action_space),
        initial_temperature=1.0,
        entropy_target=-float(action_size),
        temperature_optimizer=chainer.optimizers.Adam(alpha=args.lr),
        act_deterministically=True)


def main(argv=None):
    return U.run(parse_args(argv), make_env, make_agent, every=200)


if __name__ == '__main__':
    main(sys.argv[1:])
