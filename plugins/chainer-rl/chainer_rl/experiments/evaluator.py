"""Evaluation runs and the scores file (``<outdir>/scores.txt``).

``scores.txt`` is tab-separated: a header line with the columns ``steps
episodes elapsed mean median stdev max min`` followed by the names of the
agent's statistics, then one line per evaluation.
"""
import logging
import multiprocessing as mp
import os
import statistics
import time

import numpy as np

from chainer_rl.experiments import _env


_basic_columns = ('steps', 'episodes', 'elapsed', 'mean', 'median',
                  'stdev', 'max', 'min')

_LOWEST = float(np.finfo(np.float32).min)


def run_evaluation_episodes(env, agent, n_steps, n_episodes,
                            max_episode_len=None, logger=None):
    """Run greedy episodes (``agent.act``) on one env; return their returns.

    With ``n_episodes``, that many episodes are run. With ``n_steps``, episodes
    are run until ``n_steps`` steps are taken in all; the episode cut off by
    the budget is not counted, unless no episode finished at all.

    Args:
        env: environment.
        agent: agent (``act`` and ``stop_episode`` are used).
        n_steps (int or None): step budget.
        n_episodes (int or None): episode count (exactly one is given).
        max_episode_len (int or None): episodes are cut after this many
            steps.
        logger (logging.Logger or None): where each return is logged.

    Returns:
        list of float returns.
    """
    owner = 'run_evaluation_episodes'
    _env.check_n_steps_episodes(owner, n_steps, n_episodes)
    _env.check_single_env(owner, env)
    logger = logger or logging.getLogger(__name__)
    scores = []
    timestep = 0
    episode_r = 0.0
    episode_len = 0
    in_episode = False
    while True:
        if not in_episode:
            obs = _env.reset(env)
            episode_r = 0.0
            episode_len = 0
            in_episode = True
        action = agent.act(obs)
        obs, r, done, needs_reset, _ = _env.step(env, action)
        episode_r += float(r)
        episode_len += 1
        timestep += 1
        if done or needs_reset or episode_len == max_episode_len:
            agent.stop_episode()
            in_episode = False
            scores.append(episode_r)
            logger.info('evaluation episode %s length:%s R:%s',
                        len(scores) - 1, episode_len, episode_r)
        if n_episodes is not None and len(scores) >= n_episodes:
            break
        if n_steps is not None and timestep >= n_steps:
            break
    if in_episode:
        agent.stop_episode()
        if not scores:
            scores.append(episode_r)
            logger.info('evaluation episode 0 length:%s R:%s (cut at the '
                        'step budget)', episode_len, episode_r)
    return scores


def batch_run_evaluation_episodes(env, agent, n_steps, n_episodes,
                                  max_episode_len=None, logger=None):
    """Run greedy episodes (``agent.batch_act``) on a vector env.

    Episodes are numbered in the order they start. With ``n_episodes``, the
    first ``n_episodes`` started episodes count (not the first to finish,
    which would favour short episodes). With ``n_steps``, started episodes
    count in order while their lengths add up to at most ``n_steps``; if
    even the first does not fit, its partial return counts.

    Returns:
        list of float returns, in starting order.
    """
    owner = 'batch_run_evaluation_episodes'
    _env.check_n_steps_episodes(owner, n_steps, n_episodes)
    _env.check_vector_env(owner, env)
    logger = logger or logging.getLogger(__name__)
    num_envs = env.num_envs
    # episode id running in each env, and results of finished episodes
    running = list(range(num_envs))
    next_id = num_envs
    finished = {}
    episode_r = np.zeros(num_envs, dtype=np.float64)
    episode_len = np.zeros(num_envs, dtype=np.int64)
    obss = env.reset()
    while True:
        actions = agent.batch_act(obss)
        obss, rs, dones, infos = env.step(actions)
        episode_r += np.asarray(rs, dtype=np.float64)
        episode_len += 1
        resets = np.array([bool(info.get('needs_reset', False))
                           for info in infos])
        if max_episode_len is not None:
            resets |= episode_len >= max_episode_len
        ends = np.logical_or(resets, np.asarray(dones, dtype=bool))
        for i in np.flatnonzero(ends):
            finished[running[i]] = (float(episode_r[i]), int(episode_len[i]))
            running[i] = next_id
            next_id += 1
        episode_r[ends] = 0.0
        episode_len[ends] = 0
        # the started episodes finished so far without a gap
        prefix = 0
        while prefix in finished:
            prefix += 1
        selected = None
        if n_episodes is not None:
            if prefix >= n_episodes:
                selected = [finished[k] for k in range(n_episodes)]
        else:
            total = 0
            chosen = []
            for k in range(prefix):
                total += finished[k][1]
                if total > n_steps:
                    break
                chosen.append(finished[k])
            if total >= n_steps:
                selected = chosen or [finished[0]]
            else:
                # the first unfinished episode would exceed the budget
                i = running.index(prefix)
                if total + episode_len[i] >= n_steps:
                    selected = chosen or [(float(episode_r[i]),
                                           int(episode_len[i]))]
        if selected is not None:
            # the agent must forget every env's episode in progress
            agent.batch_observe(obss, rs, dones, [True] * num_envs)
            break
        agent.batch_observe(obss, rs, dones, resets)
        obss = env.reset(np.logical_not(ends))
    for k, (ret, length) in enumerate(selected):
        logger.info('evaluation episode %s length:%s R:%s', k, length, ret)
    return [ret for ret, _ in selected]


