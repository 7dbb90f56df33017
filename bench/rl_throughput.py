"""Reinforcement-learning training throughput: environment steps per second
of chainer-rl's agents on each chainer-core device beside Stable-Baselines3
on PyTorch CPU, doing the same work per step, in one run.

    python bench/rl_throughput.py                       # every case, 1 thread
    python bench/rl_throughput.py --threads 1 --cases dqn sac \
        --devices @numpy native:0
    python bench/rl_throughput.py --profile native:0 --cases sac  # cProfile
    python bench/rl_throughput.py --flush-denormals   # subnormals as zero

Cases (each side gets the same networks, minibatch size, update schedule,
replay start and optimizer settings, so each env step carries the same
work):

* ``dqn``: DQN on CartPole-v1 (chainer-rl ``DQN``, Stable-Baselines3
  ``DQN``); ``double_dqn``: Double DQN (chainer-rl ``DoubleDQN``; on the
  Stable-Baselines3 side ``DQN`` with the double-Q target, defined below).
  256-256 ReLU Q-network, Adam 2.3e-3, Huber loss, gradient norm clipped to
  10, minibatch 64, replay start 1000, 128 updates every 256 steps, hard
  target update every 256 steps, epsilon 1 -> 0.04 over 8000 steps.
* ``ppo``: PPO on 8 CartPole-v1 envs stepped in this process
  (``SerialVectorEnv`` / ``DummyVecEnv``): 32 steps per env per update, 20
  epochs of one minibatch of 256, separate 64-64 tanh policy and value
  networks, Adam 1e-3 (eps 1e-5), gradient norm clipped to 0.5, gamma 0.98,
  GAE lambda 0.8, value loss weight 0.5, clipping 0.2.
* ``sac``: SAC on Pendulum-v1: 256-256 ReLU policy and twin Q-networks,
  Adam 1e-3 (temperature too, target entropy -1), minibatch 256, one update
  per step, replay start 256, tau 0.005.

Each framework runs in its own process with the thread count pinned (OMP,
OpenBLAS, MKL, ``CHAINER_NATIVE_THREADS`` and ``torch.set_num_threads``)
before any library loads. A run trains for ``warmup`` steps untimed (past
the replay start, so updates are in the window), then times the next
``steps`` steps (wall and process CPU time) and counts the gradient steps
taken in that window (equal on both sides). The table gives steps per
second (wall) and, in brackets, the ratio of chainer-rl's time per step to
Stable-Baselines3's (lower is faster).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# Training steps before the timed window and in it. The windows start
# half-way between two update bursts of dqn (every 256 steps) and ppo
# (every 256 steps over the 8 envs), so each side does the same number of
# updates in the window whichever step its loop counts an update in.
CASES = {
    'dqn': {'warmup': 2176, 'steps': 4096},
    'double_dqn': {'warmup': 2176, 'steps': 4096},
    'ppo': {'warmup': 2176, 'steps': 8192},
    'sac': {'warmup': 1000, 'steps': 2000},
}

DQN = dict(hidden=256, lr=2.3e-3, batch=64, buffer=100000, start=1000,
           every=256, n_updates=128, target_every=256, gamma=0.99,
           eps_final=0.04, eps_steps=8000, max_grad_norm=10.0)
PPO = dict(n_envs=8, n_steps=32, batch=256, epochs=20, hidden=64, lr=1e-3,
           adam_eps=1e-5, max_grad_norm=0.5, gamma=0.98, lambd=0.8,
           vf_coef=0.5, clip=0.2)
SAC = dict(hidden=256, lr=1e-3, batch=256, buffer=10 ** 6, start=256,
           tau=0.005, gamma=0.99)


# ----------------------------------------------------------------------
# workers


class _Window(object):
    """Wall and CPU time between the step that ends the warm-up and the
    last one, and the gradient steps taken in between."""

    def __init__(self, warmup, steps, count_updates, profiler=None):
        self.warmup = warmup
        self.end = warmup + steps
        self.count_updates = count_updates
        self.profiler = profiler
        self.start = None
        self.stop = None

    def at(self, t):
        if self.start is None and t >= self.warmup:
            self.start = (time.perf_counter(), time.process_time(),
                          self.count_updates())
            if self.profiler is not None:
                self.profiler.enable()
        elif self.stop is None and t >= self.end:
            if self.profiler is not None:
                self.profiler.disable()
            self.stop = (time.perf_counter(), time.process_time(),
                         self.count_updates())

    def result(self):
        if self.start is None or self.stop is None:
            raise RuntimeError('the run ended before the timed window did')
        wall = self.stop[0] - self.start[0]
        cpu = self.stop[1] - self.start[1]
        steps = self.end - self.warmup
        return {'steps': steps, 'wall_s': wall, 'cpu_s': cpu,
                'steps_per_s': steps / wall,
                'cpu_steps_per_s': steps / cpu if cpu > 0 else None,
                'gradient_steps': self.stop[2] - self.start[2]}


def _phi(obs):
    import numpy
    return numpy.asarray(obs, dtype=numpy.float32)


def _chainer_rl_dqn(device, double):
    import gymnasium as gym
    import chainer_core as chainer
    from chainer_rl import agents, explorers, q_functions, replay_buffers
    c = DQN
    env = gym.make('CartPole-v1')
    env.reset(seed=0)
    env.action_space.seed(0)
    q = q_functions.FCStateQFunctionWithDiscreteAction(
        env.observation_space.shape[0], env.action_space.n,
        n_hidden_channels=c['hidden'], n_hidden_layers=2)
    q.to_device(device)
    opt = chainer.optimizers.Adam(alpha=c['lr'])
    opt.setup(q)
    opt.add_hook(chainer.optimizer_hooks.GradientClipping(
        c['max_grad_norm']))
    explorer = explorers.LinearDecayEpsilonGreedy(
        1.0, c['eps_final'], c['eps_steps'], env.action_space.sample)
    cls = agents.DoubleDQN if double else agents.DQN
    agent = cls(q, opt, replay_buffers.ReplayBuffer(c['buffer']),
                gamma=c['gamma'], explorer=explorer,
                replay_start_size=c['start'], minibatch_size=c['batch'],
                update_interval=c['every'], n_times_update=c['n_updates'],
                target_update_interval=c['target_every'], phi=_phi)
    return agent, env, lambda: opt.t


def _chainer_rl_ppo(device):
    import gymnasium as gym
    import chainer_core as chainer
    import chainer_core.functions as F
    from chainer_rl import agents, envs, links, policies
    c = PPO
    env = envs.SerialVectorEnv([gym.make('CartPole-v1')
                                for _ in range(c['n_envs'])])
    env.seed(0)
    obs_size = env.observation_space.shape[0]
    n_actions = env.action_space.n
    model = links.Branched(
        policies.SoftmaxPolicy(links.MLP(obs_size, n_actions,
                                         (c['hidden'],) * 2,
                                         nonlinearity=F.tanh,
                                         last_wscale=0.01)),
        links.MLP(obs_size, 1, (c['hidden'],) * 2, nonlinearity=F.tanh))
    model.to_device(device)
    opt = chainer.optimizers.Adam(alpha=c['lr'], eps=c['adam_eps'])
    opt.setup(model)
    opt.add_hook(chainer.optimizer_hooks.GradientClipping(
        c['max_grad_norm']))
    agent = agents.PPO(model, opt, gamma=c['gamma'], lambd=c['lambd'],
                       phi=_phi, value_func_coef=c['vf_coef'],
                       entropy_coef=0.0,
                       update_interval=c['n_envs'] * c['n_steps'],
                       minibatch_size=c['batch'], epochs=c['epochs'],
                       clip_eps=c['clip'])
    return agent, env, lambda: opt.t


def _chainer_rl_sac(device):
    import gymnasium as gym
    import numpy
    import chainer_core as chainer
    import chainer_core.functions as F
    import chainer_core.links as L
    from chainer_rl import agents, distribution, q_functions
    from chainer_rl import replay_buffers, wrappers
    c = SAC
    env = wrappers.NormalizeActionSpace(gym.make('Pendulum-v1'))
    env.reset(seed=0)
    env.action_space.seed(0)
    obs_size = env.observation_space.shape[0]
    action_size = env.action_space.shape[0]

    class Policy(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(obs_size, c['hidden'])
                self.l2 = L.Linear(c['hidden'], c['hidden'])
                self.l3 = L.Linear(c['hidden'], 2 * action_size)

        def forward(self, x):
            h = F.relu(self.l2(F.relu(self.l1(x))))
            mean, log_std = F.split_axis(self.l3(h), 2, axis=1)
            log_std = F.clip(log_std, -20.0, 2.0)
            return distribution.SquashedGaussianDistribution(
                mean, F.exp(2 * log_std))

    links = [Policy()] + [q_functions.FCSAQFunction(
        obs_size, action_size, c['hidden'], 2) for _ in range(2)]
    opts = []
    for link in links:
        link.to_device(device)
        opt = chainer.optimizers.Adam(alpha=c['lr'])
        opt.setup(link)
        opts.append(opt)
    low, high = env.action_space.low, env.action_space.high
    agent = agents.SoftActorCritic(
        links[0], links[1], links[2], opts[0], opts[1], opts[2],
        replay_buffers.ReplayBuffer(c['buffer']), gamma=c['gamma'],
        replay_start_size=c['start'], minibatch_size=c['batch'],
        update_interval=1, phi=_phi, soft_update_tau=c['tau'],
        burnin_action_func=lambda: numpy.random.uniform(
            low, high).astype(numpy.float32),
        entropy_target=-float(action_size),
        temperature_optimizer=chainer.optimizers.Adam(alpha=c['lr']))
    return agent, env, lambda: opts[1].t


def run_chainer_rl(case, device_spec, warmup, steps, profiler=None):
    import chainer_core as chainer
    from chainer_rl import experiments
    from chainer_rl.misc import set_random_seed
    set_random_seed(0)
    device = chainer.get_device(device_spec)
    device.use()
    if case in ('dqn', 'double_dqn'):
        agent, env, count = _chainer_rl_dqn(device, case == 'double_dqn')
    elif case == 'ppo':
        agent, env, count = _chainer_rl_ppo(device)
    else:
        agent, env, count = _chainer_rl_sac(device)
    window = _Window(warmup, steps, count, profiler)
    with tempfile.TemporaryDirectory() as outdir:
        hook = [lambda env, agent, t: window.at(t)]
        if case == 'ppo':
            experiments.train_agent_batch(agent, env, warmup + steps, outdir,
                                          step_hooks=hook)
        else:
            experiments.train_agent(agent, env, warmup + steps, outdir,
                                    step_hooks=hook)
    return window.result()


def _sb3_double_dqn_class():
    import torch
    import torch.nn.functional as F
    from stable_baselines3 import DQN as SB3DQN

    class DoubleDQN(SB3DQN):
        """DQN whose target takes the online network's greedy action at the
        next state, valued by the target network."""

        def train(self, gradient_steps, batch_size=100):
            self.policy.set_training_mode(True)
            self._update_learning_rate(self.policy.optimizer)
            for _ in range(gradient_steps):
                batch = self.replay_buffer.sample(batch_size)
                with torch.no_grad():
                    best = self.q_net(batch.next_observations).argmax(
                        dim=1, keepdim=True)
                    next_q = torch.gather(
                        self.q_net_target(batch.next_observations), 1, best)
                    target = batch.rewards + self.gamma * (
                        1 - batch.dones) * next_q
                q = torch.gather(self.q_net(batch.observations), 1,
                                 batch.actions.long())
                loss = F.smooth_l1_loss(q, target)
                self.policy.optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.policy.parameters(),
                                               self.max_grad_norm)
                self.policy.optimizer.step()
            self._n_updates += gradient_steps

    return DoubleDQN


def run_sb3(case, warmup, steps):
    import gymnasium as gym
    import torch
    from stable_baselines3 import DQN as SB3DQN
    from stable_baselines3 import PPO as SB3PPO
    from stable_baselines3 import SAC as SB3SAC
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.env_util import make_vec_env
    total = warmup + steps
    if case in ('dqn', 'double_dqn'):
        c = DQN
        cls = _sb3_double_dqn_class() if case == 'double_dqn' else SB3DQN
        model = cls('MlpPolicy', gym.make('CartPole-v1'),
                    learning_rate=c['lr'], buffer_size=c['buffer'],
                    learning_starts=c['start'], batch_size=c['batch'],
                    gamma=c['gamma'], train_freq=c['every'],
                    gradient_steps=c['n_updates'],
                    target_update_interval=c['target_every'],
                    exploration_fraction=c['eps_steps'] / total,
                    exploration_final_eps=c['eps_final'],
                    max_grad_norm=c['max_grad_norm'],
                    policy_kwargs=dict(net_arch=[c['hidden']] * 2),
                    seed=0, device='cpu')
    elif case == 'ppo':
        c = PPO
        model = SB3PPO('MlpPolicy',
                       make_vec_env('CartPole-v1', n_envs=c['n_envs'],
                                    seed=0),
                       learning_rate=c['lr'], n_steps=c['n_steps'],
                       batch_size=c['batch'], n_epochs=c['epochs'],
                       gamma=c['gamma'], gae_lambda=c['lambd'],
                       clip_range=c['clip'], ent_coef=0.0,
                       vf_coef=c['vf_coef'],
                       max_grad_norm=c['max_grad_norm'],
                       policy_kwargs=dict(
                           net_arch=dict(pi=[c['hidden']] * 2,
                                         vf=[c['hidden']] * 2),
                           activation_fn=torch.nn.Tanh,
                           optimizer_kwargs=dict(eps=c['adam_eps'])),
                       seed=0, device='cpu')
    else:
        c = SAC
        model = SB3SAC('MlpPolicy', gym.make('Pendulum-v1'),
                       learning_rate=c['lr'], buffer_size=c['buffer'],
                       learning_starts=c['start'], batch_size=c['batch'],
                       tau=c['tau'], gamma=c['gamma'], train_freq=1,
                       gradient_steps=1, ent_coef='auto',
                       policy_kwargs=dict(net_arch=[c['hidden']] * 2),
                       seed=0, device='cpu')

    window = _Window(warmup, steps, lambda: model._n_updates)

    class Timer(BaseCallback):
        def _on_step(self):
            window.at(self.model.num_timesteps)
            return True

    model.learn(total_timesteps=total, callback=Timer())
    return window.result()


def worker(args):
    import numpy
    if args.flush_denormals:
        # PyTorch's switch sets the FTZ and DAZ bits of this thread's
        # floating-point control register: every library computing in this
        # thread then treats subnormal floats as zero. The chainer-rl side
        # imports PyTorch for nothing else.
        import torch
        if not torch.set_flush_denormal(True):
            raise RuntimeError('--flush-denormals: not supported on this '
                               'CPU')
    if args.framework == 'sb3':
        import stable_baselines3
        import torch
        torch.set_num_threads(args.threads)
        versions = {'stable_baselines3': stable_baselines3.__version__,
                    'torch': torch.__version__}
    else:
        import chainer_core
        versions = {'chainer_core': getattr(chainer_core, '__version__',
                                            '?')}
    versions['numpy'] = numpy.__version__
    for case in args.cases:
        spec = CASES[case]
        warmup = args.warmup if args.warmup is not None else spec['warmup']
        steps = args.steps if args.steps is not None else spec['steps']
        row = {'framework': args.framework, 'device': args.device,
               'case': case, 'threads': args.threads, 'versions': versions}
        try:
            if args.framework == 'sb3':
                row.update(run_sb3(case, warmup, steps))
            elif args.profile:
                row.update(profile_chainer_rl(case, args.device, warmup,
                                              steps, args.profile_top))
            else:
                row.update(run_chainer_rl(case, args.device, warmup, steps))
        except Exception as e:
            row['error'] = '{}: {}'.format(type(e).__name__, e)
        print(json.dumps(row), flush=True)


def profile_chainer_rl(case, device, warmup, steps, top):
    """Run the case with cProfile (process CPU time as its clock) on during
    the timed window only; print the functions with the most own time, in
    microseconds per env step and per gradient step of the window."""
    import cProfile
    import pstats
    profiler = cProfile.Profile(time.process_time)
    result = run_chainer_rl(case, device, warmup, steps, profiler)
    stats = pstats.Stats(profiler)
    n_steps = result['steps']
    n_updates = max(result['gradient_steps'], 1)
    sys.stderr.write(
        'cProfile of {} on {}: the timed window of {} env steps and {} '
        'gradient steps ({:.0f} us CPU per env step with the profiler '
        'on).\nown us/step  cumulative us/step  own us/update  calls  '
        'function\n'.format(case, device, n_steps, n_updates,
                             result['cpu_s'] / n_steps * 1e6))
    def write(rows):
        for (filename, line, name), (cc, nc, tt, ct, _) in rows:
            if filename.startswith('/'):
                filename = os.path.relpath(filename)
            sys.stderr.write(
                '{:>11.1f} {:>19.1f} {:>14.1f} {:>6} {}:{}({})\n'.format(
                    tt / n_steps * 1e6, ct / n_steps * 1e6,
                    tt / n_updates * 1e6, nc, filename, line, name))

    items = list(stats.stats.items())
    write(sorted(items, key=lambda kv: -kv[1][2])[:top])
    sys.stderr.write('by cumulative time:\n')
    write(sorted(items, key=lambda kv: -kv[1][3])[:top])
    return result


# ----------------------------------------------------------------------
# driver


def pinned_env(threads):
    env = dict(os.environ)
    for var in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS',
                'CHAINER_NATIVE_THREADS'):
        env[var] = str(threads)
    return env


def run_worker(framework, device, threads, cases, warmup, steps,
               profile=False, profile_top=25, flush_denormals=False):
    cmd = [sys.executable, os.path.abspath(__file__), '--worker',
           '--framework', framework, '--device', device, '--threads',
           str(threads), '--cases'] + list(cases)
    if flush_denormals:
        cmd.append('--flush-denormals')
    if warmup is not None:
        cmd += ['--warmup', str(warmup)]
    if steps is not None:
        cmd += ['--steps', str(steps)]
    if profile:
        cmd += ['--profile-this', '--profile-top', str(profile_top)]
    proc = subprocess.run(cmd, env=pinned_env(threads), capture_output=True,
                          text=True)
    rows = []
    for line in proc.stdout.splitlines():
        if line.startswith('{'):
            print(line, flush=True)
            rows.append(json.loads(line))
    if profile and proc.stderr:
        sys.stdout.write(proc.stderr)
    elif proc.returncode != 0:
        sys.stderr.write('{} on {} failed:\n{}\n'.format(
            framework, device, proc.stderr[-3000:]))
    return rows


def table(rows, cases):
    columns = []
    for r in rows:
        key = (r['framework'], r['device'])
        if key not in columns:
            columns.append(key)
    by = {(r['framework'], r['device'], r['case']): r for r in rows}
    ref = next((c for c in columns if c[0] == 'sb3'), None)
    names = ['{} {}'.format('SB3' if f == 'sb3' else 'chainer-rl', d)
             for f, d in columns]
    width = max([26] + [len(n) + 2 for n in names])
    lines = ['{:<12}'.format('steps/s') + ''.join(
        '{:>{}}'.format(n, width) for n in names)]
    for case in cases:
        cells = []
        for column in columns:
            r = by.get(column + (case,))
            if r is None:
                text = '-'
            elif 'error' in r:
                text = 'error'
            else:
                text = '{:.0f}'.format(r['steps_per_s'])
                refrow = by.get(ref + (case,)) if ref else None
                if column != ref and refrow and 'error' not in refrow:
                    text += ' ({:.2f}x, cpu {:.2f}x)'.format(
                        refrow['steps_per_s'] / r['steps_per_s'],
                        refrow['cpu_steps_per_s'] / r['cpu_steps_per_s'])
            cells.append('{:>{}}'.format(text, width))
        lines.append('{:<12}'.format(case) + ''.join(cells))
    if ref:
        lines.append('(ratios = time per step / SB3 time per step, wall and '
                     'process CPU; lower is faster)')
    for r in rows:
        if 'error' in r:
            lines.append('error: {} {} {}: {}'.format(
                r['framework'], r['device'], r['case'], r['error']))
    return '\n'.join(lines)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--cases', nargs='+', default=list(CASES),
                        choices=sorted(CASES))
    parser.add_argument('--threads', type=int, default=1)
    parser.add_argument('--devices', nargs='*',
                        default=['@numpy', 'native:0'],
                        help='chainer-core devices')
    parser.add_argument('--warmup', type=int, default=None,
                        help='untimed steps first (default: per case)')
    parser.add_argument('--steps', type=int, default=None,
                        help='timed steps (default: per case)')
    parser.add_argument('--no-sb3', action='store_true')
    parser.add_argument('--profile', metavar='DEVICE',
                        help='only run chainer-rl on DEVICE under cProfile '
                        'and print its top costs')
    parser.add_argument('--profile-top', type=int, default=25)
    parser.add_argument('--flush-denormals', action='store_true',
                        help='diagnostic: both sides treat subnormal floats '
                        'as zero (FTZ/DAZ, set through PyTorch, which must '
                        'be installed); meaningful with --threads 1')
    # Internal: one framework's run in this process.
    parser.add_argument('--worker', action='store_true',
                        help=argparse.SUPPRESS)
    parser.add_argument('--framework', choices=('chainer_rl', 'sb3'),
                        help=argparse.SUPPRESS)
    parser.add_argument('--device', default='native:0',
                        help=argparse.SUPPRESS)
    parser.add_argument('--profile-this', dest='profile_flag',
                        action='store_true', help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.worker:
        args.profile = args.profile_flag
        worker(args)
        return
    if args.profile:
        run_worker('chainer_rl', args.profile, args.threads, args.cases,
                   args.warmup, args.steps, profile=True,
                   profile_top=args.profile_top,
                   flush_denormals=args.flush_denormals)
        return

    print('load average before: {:.2f} {:.2f} {:.2f}{}'.format(
        *os.getloadavg(), '; subnormals flushed to zero'
        if args.flush_denormals else ''), flush=True)
    rows = []
    for device in args.devices:
        rows += run_worker('chainer_rl', device, args.threads, args.cases,
                           args.warmup, args.steps,
                           flush_denormals=args.flush_denormals)
    if not args.no_sb3:
        rows += run_worker('sb3', 'cpu', args.threads, args.cases,
                           args.warmup, args.steps,
                           flush_denormals=args.flush_denormals)
    print('load average after: {:.2f} {:.2f} {:.2f}'.format(
        *os.getloadavg()))
    print()
    print(table(rows, args.cases))


if __name__ == '__main__':
    main()
