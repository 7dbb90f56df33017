"""What is particular to the npz format: refusing pickle, foreign zips,
the None marker, the dict serializers and savez failures."""
import io
import os
import pickle
import zipfile

import numpy
import pytest

import chainer_core as chainer
import chainer_core.links as L
from chainer_core import serializers
from chainer_core.serializers import npz


class _Payload:
    """Unpickling it creates the folder ``marker``: proof that code ran."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (os.mkdir, (self.marker,))


def _payload_npz(marker, key='W'):
    arr = numpy.empty(1, dtype=object)
    arr[0] = _Payload(marker)
    buf = io.BytesIO()
    numpy.savez(buf, **{key: arr, 'b': numpy.zeros(2, numpy.float32)})
    return buf.getvalue()


def test_payload_really_runs_when_unpickled(tmp_path):
    # The control: the crafted file does execute code with pickle allowed,
    # so the tests below prove something.
    marker = tmp_path / 'ran'
    path = tmp_path / 'evil.npz'
    path.write_bytes(_payload_npz(marker))
    with numpy.load(path, allow_pickle=True) as f:
        f['W']
    assert marker.exists()


def test_object_array_is_refused_without_running_code(tmp_path):
    marker = tmp_path / 'ran'
    path = tmp_path / 'evil.npz'
    path.write_bytes(_payload_npz(marker))
    with pytest.raises(ValueError, match="'W'.*pickle"):
        serializers.load_npz(path, L.Linear(3, 2, nobias=True))
    assert not marker.exists()


def test_object_array_under_an_ignored_name_is_never_read(tmp_path):
    marker = tmp_path / 'ran'
    path = tmp_path / 'evil.npz'
    path.write_bytes(_payload_npz(marker))
    serializers.load_npz(path, L.Linear(3, 2, nobias=True), strict=False,
                         ignore_names=['W'])
    assert not marker.exists()


def test_pickle_file_is_refused_without_running_code(tmp_path):
    marker = tmp_path / 'ran'
    path = tmp_path / 'evil.npz'
    path.write_bytes(pickle.dumps({'W': _Payload(marker)}))
    with pytest.raises(ValueError, match='not a readable npz'):
        serializers.load_npz(path, L.Linear(3, 2))
    assert not marker.exists()


def test_object_npy_member_is_refused_without_running_code(tmp_path):
    marker = tmp_path / 'ran'
    arr = numpy.empty(2, dtype=object)
    arr[0] = _Payload(marker)
    member = io.BytesIO()
    numpy.save(member, arr, allow_pickle=True)
    path = tmp_path / 'evil.npz'
    with zipfile.ZipFile(path, 'w') as z:
        z.writestr('W.npy', member.getvalue())
    with pytest.raises(ValueError, match="'W'"):
        serializers.load_npz(path, L.Linear(3, 2, nobias=True))
    assert not marker.exists()


def test_zip_that_is_not_npz(tmp_path):
    path = tmp_path / 'm.npz'
    with zipfile.ZipFile(path, 'w') as z:
        z.writestr('readme.txt', 'weights elsewhere')
    with pytest.raises(ValueError, match='not an npz file.*readme.txt'):
        serializers.load_npz(path, L.Linear(3, 2))
    # Refused even when missing keys would be tolerated.
    with pytest.raises(ValueError, match='not an npz file'):
        serializers.load_npz(path, L.Linear(3, 2), strict=False)


def test_zip_with_npy_names_but_no_arrays(tmp_path):
    path = tmp_path / 'm.npz'
    with zipfile.ZipFile(path, 'w') as z:
        z.writestr('W.npy', 'not an array')
        z.writestr('b.npy', 'not an array either')
    with pytest.raises(ValueError, match="'[Wb]'"):
        serializers.load_npz(path, L.Linear(3, 2))


def test_single_npy_file(tmp_path):
    path = tmp_path / 'm.npy'
    numpy.save(path, numpy.zeros((2, 3), numpy.float32))
    with pytest.raises(ValueError, match='single array'):
        serializers.load_npz(path, L.Linear(3, 2))


def test_corrupted_member(tmp_path):
    path = tmp_path / 'm.npz'
    serializers.save_npz(path, L.Linear(30, 20), compression=False)
    data = bytearray(path.read_bytes())
    # Inside W's data, well past the local header and the .npy header.
    data[300] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="'W'.*corrupted"):
        serializers.load_npz(path, L.Linear(30, 20))


def test_none_is_a_marker_array_not_an_object(tmp_path):
    path = tmp_path / 'lazy.npz'
    serializers.save_npz(path, L.Linear(None, 2))
    with numpy.load(path, allow_pickle=False) as f:
        w = f['W']
        assert w.dtype.kind != 'O' and w.size == 0
        assert sorted(f.files) == ['W', 'b']


@pytest.mark.parametrize('compression', [True, False])
def test_compression_flag(tmp_path, compression):
    path = tmp_path / 'm.npz'
    src = L.Linear(3, 2)
    serializers.save_npz(path, src, compression=compression)
    with zipfile.ZipFile(path) as z:
        kinds = {i.compress_type for i in z.infolist()}
    assert kinds == {zipfile.ZIP_DEFLATED if compression
                     else zipfile.ZIP_STORED}
    dst = L.Linear(3, 2)
    serializers.load_npz(path, dst)
    numpy.testing.assert_array_equal(dst.W.array, src.W.array)


def test_keys_are_flat_paths(tmp_path):
    model = chainer.Sequential(L.Linear(3, 4), L.Linear(4, 2))
    path = tmp_path / 'm.npz'
    serializers.save_npz(path, model)
    with numpy.load(path) as f:
        assert sorted(f.files) == ['0/W', '0/b', '1/W', '1/b']


def test_failing_savez_keeps_the_previous_file(tmp_path, monkeypatch):
    path = tmp_path / 'm.npz'
    src = L.Linear(3, 2)
    serializers.save_npz(path, src)
    before = path.read_bytes()

    def broken(file, **arrays):
        file.write(b'PK\x03\x04 half an archive')
        raise OSError('disk full')

    monkeypatch.setattr(numpy, 'savez_compressed', broken)
    with pytest.raises(OSError, match='disk full'):
        serializers.save_npz(path, L.Linear(3, 2))
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ['m.npz']


def test_failing_savez_into_a_file_object(monkeypatch):
    def broken(file, **arrays):
        raise OSError('disk full')

    monkeypatch.setattr(numpy, 'savez', broken)
    with pytest.raises(OSError):
        serializers.save_npz(io.BytesIO(), L.Linear(3, 2), compression=False)


def test_dictionary_serializer():
    s = npz.DictionarySerializer()
    s['a/']['/b']('/x', numpy.ones(2))
    assert s('y', 3) == 3
    s('z', None)
    assert sorted(s.target) == ['a/b/x', 'y', 'z']
    assert s.target['y'].shape == ()
    assert npz._is_none_marker(s.target['z'])

    target = {}
    npz.DictionarySerializer(target, path='p/')('k', 1.5)
    assert list(target) == ['p/k']


def test_dictionary_serializer_reads_variables():
    s = npz.DictionarySerializer()
    v = chainer.Variable(numpy.arange(3.0))
    assert s('v', v) is v
    numpy.testing.assert_array_equal(s.target['v'], [0, 1, 2])


def test_npz_deserializer_on_a_dict():
    s = npz.DictionarySerializer()
    src = L.Linear(3, 2)
    s.save(src)
    dst = L.Linear(3, 2)
    npz.NpzDeserializer(s.target).load(dst)
    numpy.testing.assert_array_equal(dst.W.array, src.W.array)
    with pytest.raises(KeyError, match="'p/W'"):
        npz.NpzDeserializer(s.target, path='p/').load(dst)


def test_npz_deserializer_fills_variables():
    d = npz.NpzDeserializer({'v': numpy.arange(3.0), 'u': numpy.ones(2)})
    v = chainer.Variable(numpy.zeros(3))
    assert d('v', v) is v
    numpy.testing.assert_array_equal(v.array, [0, 1, 2])
    empty = chainer.Variable(None)
    d('u', empty)
    numpy.testing.assert_array_equal(empty.array, [1, 1])


def test_loading_a_float_into_an_int_array_is_refused():
    d = npz.NpzDeserializer({'a': numpy.array([1.5, 2.5])})
    with pytest.raises(TypeError):
        d('a', numpy.zeros(2, numpy.int32))


def test_snapshot_path_without_trailing_slash_is_literal(tmp_path):
    s = npz.DictionarySerializer()
    s['model'].save(L.Linear(3, 2))
    # Chainer joins path and key as they are: 'model' + 'W'.
    with pytest.raises(KeyError, match="'modelW'"):
        npz.NpzDeserializer(s.target, path='model').load(L.Linear(3, 2))