def eval_performance(env, agent, n_steps, n_episodes, max_episode_len=None,
                     logger=None):
    """Evaluate ``agent`` on ``env`` (a single or a vector env).

    Returns:
        dict with ``episodes`` (number of returns), ``mean``, ``median``,
        ``stdev`` (0 for a single episode), ``max`` and ``min``.
    """
    if _env.is_vector_env(env):
        scores = batch_run_evaluation_episodes(
            env, agent, n_steps, n_episodes,
            max_episode_len=max_episode_len, logger=logger)
    else:
        scores = run_evaluation_episodes(
            env, agent, n_steps, n_episodes,
            max_episode_len=max_episode_len, logger=logger)
    return dict(episodes=len(scores),
                mean=statistics.mean(scores),
                median=statistics.median(scores),
                stdev=statistics.stdev(scores) if len(scores) >= 2 else 0.0,
                max=float(np.max(scores)),
                min=float(np.min(scores)))


def write_header(outdir, agent):
    """Start ``<outdir>/scores.txt`` with the column names."""
    columns = _basic_columns + tuple(str(name) for name, _
                                     in agent.get_statistics())
    with open(os.path.join(outdir, 'scores.txt'), 'w') as f:
        print('\t'.join(columns), file=f)


def record_stats(outdir, values):
    """Append one tab-separated line to ``<outdir>/scores.txt``."""
    with open(os.path.join(outdir, 'scores.txt'), 'a+') as f:
        print('\t'.join(str(x) for x in values), file=f)


def save_agent(agent, t, outdir, logger, suffix=''):
    """Save ``agent`` to ``<outdir>/<t><suffix>``."""
    dirname = os.path.join(outdir, '{}{}'.format(t, suffix))
    agent.save(dirname)
    logger.info('Saved the agent to %s', dirname)


def _stats_line(t, episodes, elapsed, eval_stats, agent):
    custom = tuple(value for _, value in agent.get_statistics())
    return (t, episodes, elapsed, eval_stats['mean'], eval_stats['median'],
            eval_stats['stdev'], eval_stats['max'], eval_stats['min']) + custom


def _init_schedule(evaluator, owner, n_steps, n_episodes, eval_interval,
                   outdir, max_episode_len, step_offset,
                   save_best_so_far_agent, logger):
    """Check and keep the arguments the evaluators share."""
    _env.check_n_steps_episodes(owner, n_steps, n_episodes)
    evaluator.eval_interval = _env.check_int(owner, 'eval_interval',
                                             eval_interval, 1)
    evaluator.step_offset = _env.check_int(owner, 'step_offset',
                                           step_offset, 0)
    evaluator.max_episode_len = _env.check_int(
        owner, 'max_episode_len', max_episode_len, 1, allow_none=True)
    evaluator.n_steps = n_steps
    evaluator.n_episodes = n_episodes
    evaluator.outdir = outdir
    evaluator.save_best_so_far_agent = save_best_so_far_agent
    evaluator.logger = logger or logging.getLogger(__name__)


