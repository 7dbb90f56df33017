"""Training on one environment, optionally with periodic evaluation."""
import logging
import os

from chainer_rl.experiments import _env
from chainer_rl.experiments.evaluator import Evaluator
from chainer_rl.experiments.evaluator import save_agent


def save_agent_replay_buffer(agent, t, outdir, suffix='', logger=None):
    """Save ``agent.replay_buffer`` to ``<outdir>/<t><suffix>.replay.npz``
    (ChainerRL used ``.replay.pkl``; the buffers here never pickle)."""
    logger = logger or logging.getLogger(__name__)
    filename = os.path.join(outdir, '{}{}.replay.npz'.format(t, suffix))
    agent.replay_buffer.save(filename)
    logger.info('Saved the current replay buffer to %s', filename)
    return filename


def ask_and_save_agent_replay_buffer(agent, t, outdir, suffix=''):
    """Ask on the terminal whether to save the agent's replay buffer, and
    save it if the answer is yes."""
    if not hasattr(agent, 'replay_buffer'):
        return None
    while True:
        answer = input('Replay buffer has {} transitions. Do you save them '
                       'to a file? [y/n] '.format(len(agent.replay_buffer)))
        answer = answer.strip().lower()
        if answer in ('y', 'yes'):
            return save_agent_replay_buffer(agent, t, outdir, suffix=suffix)
        if answer in ('n', 'no'):
            return None


def _check_hooks(owner, hooks):
    hooks = tuple(hooks)
    for hook in hooks:
        if not callable(hook):
            raise TypeError('{}: every step hook must be callable (env, '
                            'agent, step), got {!r}'.format(owner, hook))
    return hooks


def _check_loop_args(owner, steps, step_offset, checkpoint_freq,
                     max_episode_len):
    """The step counts both training loops take, checked."""
    return (_env.check_int(owner, 'steps', steps, 0),
            _env.check_int(owner, 'step_offset', step_offset, 0),
            _env.check_int(owner, 'checkpoint_freq', checkpoint_freq, 1,
                           allow_none=True),
            _env.check_int(owner, 'max_episode_len', max_episode_len, 1,
                           allow_none=True))


def _record_evaluation(agent, evaluator, t, episodes, eval_stats_history):
    """Evaluate if it is due; the score of an evaluation is added, with
    the agent's statistics, to ``eval_stats_history``. Returns the score,
    None when no evaluation was due."""
    score = evaluator.evaluate_if_necessary(t=t, episodes=episodes)
    if score is not None:
        stats = dict(agent.get_statistics())
        stats['eval_score'] = score
        eval_stats_history.append(stats)
    return score


def train_agent(agent, env, steps, outdir, checkpoint_freq=None,
                max_episode_len=None, step_offset=0, evaluator=None,
                successful_score=None, step_hooks=(), logger=None):
    """Train ``agent`` on ``env`` for ``steps`` steps (counted from
    ``step_offset``).

    An episode ends when the env terminates (``stop_episode_and_train``
    gets ``done=True``) or is cut short (``truncated``,
    ``info['needs_reset']`` or ``max_episode_len`` steps: ``done=False``).
    After each episode the evaluator, if any, evaluates when due. The agent
    is saved to ``<outdir>/<t>_checkpoint`` every ``checkpoint_freq`` steps,
    ``<outdir>/<t>_except`` when an exception escapes and
    ``<outdir>/<t>_finish`` at the end.

    Returns:
        list of dicts, one per evaluation: the agent's statistics and
        ``eval_score``.
    """
    owner = 'train_agent'
    logger = logger or logging.getLogger(__name__)
    _env.check_single_env(owner, env)
    steps, step_offset, checkpoint_freq, max_episode_len = _check_loop_args(
        owner, steps, step_offset, checkpoint_freq, max_episode_len)
    step_hooks = _check_hooks(owner, step_hooks)
    os.makedirs(outdir, exist_ok=True)

    eval_stats_history = []
    episode_r = 0.0
    episode_idx = 0
    episode_len = 0
    t = step_offset
    if hasattr(agent, 't'):
        agent.t = step_offset
    try:
        obs = _env.reset(env)
        r = 0
        while t < steps:
            action = agent.act_and_train(obs, r)
            obs, r, done, needs_reset, _ = _env.step(env, action)
            t += 1
            episode_r += r
            episode_len += 1
            for hook in step_hooks:
                hook(env, agent, t)
            reset = needs_reset or episode_len == max_episode_len
            if done or reset or t == steps:
                agent.stop_episode_and_train(obs, r, done=done)
                logger.info('outdir:%s step:%s episode:%s R:%s', outdir, t,
                            episode_idx, episode_r)
                logger.info('statistics:%s', agent.get_statistics())
                if evaluator is not None:
                    _record_evaluation(agent, evaluator, t, episode_idx + 1,
                                       eval_stats_history)
                    if successful_score is not None and \
                            evaluator.max_score >= successful_score:
                        break
                if t == steps:
                    break
                episode_r = 0.0
                episode_idx += 1
                episode_len = 0
                obs = _env.reset(env)
                r = 0
            if checkpoint_freq and t % checkpoint_freq == 0:
                save_agent(agent, t, outdir, logger, suffix='_checkpoint')
    except (Exception, KeyboardInterrupt):
        save_agent(agent, t, outdir, logger, suffix='_except')
        raise
    save_agent(agent, t, outdir, logger, suffix='_finish')
    return eval_stats_history


