"""What the example scripts share: their common command-line options, a
progress printer, and the end of a run (learning curve, summary).

The scripts import it from their own folder (``python examples/x.py`` puts
that folder first on ``sys.path``).
"""
import argparse
import importlib
import os
import time

import gymnasium as gym
import numpy as np

import chainer_core as chainer

from chainer_rl import experiments
from chainer_rl import misc
from chainer_rl import q_functions
from chainer_rl import wrappers


def make_parser(doc, name, steps, eval_interval):
    """An ArgumentParser with the options every example takes."""
    parser = argparse.ArgumentParser(
        description=doc,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--device', default=None,
                        help="chainer-core device ('@numpy', 'native:0', "
                        "'@intel64', ...; default: the best installed)")
    parser.add_argument('--seed', type=int, default=0,
                        help='random seed of the agent and the envs')
    parser.add_argument('--steps', type=int, default=steps,
                        help='training steps (default: %(default)s)')
    parser.add_argument('--outdir', default=os.path.join('results', name),
                        help='folder of scores.txt, the saved agents and '
                        'the learning curve (default: %(default)s)')
    parser.add_argument('--eval-n-episodes', type=int, default=10,
                        help='episodes per evaluation')
    parser.add_argument('--eval-interval', type=int, default=eval_interval,
                        help='training steps between evaluations')
    parser.add_argument('--successful-score', type=float, default=None,
                        help='stop once an evaluation reaches this mean '
                        'return')
    parser.add_argument('--log-level', default='WARNING',
                        help='logging level (INFO logs every episode)')
    return parser


def add_off_policy_options(parser, gamma, replay_start_size):
    """The options of the Pendulum examples' replay-based agents."""
    parser.add_argument('--n-hidden-channels', type=int, default=64)
    parser.add_argument('--lr', type=float, default=1e-3)
    parser.add_argument('--gamma', type=float, default=gamma)
    parser.add_argument('--minibatch-size', type=int, default=256)
    parser.add_argument('--replay-start-size', type=int,
                        default=replay_start_size)
    parser.add_argument('--soft-update-tau', type=float, default=5e-3)


def make_env(env_id, seed, normalize_actions=False):
    """A gymnasium env whose episodes and random actions follow ``seed``;
    ``normalize_actions`` scales a Box action space to [-1, 1]."""
    env = gym.make(env_id)
    if normalize_actions:
        env = wrappers.NormalizeActionSpace(env)
    env.reset(seed=seed)
    env.action_space.seed(seed)
    return env


def make_twin_critics(args, env, policy, device):
    """The Pendulum examples' two Q-functions (``--n-hidden-channels``
    wide, two hidden layers); ``policy`` and both are moved to ``device``
    and given Adam optimizers at ``--lr``. Returns ``(q1, q2, [policy's,
    q1's, q2's optimizer])``."""
    obs_size = env.observation_space.shape[0]
    action_size = env.action_space.shape[0]
    q1, q2 = [q_functions.FCSAQFunction(obs_size, action_size,
                                        args.n_hidden_channels, 2)
              for _ in range(2)]
    optimizers = []
    for link in (policy, q1, q2):
        link.to_device(device)
        optimizer = chainer.optimizers.Adam(alpha=args.lr)
        optimizer.setup(link)
        optimizers.append(optimizer)
    return q1, q2, optimizers


def uniform_actions(action_space):
    """A ``burnin_action_func``: float32 actions drawn uniformly from the
    Box ``action_space`` by NumPy's global generator (which ``--seed``
    seeds)."""
    low = action_space.low
    high = action_space.high

    def burnin_action_func():
        return np.random.uniform(low, high).astype(np.float32)
    return burnin_action_func


def setup(args):
    """Seed everything, choose the device; returns it."""
    import logging
    logging.basicConfig(level=getattr(logging, args.log_level.upper()))
    misc.set_random_seed(args.seed)
    device = chainer.get_device(args.device)
    device.use()
    os.makedirs(args.outdir, exist_ok=True)
    print('Device: {}  seed: {}  outdir: {}'.format(device, args.seed,
                                                   args.outdir), flush=True)
    return device


def float32(obs):
    """The agents' ``phi``: observations as float32 arrays (gymnasium's
    classic-control envs may return float64)."""
    return np.asarray(obs, dtype=np.float32)


