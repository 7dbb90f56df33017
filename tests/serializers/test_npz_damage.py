"""Every kind of damaged or forged npz file is a ValueError naming the file
and the damaged key: never another exception, never code run from the
file, never an allocation of the size the file claims."""
import tracemalloc

import numpy
import pytest

import chainer_core.links as L
from chainer_core import serializers
from chainer_core.serializers import npz

from ._damage import BOMB_BYTES, DAMAGES, PRETENDED_MEMORY


@pytest.fixture(autouse=True)
def small_memory(monkeypatch):
    monkeypatch.setattr(npz, '_physical_memory', lambda: PRETENDED_MEMORY)


def _damaged(tmp_path, kind, compression=True):
    good = tmp_path / 'good.npz'
    serializers.save_npz(good, L.Linear(30, 20), compression=compression)
    data, key = DAMAGES[kind](good.read_bytes(), tmp_path / 'ran')
    path = tmp_path / 'damaged.npz'
    path.write_bytes(data)
    return path, key


def test_the_forged_files_are_loadable_when_undamaged(tmp_path):
    # The control: what the damages start from loads, and so does a
    # deflated member just under the pretended memory.
    path = tmp_path / 'good.npz'
    serializers.save_npz(path, L.Linear(30, 20))
    serializers.load_npz(path, L.Linear(30, 20))
    numpy.savez_compressed(path, W=numpy.zeros(PRETENDED_MEMORY, 'u1'))
    assert npz._read_all(path)['W'].size == PRETENDED_MEMORY


@pytest.mark.parametrize('compression', [True, False])
@pytest.mark.parametrize('kind', sorted(DAMAGES))
def test_damaged_file_is_a_value_error(tmp_path, kind, compression):
    path, key = _damaged(tmp_path, kind, compression)
    tracemalloc.start()
    try:
        with pytest.raises(ValueError) as info:
            serializers.load_npz(path, L.Linear(30, 20))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(info.value)
    assert str(path) in message
    if key is not None:
        assert repr(key) in message
    assert not (tmp_path / 'ran').exists()
    assert peak < BOMB_BYTES // 2


@pytest.mark.parametrize('kind', sorted(DAMAGES))
def test_damaged_file_read_whole(tmp_path, kind):
    # What snapshot autoload reads: every member at once.
    path, key = _damaged(tmp_path, kind)
    with pytest.raises(ValueError, match='{}.*{}'.format(
            path, '' if key is None else repr(key))):
        npz._read_all(path)
    assert not (tmp_path / 'ran').exists()


def test_damaged_file_object(tmp_path):
    path, key = _damaged(tmp_path, 'unknown_method')
    with open(path, 'rb') as f:
        with pytest.raises(ValueError, match=repr(key)):
            serializers.load_npz(f, L.Linear(30, 20))


def test_members_larger_than_memory_together(tmp_path):
    # Each fits, not all at once, as autoload would hold them.
    path = tmp_path / 'm.npz'
    part = numpy.zeros(PRETENDED_MEMORY * 3 // 4, 'u1')
    numpy.savez_compressed(path, a=part, b=part)
    assert npz._NpzArchive(path)['a'].size == part.size
    with pytest.raises(ValueError, match='{}.*memory'.format(path)):
        npz._read_all(path)
