"""Episode statistics and videos in gym's monitor file format."""
import atexit
import importlib
import json
import os
import re
import tempfile
import threading
import time
import warnings
import weakref

import gymnasium

from chainer_rl.wrappers._checks import check_env

_PREFIX = 'openaigym.'
_INDEXED_NAME = re.compile(
    r'^openaigym\.(?:manifest|episode_batch|video)\.(\d+)\.')
_MODE_TYPES = {'training': 't', 'evaluation': 'e'}

# Monitors of one process that share a directory must not share a file
# index, and none of them has written anything before its first flush, so
# the indices handed out are remembered here as well as read from disk.
_claimed_indices = {}
_claim_lock = threading.Lock()

# gym's monitor wrote its files at interpreter exit when close() was never
# called; training scripts ported from ChainerRL rely on that.
_open_monitors = weakref.WeakSet()


@atexit.register
def _close_open_monitors():
    for monitor in list(_open_monitors):
        # One env failing to close must not cost the others their files.
        try:
            monitor.close()
        except Exception as e:
            warnings.warn('Monitor: closing at exit failed for {}: {!r}'
                          .format(monitor.directory, e))


def _cubic_schedule(episode_id):
    # gym's default: the cubes 0, 1, 8, 27, ... below 1000, then every
    # 1000th episode.
    if episode_id < 1000:
        root = int(round(episode_id ** (1.0 / 3.0)))
        return root ** 3 == episode_id
    return episode_id % 1000 == 0


def _monitor_files(directory):
    return sorted(name for name in os.listdir(directory)
                  if name.startswith(_PREFIX)
                  and os.path.isfile(os.path.join(directory, name)))


def _claim_index(directory, names):
    key = os.path.realpath(directory)
    with _claim_lock:
        taken = _claimed_indices.setdefault(key, set())
        on_disk = {int(m.group(1)) for m in map(_INDEXED_NAME.match, names)
                   if m}
        index = max(taken | on_disk, default=-1) + 1
        taken.add(index)
    return index


def _moviepy_available():
    try:
        importlib.import_module('moviepy')
    except ImportError:
        return False
    return True


def _write_json(path, obj):
    # Readers may poll the directory while training runs (write_upon_reset),
    # so a file is replaced whole rather than rewritten in place.
    directory, name = os.path.split(path)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix='.' + name,
                               suffix='.tmp')
    try:
        with os.fdopen(fd, 'w') as f:
            json.dump(obj, f)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def _check_bool(name, value):
    if not isinstance(value, bool):
        raise TypeError('Monitor: {} must be a bool, got {!r}'.format(
            name, value))


