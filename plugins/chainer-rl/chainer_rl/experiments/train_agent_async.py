"""Asynchronous training (A3C-style): several processes, each with its own
env and agent copy, update parameters held in shared memory."""
import cProfile
import logging
import multiprocessing as mp
import os

from chainer_rl.experiments import _env
from chainer_rl.experiments.evaluator import AsyncEvaluator


def _async():
    # Imported when used: chainer_rl.misc provides the process helpers.
    from chainer_rl.misc import async_
    return async_


def train_loop(process_idx, env, agent, steps, outdir, counter,
               episodes_counter, training_done, max_episode_len=None,
               evaluator=None, eval_env=None, successful_score=None,
               logger=None, global_step_hooks=()):
    """The loop each process runs: steps count globally in ``counter``;
    training stops at ``steps`` global steps or when ``training_done`` is
    set (by a successful evaluation)."""
    logger = logger or logging.getLogger(__name__)
    if eval_env is None:
        eval_env = env
    global_t = 0
    local_t = 0
    global_episodes = 0
    successful = False
    try:
        episode_r = 0.0
        episode_len = 0
        obs = _env.reset(env)
        r = 0
        while True:
            action = agent.act_and_train(obs, r)
            obs, r, done, needs_reset, _ = _env.step(env, action)
            local_t += 1
            episode_r += r
            episode_len += 1
            with counter.get_lock():
                counter.value += 1
                global_t = counter.value
            for hook in global_step_hooks:
                hook(env, agent, global_t)
            reset = needs_reset or episode_len == max_episode_len
            if done or reset or global_t >= steps or training_done.value:
                agent.stop_episode_and_train(obs, r, done)
                if process_idx == 0:
                    logger.info('outdir:%s global_step:%s local_step:%s R:%s',
                                outdir, global_t, local_t, episode_r)
                    logger.info('statistics:%s', agent.get_statistics())
                if evaluator is not None:
                    score = evaluator.evaluate_if_necessary(
                        t=global_t, episodes=global_episodes, env=eval_env,
                        agent=agent)
                    if score is not None and successful_score is not None \
                            and score >= successful_score:
                        with training_done.get_lock():
                            if not training_done.value:
                                training_done.value = True
                                successful = True
                        break
                with episodes_counter.get_lock():
                    episodes_counter.value += 1
                    global_episodes = episodes_counter.value
                if global_t >= steps or training_done.value:
                    break
                episode_r = 0.0
                episode_len = 0
                obs = _env.reset(env)
                r = 0
    except (Exception, KeyboardInterrupt):
        if process_idx == 0:
            dirname = os.path.join(outdir, '{}_except'.format(global_t))
            agent.save(dirname)
            logger.warning('Saved the current agent to %s', dirname)
        raise
    if global_t == steps:
        dirname = os.path.join(outdir, '{}_finish'.format(steps))
        agent.save(dirname)
        logger.info('Saved the final agent to %s', dirname)
    if successful:
        dirname = os.path.join(outdir, 'successful')
        agent.save(dirname)
        logger.info('Saved the successful agent to %s', dirname)


def extract_shared_objects_from_agent(agent):
    """Move the agent's ``shared_attributes`` into shared memory; return
    what :func:`set_shared_objects` needs."""
    async_ = _async()
    return dict((attr, async_.as_shared_objects(getattr(agent, attr)))
                for attr in getattr(agent, 'shared_attributes', ()))


def set_shared_objects(agent, shared_objects):
    """Point ``agent``'s shared attributes at ``shared_objects``."""
    async_ = _async()
    for attr, shared in shared_objects.items():
        setattr(agent, attr, async_.synchronize_to_shared_objects(
            getattr(agent, attr), shared))