class PrintEvaluations(object):
    """Step hook printing each new line of ``scores.txt`` (looked at every
    ``every`` steps), so that progress shows without INFO logging."""

    def __init__(self, outdir, every=500):
        self.path = os.path.join(outdir, 'scores.txt')
        self.every = every
        self.printed = 1  # the header

    def __call__(self, env, agent, t):
        if t % self.every == 0:
            self.flush()

    def flush(self):
        if not os.path.exists(self.path):
            return
        with open(self.path) as f:
            lines = f.read().splitlines()
        for line in lines[self.printed:]:
            fields = line.split('\t')
            print('step {:>7}  evaluation mean {:9.2f}  (min {:.1f}, max '
                  '{:.1f}; {:.0f} s)'.format(
                      int(fields[0]), float(fields[3]), float(fields[7]),
                      float(fields[6]), float(fields[2])), flush=True)
        self.printed = max(self.printed, len(lines))


class Timer(object):
    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self.start
        return False


def plot(outdir):
    """Draw ``<outdir>/scores.png`` and return its path; None (with a
    message) when matplotlib is not installed."""
    try:
        importlib.import_module('matplotlib')
    except ImportError:
        print('No learning curve: matplotlib is not installed (pip install '
              '"chainer-core-rl[plot]")')
        return None
    return experiments.plot_scores(outdir,
                                   os.path.join(outdir, 'scores.png'))


def train(args, agent, env, eval_env, every=500):
    """Train ``agent`` with periodic evaluations, printing them every
    ``every`` steps; returns what ``finish`` does."""
    progress = PrintEvaluations(args.outdir, every=every)
    with Timer() as timer:
        experiments.train_agent_with_evaluation(
            agent=agent, env=env, steps=args.steps, eval_n_steps=None,
            eval_n_episodes=args.eval_n_episodes,
            eval_interval=args.eval_interval, outdir=args.outdir,
            eval_env=eval_env, successful_score=args.successful_score,
            step_hooks=[progress])
    progress.flush()
    return finish(args, timer.seconds)


def run(args, make_env, make_agent, every=500):
    """The single-env examples' main: ``make_env(seed)`` gives the training
    env and an evaluation env of its own seed, ``make_agent(args, env,
    device)`` the agent; returns what ``train`` does."""
    device = setup(args)
    env = make_env(args.seed)
    # The evaluation env draws its own episodes.
    eval_env = make_env(2 ** 31 - 1 - args.seed)
    agent = make_agent(args, env, device)
    return train(args, agent, env, eval_env, every=every)


def train_batch(args, agent, env, eval_env, hooks=(), every=500):
    """Train ``agent`` on the vector env ``env`` with periodic evaluations,
    printing them every ``every`` steps; ``env`` is closed at the end.
    Returns what ``finish`` does."""
    progress = PrintEvaluations(args.outdir, every=every)
    try:
        with Timer() as timer:
            experiments.train_agent_batch_with_evaluation(
                agent=agent, env=env, steps=args.steps, eval_n_steps=None,
                eval_n_episodes=args.eval_n_episodes,
                eval_interval=args.eval_interval, outdir=args.outdir,
                eval_env=eval_env, successful_score=args.successful_score,
                step_hooks=list(hooks) + [progress])
    finally:
        env.close()
    progress.flush()
    return finish(args, timer.seconds)


def finish(args, wall_time):
    """Draw ``scores.png``, print where the outputs are and return the run's
    outcome: a dict with ``outdir``, ``scores_txt``, ``png`` (None without
    matplotlib), ``best_mean``, ``evaluations``, ``last_step`` (of the last
    evaluation), ``solved_at`` (the step of the first evaluation reaching
    ``--successful-score``, or None) and ``wall_time``."""
    outdir = args.outdir
    png = plot(outdir)
    scores = experiments.read_scores(outdir)
    means = scores['mean']
    result = {'outdir': outdir,
              'scores_txt': os.path.join(outdir, 'scores.txt'),
              'png': png,
              'best_mean': float(means.max()) if len(means) else None,
              'evaluations': int(len(means)),
              'last_step': int(scores['steps'][-1]) if len(means) else 0,
              'solved_at': None, 'wall_time': wall_time}
    if args.successful_score is not None:
        hits = np.nonzero(means >= args.successful_score)[0]
        if len(hits):
            result['solved_at'] = int(scores['steps'][hits[0]])
    print('Finished in {:.1f} s; best evaluation mean: {}'.format(
        wall_time, result['best_mean']))
    print('Scores: {}'.format(result['scores_txt']))
    if png:
        print('Learning curve: {}'.format(png))
    print('Best agent: {}'.format(os.path.join(outdir, 'best')))
    return result