def _train_with_evaluation(loop, agent, env, steps, eval_n_steps,
                           eval_n_episodes, eval_interval, outdir, eval_env,
                           eval_max_episode_len, max_episode_len, step_offset,
                           save_best_so_far_agent, logger, loop_kwargs):
    """``loop`` (a training loop of this package, given ``loop_kwargs``)
    with the Evaluator of the ``*_with_evaluation`` functions: on ``env``
    unless ``eval_env`` is given, with the training episodes' length limit
    unless ``eval_max_episode_len`` is given. Returns ``(agent,
    eval_stats_history)``."""
    os.makedirs(outdir, exist_ok=True)
    if eval_env is None:
        eval_env = env
    if eval_max_episode_len is None:
        eval_max_episode_len = max_episode_len
    evaluator = Evaluator(
        agent=agent, env=eval_env, n_steps=eval_n_steps,
        n_episodes=eval_n_episodes, eval_interval=eval_interval,
        outdir=outdir, max_episode_len=eval_max_episode_len,
        step_offset=step_offset,
        save_best_so_far_agent=save_best_so_far_agent, logger=logger)
    eval_stats_history = loop(
        agent, env, steps, outdir, max_episode_len=max_episode_len,
        step_offset=step_offset, evaluator=evaluator, logger=logger,
        **loop_kwargs)
    return agent, eval_stats_history


def train_agent_with_evaluation(agent, env, steps, eval_n_steps,
                                eval_n_episodes, eval_interval, outdir,
                                checkpoint_freq=None,
                                train_max_episode_len=None, step_offset=0,
                                eval_max_episode_len=None, eval_env=None,
                                successful_score=None, step_hooks=(),
                                save_best_so_far_agent=True, logger=None):
    """Train ``agent`` on ``env`` and evaluate it every ``eval_interval``
    steps (see :func:`train_agent` and :class:`Evaluator`).

    Args:
        agent: agent to train.
        env: training environment.
        steps (int): total training steps.
        eval_n_steps (int or None): steps per evaluation.
        eval_n_episodes (int or None): episodes per evaluation (exactly one
            of the two is given).
        eval_interval (int): steps between evaluations.
        outdir (str): output folder (``scores.txt``, saved agents).
        checkpoint_freq (int or None): steps between checkpoints.
        train_max_episode_len (int or None): training episodes are cut
            after this many steps.
        step_offset (int): step at which training (re)starts.
        eval_max_episode_len (int or None): same for evaluation episodes
            (default: ``train_max_episode_len``).
        eval_env: evaluation environment (default: ``env``).
        successful_score (float or None): stop once an evaluation's mean
            reaches it.
        step_hooks (sequence): callables ``(env, agent, step)`` run after
            every step.
        save_best_so_far_agent (bool): keep the best agent in
            ``<outdir>/best``.
        logger (logging.Logger or None): logger.

    Returns:
        (agent, eval_stats_history)
    """
    return _train_with_evaluation(
        train_agent, agent, env, steps, eval_n_steps, eval_n_episodes,
        eval_interval, outdir, eval_env, eval_max_episode_len,
        train_max_episode_len, step_offset, save_best_so_far_agent,
        logger or logging.getLogger(__name__),
        dict(checkpoint_freq=checkpoint_freq,
             successful_score=successful_score, step_hooks=step_hooks))
