"""Monitor: gym's monitor files on gymnasium envs."""
import glob
import json
import os
import subprocess
import sys
import types
import warnings

import gymnasium
import numpy as np
import pytest

from chainer_rl import wrappers
from chainer_rl.wrappers import monitor as monitor_module

STATS_KEYS = {'initial_reset_timestamp', 'timestamps', 'episode_lengths',
              'episode_rewards', 'episode_types'}


class FrameEnv(gymnasium.Env):
    """Episodes of ``length`` steps with reward 0.5; renders 4x4 frames;
    ``needs_reset_at`` ends an episode through info only."""

    metadata = {'render_modes': ['rgb_array'], 'render_fps': 10}

    def __init__(self, length=3, needs_reset_at=None,
                 render_mode='rgb_array'):
        self.observation_space = gymnasium.spaces.Box(0, 100, (1,),
                                                      np.float32)
        self.action_space = gymnasium.spaces.Discrete(2)
        self.length = length
        self.needs_reset_at = needs_reset_at
        self.render_mode = render_mode
        self.closed = False

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        self.t = 0
        return np.zeros(1, np.float32), {}

    def step(self, action):
        self.t += 1
        info = {}
        if self.t == self.needs_reset_at:
            info['needs_reset'] = True
        return (np.full(1, self.t, np.float32), 0.5, self.t == self.length,
                False, info)

    def render(self):
        return np.full((4, 4, 3), self.t, np.uint8)

    def close(self):
        self.closed = True


def run_episode(env, rng, max_steps=None):
    """Step with random actions until the episode ends (or max_steps);
    return (length, total reward, terminated, truncated)."""
    env.reset()
    length, total = 0, 0.0
    terminated = truncated = False
    while not (terminated or truncated) and length != max_steps:
        _, r, terminated, truncated, _ = env.step(
            int(rng.randint(env.action_space.n)))
        length += 1
        total += float(r)
    return length, total, terminated, truncated


def only(pattern, directory):
    paths = glob.glob(os.path.join(str(directory), pattern))
    assert len(paths) == 1, paths
    return paths[0]


def load(path):
    with open(path) as f:
        return json.load(f)


def load_run(directory):
    """The (stats, manifest) of the only monitor run in ``directory``."""
    manifest = load(only('openaigym.manifest.*.manifest.json', directory))
    stats = load(os.path.join(str(directory), manifest['stats']))
    return stats, manifest


def test_statistics_and_mode_switch(tmp_path):
    rng = np.random.RandomState(0)
    env = wrappers.Monitor(gymnasium.make('CartPole-v1'), str(tmp_path),
                           video_callable=False)
    counted = [run_episode(env, rng) for _ in range(2)]
    env.set_mode('evaluation')
    counted += [run_episode(env, rng) for _ in range(2)]
    env.set_mode('training')
    counted += [run_episode(env, rng)]
    env.close()

    lengths = [c[0] for c in counted]
    rewards = [c[1] for c in counted]
    assert all(c[2] for c in counted)
    stats, manifest = load_run(tmp_path)
    assert set(stats) == STATS_KEYS
    assert stats['episode_lengths'] == lengths
    assert stats['episode_rewards'] == rewards
    assert stats['episode_types'] == ['t', 't', 'e', 'e', 't']
    assert len(stats['timestamps']) == 5
    assert stats['initial_reset_timestamp'] <= stats['timestamps'][0]
    assert stats['timestamps'] == sorted(stats['timestamps'])

    pid = os.getpid()
    assert manifest['stats'] == 'openaigym.episode_batch.0.{}.stats.json' \
        .format(pid)
    assert os.path.exists(os.path.join(
        str(tmp_path), 'openaigym.manifest.0.{}.manifest.json'.format(pid)))
    assert manifest['videos'] == []
    assert manifest['env_info']['env_id'] == 'CartPole-v1'
    assert manifest['env_info']['gym_version'] == gymnasium.__version__

    assert env.get_episode_lengths() == lengths
    assert env.get_episode_rewards() == rewards
    assert env.get_total_steps() == sum(lengths)
    assert env.directory == os.path.abspath(str(tmp_path))


def test_mode_argument_and_uid(tmp_path):
    env = wrappers.Monitor(FrameEnv(), tmp_path, video_callable=False,
                           mode='evaluation', uid='worker3')
    run_episode(env, np.random.RandomState(0))
    env.close()
    only('openaigym.episode_batch.0.worker3.stats.json', tmp_path)
    stats, _ = load_run(tmp_path)
    assert stats['episode_types'] == ['e']
    assert stats['episode_lengths'] == [3]
    assert stats['episode_rewards'] == [1.5]


