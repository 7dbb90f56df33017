"""The agent protocol: single-env (ChainerRL), PFRL and batch entry points
all reach the four primitives of BatchAgent in the expected order."""
import json
import os

import numpy
import pytest

import chainer_core
import chainer_core.links as L

from chainer_rl import agent as agent_module


class RecordingAgent(agent_module.AttributeSavingMixin,
                     agent_module.BatchAgent):
    """Acts with argmax of a linear model, records every primitive call."""

    saved_attributes = ('model', 'optimizer')

    def __init__(self, device='@numpy'):
        self.model = L.Linear(3, 2)
        self.model.to_device(device)
        self.optimizer = chainer_core.optimizers.SGD(lr=0.1)
        self.optimizer.setup(self.model)
        self.calls = []

    def _greedy(self, batch_obs):
        x = chainer_core.get_device(self.model.device).send(
            numpy.asarray(batch_obs, dtype=numpy.float32))
        y = chainer_core.backend.get_device('@numpy').send(self.model(x).array)
        return [int(a) for a in numpy.argmax(y, axis=1)]

    def _batch_act_train(self, batch_obs):
        self.calls.append(('act_train', len(batch_obs)))
        return self._greedy(batch_obs)

    def _batch_act_eval(self, batch_obs):
        self.calls.append(('act_eval', len(batch_obs)))
        return self._greedy(batch_obs)

    def _batch_observe_train(self, batch_obs, batch_reward, batch_done,
                             batch_reset):
        self.calls.append(('observe_train', list(batch_reward),
                           list(batch_done), list(batch_reset)))

    def _batch_observe_eval(self, batch_obs, batch_reward, batch_done,
                            batch_reset):
        self.calls.append(('observe_eval', list(batch_reward),
                           list(batch_done), list(batch_reset)))


class OtherAgent(RecordingAgent):
    pass


OBS = numpy.array([1.0, 0.0, 0.0], dtype=numpy.float32)


def test_chainerrl_training_loop():
    agent = RecordingAgent()
    agent.act_and_train(OBS, 0.0)
    agent.act_and_train(OBS, 0.5)
    agent.act_and_train(OBS, 0.25)
    agent.stop_episode_and_train(OBS, 1.0, done=True)
    # Second episode, cut short by a time limit.
    agent.act_and_train(OBS, 0.0)
    agent.stop_episode_and_train(OBS, 2.0, done=False)
    assert agent.calls == [
        ('act_train', 1),
        ('observe_train', [0.5], [False], [False]),
        ('act_train', 1),
        ('observe_train', [0.25], [False], [False]),
        ('act_train', 1),
        ('observe_train', [1.0], [True], [False]),
        ('act_train', 1),
        ('observe_train', [2.0], [False], [True]),
    ]


def test_chainerrl_eval_loop_never_learns():
    agent = RecordingAgent()
    assert agent.training is False
    agent.act(OBS)
    agent.act(OBS)
    agent.stop_episode()
    agent.stop_episode()  # no episode in progress: nothing to reset
    assert agent.calls == [('act_eval', 1), ('act_eval', 1),
                           ('observe_eval', [0.0], [False], [True])]


def test_pfrl_loop_training_and_eval_mode():
    agent = RecordingAgent()
    with agent.train_mode():
        assert agent.training is True
        agent.act(OBS)
        agent.observe(OBS, 1.0, False, False)
        agent.act(OBS)
        agent.observe(OBS, 0.0, True, False)
        with agent.eval_mode():
            assert agent.training is False
            agent.act(OBS)
            agent.observe(OBS, 0.0, False, True)
        assert agent.training is True
    assert agent.training is False
    assert agent.calls == [
        ('act_train', 1), ('observe_train', [1.0], [False], [False]),
        ('act_train', 1), ('observe_train', [0.0], [True], [False]),
        ('act_eval', 1), ('observe_eval', [0.0], [False], [True]),
    ]


def test_training_attribute_set_directly():
    agent = RecordingAgent()
    agent.training = True
    agent.batch_act([OBS, OBS])
    agent.batch_observe([OBS, OBS], [1, 2], [False, True], [False, False])
    assert agent.calls == [('act_train', 2),
                           ('observe_train', [1, 2], [False, True],
                            [False, False])]