class Evaluator(object):
    """Evaluate an agent every ``eval_interval`` steps, record the scores
    and keep the best agent in ``<outdir>/best``.

    Args:
        agent: agent to evaluate.
        env: evaluation env (single or vector).
        n_steps (int or None): step budget of an evaluation.
        n_episodes (int or None): episodes of an evaluation (exactly one
            of the two is given).
        eval_interval (int): steps between evaluations.
        outdir (str): folder of ``scores.txt`` and ``best``.
        max_episode_len (int or None): evaluation episodes are cut after
            this many steps.
        step_offset (int): step at which training (re)starts.
        save_best_so_far_agent (bool): save the agent when its mean score
            beats every earlier one.
        logger (logging.Logger or None): logger.
    """

    def __init__(self, agent, env, n_steps, n_episodes, eval_interval,
                 outdir, max_episode_len=None, step_offset=0,
                 save_best_so_far_agent=True, logger=None):
        owner = 'Evaluator'
        _init_schedule(self, owner, n_steps, n_episodes, eval_interval,
                       outdir, max_episode_len, step_offset,
                       save_best_so_far_agent, logger)
        self.agent = agent
        self.env = env
        self.max_score = _LOWEST
        self.start_time = time.time()
        self.prev_eval_t = (self.step_offset
                            - self.step_offset % self.eval_interval)
        os.makedirs(outdir, exist_ok=True)
        write_header(self.outdir, self.agent)

    def evaluate_and_update_max_score(self, t, episodes):
        """Evaluate now, record a line of ``scores.txt`` and save the agent
        if it is the best so far; return the mean score."""
        eval_stats = eval_performance(
            self.env, self.agent, self.n_steps, self.n_episodes,
            max_episode_len=self.max_episode_len, logger=self.logger)
        elapsed = time.time() - self.start_time
        record_stats(self.outdir, _stats_line(t, episodes, elapsed,
                                              eval_stats, self.agent))
        mean = eval_stats['mean']
        if mean > self.max_score:
            self.logger.info('The best score is updated %s -> %s',
                             self.max_score, mean)
            self.max_score = mean
            if self.save_best_so_far_agent:
                save_agent(self.agent, 'best', self.outdir, self.logger)
        return mean

    def evaluate_if_necessary(self, t, episodes):
        """Evaluate if an interval boundary was passed since the last one;
        return the mean score, or None when no evaluation was due."""
        if t >= self.prev_eval_t + self.eval_interval:
            score = self.evaluate_and_update_max_score(t, episodes)
            self.prev_eval_t = t - t % self.eval_interval
            return score
        return None


class AsyncEvaluator(object):
    """Evaluator shared by the processes of asynchronous training: the
    process whose step passes an interval boundary evaluates its own agent
    copy on its own env; the schedule and the best score live in shared
    memory (create it before the processes start).

    Args: as :class:`Evaluator`, without ``agent`` and ``env``.
    """

    def __init__(self, n_steps, n_episodes, eval_interval, outdir,
                 max_episode_len=None, step_offset=0,
                 save_best_so_far_agent=True, logger=None):
        owner = 'AsyncEvaluator'
        _init_schedule(self, owner, n_steps, n_episodes, eval_interval,
                       outdir, max_episode_len, step_offset,
                       save_best_so_far_agent, logger)
        self.start_time = time.time()
        self.prev_eval_t = mp.Value(
            'l', self.step_offset - self.step_offset % self.eval_interval)
        self._max_score = mp.Value('d', _LOWEST)
        self.wrote_header = mp.Value('b', False)
        os.makedirs(outdir, exist_ok=True)
        with open(os.path.join(self.outdir, 'scores.txt'), 'a'):
            pass

    @property
    def max_score(self):
        """Best mean score so far (over all processes)."""
        with self._max_score.get_lock():
            return self._max_score.value

    def evaluate_and_update_max_score(self, t, episodes, env, agent):
        """Evaluate ``agent`` on ``env`` now; return the mean score."""
        eval_stats = eval_performance(
            env, agent, self.n_steps, self.n_episodes,
            max_episode_len=self.max_episode_len, logger=self.logger)
        elapsed = time.time() - self.start_time
        record_stats(self.outdir, _stats_line(t, episodes, elapsed,
                                              eval_stats, agent))
        mean = eval_stats['mean']
        with self._max_score.get_lock():
            if mean > self._max_score.value:
                self.logger.info('The best score is updated %s -> %s',
                                 self._max_score.value, mean)
                self._max_score.value = mean
                if self.save_best_so_far_agent:
                    save_agent(agent, 'best', self.outdir, self.logger)
        return mean

    def write_header(self, agent):
        """Start ``scores.txt`` with the columns of ``agent``."""
        write_header(self.outdir, agent)

    def evaluate_if_necessary(self, t, episodes, env, agent):
        """Evaluate if this step passed the next interval boundary (only
        one process does); return the mean score or None."""
        with self.prev_eval_t.get_lock():
            necessary = t >= self.prev_eval_t.value + self.eval_interval
            if necessary:
                self.prev_eval_t.value += self.eval_interval
        if not necessary:
            return None
        with self.wrote_header.get_lock():
            if not self.wrote_header.value:
                self.write_header(agent)
                self.wrote_header.value = True
        return self.evaluate_and_update_max_score(t, episodes, env, agent)
