"""A2C on a vector env of CartPole-v1s, stepped in this process
(``SerialVectorEnv``) or one process per env (``--multiprocess``:
``MultiprocessVectorEnv``).

    python examples/train_a2c_vector.py                    # best device
    python examples/train_a2c_vector.py --multiprocess --num-envs 4

The settings follow rl-baselines3-zoo's CartPole-v1 A2C (8 envs, no entropy
bonus) on Stable-Baselines3's A2C defaults: an update every 5 steps of each
env from n-step returns with gamma 0.99, RMSprop at 7e-4 (alpha 0.99, eps
1e-5), value loss weighted by 0.5, gradients clipped to norm 0.5, separate
64-64 tanh networks for the policy and the value. Evaluation takes the most
probable action.

Writes ``scores.txt``, the best agent (``best/``), the final one
(``<steps>_finish/``) and the learning curve (``scores.png``) to
``--outdir``.
"""
import sys

import gymnasium as gym

import chainer_core as chainer
import chainer_core.functions as F

from chainer_rl import agents
from chainer_rl import envs
from chainer_rl import links
from chainer_rl import policies

import example_utils as U


NAME = 'a2c_vector'
ENV_ID = 'CartPole-v1'


def parse_args(argv=None):
    parser = U.make_parser(__doc__, NAME, steps=200000, eval_interval=10000)
    parser.add_argument('--num-envs', type=int, default=8)
    parser.add_argument('--multiprocess', action='store_true',
                        help='one process per env (MultiprocessVectorEnv)')
    parser.add_argument('--update-steps', type=int, default=5,
                        help='steps of each env between updates')
    parser.add_argument('--lr', type=float, default=7e-4)
    parser.add_argument('--gamma', type=float, default=0.99)
    parser.add_argument('--entropy-coef', type=float, default=0.0)
    parser.add_argument('--max-grad-norm', type=float, default=0.5)
    return parser.parse_args(argv)


def make_env_fn(index):
    # A module-level function (with functools.partial below, not a lambda)
    # so that processes started by spawn can unpickle it too.
    return gym.make(ENV_ID)


def make_vector_env(args):
    n = args.num_envs
    if args.multiprocess:
        import functools
        env = envs.MultiprocessVectorEnv(
            [functools.partial(make_env_fn, i) for i in range(n)])
    else:
        env = envs.SerialVectorEnv([make_env_fn(i) for i in range(n)])
    # Env i gets seed * num_envs + i: runs with different seeds share no
    # episode.
    env.seed([args.seed * n + i for i in range(n)])
    return env


def make_agent(args, obs_size, n_actions, device):
    model = agents.A2CSeparateModel(
        pi=policies.SoftmaxPolicy(links.MLP(
            obs_size, n_actions, (64, 64), nonlinearity=F.tanh,
            last_wscale=0.01)),
        v=links.MLP(obs_size, 1, (64, 64), nonlinearity=F.tanh))
    model.to_device(device)
    optimizer = chainer.optimizers.RMSprop(lr=args.lr, alpha=0.99, eps=1e-5)
    optimizer.setup(model)
    if args.max_grad_norm:
        optimizer.add_hook(chainer.optimizer_hooks.GradientClipping(
            args.max_grad_norm))
    return agents.A2C(
        model, optimizer, gamma=args.gamma, num_processes=args.num_envs,
        update_steps=args.update_steps, phi=U.float32, v_loss_coef=0.5,
        entropy_coeff=args.entropy_coef, act_deterministically=True)


def main(argv=None):
    args = parse_args(argv)
    device = U.setup(args)
    env = make_vector_env(args)
    eval_env = gym.make(ENV_ID)
    eval_env.reset(seed=2 ** 31 - 1 - args.seed)
    agent = make_agent(args, env.observation_space.shape[0],
                       env.action_space.n, device)

    return U.train_batch(args, agent, env, eval_env, every=1000)


if __name__ == '__main__':
    main(sys.argv[1:])