def test_chainerrl_batch_loop():
    agent = RecordingAgent()
    batch = [OBS, OBS, OBS]
    agent.batch_act_and_train(batch)
    agent.batch_observe_and_train(batch, [0, 1, 0], [False, True, False],
                                  [False, False, True])
    agent.batch_act(batch)
    agent.batch_observe(batch, [0, 0, 0], [True, False, False],
                        [False, False, False])
    assert agent.calls == [
        ('act_train', 3),
        ('observe_train', [0, 1, 0], [False, True, False],
         [False, False, True]),
        ('act_eval', 3),
        ('observe_eval', [0, 0, 0], [True, False, False],
         [False, False, False]),
    ]


def test_batch_observe_length_mismatch_is_reported():
    agent = RecordingAgent()
    with pytest.raises(ValueError, match='batch_observe_and_train.*entries'):
        agent.batch_observe_and_train([OBS, OBS], [0], [False, False],
                                      [False, False])


def test_abstract_primitives_are_required():
    class Incomplete(agent_module.BatchAgent):
        def _batch_act_train(self, batch_obs):
            return []

    with pytest.raises(TypeError):
        Incomplete()


def test_save_load_round_trip(tmp_path, device):
    source = RecordingAgent(device)
    dirname = str(tmp_path / 'agent')
    source.save(dirname)
    assert sorted(os.listdir(dirname)) == ['agent.json', 'model.npz',
                                           'optimizer.npz']
    with open(os.path.join(dirname, 'agent.json')) as f:
        meta = json.load(f)
    assert meta['class'].endswith('RecordingAgent')

    target = RecordingAgent(device)
    to_host = chainer_core.backend.get_device('@numpy').send
    assert not numpy.array_equal(to_host(target.model.W.array),
                                 to_host(source.model.W.array))
    target.load(dirname)
    numpy.testing.assert_array_equal(to_host(target.model.W.array),
                                     to_host(source.model.W.array))
    numpy.testing.assert_array_equal(to_host(target.model.b.array),
                                     to_host(source.model.b.array))
    assert target.act(OBS) == source.act(OBS)


def test_load_refuses_another_class(tmp_path):
    dirname = str(tmp_path / 'agent')
    RecordingAgent().save(dirname)
    with pytest.raises(ValueError) as info:
        OtherAgent().load(dirname)
    message = str(info.value)
    assert 'RecordingAgent' in message and 'OtherAgent' in message


def test_load_reports_missing_file(tmp_path):
    dirname = str(tmp_path / 'agent')
    RecordingAgent().save(dirname)
    os.remove(os.path.join(dirname, 'optimizer.npz'))
    with pytest.raises(FileNotFoundError, match='optimizer.npz'):
        RecordingAgent().load(dirname)


def test_load_missing_folder(tmp_path):
    with pytest.raises(FileNotFoundError, match='nowhere'):
        RecordingAgent().load(str(tmp_path / 'nowhere'))


def test_nested_saving_and_none_attributes(tmp_path):
    class Outer(agent_module.AttributeSavingMixin, agent_module.BatchAgent):
        saved_attributes = ('inner', 'head', 'unused')

        def __init__(self):
            self.inner = RecordingAgent()
            self.head = L.Linear(2, 1)
            self.unused = None

        _batch_act_train = _batch_act_eval = RecordingAgent._batch_act_eval
        _batch_observe_train = RecordingAgent._batch_observe_train
        _batch_observe_eval = RecordingAgent._batch_observe_eval

    a = Outer()
    a.save(str(tmp_path))
    assert os.path.exists(str(tmp_path / 'inner' / 'model.npz'))
    assert not os.path.exists(str(tmp_path / 'unused.npz'))
    b = Outer()
    b.load(str(tmp_path))
    numpy.testing.assert_array_equal(b.inner.model.W.array,
                                     a.inner.model.W.array)
    numpy.testing.assert_array_equal(b.head.W.array, a.head.W.array)


def test_saved_attributes_must_exist(tmp_path):
    class Broken(RecordingAgent):
        saved_attributes = ('model', 'missing')

    with pytest.raises(AttributeError, match='missing'):
        Broken().save(str(tmp_path))


def test_async_agent_declares_shared_attributes():
    class A(agent_module.AsyncAgent):
        shared_attributes = ('model',)

        def act_and_train(self, obs, reward):
            return 0

        def act(self, obs):
            return 0

        def stop_episode_and_train(self, obs, reward, done=False):
            pass

        def stop_episode(self):
            pass

        def save(self, dirname):
            pass

        def load(self, dirname):
            pass

        def get_statistics(self):
            return []

    a = A()
    assert a.process_idx is None
    assert a.shared_attributes == ('model',)

    class Missing(agent_module.AsyncAgent):
        pass

    with pytest.raises(TypeError):
        Missing()
