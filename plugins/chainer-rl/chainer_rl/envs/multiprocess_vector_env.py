"""A vector env running each environment in its own process."""
import multiprocessing
import signal
import traceback
import warnings

from chainer_rl.envs import vector_env as _ve


def _worker(remote, parent_remote, env_fn):
    # Ctrl-C is handled by the parent, which closes the children.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent_remote is not None:
        parent_remote.close()
    env = None
    pending_seed = None
    try:
        env = env_fn()
    except Exception:
        creation_error = traceback.format_exc()
    else:
        creation_error = None
    while True:
        try:
            command, data = remote.recv()
        except (EOFError, OSError):
            break
        try:
            if command == 'close':
                if env is not None:
                    env.close()
                remote.send(('ok', None))
                break
            if creation_error is not None:
                remote.send(('error', 'creating the env failed:\n'
                             + creation_error))
                continue
            if command == 'step':
                result = _ve._convert_step(env.step(data), 'step', '')
            elif command == 'reset':
                kwargs = {} if pending_seed is None else {'seed': pending_seed}
                pending_seed = None
                result = _ve._convert_reset(env.reset(**kwargs))
            elif command == 'seed':
                _ve._seed_spaces(env, data)
                pending_seed = data
                result = data
            elif command == 'spaces':
                result = (env.action_space, env.observation_space)
            else:
                raise ValueError('unknown command {!r}'.format(command))
            remote.send(('ok', result))
        except Exception:
            remote.send(('error', traceback.format_exc()))
    remote.close()


def _context():
    if 'fork' in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context('fork')
    return multiprocessing.get_context()


class MultiprocessVectorEnv(_ve.VectorEnv):
    """Vector env whose envs each live in a child process, talking over pipes
    (ChainerRL's ``MultiprocessVectorEnv(env_fns)``).

    Args:
        env_fns (list of callables): each makes one env in its process.
            Processes are forked where the platform allows it, so lambdas
            work; elsewhere the callables must be picklable.

    An exception in a child is raised in the parent as a RuntimeError naming
    the env's index and carrying the child's traceback. See
    :mod:`chainer_rl.envs.vector_env` for the meaning of ``dones`` and
    ``infos[i]['needs_reset']``.
    """

    def __init__(self, env_fns):
        env_fns = list(env_fns)
        if not env_fns:
            raise ValueError('MultiprocessVectorEnv: env_fns is empty; '
                             'expected at least one callable')
        for i, fn in enumerate(env_fns):
            if not callable(fn):
                raise TypeError('MultiprocessVectorEnv: env_fns[{}] must be '
                                'callable, got {}'.format(
                                    i, type(fn).__name__))
        self.closed = True  # until the processes exist
        self.num_envs = len(env_fns)
        ctx = _context()
        pipes = [ctx.Pipe() for _ in env_fns]
        self.remotes = [parent for parent, _ in pipes]
        self.processes = []
        forked = ctx.get_start_method() == 'fork'
        for (parent, child), fn in zip(pipes, env_fns):
            p = ctx.Process(target=_worker,
                            args=(child, parent if forked else None, fn),
                            daemon=True)
            p.start()
            child.close()
            self.processes.append(p)
        self.closed = False
        self.last_obs = [None] * self.num_envs
        try:
            # Asking every env surfaces a failed creation right away.
            for i in range(self.num_envs):
                self._send(i, 'spaces', None)
            spaces = self._gather(range(self.num_envs), 'spaces')
            self.action_space, self.observation_space = spaces[0]
        except Exception:
            self.close()
            raise

    def _send(self, i, command, data):
        try:
            self.remotes[i].send((command, data))
        except (BrokenPipeError, OSError) as e:
            raise RuntimeError('MultiprocessVectorEnv: env {} process is gone'
                               ' ({}; exit code {})'.format(
                                   i, e, self.processes[i].exitcode))

    def _receive(self, i, command):
        try:
            status, value = self.remotes[i].recv()
        except (EOFError, OSError):
            raise RuntimeError('MultiprocessVectorEnv: env {} process died '
                               'during {!r} (exit code {})'.format(
                                   i, command, self.processes[i].exitcode))
        if status == 'error':
            raise RuntimeError('MultiprocessVectorEnv: env {} raised an error '
                               'during {!r}:\n{}'.format(i, command, value))
        return value

    def _call(self, i, command, data):
        self._send(i, command, data)
        return self._receive(i, command)

    def _gather(self, indices, command):
        # Receive every answer before raising, so no reply is left in a pipe
        # to be mistaken for the answer to a later command.
        results, first_error = {}, None
        for i in indices:
            try:
                results[i] = self._receive(i, command)
            except RuntimeError as e:
                if first_error is None:
                    first_error = e
        if first_error is not None:
            raise first_error
        return results

    def _check_open(self, where):
        if self.closed:
            raise RuntimeError('MultiprocessVectorEnv.{}: the env is closed'
                               .format(where))

    def step(self, actions):
        """Step each env with its action (in parallel)."""
        self._check_open('step')
        _ve._check_actions(actions, self.num_envs,
                           'MultiprocessVectorEnv.step')
        for i, action in enumerate(actions):
            self._send(i, 'step', action)
        results = self._gather(range(self.num_envs), 'step')
        obs, rewards, dones, infos = zip(*(results[i]
                                           for i in range(self.num_envs)))
        self.last_obs = list(obs)
        return obs, rewards, dones, infos

    def reset(self, mask=None, return_info=False):
        """Reset the envs whose ``mask`` entry is False (all when None)."""
        self._check_open('reset')
        mask = _ve._check_mask(mask, self.num_envs,
                               'MultiprocessVectorEnv.reset')
        indices = [i for i, skip in enumerate(mask) if not skip]
        for i in indices:
            self._send(i, 'reset', None)
        results = self._gather(indices, 'reset')
        infos = [{} for _ in range(self.num_envs)]
        for i in indices:
            self.last_obs[i], infos[i] = results[i]
        obs = list(self.last_obs)
        return (obs, infos) if return_info else obs

    def seed(self, seeds=None):
        """Seed each env's spaces now and its next reset."""
        self._check_open('seed')
        seeds = _ve._check_seeds(seeds, self.num_envs,
                                 'MultiprocessVectorEnv.seed')
        for i, s in enumerate(seeds):
            self._send(i, 'seed', s)
        self._gather(range(self.num_envs), 'seed')
        return seeds

    def close(self):
        """Close the envs and end the processes (calling it again does
        nothing)."""
        if self.closed:
            return
        self.closed = True
        for remote in self.remotes:
            try:
                remote.send(('close', None))
            except (BrokenPipeError, OSError):
                pass
        for remote in self.remotes:
            try:
                if remote.poll(5):
                    remote.recv()
            except (EOFError, OSError):
                pass
        for i, p in enumerate(self.processes):
            p.join(5)
            if p.is_alive():
                warnings.warn('MultiprocessVectorEnv.close: env {} process did'
                              ' not exit; terminating it'.format(i))
                p.terminate()
                p.join(1)
        for remote in self.remotes:
            remote.close()

    def __del__(self):
        if not getattr(self, 'closed', True):
            try:
                self.close()
            except Exception:
                pass