class Monitor(gymnasium.Wrapper):
    """Record episode statistics (and videos) the way gym's monitor did,
    in its file format, so tools reading gym monitor directories keep
    working.

    On ``close()`` (and after every reset with ``write_upon_reset``) the
    directory gets ``openaigym.episode_batch.<index>.<uid>.stats.json``
    (``initial_reset_timestamp``, then per finished episode its end time in
    ``timestamps``, ``episode_lengths``, ``episode_rewards`` and
    ``episode_types``: ``'t'`` training or ``'e'`` evaluation) and
    ``openaigym.manifest.<index>.<uid>.manifest.json`` naming the stats file
    and the ``[video, metadata]`` file pairs. ``<uid>`` is the process id
    unless ``uid`` is given; ``<index>`` is the next one free in the
    directory.

    As in ChainerRL, and unlike gym, an episode ends when it is terminated,
    truncated (e.g. by a time limit) or its info has ``needs_reset``, and
    ``reset()`` in the middle of an episode is allowed: the steps taken so
    far are recorded as a finished episode. An episode still running at
    ``close()`` is not recorded. An episode's type is the mode at its
    ``reset()``.

    Videos are recorded by ``gymnasium.wrappers.RecordVideo`` into the same
    directory, which needs an env made with ``render_mode='rgb_array'`` and
    the ``moviepy`` package.

    Args:
        env (gymnasium.Env): env to wrap.
        directory (str or os.PathLike): where the files go (created if
            missing).
        video_callable: ``None`` for gym's schedule (episodes 0, 1, 8,
            27, ... up to 1000, then every 1000th; skipped with a warning
            when the env or moviepy cannot record), ``False`` for no videos,
            or a callable taking the episode index (from 0) and returning
            whether to film that episode.
        force (bool): delete the monitor files (``openaigym.*``) already in
            ``directory``.
        resume (bool): keep the monitor files already in ``directory`` and
            add new ones beside them. Without ``force`` or ``resume``,
            existing monitor files are an error.
        write_upon_reset (bool): also write the files after every reset.
        uid (str or int): replaces the process id in the file names.
        mode (str): ``'training'`` (the default) or ``'evaluation'``.
    """

    def __init__(self, env, directory, video_callable=None, force=False,
                 resume=False, write_upon_reset=False, uid=None, mode=None):
        check_env('Monitor', env)
        if not isinstance(directory, (str, os.PathLike)) or \
                not isinstance(os.fspath(directory), str) or \
                not os.fspath(directory):
            raise TypeError('Monitor: directory must be a non-empty str or '
                            'os.PathLike naming a directory, got {!r}'.format(
                                directory))
        directory = os.fspath(directory)
        if not (video_callable is None or video_callable is False or
                callable(video_callable)):
            raise TypeError('Monitor: video_callable must be None (gym\'s '
                            'schedule), False (no videos) or a callable '
                            'episode_id -> bool, got {!r}'.format(
                                video_callable))
        for name, value in (('force', force), ('resume', resume),
                            ('write_upon_reset', write_upon_reset)):
            _check_bool(name, value)
        if force and resume:
            raise ValueError('Monitor: force=True deletes the files that '
                             'resume=True keeps; pass at most one of them')
        if uid is not None and (
                isinstance(uid, bool) or not isinstance(uid, (str, int)) or
                str(uid) == '' or '/' in str(uid) or os.sep in str(uid)):
            raise ValueError('Monitor: uid must be None or a non-empty str '
                             'or int usable in a file name, got {!r}'.format(
                                 uid))
        if mode is not None and mode not in _MODE_TYPES:
            raise ValueError("Monitor: mode must be None, 'training' or "
                             "'evaluation', got {!r}".format(mode))

        record = self._video_decision(env, video_callable)

        if os.path.exists(directory) and not os.path.isdir(directory):
            raise NotADirectoryError('Monitor: directory {!r} exists and is '
                                     'not a directory'.format(directory))
        os.makedirs(directory, exist_ok=True)
        existing = _monitor_files(directory)
        if existing and force:
            for name in existing:
                os.remove(os.path.join(directory, name))
            existing = []
        elif existing and not resume:
            raise FileExistsError(
                'Monitor: directory {!r} already holds monitor files ({}); '
                'pass force=True to delete them or resume=True to keep them '
                'and add new ones'.format(directory, ', '.join(existing)))

        infix = '{}.{}'.format(_claim_index(directory, existing),
                               os.getpid() if uid is None else uid)
        self.directory = os.path.abspath(directory)
        self._stats_name = '{}episode_batch.{}.stats.json'.format(
            _PREFIX, infix)
        self._manifest_name = '{}manifest.{}.manifest.json'.format(
            _PREFIX, infix)
        self._video_prefix = '{}video.{}.video'.format(_PREFIX, infix)
        self._video_pattern = re.compile(
            '^' + re.escape(self._video_prefix) + r'-episode-(\d+)\.mp4$')

        if record is not None:
            with warnings.catch_warnings():
                # The directory is shared with the statistics and video
                # names carry this monitor's index, so nothing is
                # overwritten despite what RecordVideo says.
                warnings.filterwarnings(
                    'ignore', message='.*Overwriting existing videos')
                env = gymnasium.wrappers.RecordVideo(
                    env, self.directory, episode_trigger=record,
                    name_prefix=self._video_prefix)
        super().__init__(env)

        self._write_upon_reset = write_upon_reset
        self._type = _MODE_TYPES[mode or 'training']
        self._initial_reset_timestamp = None
        self._timestamps = []
        self._episode_lengths = []
        self._episode_rewards = []
        self._episode_types = []
        self._total_steps = 0
        self._steps = None
        self._reward = 0.0
        self._episode_type = None
        self._done = False
        self._closed = False
        _open_monitors.add(self)

    @staticmethod
    def _video_decision(env, video_callable):
        # Returns the episode trigger for RecordVideo, or None for
        # statistics only.
        if video_callable is False:
            return None
        render_ok = env.render_mode == 'rgb_array'
        moviepy_ok = _moviepy_available()
        if render_ok and moviepy_ok:
            return (_cubic_schedule if video_callable is None
                    else video_callable)
        missing = []
        if not render_ok:
            missing.append("the env's render_mode is {!r}, make it with "
                           "render_mode='rgb_array'".format(env.render_mode))
        if not moviepy_ok:
            missing.append('moviepy is not installed (pip install moviepy)')
        if video_callable is not None:
            raise (ImportError if render_ok else ValueError)(
                'Monitor: video_callable asks for videos, but {}; or pass '
                'video_callable=False'.format('; '.join(missing)))
        warnings.warn('Monitor: recording statistics only, no videos: {} '
                      '(video_callable=False silences this)'.format(
                          '; '.join(missing)), stacklevel=3)
        return None

    def _check_open(self, method):
        if self._closed:
            raise RuntimeError('Monitor.{}: the monitor is closed'.format(
                method))

    def set_mode(self, mode):
        """Set the type of the episodes reset from now on: ``'training'``
        (recorded as ``'t'``) or ``'evaluation'`` (``'e'``)."""
        if mode not in _MODE_TYPES:
            raise ValueError("Monitor.set_mode: mode must be 'training' or "
                             "'evaluation', got {!r}".format(mode))
        self._type = _MODE_TYPES[mode]

    def reset(self, **kwargs):
        """Reset the env, first recording a running episode as finished."""
        self._check_open('reset')
        if self._steps and not self._done:
            self._end_episode()
        # A failing env.reset leaves no episode to step in.
        self._steps = None
        if self._initial_reset_timestamp is None:
            self._initial_reset_timestamp = time.time()
        ret = self.env.reset(**kwargs)
        self._steps = 0
        self._reward = 0.0
        self._done = False
        self._episode_type = self._type
        if self._write_upon_reset:
            self._write()
        return ret

    def step(self, action):
        """Step the env, recording the episode when it ends."""
        self._check_open('step')
        if self._steps is None:
            raise RuntimeError('Monitor.step: call reset() before step()')
        if self._done:
            raise RuntimeError('Monitor.step: the episode has ended '
                               '(terminated, truncated or needs_reset); call '
                               'reset() before stepping again')
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._steps += 1
        self._total_steps += 1
        self._reward += float(reward)
        if terminated or truncated or info.get('needs_reset', False):
            self._done = True
            self._end_episode()
        return obs, reward, terminated, truncated, info

    def _end_episode(self):
        self._timestamps.append(time.time())
        self._episode_lengths.append(self._steps)
        self._episode_rewards.append(self._reward)
        self._episode_types.append(self._episode_type)

    def get_episode_rewards(self):
        """Return the total reward of each finished episode."""
        return list(self._episode_rewards)

    def get_episode_lengths(self):
        """Return the number of steps of each finished episode."""
        return list(self._episode_lengths)

    def get_total_steps(self):
        """Return the number of steps taken, unfinished episode included."""
        return self._total_steps

    def _videos(self):
        pairs = []
        for name in sorted(os.listdir(self.directory)):
            match = self._video_pattern.match(name)
            if not match:
                continue
            # gym's manifest pairs every video with a metadata file.
            meta = name[:-len('.mp4')] + '.meta.json'
            meta_path = os.path.join(self.directory, meta)
            if not os.path.exists(meta_path):
                _write_json(meta_path, {'episode_id': int(match.group(1)),
                                        'content_type': 'video/mp4'})
            pairs.append([name, meta])
        return pairs

    def _write(self):
        _write_json(os.path.join(self.directory, self._stats_name), {
            'initial_reset_timestamp': self._initial_reset_timestamp,
            'timestamps': self._timestamps,
            'episode_lengths': self._episode_lengths,
            'episode_rewards': self._episode_rewards,
            'episode_types': self._episode_types,
        })
        # Readers of gym's format require a gym_version key; it holds the
        # gymnasium version that produced the files.
        env_info = {'gym_version': gymnasium.__version__}
        spec = self.unwrapped.spec
        if spec is not None:
            env_info['env_id'] = spec.id
        _write_json(os.path.join(self.directory, self._manifest_name), {
            'stats': self._stats_name,
            'videos': self._videos(),
            'env_info': env_info,
        })

    def close(self):
        """Close the env (finishing a video being recorded), then write the
        files. Later calls do nothing."""
        if self._closed:
            return
        self._closed = True
        _open_monitors.discard(self)
        try:
            self.env.close()
        finally:
            self._write()
