"""PPO on CartPole-v1, on a vector env of CartPoles.

    python examples/train_ppo_cartpole.py                  # best device
    python examples/train_ppo_cartpole.py --device @numpy --seed 1

The defaults are rl-baselines3-zoo's published CartPole-v1 PPO settings: 8
envs, an update every 32 steps of each (256 transitions), 20 epochs of
minibatches of 256, gamma 0.98, GAE lambda 0.8, no entropy bonus, Adam
(eps 1e-5) at 1e-3 and a clipping range of 0.2, both decayed linearly to 0
over ``--steps``; separate 64-64 tanh networks for the policy and the value,
value loss weighted by 0.5, gradients clipped to norm 0.5. Evaluation takes
the most probable action.

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
from chainer_rl import experiments
from chainer_rl import links
from chainer_rl import policies

import example_utils as U


NAME = 'ppo_cartpole'
ENV_ID = 'CartPole-v1'


def parse_args(argv=None):
    parser = U.make_parser(__doc__, NAME, steps=100000, eval_interval=5000)
    parser.add_argument('--num-envs', type=int, default=8)
    parser.add_argument('--n-steps', type=int, default=32,
                        help='steps of each env between updates')
    parser.add_argument('--minibatch-size', type=int, default=256)
    parser.add_argument('--epochs', type=int, default=20)
    parser.add_argument('--lr', type=float, default=1e-3)
    parser.add_argument('--clip-eps', type=float, default=0.2)
    parser.add_argument('--gamma', type=float, default=0.98)
    parser.add_argument('--lambd', type=float, default=0.8)
    parser.add_argument('--entropy-coef', type=float, default=0.0)
    parser.add_argument('--max-grad-norm', type=float, default=0.5)
    parser.add_argument('--no-decay', dest='decay', action='store_false',
                        help='keep the learning rate and the clipping range '
                        'constant')
    return parser.parse_args(argv)


def make_model(obs_size, n_actions):
    """Policy and value networks side by side: ``model(x)`` returns
    ``(SoftmaxDistribution, values of shape (batch, 1))``."""
    policy = policies.SoftmaxPolicy(links.MLP(
        obs_size, n_actions, (64, 64), nonlinearity=F.tanh,
        last_wscale=0.01))
    value = links.MLP(obs_size, 1, (64, 64), nonlinearity=F.tanh)
    return links.Branched(policy, value)


def make_agent(args, obs_size, n_actions, device):
    model = make_model(obs_size, n_actions)
    model.to_device(device)
    optimizer = chainer.optimizers.Adam(alpha=args.lr, eps=1e-5)
    optimizer.setup(model)
    if args.max_grad_norm:
        optimizer.add_hook(chainer.optimizer_hooks.GradientClipping(
            args.max_grad_norm))
    return agents.PPO(
        model, optimizer, gamma=args.gamma, lambd=args.lambd, phi=U.float32,
        value_func_coef=0.5, entropy_coef=args.entropy_coef,
        update_interval=args.num_envs * args.n_steps,
        minibatch_size=args.minibatch_size, epochs=args.epochs,
        clip_eps=args.clip_eps, standardize_advantages=True,
        act_deterministically=True)


def _set_lr(env, agent, value):
    agent.optimizer.alpha = value


def _set_clip_eps(env, agent, value):
    agent.clip_eps = value


def main(argv=None):
    args = parse_args(argv)
    device = U.setup(args)
    # Env i of the training vector env is seeded with seed * num_envs + i,
    # so runs with different seeds share no episode.
    env = envs.SerialVectorEnv([gym.make(ENV_ID)
                                for _ in range(args.num_envs)])
    env.seed([args.seed * args.num_envs + i for i in range(args.num_envs)])
    eval_env = gym.make(ENV_ID)
    eval_env.reset(seed=2 ** 31 - 1 - args.seed)
    agent = make_agent(args, env.observation_space.shape[0],
                       env.action_space.n, device)

    hooks = []
    if args.decay:
        hooks += [
            experiments.LinearInterpolationHook(args.steps, args.lr, 0.0,
                                                _set_lr),
            experiments.LinearInterpolationHook(args.steps, args.clip_eps,
                                                0.0, _set_clip_eps),
        ]
    return U.train_batch(args, agent, env, eval_env, hooks, every=512)


if __name__ == '__main__':
    main(sys.argv[1:])