def test_time_limit_truncation_ends_episodes(tmp_path):
    rng = np.random.RandomState(1)
    env = wrappers.Monitor(
        gymnasium.make('CartPole-v1', max_episode_steps=5), str(tmp_path),
        video_callable=False)
    counted = [run_episode(env, rng) for _ in range(3)]
    assert [c[:2] for c in counted] == [(5, 5.0)] * 3
    assert all(c[3] and not c[2] for c in counted)
    with pytest.raises(RuntimeError, match='Monitor.step: the episode has '
                                           'ended'):
        env.step(0)
    env.close()
    stats, _ = load_run(tmp_path)
    assert stats['episode_lengths'] == [5, 5, 5]
    assert stats['episode_rewards'] == [5.0, 5.0, 5.0]
    assert stats['episode_types'] == ['t', 't', 't']


def test_needs_reset_ends_episode(tmp_path):
    env = wrappers.Monitor(FrameEnv(length=10, needs_reset_at=2), tmp_path,
                           video_callable=False)
    env.reset()
    env.step(0)
    *_, info = env.step(0)
    assert info['needs_reset']
    with pytest.raises(RuntimeError, match='call reset'):
        env.step(0)
    env.close()
    assert env.get_episode_lengths() == [2]


def test_reset_mid_episode_records_partial_episode(tmp_path):
    rng = np.random.RandomState(2)
    env = wrappers.Monitor(gymnasium.make('CartPole-v1'), str(tmp_path),
                           video_callable=False)
    partial = run_episode(env, rng, max_steps=3)
    assert partial[:2] == (3, 3.0) and not (partial[2] or partial[3])
    env.reset()
    # A reset right after a reset has no steps to record.
    env.reset()
    full = run_episode(env, rng)
    # Still running at close: not an episode of the record.
    run_episode(env, rng, max_steps=2)
    env.close()
    stats, _ = load_run(tmp_path)
    assert stats['episode_lengths'] == [3, full[0]]
    assert stats['episode_rewards'] == [3.0, full[1]]
    assert stats['episode_types'] == ['t', 't']
    assert len(stats['timestamps']) == 2
    assert env.get_total_steps() == 3 + full[0] + 2


def test_write_upon_reset(tmp_path):
    env = wrappers.Monitor(FrameEnv(), tmp_path, video_callable=False,
                           write_upon_reset=True)
    assert glob.glob(os.path.join(str(tmp_path), 'openaigym.*')) == []
    env.reset()
    stats, _ = load_run(tmp_path)
    assert stats['episode_lengths'] == []
    assert stats['initial_reset_timestamp'] is not None
    for _ in range(3):
        env.step(0)
    env.reset()
    stats, _ = load_run(tmp_path)
    assert stats['episode_lengths'] == [3]
    env.close()


def test_without_write_upon_reset_files_wait_for_close(tmp_path):
    env = wrappers.Monitor(FrameEnv(), tmp_path, video_callable=False)
    run_episode(env, np.random.RandomState(0))
    env.reset()
    assert glob.glob(os.path.join(str(tmp_path), 'openaigym.*')) == []
    env.close()
    assert load_run(tmp_path)[0]['episode_lengths'] == [3]
    # Only the two JSON files, with nothing left over from writing them.
    assert len(os.listdir(str(tmp_path))) == 2


def finished_run(directory, episodes, **kwargs):
    env = wrappers.Monitor(FrameEnv(), directory, video_callable=False,
                           **kwargs)
    for _ in range(episodes):
        run_episode(env, np.random.RandomState(0))
    env.close()
    return env


def test_existing_files_conflict_force_resume(tmp_path):
    finished_run(tmp_path, 1)
    first = sorted(os.listdir(str(tmp_path)))

    with pytest.raises(FileExistsError) as excinfo:
        wrappers.Monitor(FrameEnv(), tmp_path, video_callable=False)
    message = str(excinfo.value)
    assert str(tmp_path) in message
    assert 'force=True' in message and 'resume=True' in message
    assert sorted(os.listdir(str(tmp_path))) == first

    finished_run(tmp_path, 2, resume=True)
    names = os.listdir(str(tmp_path))
    assert set(first) <= set(names)
    manifests = sorted(glob.glob(os.path.join(
        str(tmp_path), 'openaigym.manifest.*.manifest.json')))
    assert len(manifests) == 2
    lengths = sorted(len(load(os.path.join(str(tmp_path), load(m)['stats']))
                         ['episode_lengths']) for m in manifests)
    assert lengths == [1, 2]

    finished_run(tmp_path, 3, force=True)
    assert not set(first) & set(os.listdir(str(tmp_path)))
    stats, _ = load_run(tmp_path)
    assert stats['episode_lengths'] == [3, 3, 3]

    with pytest.raises(ValueError, match='Monitor: force=True'):
        wrappers.Monitor(FrameEnv(), tmp_path, force=True, resume=True,
                         video_callable=False)