def train_agent_async(outdir, processes, make_env, profile=False,
                      steps=8 * 10 ** 7, eval_interval=10 ** 6,
                      eval_n_steps=None, eval_n_episodes=10,
                      max_episode_len=None, step_offset=0,
                      successful_score=None, agent=None, make_agent=None,
                      global_step_hooks=(), save_best_so_far_agent=True,
                      logger=None):
    """Train an agent with ``processes`` processes sharing its parameters.

    Give either ``agent`` (copied into every process by fork; its
    ``shared_attributes`` are placed in shared memory first) or
    ``make_agent(process_idx)`` (each process builds its agent, whose shared
    attributes are then pointed at those of process 0's agent).

    Args:
        outdir (str): output folder.
        processes (int): number of processes.
        make_env (callable): ``make_env(process_idx, test) -> env``.
        profile (bool): write ``<outdir>/profile-<pid>.out`` (cProfile) per
            process.
        steps (int): total steps over all processes.
        eval_interval (int or None): steps between evaluations (None: no
            evaluation).
        eval_n_steps (int or None): steps per evaluation.
        eval_n_episodes (int or None): episodes per evaluation (exactly one
            of the two is given).
        max_episode_len (int or None): episodes are cut after this many
            steps.
        step_offset (int): step at which training (re)starts.
        successful_score (float or None): stop once an evaluation's mean
            reaches it (the agent is saved to ``<outdir>/successful``).
        agent: agent to train.
        make_agent (callable or None): ``make_agent(process_idx) -> agent``.
        global_step_hooks (sequence): callables ``(env, agent, step)`` run
            after every global step, in the process that took it.
        save_best_so_far_agent (bool): keep the best agent in
            ``<outdir>/best``.
        logger (logging.Logger or None): logger.

    Returns:
        The agent of this process (sharing the trained parameters).

    Raises:
        RuntimeError: a training process failed (its traceback is printed
            by that process).
    """
    owner = 'train_agent_async'
    logger = logger or logging.getLogger(__name__)
    processes = _env.check_int(owner, 'processes', processes, 1)
    steps = _env.check_int(owner, 'steps', steps, 0)
    eval_interval = _env.check_int(owner, 'eval_interval', eval_interval, 1,
                                   allow_none=True)
    if not callable(make_env):
        raise TypeError('{}: make_env must be callable (process_idx, test),'
                        ' got {!r}'.format(owner, make_env))
    if agent is None and make_agent is None:
        raise ValueError('{}: give agent or make_agent'.format(owner))
    if make_agent is not None and not callable(make_agent):
        raise TypeError('{}: make_agent must be callable (process_idx), got '
                        '{!r}'.format(owner, make_agent))
    for hook in global_step_hooks:
        if not callable(hook):
            raise TypeError('{}: every global step hook must be callable '
                            '(env, agent, step), got {!r}'.format(owner,
                                                                  hook))
    os.makedirs(outdir, exist_ok=True)
    # One thread per process: the processes already use every core.
    os.environ['OMP_NUM_THREADS'] = '1'

    counter = mp.Value('l', step_offset)
    episodes_counter = mp.Value('l', 0)
    training_done = mp.Value('b', False)

    if agent is None:
        agent = make_agent(0)
    shared_objects = extract_shared_objects_from_agent(agent)
    set_shared_objects(agent, shared_objects)

    if eval_interval is None:
        evaluator = None
    else:
        evaluator = AsyncEvaluator(
            n_steps=eval_n_steps, n_episodes=eval_n_episodes,
            eval_interval=eval_interval, outdir=outdir,
            max_episode_len=max_episode_len, step_offset=step_offset,
            save_best_so_far_agent=save_best_so_far_agent, logger=logger)

    def run_func(process_idx):
        env = make_env(process_idx, test=False)
        eval_env = env if evaluator is None else make_env(process_idx,
                                                          test=True)
        if make_agent is not None:
            local_agent = make_agent(process_idx)
            set_shared_objects(local_agent, shared_objects)
        else:
            local_agent = agent
        local_agent.process_idx = process_idx

        def run():
            train_loop(process_idx=process_idx, env=env, agent=local_agent,
                       steps=steps, outdir=outdir, counter=counter,
                       episodes_counter=episodes_counter,
                       training_done=training_done,
                       max_episode_len=max_episode_len, evaluator=evaluator,
                       eval_env=eval_env, successful_score=successful_score,
                       logger=logger, global_step_hooks=global_step_hooks)

        try:
            if profile:
                cProfile.runctx('run()', globals(), {'run': run},
                                os.path.join(outdir, 'profile-{}.out'.format(
                                    os.getpid())))
            else:
                run()
        finally:
            env.close()
            if eval_env is not env:
                eval_env.close()

    codes = _async().run_async(processes, run_func)
    failed = [i for i, code in enumerate(codes or []) if code != 0]
    if failed:
        raise RuntimeError('{}: training process(es) {} failed (exit codes '
                           '{})'.format(owner, failed,
                                        [codes[i] for i in failed]))
    return agent
