"""Recording an agent's behaviour as demonstrations (for imitation or
demonstration-aided learning)."""
import logging
import os

from chainer_rl.experiments import _env
from chainer_rl.replay_buffers import _storage


_OWNER = 'collect_demonstrations'


def _storable_info(info):
    # Keep the info entries that can be written without pickle.
    return {key: value for key, value in info.items()
            if isinstance(key, str) and _storage.is_storable(value)}


def collect_demonstrations(agent, env, steps, episodes, outdir,
                           max_episode_len=None, logger=None):
    """Run ``agent.act`` on ``env`` and write every transition to
    ``<outdir>/demos.npz``.

    Each transition stores ``obs``, ``action``, ``reward``, ``new_obs``,
    ``done`` (terminated), ``reset`` (the episode ended without
    terminating) and ``info`` (its entries that are arrays, numbers or
    strings). Read them back with :func:`load_demonstrations`. (ChainerRL
    wrote a pickle file, ``demos.pickle``; nothing is pickled here.)

    Args:
        agent: agent whose greedy actions are recorded.
        env: environment.
        steps (int or None): number of steps to record.
        episodes (int or None): number of episodes to record (exactly one
            of the two is given).
        outdir (str): output folder.
        max_episode_len (int or None): episodes are cut after this many
            steps.
        logger (logging.Logger or None): logger.

    Returns:
        str: path of the written file.
    """
    _env.check_n_steps_episodes(_OWNER, steps, episodes)
    _env.check_single_env(_OWNER, env)
    max_episode_len = _env.check_int(_OWNER, 'max_episode_len',
                                     max_episode_len, 1, allow_none=True)
    logger = logger or logging.getLogger(__name__)
    os.makedirs(outdir, exist_ok=True)
    transitions = []
    timestep = 0
    episode_num = 0
    need_reset = True
    while True:
        if need_reset:
            obs = _env.reset(env)
            episode_r = 0.0
            episode_len = 0
        action = agent.act(obs)
        new_obs, r, done, needs_reset, info = _env.step(env, action)
        timestep += 1
        episode_len += 1
        episode_r += float(r)
        need_reset = done or needs_reset or episode_len == max_episode_len
        transitions.append({'obs': obs, 'action': action, 'reward': r,
                            'new_obs': new_obs, 'done': bool(done),
                            'reset': bool(need_reset and not done),
                            'info': _storable_info(info)})
        obs = new_obs
        if need_reset:
            episode_num += 1
        finished = (episode_num >= episodes if steps is None
                    else timestep >= steps)
        if need_reset or finished:
            agent.stop_episode()
            logger.info('demonstration episode %s length:%s R:%s',
                        episode_num - 1 if need_reset else episode_num,
                        episode_len, episode_r)
        if finished:
            break
    path = os.path.join(outdir, 'demos.npz')
    _storage.save_sequences(path, _OWNER, [transitions],
                            {'class': 'demonstrations'})
    return path


def load_demonstrations(filename):
    """Read transitions written by :func:`collect_demonstrations`.

    Returns:
        list of dicts with the keys ``obs``, ``action``, ``reward``,
        ``new_obs``, ``done``, ``reset`` and ``info``.
    """
    sequences, meta, _ = _storage.load_sequences(filename,
                                                 'load_demonstrations')
    if not isinstance(meta, dict) or meta.get('class') != 'demonstrations' \
            or len(sequences) != 1:
        raise ValueError('load_demonstrations: {!r} does not hold '
                         'demonstrations'.format(filename))
    return sequences[0]