def test_force_keeps_files_of_other_programs(tmp_path):
    (tmp_path / 'notes.txt').write_text('kept')
    finished_run(tmp_path, 1)
    finished_run(tmp_path, 1, force=True)
    assert (tmp_path / 'notes.txt').read_text() == 'kept'


def test_monitors_sharing_a_directory_get_their_own_files(tmp_path):
    train = wrappers.Monitor(FrameEnv(length=2), tmp_path,
                             video_callable=False)
    evaluation = wrappers.Monitor(FrameEnv(length=4), tmp_path,
                                  video_callable=False, mode='evaluation')
    rng = np.random.RandomState(0)
    run_episode(train, rng)
    run_episode(evaluation, rng)
    train.close()
    evaluation.close()
    manifests = glob.glob(os.path.join(str(tmp_path),
                                       'openaigym.manifest.*.manifest.json'))
    found = sorted(
        (s['episode_lengths'], s['episode_types']) for s in
        (load(os.path.join(str(tmp_path), load(m)['stats']))
         for m in manifests))
    assert found == [([2], ['t']), ([4], ['e'])]


def test_creates_missing_directory(tmp_path):
    directory = tmp_path / 'a' / 'b'
    finished_run(directory, 1)
    assert load_run(directory)[0]['episode_lengths'] == [3]


def test_bad_arguments(tmp_path):
    with pytest.raises(TypeError, match='Monitor: env must be'):
        wrappers.Monitor(object(), str(tmp_path))
    for directory in (None, 3, b'dir', ''):
        with pytest.raises(TypeError, match='Monitor: directory must be'):
            wrappers.Monitor(FrameEnv(), directory, video_callable=False)
    path = tmp_path / 'file'
    path.write_text('')
    with pytest.raises(NotADirectoryError, match='Monitor: directory'):
        wrappers.Monitor(FrameEnv(), path, video_callable=False)
    with pytest.raises(ValueError, match="Monitor: mode must be None, "
                                         "'training' or 'evaluation', got "
                                         "'test'"):
        wrappers.Monitor(FrameEnv(), tmp_path, video_callable=False,
                         mode='test')
    with pytest.raises(TypeError, match='Monitor: video_callable must be'):
        wrappers.Monitor(FrameEnv(), tmp_path, video_callable=True)
    with pytest.raises(TypeError, match='Monitor: force must be a bool'):
        wrappers.Monitor(FrameEnv(), tmp_path, video_callable=False,
                         force='yes')
    with pytest.raises(ValueError, match='Monitor: uid'):
        wrappers.Monitor(FrameEnv(), tmp_path, video_callable=False,
                         uid='a/b')
    # Rejected arguments leave no files behind.
    assert os.listdir(str(tmp_path)) == ['file']

    env = wrappers.Monitor(FrameEnv(), tmp_path, video_callable=False)
    with pytest.raises(ValueError, match="Monitor.set_mode: mode must be "
                                         "'training' or 'evaluation'"):
        env.set_mode('t')
    with pytest.raises(RuntimeError, match=r'Monitor.step: call reset\(\)'):
        env.step(0)
    env.close()
    env.close()
    with pytest.raises(RuntimeError, match='Monitor.reset: the monitor is '
                                           'closed'):
        env.reset()


def test_files_written_at_exit_without_close(tmp_path):
    script = (
        'import gymnasium\n'
        'from chainer_rl import wrappers\n'
        'env = wrappers.Monitor(\n'
        '    gymnasium.make("CartPole-v1", max_episode_steps=4),\n'
        '    {!r}, video_callable=False)\n'
        'env.reset()\n'
        'for _ in range(4):\n'
        '    env.step(0)\n').format(str(tmp_path))
    subprocess.run([sys.executable, '-c', script], check=True, timeout=120)
    stats, _ = load_run(tmp_path)
    assert stats['episode_lengths'] == [4]


def test_close_closes_env(tmp_path):
    inner = FrameEnv()
    env = wrappers.Monitor(inner, tmp_path, video_callable=False)
    env.close()
    assert inner.closed


