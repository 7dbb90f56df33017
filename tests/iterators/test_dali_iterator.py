"""DaliIterator: Chainer's signature, the error naming what is missing
here, and its epoch bookkeeping over a pipeline stand-in."""
import inspect

import pytest

import chainer_core as chainer
from chainer_core.iterators import dali_iterator
from chainer_core.serializers import npz


def test_signature_and_names():
    assert chainer.iterators.DaliIterator is dali_iterator.DaliIterator
    assert list(inspect.signature(
        chainer.iterators.DaliIterator).parameters) == ['pipeline', 'repeat']
    assert issubclass(dali_iterator.DaliIterator, chainer.dataset.Iterator)


def test_names_what_is_missing():
    missing = dali_iterator._missing_requirements()
    if not missing:
        pytest.skip('DALI and a CUDA device are both here')
    with pytest.raises(RuntimeError, match='DaliIterator needs') as info:
        chainer.iterators.DaliIterator(object())
    message = str(info.value)
    for item in missing:
        assert item in message


class _Pipeline:
    """Stands for a DALI pipeline: 10 samples an epoch, batches of 4."""

    batch_size = 4

    def __init__(self, sizes=None):
        self.sizes = sizes or {'Reader': 10}
        self.built = 0
        self.runs = 0

    def build(self):
        self.built += 1

    def epoch_size(self):
        return self.sizes

    def run(self):
        self.runs += 1
        return ('outputs', self.runs)


@pytest.fixture
def no_requirements(monkeypatch):
    monkeypatch.setattr(dali_iterator, '_missing_requirements', lambda: [])


def test_epochs(no_requirements):
    pipeline = _Pipeline()
    it = dali_iterator.DaliIterator(pipeline)
    assert it.batch_size == 4 and it.repeat and pipeline.built == 0
    assert it.epoch_detail == 0 and it.previous_epoch_detail is None
    details = []
    for _ in range(5):
        assert it.next() == ('outputs', pipeline.runs)
        details.append((it.epoch, it.is_new_epoch, it.epoch_detail))
    assert pipeline.built == 1
    # Positions 4, 8, 12 -> 2 of epoch 1, 6, 10 -> 0 of epoch 2.
    assert details == [(0, False, 0.4), (0, False, 0.8), (1, True, 1.2),
                       (1, False, 1.6), (2, True, 2.0)]
    assert it.previous_epoch_detail == pytest.approx(1.6)


def test_no_repeat_stops_after_an_epoch(no_requirements):
    it = dali_iterator.DaliIterator(_Pipeline(), repeat=False)
    batches = list(it)
    assert len(batches) == 3 and it.epoch == 1
    it.reset()
    assert it.epoch == 0 and it.next() == ('outputs', 4)


def test_readers_must_agree(no_requirements):
    it = dali_iterator.DaliIterator(_Pipeline({'a': 10, 'b': 12}))
    with pytest.raises(ValueError, match=r'one epoch size, got \[10, 12\]'):
        it.next()


def test_serialize(no_requirements, tmp_path):
    it = dali_iterator.DaliIterator(_Pipeline())
    for _ in range(4):
        it.next()
    npz.save_npz(str(tmp_path / 'it.npz'), it)
    resumed = dali_iterator.DaliIterator(_Pipeline())
    npz.load_npz(str(tmp_path / 'it.npz'), resumed)
    assert (resumed.epoch, resumed.current_position, resumed.is_new_epoch) \
        == (1, 6, False)
    resumed.next()
    assert resumed.epoch_detail == pytest.approx(2.0)
    assert resumed.previous_epoch_detail == pytest.approx(1.6)
