"""Training on a vector environment (one action per env per step)."""
import collections
import logging
import os

import numpy as np

from chainer_rl.experiments import _env
from chainer_rl.experiments.evaluator import save_agent
from chainer_rl.experiments.train_agent import _check_hooks
from chainer_rl.experiments.train_agent import _check_loop_args
from chainer_rl.experiments.train_agent import _record_evaluation
from chainer_rl.experiments.train_agent import _train_with_evaluation


def train_agent_batch(agent, env, steps, outdir, checkpoint_freq=None,
                      log_interval=None, max_episode_len=None,
                      eval_interval=None, step_offset=0, evaluator=None,
                      successful_score=None, step_hooks=(),
                      return_window_size=100, logger=None):
    """Train ``agent`` on the vector env ``env`` for ``steps`` steps.

    Each iteration advances every env by one step, so it counts
    ``env.num_envs`` steps. The agent sees ``batch_act_and_train`` and
    ``batch_observe_and_train`` with ``dones`` (true terminal states) and
    ``resets`` (episodes cut short by truncation, ``needs_reset`` or
    ``max_episode_len``); ended episodes are then reset.

    Args:
        agent: batch agent.
        env: vector env (``chainer_rl.envs.SerialVectorEnv`` or
            ``MultiprocessVectorEnv``).
        steps (int): total steps over all envs.
        outdir (str): output folder.
        checkpoint_freq (int or None): steps between checkpoints.
        log_interval (int or None): steps between progress logs.
        max_episode_len (int or None): training episodes are cut after this
            many steps.
        eval_interval (int or None): unused (the evaluator has its own); kept
            for ChainerRL's signature.
        step_offset (int): step at which training (re)starts.
        evaluator (Evaluator or None): evaluates when due, after each
            iteration. Give it its own env: evaluating on ``env`` would
            reset the training episodes.
        successful_score (float or None): stop once an evaluation's mean
            reaches it.
        step_hooks (sequence): callables ``(env, agent, step)`` run after
            every step.
        return_window_size (int): training episodes averaged in the logs.
        logger (logging.Logger or None): logger.

    Returns:
        list of dicts, one per evaluation: the agent's statistics and
        ``eval_score``.
    """
    owner = 'train_agent_batch'
    logger = logger or logging.getLogger(__name__)
    _env.check_vector_env(owner, env)
    steps, step_offset, checkpoint_freq, max_episode_len = _check_loop_args(
        owner, steps, step_offset, checkpoint_freq, max_episode_len)
    log_interval = _env.check_int(owner, 'log_interval', log_interval, 1,
                                  allow_none=True)
    return_window_size = _env.check_int(owner, 'return_window_size',
                                        return_window_size, 1)
    step_hooks = _check_hooks(owner, step_hooks)
    os.makedirs(outdir, exist_ok=True)

    recent_returns = collections.deque(maxlen=return_window_size)
    num_envs = env.num_envs
    episode_r = np.zeros(num_envs, dtype=np.float64)
    episode_idx = np.zeros(num_envs, dtype=np.int64)
    episode_len = np.zeros(num_envs, dtype=np.int64)
    t = step_offset
    if hasattr(agent, 't'):
        agent.t = step_offset
    eval_stats_history = []
    try:
        obss = env.reset()
        while t < steps:
            actions = agent.batch_act_and_train(obss)
            obss, rs, dones, infos = env.step(actions)
            dones = np.asarray(dones, dtype=bool)
            episode_r += np.asarray(rs, dtype=np.float64)
            episode_len += 1
            resets = np.array([bool(info.get('needs_reset', False))
                               for info in infos], dtype=bool)
            if max_episode_len is not None:
                resets |= episode_len >= max_episode_len
            agent.batch_observe_and_train(obss, rs, dones, resets)
            ends = np.logical_or(resets, dones)
            episode_idx += ends
            recent_returns.extend(episode_r[ends].tolist())

            for _ in range(num_envs):
                t += 1
                if checkpoint_freq and t % checkpoint_freq == 0:
                    save_agent(agent, t, outdir, logger,
                               suffix='_checkpoint')
                for hook in step_hooks:
                    hook(env, agent, t)

            if log_interval is not None and t >= log_interval and \
                    t % log_interval < num_envs:
                logger.info(
                    'outdir:%s step:%s episode:%s last_R:%s average_R:%s',
                    outdir, t, int(episode_idx.sum()),
                    recent_returns[-1] if recent_returns else np.nan,
                    np.mean(recent_returns) if recent_returns else np.nan)
                logger.info('statistics:%s', agent.get_statistics())
            if evaluator is not None:
                score = _record_evaluation(agent, evaluator, t,
                                           int(episode_idx.sum()),
                                           eval_stats_history)
                if score is not None and successful_score is not None and \
                        evaluator.max_score >= successful_score:
                    break
            if t >= steps:
                break
            episode_r[ends] = 0.0
            episode_len[ends] = 0
            obss = env.reset(np.logical_not(ends))
    except (Exception, KeyboardInterrupt):
        save_agent(agent, t, outdir, logger, suffix='_except')
        env.close()
        if evaluator is not None and evaluator.env is not env:
            evaluator.env.close()
        raise
    save_agent(agent, t, outdir, logger, suffix='_finish')
    return eval_stats_history


def train_agent_batch_with_evaluation(agent, env, steps, eval_n_steps,
                                      eval_n_episodes, eval_interval, outdir,
                                      checkpoint_freq=None,
                                      max_episode_len=None, step_offset=0,
                                      eval_max_episode_len=None,
                                      return_window_size=100, eval_env=None,
                                      log_interval=None,
                                      successful_score=None, step_hooks=(),
                                      save_best_so_far_agent=True,
                                      logger=None):
    """Train ``agent`` on the vector env ``env`` and evaluate it every
    ``eval_interval`` steps (see :func:`train_agent_batch`).

    ``eval_env`` (a single or a vector env) defaults to ``env``, as in
    ChainerRL; a separate one keeps evaluations from resetting the training
    episodes.

    Returns:
        (agent, eval_stats_history)
    """
    return _train_with_evaluation(
        train_agent_batch, agent, env, steps, eval_n_steps, eval_n_episodes,
        eval_interval, outdir, eval_env, eval_max_episode_len,
        max_episode_len, step_offset, save_best_so_far_agent,
        logger or logging.getLogger(__name__),
        dict(checkpoint_freq=checkpoint_freq, eval_interval=eval_interval,
             successful_score=successful_score,
             return_window_size=return_window_size,
             log_interval=log_interval, step_hooks=step_hooks))