def test_cubic_schedule():
    filmed = [i for i in range(3001) if monitor_module._cubic_schedule(i)]
    assert filmed == [k ** 3 for k in range(10)] + [1000, 2000, 3000]


def test_explicit_video_needs_rgb_array(tmp_path):
    with pytest.raises(ValueError, match="render_mode='rgb_array'"):
        wrappers.Monitor(gymnasium.make('CartPole-v1'), str(tmp_path),
                         video_callable=lambda i: True)


def test_explicit_video_needs_moviepy(tmp_path, monkeypatch):
    # None in sys.modules makes the import fail, installed or not.
    monkeypatch.setitem(sys.modules, 'moviepy', None)
    with pytest.raises(ImportError, match='pip install moviepy'):
        wrappers.Monitor(gymnasium.make('CartPole-v1',
                                        render_mode='rgb_array'),
                         str(tmp_path), video_callable=lambda i: True)
    assert os.listdir(str(tmp_path)) == []


def test_default_video_without_moviepy_warns_and_records_stats(
        tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, 'moviepy', None)
    with pytest.warns(UserWarning, match='Monitor: recording statistics '
                                         'only.*moviepy'):
        env = wrappers.Monitor(FrameEnv(), tmp_path)
    assert not isinstance(env.env, gymnasium.wrappers.RecordVideo)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        counted = run_episode(env, np.random.RandomState(0))
        env.close()
    stats, manifest = load_run(tmp_path)
    assert stats['episode_lengths'] == [counted[0]]
    assert manifest['videos'] == []


def test_default_video_without_rgb_array_warns(tmp_path):
    with pytest.warns(UserWarning, match="render_mode='rgb_array'"):
        env = wrappers.Monitor(gymnasium.make('CartPole-v1'), str(tmp_path))
    env.close()


def test_video_false_is_silent(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        wrappers.Monitor(gymnasium.make('CartPole-v1'), str(tmp_path),
                         video_callable=False).close()


@pytest.fixture
def fake_moviepy(monkeypatch):
    """A moviepy whose clips write their frame count instead of a video."""
    class ImageSequenceClip:
        def __init__(self, frames, fps):
            self.frames = frames

        def write_videofile(self, path, logger=None):
            with open(path, 'w') as f:
                f.write(str(len(self.frames)))

    names = ['moviepy', 'moviepy.video', 'moviepy.video.io',
             'moviepy.video.io.ImageSequenceClip']
    for name in names:
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    sys.modules[names[-1]].ImageSequenceClip = ImageSequenceClip


def video_frames(directory, manifest):
    """Episode id -> frames written, checked against the metadata files."""
    found = {}
    for video, meta in manifest['videos']:
        with open(os.path.join(str(directory), video)) as f:
            frames = int(f.read())
        metadata = load(os.path.join(str(directory), meta))
        assert metadata['content_type'] == 'video/mp4'
        found[metadata['episode_id']] = frames
    return found


def test_videos_of_chosen_episodes(tmp_path, fake_moviepy):
    env = wrappers.Monitor(FrameEnv(length=3), tmp_path,
                           video_callable=lambda i: i in (0, 2))
    rng = np.random.RandomState(0)
    for _ in range(3):
        run_episode(env, rng)
    # Cut short by a reset: filmed up to there.
    run_episode(env, rng, max_steps=1)
    env.reset()
    env.close()
    stats, manifest = load_run(tmp_path)
    assert stats['episode_lengths'] == [3, 3, 3, 1]
    # A frame at the reset and one per step.
    assert video_frames(tmp_path, manifest) == {0: 4, 2: 4}
    for video, _ in manifest['videos']:
        assert video.startswith('openaigym.video.0.{}.'.format(os.getpid()))


def test_default_schedule_films_cubes(tmp_path, fake_moviepy):
    env = wrappers.Monitor(FrameEnv(length=2), tmp_path)
    assert isinstance(env.env, gymnasium.wrappers.RecordVideo)
    rng = np.random.RandomState(0)
    for _ in range(10):
        run_episode(env, rng)
    env.close()
    _, manifest = load_run(tmp_path)
    assert sorted(video_frames(tmp_path, manifest)) == [0, 1, 8]


def test_force_deletes_videos(tmp_path, fake_moviepy):
    env = wrappers.Monitor(FrameEnv(), tmp_path,
                           video_callable=lambda i: True)
    run_episode(env, np.random.RandomState(0))
    env.close()
    assert len(os.listdir(str(tmp_path))) == 4
    finished_run(tmp_path, 1, force=True)
    assert len(os.listdir(str(tmp_path))) == 2
